//! The modules of each crate form no circle: a module names (`crate::x`)
//! only modules below it, so each can be read, tested and moved knowing
//! what it stands on. A module here is a crate's top-level file or folder;
//! test files and comments are not its code, and the bindings (`src/wasm/`)
//! sit on top of everything.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

type Graph = BTreeMap<String, BTreeSet<String>>;

/// Which top-level modules each module of the crate rooted at `src` names.
fn module_graph(src: &Path) -> Graph {
    fn walk(dir: &Path, module: Option<&str>, graph: &mut Graph) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            let stem = name.strip_suffix(".rs").unwrap_or(&name).to_owned();
            let own = module.map_or(stem, str::to_owned);
            if path.is_dir() {
                walk(&path, Some(&own), graph);
                continue;
            }
            let is_test =
                name == "tests.rs" || name.ends_with("_tests.rs") || name == "test_rng.rs";
            if !name.ends_with(".rs") || is_test || matches!(own.as_str(), "lib" | "wasm") {
                continue;
            }
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            let named = graph.entry(own.clone()).or_default();
            for line in text
                .lines()
                .filter(|line| !line.trim_start().starts_with("//"))
            {
                for (at, _) in line.match_indices("crate::") {
                    let rest = line.get(at + "crate::".len()..).unwrap_or_default();
                    let target: String = rest
                        .chars()
                        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                        .collect();
                    if !target.is_empty() && target != own {
                        named.insert(target);
                    }
                }
            }
        }
    }
    let mut graph = Graph::new();
    walk(src, None, &mut graph);
    graph
}

/// A circle of the graph, as the modules along it, if it has one.
fn circle(graph: &Graph) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &Graph,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| n == node) {
            let mut found = path.get(at..).unwrap_or_default().to_vec();
            found.push(node.to_owned());
            return Some(found);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_owned());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(found) = visit(next, graph, path, done) {
                return Some(found);
            }
        }
        path.pop();
        done.insert(node.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|node| visit(node, graph, &mut Vec::new(), &mut done))
}

#[test]
fn the_modules_of_each_crate_form_no_circle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // Each tree, with the least number of modules it has: a walk that
    // finds fewer has missed some.
    for (src, least) in [
        ("src", 20),
        ("crates/hot-path/src", 2),
        ("crates/schema/src", 1),
        ("crates/tape/src", 5),
    ] {
        let src = root.join(src);
        let graph = module_graph(&src);
        assert!(graph.len() >= least, "{} has its modules", src.display());
        assert_eq!(
            circle(&graph),
            None,
            "a circle of modules in {}",
            src.display()
        );
    }
}

#[test]
fn a_circle_is_found_and_a_layering_is_not_one() {
    let graph = |edges: &[(&str, &str)]| {
        let mut graph = Graph::new();
        for (from, to) in edges {
            graph
                .entry((*from).to_owned())
                .or_default()
                .insert((*to).to_owned());
        }
        graph
    };
    let layered = graph(&[
        ("verdict", "response"),
        ("response", "finish"),
        ("verdict", "finish"),
    ]);
    assert_eq!(circle(&layered), None);
    let circled = graph(&[
        ("verdict", "response"),
        ("response", "finish"),
        ("finish", "verdict"),
    ]);
    let found = circle(&circled).unwrap_or_default();
    assert_eq!(found.first(), found.last());
    assert_eq!(found.len(), 4);
}
