//! Every file of the repository that a comment, test or document cites by
//! its path exists, so a reader who follows a citation finds what it names.
//! A citation is a path that begins with one of the repository's top
//! folders (`src/`, `js/`, `docs/`, `tests/`, `bench/`, `scripts/`,
//! `crates/`, `examples/`, `fuzz/`, `patches/`) where a path can begin: not
//! inside a longer path, a word or a URL. It is read relative to the
//! repository's root or, in a file inside a crate or package of its own (a
//! folder with a `Cargo.toml` or `package.json`), relative to that folder,
//! as the file's readers read it. A path whose name is a placeholder or a
//! pattern (`src/providers/<provider>.rs`, `tests/js/*.test.mjs`) must have
//! its folder. What git ignores by a folder's or file's name (build output,
//! the fuzzers' scratch corpora) is not the repository's and is not checked.

use std::path::{Path, PathBuf};

/// The folders a citation begins with.
const TOP: [&str; 10] = [
    "src/",
    "js/",
    "docs/",
    "tests/",
    "bench/",
    "scripts/",
    "crates/",
    "examples/",
    "fuzz/",
    "patches/",
];

/// What is not scanned: version control, build output, installed packages,
/// and third-party material kept as published (vendored crates, the lock
/// file npm writes, the JSON Schema Test Suite and the SchemaStore corpus).
const SKIP: [&str; 9] = [
    ".git",
    "target",
    "node_modules",
    "pkg",
    "test-results",
    "vendor",
    "json-schema-test-suite",
    "schemastore",
    "package-lock.json",
];

/// Every file under `dir`, but for those under a name in `skip`.
pub(crate) fn walk(dir: &Path, skip: &[&str], out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if skip.iter().any(|s| entry.file_name() == *s) {
            continue;
        }
        if path.is_dir() {
            walk(&path, skip, out);
        } else {
            out.push(path);
        }
    }
}

/// A character that can be part of a cited path.
fn in_path(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '/' | '-')
}

/// The paths `line` cites, each with whether its name is a placeholder or
/// a pattern (the text goes on with `<`, `*`, `{`, `$` or `…`).
fn citations(line: &str) -> Vec<(&str, bool)> {
    let mut found = Vec::new();
    for top in TOP {
        for (at, _) in line.match_indices(top) {
            let before = line[..at].chars().next_back();
            if before.is_some_and(|c| in_path(c) || matches!(c, '@' | '$' | '\\' | ':')) {
                continue;
            }
            let rest = &line[at..];
            let end = rest.find(|c: char| !in_path(c)).unwrap_or(rest.len());
            let pattern = rest[end..].starts_with(['<', '*', '{', '$', '…']);
            found.push((rest[..end].trim_end_matches('.'), pattern));
        }
    }
    found
}

/// The names the `.gitignore` of `dir` ignores wherever they occur below
/// it (`target/`, `/pkg/*`, `corpus/`); negations and globs are left out.
fn ignored_names(dir: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(dir.join(".gitignore")).unwrap_or_default();
    text.lines()
        .map(|l| {
            l.trim()
                .trim_start_matches('/')
                .trim_end_matches('*')
                .trim_end_matches('/')
        })
        .filter(|l| !l.is_empty() && !l.contains(['!', '#', '*', '/']))
        .map(str::to_owned)
        .collect()
}

/// The folders a path cited in `file` may be relative to: the repository's
/// root and every crate or package folder between it and the file.
fn bases(root: &Path, file: &Path) -> Vec<PathBuf> {
    let mut out = vec![root.to_path_buf()];
    let mut dir = file.parent();
    while let Some(d) = dir {
        if d == root || !d.starts_with(root) {
            break;
        }
        if d.join("Cargo.toml").is_file() || d.join("package.json").is_file() {
            out.push(d.to_path_buf());
        }
        dir = d.parent();
    }
    out
}

#[test]
fn every_path_a_comment_or_document_cites_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    walk(root, &SKIP, &mut files);
    // This file names example paths of its own to test the scan.
    files.retain(|f| !f.ends_with("src/repository_tests.rs"));
    assert!(
        files.len() > 100,
        "the walk found only {} files",
        files.len()
    );
    let mut checked = 0;
    let mut missing = Vec::new();
    for file in &files {
        let Ok(text) = std::fs::read_to_string(file) else {
            continue;
        };
        let bases = bases(root, file);
        let ignored: Vec<String> = bases
            .iter()
            .flat_map(|b| ignored_names(b))
            .chain(ignored_names(&root.join("fuzz")))
            .collect();
        for (n, line) in text.lines().enumerate() {
            for (cited, pattern) in citations(line) {
                if cited
                    .split('/')
                    .any(|part| ignored.iter().any(|name| name == part))
                {
                    continue;
                }
                // A placeholder or pattern must have its folder.
                let cited = if pattern {
                    &cited[..cited.rfind('/').map_or(0, |i| i + 1)]
                } else {
                    cited
                };
                checked += 1;
                if !bases.iter().any(|base| base.join(cited).exists()) {
                    let place = file.strip_prefix(root).unwrap_or(file).display();
                    missing.push(format!("{place}:{}: {cited}", n + 1));
                }
            }
        }
    }
    assert!(
        checked > 100,
        "only {checked} citations found: is the scan reading the files?"
    );
    assert!(
        missing.is_empty(),
        "cited but not in the repository:\n{}",
        missing.join("\n")
    );
}

#[test]
fn a_citation_is_a_path_where_a_path_can_begin() {
    let found = citations("see src/policy.rs. and `js/check.mjs`, ../tests/support/fixtures.mjs, https://a.b/docs/c.md, crates/hot-path/src/stream.rs");
    assert_eq!(
        found,
        [
            ("src/policy.rs", false),
            ("js/check.mjs", false),
            ("crates/hot-path/src/stream.rs", false)
        ]
    );
    assert_eq!(
        citations("one file each: src/providers/<provider>.rs"),
        [("src/providers/", true)]
    );
    assert_eq!(citations("tests/js/*.test.mjs"), [("tests/js/", true)]);
    // Split so that no tool takes the test's own text for a citation.
    assert!(citations(concat!(
        "mydocs/a.md node_modules/x/src/",
        "y.rs @scope/js/z"
    ))
    .is_empty());
}
