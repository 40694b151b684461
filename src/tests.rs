#[test]
fn validator_version_names_the_locked_engine() {
    let lock = include_str!("../Cargo.lock");
    let engine = super::VALIDATOR_VERSION
        .split(' ')
        .find_map(|part| part.strip_prefix("jsonschema/"))
        .unwrap_or_default();
    assert!(
        lock.contains(&format!("name = \"jsonschema\"\nversion = \"{engine}\"\n")),
        "Cargo.lock does not lock jsonschema {engine}"
    );
    assert!(super::VALIDATOR_VERSION.starts_with(&format!(
        "structured-output-guard/{} ",
        env!("CARGO_PKG_VERSION")
    )));
}

/// The repository holds everything its code, tests and documents read
/// or cite: no path reaches outside the checkout, and the documents it
/// once cited from outside are its own `docs/` pages now.
#[test]
fn nothing_reads_or_cites_a_file_outside_the_repository() {
    use std::path::Path;
    // Third-party material kept as published (vendored crates, the test
    // suites and the SchemaStore corpus) is not the project's writing.
    const SKIP: [&str; 8] = [
        ".git",
        "target",
        "node_modules",
        "pkg",
        "test-results",
        "vendor",
        "json-schema-test-suite",
        "schemastore",
    ];
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    crate::repository_tests::walk(root, &SKIP, &mut files);
    let outside = [
        "../shared",
        "shared/json-schema-test-suite",
        "reference/providers.md",
        "/work/",
    ];
    let mut found = Vec::new();
    for file in &files {
        let Ok(text) = std::fs::read_to_string(file) else {
            continue;
        };
        for (n, line) in text.lines().enumerate() {
            // The repository's API reference is docs/api.md; any other `API.md`
            // names a file the repository does not hold.
            let cites_api = line
                .match_indices("API.md")
                .any(|(i, _)| !line[..i].ends_with("docs/"));
            if cites_api || outside.iter().any(|o| line.contains(o)) {
                found.push(format!(
                    "{}:{}",
                    file.strip_prefix(root).unwrap_or(file).display(),
                    n + 1
                ));
            }
        }
    }
    // This test names the patterns it looks for.
    found.retain(|place| !place.starts_with("src/tests.rs:"));
    assert!(found.is_empty(), "outside the repository: {found:?}");
}
