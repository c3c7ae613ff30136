//! The one list of fuzz targets: the `[[bin]]` entries of fuzz/Cargo.toml,
//! each with the sanitizer it is built with (AddressSanitizer unless
//! `[package.metadata.mcp-envelope.sanitizer]` names another) and whether
//! comparisons are traced for libFuzzer (yes unless
//! `[package.metadata.mcp-envelope.trace-compares]` says `false`).

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

#[derive(Deserialize)]
struct Manifest {
    #[serde(default)]
    bin: Vec<Bin>,
    #[serde(default)]
    package: Package,
}

#[derive(Deserialize)]
struct Bin {
    name: String,
}

#[derive(Deserialize, Default)]
struct Package {
    #[serde(default)]
    metadata: Metadata,
}

#[derive(Deserialize, Default)]
struct Metadata {
    #[serde(default, rename = "mcp-envelope")]
    project: Project,
}

#[derive(Deserialize, Default)]
struct Project {
    #[serde(default)]
    sanitizer: BTreeMap<String, String>,
    #[serde(default, rename = "trace-compares")]
    trace_compares: BTreeMap<String, bool>,
}

/// A fuzz target, the sanitizer `cargo fuzz --sanitizer` builds it with,
/// and whether it is built with comparisons traced (`cargo fuzz
/// --no-trace-compares` when not).
#[derive(Debug, PartialEq, Eq)]
pub struct FuzzTarget {
    pub name: String,
    pub sanitizer: String,
    pub trace_compares: bool,
}

/// cargo-fuzz's default, for every target the manifest does not name.
const DEFAULT_SANITIZER: &str = "address";
/// What `cargo fuzz --sanitizer` accepts.
const SANITIZERS: [&str; 5] = ["address", "leak", "memory", "thread", "none"];

pub fn fuzz_targets(manifest: &str) -> Result<Vec<FuzzTarget>, String> {
    let manifest: Manifest = toml::from_str(manifest).map_err(|e| e.to_string())?;
    if manifest.bin.is_empty() {
        return Err("no [[bin]] target".to_owned());
    }
    let Project { sanitizer: chosen, trace_compares } = manifest.package.metadata.project;
    // A misspelt name or sanitizer must not quietly leave a target on the
    // default: say which entry is wrong.
    let is_target = |name: &String| manifest.bin.iter().any(|b| &b.name == name);
    if let Some(name) = trace_compares.keys().find(|name| !is_target(name)) {
        return Err(format!("trace-compares chosen for {name}, which is not a [[bin]] target"));
    }
    for (name, sanitizer) in &chosen {
        if !is_target(name) {
            return Err(format!("sanitizer chosen for {name}, which is not a [[bin]] target"));
        }
        if !SANITIZERS.contains(&sanitizer.as_str()) {
            return Err(format!("sanitizer {sanitizer:?} for {name}: cargo fuzz knows {}", SANITIZERS.join(", ")));
        }
    }
    Ok(manifest
        .bin
        .into_iter()
        .map(|b| {
            let sanitizer = chosen.get(&b.name).map_or(DEFAULT_SANITIZER, String::as_str).to_owned();
            let trace_compares = trace_compares.get(&b.name).copied().unwrap_or(true);
            FuzzTarget { name: b.name, sanitizer, trace_compares }
        })
        .collect())
}

pub fn from_repository(root: &Path) -> Result<Vec<FuzzTarget>, String> {
    let path = root.join("fuzz/Cargo.toml");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    fuzz_targets(&text).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_targets_are_the_fuzz_crate_s_binaries_in_order() {
        let targets = from_repository(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."));
        let names: Vec<String> = targets.iter().flatten().map(|t| t.name.clone()).collect();
        assert_eq!(
            names,
            ["parse_serde", "parse_simd", "differential", "structured", "stream", "sse", "exchange", "ids", "grade"]
        );
        assert!(fuzz_targets("[package]\nname = \"x\"\n").is_err());
    }

    #[test]
    fn only_the_logic_properties_run_without_address_sanitizer_and_sse_untraced() {
        let targets = from_repository(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")).unwrap_or_default();
        let without: Vec<&str> = targets.iter().filter(|t| t.sanitizer != "address").map(|t| t.name.as_str()).collect();
        assert_eq!(without, ["structured", "stream", "sse", "grade"]);
        assert!(targets.iter().all(|t| t.sanitizer == "address" || t.sanitizer == "none"));
        let untraced: Vec<&str> = targets.iter().filter(|t| !t.trace_compares).map(|t| t.name.as_str()).collect();
        assert_eq!(untraced, ["sse"]);
    }

    const TWO: &str = "[[bin]]\nname = \"a\"\n[[bin]]\nname = \"b\"\n";

    #[test]
    fn a_target_not_named_in_the_metadata_keeps_address_sanitizer() {
        let manifest = format!("[package.metadata.mcp-envelope.sanitizer]\nb = \"none\"\n{TWO}");
        let got = fuzz_targets(&manifest);
        let want = vec![
            FuzzTarget { name: "a".into(), sanitizer: "address".into(), trace_compares: true },
            FuzzTarget { name: "b".into(), sanitizer: "none".into(), trace_compares: true },
        ];
        assert_eq!(got, Ok(want));
        let untraced = format!("[package.metadata.mcp-envelope.trace-compares]\na = false\n{TWO}");
        assert!(fuzz_targets(&untraced).is_ok_and(|t| !t[0].trace_compares && t[1].trace_compares));
    }

    #[test]
    fn a_misspelt_target_or_sanitizer_is_an_error() {
        let unknown_target = format!("[package.metadata.mcp-envelope.sanitizer]\nc = \"none\"\n{TWO}");
        assert!(fuzz_targets(&unknown_target).is_err_and(|e| e.contains("c, which is not")));
        let unknown_sanitizer = format!("[package.metadata.mcp-envelope.sanitizer]\na = \"nope\"\n{TWO}");
        assert!(fuzz_targets(&unknown_sanitizer).is_err_and(|e| e.contains("\"nope\"")));
        let unknown_traced = format!("[package.metadata.mcp-envelope.trace-compares]\nc = false\n{TWO}");
        assert!(fuzz_targets(&unknown_traced).is_err_and(|e| e.contains("c, which is not")));
    }
}
