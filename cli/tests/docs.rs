//! Every command quoted in README.md and docs/ (the ```console blocks) is
//! run from the repository's root, and its output and exit status must be
//! what the page shows (trycmd: `...` and `[..]` elide). The commands are
//! the CLI and two examples: this package's scripted stdio client and the
//! core's example stdio server.

use std::path::{Path, PathBuf};
use std::process::Command;

#[test]
fn every_command_quoted_in_the_readme_and_docs_prints_what_they_show() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").canonicalize().unwrap();
    let cli = PathBuf::from(env!("CARGO_BIN_EXE_mcp-envelope"));
    let bin_dir = cli.parent().unwrap().to_path_buf();
    let examples = bin_dir.join("examples");
    // The core's example is another package's: built here if `cargo test`
    // was not run over the whole workspace.
    if !examples.join("stdio_server").exists() {
        let built = Command::new(env!("CARGO"))
            .args(["build", "-p", "mcp-envelope", "--example", "stdio_server"])
            .current_dir(&root)
            .status()
            .unwrap();
        assert!(built.success(), "building the core's stdio_server example");
    }
    // The quoted commands name files from the root, as a reader runs them.
    std::env::set_current_dir(&root).unwrap();
    let path = std::env::join_paths(
        [bin_dir, examples.clone()]
            .into_iter()
            .chain(std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())),
    )
    .unwrap();
    let cases = trycmd::TestCases::new();
    cases.env("PATH", path.to_string_lossy());
    cases.register_bin("mcp-envelope", cli);
    cases.register_bin("stdio_client", examples.join("stdio_client"));
    cases.case(root.join("README.md"));
    cases.case(root.join("docs/*.md"));
}
