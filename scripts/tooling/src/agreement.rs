//! Section 1 of the workbench: both backends on every test and corpus
//! file, under every revision and both framings, through the CLI
//! (`check --backend both --format json`).

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

pub const REVISIONS: [&str; 6] = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28", "jsonrpc"];
pub const FRAMINGS: [&str; 3] = ["whole", "lines", "sse"];
/// The folders whose files are checked, from the repository root.
pub const SOURCES: [&str; 4] = [
    "testdata/jsontestsuite/test_parsing",
    "testdata/mcp-spec/2026-07-28/examples",
    "testdata/github-mcp-server-toolsnaps",
    "corpus",
];

/// Every input file under `SOURCES` (licences and notes left out), sorted.
pub fn input_files(root: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut pending: Vec<PathBuf> = SOURCES.iter().map(|s| root.join(s)).collect();
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if path.is_dir() {
                pending.push(path);
            } else if name != "LICENSE" && !name.ends_with(".md") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// What one run of the CLI found.
#[derive(Debug, PartialEq, Eq)]
pub struct Tally {
    pub messages: usize,
    pub invalid: usize,
    pub disagreements: usize,
}

/// Counts a JSON-lines log of `check --format json`. An empty log, or a
/// line that is not an entry, is an error: a row of zeros would read as
/// agreement.
pub fn tally(log: &str) -> Result<Tally, String> {
    let mut t = Tally { messages: 0, invalid: 0, disagreements: 0 };
    for (i, line) in log.lines().enumerate() {
        let entry: Value = serde_json::from_str(line).map_err(|e| format!("line {}: {e}", i + 1))?;
        let kind = entry.get("kind").and_then(Value::as_str).ok_or_else(|| format!("line {}: no kind", i + 1))?;
        // Events without a message (priming events, other types) are not
        // messages; an event cut by the end of its stream is an invalid one.
        if matches!(kind, "empty-data" | "other-event") {
            continue;
        }
        t.messages += 1;
        t.invalid += usize::from(kind == "invalid" || kind == "cut");
        t.disagreements += usize::from(entry.get("disagreement").and_then(Value::as_bool) == Some(true));
    }
    if t.messages == 0 {
        return Err("no message was checked".to_owned());
    }
    Ok(t)
}

/// Runs the CLI for every revision and framing; returns the section's
/// Markdown and whether every row ran and agreed.
pub fn run(cli: &Path, root: &Path, logs: &Path) -> (String, bool) {
    let files = input_files(root);
    let mut ok = !files.is_empty();
    let mut lines = vec![
        "## 1. Backend agreement".to_owned(),
        String::new(),
        format!(
            "Both backends (serde_json, simd-json) on {} files: JSONTestSuite, the MCP examples, the GitHub tool definitions and the corpus; with `sse` framing, on the corpus's {} event streams (the messages of their `message` events).",
            files.len(),
            files.iter().filter(|f| f.extension().is_some_and(|e| e == "sse")).count()
        ),
        String::new(),
        "| revision | framing | messages | invalid | disagreements |".to_owned(),
        "|---|---|---|---|---|".to_owned(),
    ];
    for revision in REVISIONS {
        for framing in FRAMINGS {
            let log_path = logs.join(format!("agreement-{revision}-{framing}.jsonl"));
            // Event-stream framing reads the event streams; the others, every file.
            let inputs: Vec<&PathBuf> =
                files.iter().filter(|f| framing != "sse" || f.extension().is_some_and(|e| e == "sse")).collect();
            let output = Command::new(cli)
                .args(["check", "--backend", "both", "--format", "json", "--framing", framing, "--revision", revision])
                .args(&inputs)
                .output();
            let row = match output {
                Err(e) => Err(format!("the CLI did not start: {e}")),
                Ok(out) => {
                    let _ = std::fs::write(&log_path, &out.stdout);
                    match out.status.code() {
                        Some(0 | 1) => tally(&String::from_utf8_lossy(&out.stdout)),
                        code => Err(format!("the CLI exited with status {code:?}")),
                    }
                }
            };
            match row {
                Ok(t) => {
                    ok &= t.disagreements == 0;
                    lines.push(format!(
                        "| {revision} | {framing} | {} | {} | {} |",
                        t.messages, t.invalid, t.disagreements
                    ));
                }
                Err(why) => {
                    ok = false;
                    let name = log_path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                    lines.push(format!("| {revision} | {framing} | not run: {why}, see `{name}` | | |"));
                }
            }
        }
    }
    (lines.join("\n") + "\n", ok)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_log_counts_messages_invalid_ones_and_disagreements() {
        let log = concat!(
            r#"{"file":"a","line":1,"kind":"request","id":1,"method":"m"}"#,
            "\n",
            r#"{"file":"a","line":2,"kind":"invalid","id":null,"method":null}"#,
            "\n",
            r#"{"file":"a","line":3,"kind":"invalid","disagreement":true}"#,
            "\n",
        );
        assert_eq!(tally(log), Ok(Tally { messages: 3, invalid: 2, disagreements: 1 }));
    }

    #[test]
    fn an_empty_or_garbled_log_is_not_agreement() {
        assert!(tally("").is_err());
        assert!(tally("mcp-envelope: error\n").is_err());
        assert!(tally("{\"no\":\"kind\"}\n").is_err());
    }

    #[test]
    fn events_without_a_message_are_not_counted_and_a_cut_event_is_invalid() {
        let log = concat!(
            r#"{"file":"a","line":1,"event":"message","event_id":"0","kind":"empty-data"}"#,
            "\n",
            r#"{"file":"a","line":4,"event":"message","event_id":"1","kind":"result","id":1,"method":null}"#,
            "\n",
            r#"{"file":"a","line":7,"event":"endpoint","event_id":null,"kind":"other-event","data":"/m"}"#,
            "\n",
            r#"{"file":"a","line":9,"event":"message","event_id":null,"kind":"cut","hint":"h"}"#,
            "\n",
        );
        assert_eq!(tally(log), Ok(Tally { messages: 2, invalid: 1, disagreements: 0 }));
    }

    #[test]
    fn a_cli_that_cannot_run_turns_every_row_into_not_run() {
        let logs = std::env::temp_dir();
        let (section, ok) = run(
            Path::new("/nonexistent/mcp-envelope"),
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").as_path(),
            &logs,
        );
        assert!(!ok);
        assert_eq!(
            section.matches("not run: the CLI did not start").count(),
            REVISIONS.len() * FRAMINGS.len(),
            "{section}"
        );
    }

    #[test]
    fn the_inputs_are_the_vendored_suites_and_the_corpus() {
        let files = input_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."));
        assert!(files.len() > 500, "{}", files.len());
        assert!(files.iter().all(|f| !f.ends_with("LICENSE") && f.extension().is_none_or(|e| e != "md")));
    }
}
