//! `bench-results/history.jsonl`: one line per bench per run, so every
//! run is kept, whatever becomes a baseline.

use std::io::Write;
use std::path::Path;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::results::Results;
use crate::svg::{self, Series};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    pub commit: String,
    pub date: String,
    pub bench: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ns: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mb_per_s: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub msgs_per_s: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instructions: Option<u64>,
}

pub fn rows(results: &Results, commit: &str) -> Vec<Row> {
    let row = |bench: &str| Row {
        commit: commit.to_owned(),
        date: results.meta.date.clone(),
        bench: bench.to_owned(),
        ns: None,
        mb_per_s: None,
        msgs_per_s: None,
        instructions: None,
    };
    let mut out: Vec<Row> = results
        .time
        .iter()
        .map(|(bench, t)| {
            let (mb, msgs) = t.rate();
            Row { ns: Some(t.ns), mb_per_s: mb, msgs_per_s: msgs, ..row(bench) }
        })
        .collect();
    out.extend(results.instructions.iter().map(|(bench, n)| Row { instructions: Some(*n), ..row(bench) }));
    out
}

pub fn append(results: &Results, commit: &str, history: &Path) -> Result<(), String> {
    append_lines(history, &rows(results, commit))
}

pub fn load(history: &Path) -> Result<Vec<Row>, String> {
    load_lines(history)
}

/// Appends one JSON line per row to a history file (made with its folder
/// when missing): a run is only ever added, never rewritten.
pub fn append_lines<T: Serialize>(history: &Path, rows: &[T]) -> Result<(), String> {
    if let Some(dir) = history.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(history)
        .map_err(|e| format!("{}: {e}", history.display()))?;
    for row in rows {
        let line = serde_json::to_string(row).map_err(|e| e.to_string())?;
        writeln!(file, "{line}").map_err(|e| format!("{}: {e}", history.display()))?;
    }
    Ok(())
}

/// Every row of a history file, in the order the runs were appended.
pub fn load_lines<T: DeserializeOwned>(history: &Path) -> Result<Vec<T>, String> {
    let text = std::fs::read_to_string(history).map_err(|e| format!("{}: {e}", history.display()))?;
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .map(|(i, l)| serde_json::from_str(l).map_err(|e| format!("{}:{}: {e}", history.display(), i + 1)))
        .collect()
}

/// The commits of `rows`, each once, in the order they first appear.
pub fn commits_in_order<'a>(rows: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut commits: Vec<String> = Vec::new();
    for commit in rows {
        if !commits.iter().any(|c| c == commit) {
            commits.push(commit.to_owned());
        }
    }
    commits
}

/// Our backends' instructions on the realistic corpus, commit by commit.
pub fn chart(rows: &[Row]) -> String {
    let commits = commits_in_order(rows.iter().map(|r| r.commit.as_str()));
    let mut tracked: Vec<&str> = rows
        .iter()
        .filter(|r| {
            r.instructions.is_some()
                && r.bench.starts_with("instructions/mcp_envelope")
                && r.bench.contains("realistic")
        })
        .map(|r| r.bench.as_str())
        .collect();
    tracked.sort_unstable();
    tracked.dedup();
    let series: Vec<Series> = tracked
        .iter()
        .map(|bench| {
            let values = commits
                .iter()
                .map(|c| {
                    rows.iter()
                        .rev()
                        .find(|r| &r.commit == c && r.bench == *bench)
                        .and_then(|r| r.instructions)
                        .map(|n| n as f64)
                })
                .collect();
            (bench.replace("instructions/mcp_envelope_", "").replace("/realistic_", " "), values)
        })
        .collect();
    svg::lines(
        "Instructions per realistic corpus file, commit by commit (lower is better)",
        &commits,
        &series,
        &svg::MILLIONS,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::Timing;

    #[test]
    fn every_run_appends_its_rows_and_the_chart_follows_commits_in_order() {
        let path = std::env::temp_dir().join(format!("tooling-history-{}.jsonl", std::process::id()));
        let _ = std::fs::remove_file(&path);
        for (commit, count) in [("aaa", 4_000_000), ("bbb", 2_500_000)] {
            let mut r = Results::default();
            r.instructions.insert("instructions/mcp_envelope_serde/realistic_small".into(), count);
            r.time.insert(
                "realistic-small/mcp-envelope-serde".into(),
                Timing { ns: 1e6, rounds: vec![1e6], lo: 1e6, hi: 1e6, bytes: Some(1e6), elements: None },
            );
            append(&r, commit, &path).unwrap_or_default();
        }
        let rows = load(&path).unwrap_or_default();
        assert_eq!(rows.len(), 4);
        assert_eq!((rows[1].commit.as_str(), rows[1].instructions), ("aaa", Some(4_000_000)));
        assert_eq!(rows[0].mb_per_s, Some(1000.0));
        let svg = chart(&rows);
        assert!(svg.contains(">aaa<") && svg.contains(">bbb<") && svg.contains("serde small"));
        assert_eq!(svg.matches("<circle").count(), 2);
        let _ = std::fs::remove_file(&path);
    }
}
