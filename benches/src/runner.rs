//! Whether the instruction-count suite can run here: it needs valgrind and
//! `gungraun-runner` at the version of the gungraun library in Cargo.lock
//! (a runner of another version refuses to run). On a machine without them
//! `cargo bench` says so and what to install, rather than failing.

use std::path::Path;
use std::process::Command;

/// The version of `package` that `lock` (Cargo.lock's text) pins.
#[must_use]
pub fn locked_version(lock: &str, package: &str) -> Option<String> {
    let wanted = format!("name = \"{package}\"");
    let mut lines = lock.lines();
    lines.find(|line| line.trim() == wanted)?;
    lines.next()?.trim().strip_prefix("version = \"")?.strip_suffix('"').map(str::to_owned)
}

/// What is missing for the instruction-count suite, with the one command
/// that installs it; `None` when it can run.
#[must_use]
pub fn missing(root: &Path) -> Option<String> {
    let runner = std::env::var_os("GUNGRAUN_RUNNER")
        .map_or_else(|| "gungraun-runner".into(), |p| p.to_string_lossy().into_owned());
    missing_with(root, &runner)
}

/// [`missing`], with the runner at `runner`.
#[must_use]
pub fn missing_with(root: &Path, runner: &str) -> Option<String> {
    let output = |program: &str| Command::new(program).arg("--version").output().ok().filter(|o| o.status.success());
    if output("valgrind").is_none() {
        return Some(
            "valgrind is not installed (install it with your system's package manager, such as `apt install valgrind`)"
                .to_owned(),
        );
    }
    let lock = std::fs::read_to_string(root.join("Cargo.lock")).unwrap_or_default();
    let wanted = locked_version(&lock, "gungraun").unwrap_or_else(|| "<the gungraun version in Cargo.lock>".to_owned());
    let install = format!("cargo install gungraun-runner --version {wanted} --locked");
    match output(runner) {
        None => Some(format!("gungraun-runner is not installed; install it with `{install}`")),
        Some(found) => {
            let found = String::from_utf8_lossy(&found.stdout).trim().to_owned();
            (!found.ends_with(&format!(" {wanted}"))).then(|| {
                format!("{found} is installed, but the library is {wanted}; install the match with `{install}`")
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_runner_version_is_the_gungraun_library_s_in_cargo_lock() {
        let lock = "[[package]]\nname = \"gungraun-macros\"\nversion = \"0.10.0\"\n\n[[package]]\nname = \"gungraun\"\nversion = \"0.20.0\"\n";
        assert_eq!(locked_version(lock, "gungraun").as_deref(), Some("0.20.0"));
        assert_eq!(locked_version(lock, "gungraun-macros").as_deref(), Some("0.10.0"));
        assert_eq!(locked_version(lock, "criterion"), None);
    }

    #[test]
    fn a_missing_runner_is_named_with_the_command_that_installs_it() {
        let root = crate::workspace_root();
        let said = missing_with(&root, "/nonexistent/gungraun-runner").unwrap();
        let wanted = locked_version(&std::fs::read_to_string(root.join("Cargo.lock")).unwrap(), "gungraun").unwrap();
        if !said.starts_with("valgrind") {
            assert!(said.contains(&format!("`cargo install gungraun-runner --version {wanted} --locked`")), "{said}");
        }
    }
}
