//! What each workbench step needs, found or not, and how to get it.

use std::path::Path;
use std::process::Command;

/// One tool a step needs.
pub struct Tool {
    pub name: &'static str,
    pub needed_for: &'static str,
    pub install: String,
    pub found: Option<String>,
}

/// The first line a command prints of its version, if it runs.
fn version(program: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(program).args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let text = if out.stdout.is_empty() { out.stderr } else { out.stdout };
    String::from_utf8_lossy(&text).lines().next().map(|l| l.trim().to_owned()).filter(|l| !l.is_empty())
}

/// gungraun's version in Cargo.lock: the runner must match it.
pub fn gungraun_version(lock: &str) -> Option<String> {
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line.trim() == "name = \"gungraun\"" {
            return lines.next()?.trim().strip_prefix("version = \"")?.strip_suffix('"').map(str::to_owned);
        }
    }
    None
}

pub fn check(root: &Path) -> Vec<Tool> {
    let gungraun = std::fs::read_to_string(root.join("Cargo.lock")).ok().and_then(|l| gungraun_version(&l));
    let runner = version("gungraun-runner", &["--version"]);
    // A runner of another version than the library refuses to run: missing.
    let runner_ok = runner.filter(|found| gungraun.as_deref().is_some_and(|wanted| found.contains(wanted)));
    vec![
        Tool {
            name: "nightly toolchain",
            needed_for: "fuzzing",
            install: "rustup toolchain install nightly".to_owned(),
            found: version("cargo", &["+nightly", "--version"]),
        },
        Tool {
            name: "cargo-fuzz",
            needed_for: "fuzzing",
            install: "cargo install cargo-fuzz --locked (scripts/fuzz.sh does it)".to_owned(),
            found: version("cargo", &["+nightly", "fuzz", "--version"]),
        },
        Tool {
            name: "valgrind",
            needed_for: "instruction counts",
            install: "apt-get install valgrind".to_owned(),
            found: version("valgrind", &["--version"]),
        },
        Tool {
            name: "gungraun-runner",
            needed_for: "instruction counts",
            install: format!(
                "cargo install gungraun-runner --version {} --locked (scripts/bench.sh does it)",
                gungraun.as_deref().unwrap_or("<see Cargo.lock>")
            ),
            found: runner_ok,
        },
    ]
}

pub fn render(tools: &[Tool]) -> String {
    let mut lines = vec!["| tool | needed for | found | to install |".to_owned(), "|---|---|---|---|".to_owned()];
    for t in tools {
        let found = t.found.as_deref().unwrap_or("**missing**");
        lines.push(format!("| {} | {} | {found} | `{}` |", t.name, t.needed_for, t.install));
    }
    lines.join("\n") + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_runner_version_comes_from_cargo_lock() {
        let lock = "[[package]]\nname = \"gungraun\"\nversion = \"0.20.0\"\nsource = \"x\"\n";
        assert_eq!(gungraun_version(lock).as_deref(), Some("0.20.0"));
        assert_eq!(gungraun_version("[[package]]\nname = \"other\"\n"), None);
        let repo =
            std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../Cargo.lock")).unwrap_or_default();
        assert!(gungraun_version(&repo).is_some(), "the workspace's lock pins gungraun");
    }

    #[test]
    fn a_missing_tool_says_how_to_install_it() {
        let tools = [Tool {
            name: "valgrind",
            needed_for: "instruction counts",
            install: "apt-get install valgrind".into(),
            found: None,
        }];
        assert_eq!(
            render(&tools).lines().nth(2),
            Some("| valgrind | instruction counts | **missing** | `apt-get install valgrind` |")
        );
    }
}
