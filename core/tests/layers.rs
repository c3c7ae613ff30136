//! The core's modules are layered along its pipeline, and imports run one
//! way only: each module uses only modules of the layers before its own.
//! This test reads `core/src` (code only: comments, doc links and test
//! modules aside), resolves every `crate::` and `super::` path to the
//! module it names, and fails on any that names its own layer or a later
//! one, or a module the table does not place.

#![allow(clippy::unwrap_used, clippy::indexing_slicing, reason = "tests fail loudly")]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Bottom up. `json`, `rules` and `transport` are laid out file by file
/// (their own order matters); every other folder is one module.
const LAYERS: &[&[&str]] = &[
    // The vocabulary: imports nothing from the crate.
    &["fault", "span"],
    &["limits", "revision"],
    &["codes"],
    // RFC 8259 under the rules: the kinds of values, the leaves' grammar,
    // the shared walk, reading validated text.
    &["json"],
    &["json::escape", "json::number", "json::skim"],
    &["json::string"],
    &["json::text"],
    &["json::grammar"],
    &["json::lookup"],
    // The shallow tape, above the grammar that fills it.
    &["tape"],
    // What the parser gives.
    &["envelope"],
    // The backends: tokenise into the tape.
    &["backend"],
    // The envelope rules, read off the tape.
    &["rules::names", "rules::repeats"],
    &["rules::classify"],
    &["rules"],
    &["parser"],
    // What is built on the parser: what a program on a transport needs.
    &["transport::ids", "transport::oversized", "transport::lines", "transport::sse"],
    &["transport::exchange"],
    &["transport"],
    &["grade"],
    &["internal"],
    &["lib"],
];

/// Folders whose files are modules of their own in [`LAYERS`].
const FOLDERS: &[&str] = &["json", "rules", "transport"];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module path of a file: `json/grammar.rs` is `["json", "grammar"]`,
/// `backend/mod.rs` is `["backend"]`, `lib.rs` is `["lib"]`.
fn module_path(file: &Path) -> Vec<String> {
    let relative = file.strip_prefix(src()).unwrap().with_extension("");
    let mut parts: Vec<String> = relative.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// The layered module a path of modules falls in.
fn module_of(parts: &[String], submodules: &BTreeMap<String, BTreeSet<String>>) -> String {
    let Some(first) = parts.first() else { return "lib".to_owned() };
    match (submodules.get(first), parts.get(1)) {
        (Some(files), Some(second)) if files.contains(second) => format!("{first}::{second}"),
        _ => first.clone(),
    }
}

/// The code of a file, without comments and without its test modules.
fn code(text: &str) -> String {
    let mut lines = Vec::new();
    let mut previous_is_test_cfg = false;
    for line in text.lines() {
        let trimmed = line.trim_start();
        if previous_is_test_cfg && trimmed.starts_with("mod ") {
            // Test modules end the file in this crate; drop the attribute too.
            lines.pop();
            break;
        }
        previous_is_test_cfg = trimmed.starts_with("#[cfg(") && trimmed.contains("test");
        if trimmed.starts_with("//") {
            continue;
        }
        lines.push(line.split(" // ").next().unwrap_or(line));
    }
    lines.join("\n")
}

/// The paths after `prefix` (`crate::` or `super::`), as segments, with
/// `{a, b::c}` groups spread: `crate::{a, b::c}` gives `[a]` and `[b, c]`.
fn paths_after(code: &str, prefix: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for (at, _) in code.match_indices(prefix) {
        let before = code[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') && prefix == "super::" {
            continue; // `super::super::` is read from its first `super::`
        }
        spread(&code[at + prefix.len()..], Vec::new(), &mut out);
    }
    out
}

fn spread(rest: &str, mut segments: Vec<String>, out: &mut Vec<Vec<String>>) {
    let mut rest = rest;
    loop {
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0;
            let mut start = 0;
            for (i, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        spread(group[start..i].trim(), segments.clone(), out);
                        return;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        spread(group[start..i].trim(), segments.clone(), out);
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            return;
        }
        let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        if name.is_empty() {
            if !segments.is_empty() {
                out.push(segments);
            }
            return;
        }
        rest = &rest[name.len()..];
        segments.push(name);
        match rest.strip_prefix("::") {
            Some(after) => rest = after,
            None => {
                out.push(segments);
                return;
            }
        }
    }
}

/// What the crate root re-exports, by item: `Fault` is `fault`'s.
fn reexports(lib: &str) -> BTreeMap<String, String> {
    let mut items = BTreeMap::new();
    for path in paths_after(&code(lib).replace("pub use ", "pub use crate::"), "crate::") {
        if let [module, .., item] = path.as_slice() {
            items.insert(item.clone(), module.clone());
        }
    }
    items
}

#[test]
fn imports_run_down_the_pipeline_only() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    files.sort();
    let mut submodules: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for folder in FOLDERS {
        let names = files
            .iter()
            .map(|f| module_path(f))
            .filter(|p| p.len() == 2 && p[0] == *folder)
            .map(|p| p[1].clone())
            .collect();
        submodules.insert((*folder).to_owned(), names);
    }
    let layer_of: BTreeMap<&str, usize> =
        LAYERS.iter().enumerate().flat_map(|(n, layer)| layer.iter().map(move |m| (*m, n))).collect();
    let root_items = reexports(&std::fs::read_to_string(src().join("lib.rs")).unwrap());

    let mut wrong = Vec::new();
    let mut edges = 0;
    for file in &files {
        let path = module_path(file);
        let own = module_of(&path, &submodules);
        let Some(&own_layer) = layer_of.get(own.as_str()) else {
            wrong.push(format!("{}: module `{own}` has no layer", file.display()));
            continue;
        };
        let text = code(&std::fs::read_to_string(file).unwrap());
        let mut named = BTreeSet::new();
        for segments in paths_after(&text, "crate::") {
            let first = &segments[0];
            let target = match root_items.get(first) {
                Some(module) => module.clone(),
                None if layer_of.contains_key(first.as_str()) || submodules.contains_key(first) => {
                    module_of(&segments, &submodules)
                }
                // A function of the root itself (`crate::check_json`).
                None => "lib".to_owned(),
            };
            named.insert(target);
        }
        for segments in paths_after(&text, "super::") {
            // `super::` from `a/b.rs` (or `a/b/mod.rs`) is `a`. One that
            // names no module is written in an inline module (`mod sealed`
            // in backend/mod.rs) and names its file's own items.
            let mut full: Vec<String> = path[..path.len().saturating_sub(1)].to_vec();
            full.extend(segments);
            let target = module_of(&full, &submodules);
            named.insert(if layer_of.contains_key(target.as_str()) { target } else { own.clone() });
        }
        for target in named.into_iter().filter(|t| *t != own) {
            edges += 1;
            match layer_of.get(target.as_str()) {
                Some(&layer) if layer < own_layer => {}
                Some(_) => wrong.push(format!("{} ({own}) imports {target}, which is not below it", file.display())),
                None => wrong.push(format!("{} ({own}) imports {target}, which has no layer", file.display())),
            }
        }
    }
    assert!(edges >= 40, "only {edges} imports read: the reader has stopped seeing them");
    assert!(wrong.is_empty(), "imports against the pipeline:\n{}", wrong.join("\n"));
}

#[test]
fn the_reader_sees_paths_groups_and_nested_groups() {
    let text = "use crate::fault::{Fault, Reason};\nuse crate::json::{grammar::{self, x}, number};\n\
                // use crate::parser::Parser;\nlet a = crate::tape::Tape::default();";
    let paths = paths_after(&code(text), "crate::");
    let joined: Vec<String> = paths.iter().map(|p| p.join("::")).collect();
    assert_eq!(
        joined,
        [
            "fault::Fault",
            "fault::Reason",
            "json::grammar::self",
            "json::grammar::x",
            "json::number",
            "tape::Tape::default"
        ]
    );
    let tests_cut = code("use crate::a;\n#[cfg(test)]\nmod tests {\n    use crate::b;\n}\n");
    assert_eq!(paths_after(&tests_cut, "crate::"), [["a".to_owned()]]);
}
