//! The one list of fuzz targets: the `[[bin]]` entries of fuzz/Cargo.toml.

use std::path::Path;

use serde::Deserialize;

#[derive(Deserialize)]
struct Manifest {
    #[serde(default)]
    bin: Vec<Bin>,
}

#[derive(Deserialize)]
struct Bin {
    name: String,
}

pub fn fuzz_targets(manifest: &str) -> Result<Vec<String>, String> {
    let manifest: Manifest = toml::from_str(manifest).map_err(|e| e.to_string())?;
    if manifest.bin.is_empty() {
        return Err("no [[bin]] target".to_owned());
    }
    Ok(manifest.bin.into_iter().map(|b| b.name).collect())
}

pub fn from_repository(root: &Path) -> Result<Vec<String>, String> {
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
        assert_eq!(
            targets,
            Ok(["parse_serde", "parse_simd", "differential", "structured", "stream", "ids"].map(String::from).to_vec())
        );
        assert!(fuzz_targets("[package]\nname = \"x\"\n").is_err());
    }
}
