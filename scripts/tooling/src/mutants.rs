//! cargo-mutants' outcomes (`mutants.out/outcomes.json`) as the score per
//! file, and the missed mutants nobody has shown to be harmless: those
//! listed in the reviewed file (`mutants/accepted.txt`, one mutant per line
//! with ` # ` and the reason) are accepted, every other one fails the run.
//! Each run's score per file is kept in a history (one JSON line per file
//! per run), charted run by run.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::history::commits_in_order;
use crate::svg::{self, Series};

/// How one file's mutants fared.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Score {
    pub caught: u64,
    pub missed: u64,
    pub timeout: u64,
    pub unviable: u64,
}

impl Score {
    /// Caught (timeouts count as caught: the tests did not pass) among the
    /// viable, in percent.
    pub fn percent(&self) -> Option<f64> {
        let viable = self.caught + self.missed + self.timeout;
        (viable > 0).then(|| 100.0 * (self.caught + self.timeout) as f64 / viable as f64)
    }

    fn add(&mut self, other: &Score) {
        self.caught += other.caught;
        self.missed += other.missed;
        self.timeout += other.timeout;
        self.unviable += other.unviable;
    }
}

/// The outcomes of several runs (the shards of one), as one.
pub fn read_all(outcomes: &[String]) -> Result<(BTreeMap<String, Score>, Vec<String>), String> {
    let (mut files, mut missed) = (BTreeMap::<String, Score>::new(), Vec::new());
    for text in outcomes {
        let (more_files, more_missed) = read(text)?;
        for (file, score) in more_files {
            files.entry(file).or_default().add(&score);
        }
        missed.extend(more_missed);
    }
    Ok((files, missed))
}

/// The outcomes: the score per file, and the names of the missed mutants.
pub fn read(outcomes: &str) -> Result<(BTreeMap<String, Score>, Vec<String>), String> {
    let doc: Value = serde_json::from_str(outcomes).map_err(|e| format!("outcomes.json: {e}"))?;
    let list = doc.get("outcomes").and_then(Value::as_array).ok_or("outcomes.json: no outcomes")?;
    let (mut files, mut missed) = (BTreeMap::<String, Score>::new(), Vec::new());
    for outcome in list {
        let Some(mutant) = outcome.pointer("/scenario/Mutant") else { continue };
        let file = mutant.get("file").and_then(Value::as_str).unwrap_or("?").to_owned();
        let name = mutant.get("name").and_then(Value::as_str).unwrap_or("?").to_owned();
        let score = files.entry(file).or_default();
        match outcome.get("summary").and_then(Value::as_str) {
            Some("CaughtMutant") => score.caught += 1,
            Some("MissedMutant") => {
                score.missed += 1;
                missed.push(name);
            }
            Some("Timeout") => score.timeout += 1,
            Some("Unviable") => score.unviable += 1,
            other => return Err(format!("outcomes.json: {name}: unknown outcome {other:?}")),
        }
    }
    Ok((files, missed))
}

/// The accepted mutants of the reviewed file: name, reason.
pub fn accepted(text: &str) -> Result<BTreeMap<String, String>, String> {
    let mut out = BTreeMap::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (name, reason) = line.split_once(" # ").ok_or_else(|| format!("line {}: no ` # ` and reason", n + 1))?;
        if reason.trim().is_empty() {
            return Err(format!("line {}: an empty reason", n + 1));
        }
        out.insert(name.trim().to_owned(), reason.trim().to_owned());
    }
    Ok(out)
}

/// The Markdown table: one row per file and a total, then the missed
/// mutants, each accepted (with its reason) or not.
pub fn render(files: &BTreeMap<String, Score>, missed: &[String], accepted: &BTreeMap<String, String>) -> String {
    let mut out = vec![
        "| file | caught | missed | timeouts | unviable | score |".to_owned(),
        "|---|---|---|---|---|---|".to_owned(),
    ];
    let mut total = Score::default();
    let row = |name: &str, s: &Score| {
        let score = s.percent().map_or("-".to_owned(), |p| format!("{p:.1} %"));
        format!("| {name} | {} | {} | {} | {} | {score} |", s.caught, s.missed, s.timeout, s.unviable)
    };
    for (file, s) in files {
        out.push(row(&format!("`{file}`"), s));
        total.add(s);
    }
    out.push(row("**all**", &total));
    if !missed.is_empty() {
        out.push(String::new());
        for name in missed {
            match accepted.get(name) {
                Some(reason) => out.push(format!("- accepted: `{name}` ({reason})")),
                None => out.push(format!("- **missed**: `{name}`")),
            }
        }
    }
    out.join("\n")
}

/// One file's score in one run, as the history keeps it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HistoryRow {
    pub commit: String,
    pub date: String,
    /// What the run mutated: `all`, a shard `K/N`, or `diff`.
    pub scope: String,
    pub file: String,
    #[serde(flatten)]
    pub score: Score,
}

pub fn history_rows(files: &BTreeMap<String, Score>, commit: &str, date: &str, scope: &str) -> Vec<HistoryRow> {
    files
        .iter()
        .map(|(file, score)| HistoryRow {
            commit: commit.to_owned(),
            date: date.to_owned(),
            scope: scope.to_owned(),
            file: file.clone(),
            score: score.clone(),
        })
        .collect()
}

/// The part of the core a file belongs to: its folder under core/src, or
/// the top-level modules.
fn area(file: &str) -> String {
    let path = file.strip_prefix("core/src/").unwrap_or(file);
    match path.split_once('/') {
        Some((folder, _)) => format!("{folder}/"),
        None => "top-level modules".to_owned(),
    }
}

/// The score of every full run (scope `all`; a shard or a diff mutates too
/// few to compare), run by run: all of core/src and each part. A commit run
/// more than once shows its latest run.
pub fn chart(rows: &[HistoryRow]) -> String {
    let full: Vec<&HistoryRow> = rows.iter().filter(|r| r.scope == "all").collect();
    let commits = commits_in_order(full.iter().map(|r| r.commit.as_str()));
    let latest = |commit: &str| full.iter().filter(|r| r.commit == commit).map(|r| r.date.as_str()).max();
    let mut totals: BTreeMap<String, Vec<Score>> = BTreeMap::new();
    for (i, commit) in commits.iter().enumerate() {
        let date = latest(commit);
        for row in full.iter().filter(|r| &r.commit == commit && Some(r.date.as_str()) == date) {
            for name in ["all of core/src".to_owned(), area(&row.file)] {
                let scores = totals.entry(name).or_insert_with(|| vec![Score::default(); commits.len()]);
                if let Some(score) = scores.get_mut(i) {
                    score.add(&row.score);
                }
            }
        }
    }
    let mut series: Vec<Series> =
        totals.into_iter().map(|(name, scores)| (name, scores.iter().map(Score::percent).collect())).collect();
    // The whole first, then the parts.
    series.sort_by_key(|(name, _)| (name != "all of core/src", name.clone()));
    let title = if commits.is_empty() {
        "Mutants caught, full runs of core/src: none yet (scripts/workbench.sh --mutants all)"
    } else {
        "Mutants caught by the tests, full runs of core/src (higher is better)"
    };
    svg::lines(title, &commits, &series, &svg::PERCENT)
}

#[cfg(test)]
mod tests {
    use super::*;

    const OUTCOMES: &str = r#"{"outcomes":[
        {"scenario":"Baseline","summary":"Success"},
        {"scenario":{"Mutant":{"name":"core/src/a.rs:1:1: replace > with >=","file":"core/src/a.rs"}},"summary":"MissedMutant"},
        {"scenario":{"Mutant":{"name":"core/src/a.rs:2:1: replace f -> bool with true","file":"core/src/a.rs"}},"summary":"CaughtMutant"},
        {"scenario":{"Mutant":{"name":"core/src/a.rs:3:1: x","file":"core/src/a.rs"}},"summary":"Timeout"},
        {"scenario":{"Mutant":{"name":"core/src/b.rs:1:1: y","file":"core/src/b.rs"}},"summary":"Unviable"},
        {"scenario":{"Mutant":{"name":"core/src/b.rs:2:1: z","file":"core/src/b.rs"}},"summary":"MissedMutant"}
    ]}"#;

    #[test]
    fn the_score_per_file_counts_timeouts_as_caught_and_leaves_unviable_out() {
        let (files, missed) = read(OUTCOMES).unwrap();
        let a = &files["core/src/a.rs"];
        assert_eq!((a.caught, a.missed, a.timeout, a.unviable), (1, 1, 1, 0));
        assert_eq!(a.percent().map(|p| (p * 10.0).round()), Some(667.0));
        assert_eq!(files["core/src/b.rs"].percent(), Some(0.0));
        assert_eq!(missed.len(), 2);
    }

    #[test]
    fn a_missed_mutant_is_accepted_only_when_listed_with_a_reason() {
        let (files, missed) = read(OUTCOMES).unwrap();
        let listed = accepted("# header\ncore/src/a.rs:1:1: replace > with >= # equal at the bound\n").unwrap();
        let table = render(&files, &missed, &listed);
        assert!(table.contains("- accepted: `core/src/a.rs:1:1: replace > with >=` (equal at the bound)"), "{table}");
        assert!(table.contains("- **missed**: `core/src/b.rs:2:1: z`"), "{table}");
        assert!(table.contains("| **all** | 1 | 2 | 1 | 1 | 50.0 % |"), "{table}");
        assert!(accepted("core/src/a.rs:1:1: x\n").is_err(), "a line without a reason");
    }

    #[test]
    fn the_shards_of_a_run_add_up_to_one_score() {
        let other = r#"{"outcomes":[
            {"scenario":{"Mutant":{"name":"core/src/a.rs:9:1: w","file":"core/src/a.rs"}},"summary":"CaughtMutant"}
        ]}"#;
        let (files, missed) = read_all(&[OUTCOMES.to_owned(), other.to_owned()]).unwrap();
        let a = &files["core/src/a.rs"];
        assert_eq!((a.caught, a.missed, a.timeout, a.unviable), (2, 1, 1, 0));
        assert_eq!(missed.len(), 2);
    }

    #[test]
    fn the_history_charts_full_runs_only_the_latest_per_commit_whole_and_by_part() {
        let score = |caught, missed| Score { caught, missed, timeout: 0, unviable: 1 };
        let run = |commit: &str, date: &str, scope: &str, files: &[(&str, Score)]| {
            let files: BTreeMap<String, Score> = files.iter().map(|(f, s)| ((*f).to_owned(), s.clone())).collect();
            history_rows(&files, commit, date, scope)
        };
        let mut rows =
            run("c1", "2026-12-01", "all", &[("core/src/a.rs", score(3, 1)), ("core/src/stream/b.rs", score(1, 1))]);
        rows.extend(run("c2", "2026-12-02", "diff", &[("core/src/a.rs", score(0, 9))]));
        rows.extend(run("c3", "2026-12-03", "all", &[("core/src/a.rs", score(1, 1))]));
        rows.extend(run(
            "c3",
            "2026-12-04",
            "all",
            &[("core/src/a.rs", score(4, 0)), ("core/src/stream/b.rs", score(2, 0))],
        ));
        let path = std::env::temp_dir().join(format!("tooling-mutants-{}.jsonl", std::process::id()));
        let _ = std::fs::remove_file(&path);
        crate::history::append_lines(&path, &rows).unwrap();
        let loaded: Vec<HistoryRow> = crate::history::load_lines(&path).unwrap();
        let _ = std::fs::remove_file(&path);
        assert_eq!(loaded, rows, "a row reads back as written");
        let svg = chart(&loaded);
        assert!(svg.contains(">c1<") && svg.contains(">c3<") && !svg.contains(">c2<"), "{svg}");
        // c1: 4 of 6 (66.7 %), c3's latest run 6 of 6 (100 %); stream/ 50 % then 100 %.
        for name in ["all of core/src", "stream/", "top-level modules"] {
            assert!(svg.contains(&format!(">{name}</text>")), "{name}: {svg}");
        }
        let y = |percent: f64| 40.0 + 270.0 * (1.0 - percent / 100.0);
        assert!(svg.contains(&format!(r#"cx="80.0" cy="{:.1}""#, y(400.0 / 6.0))), "{svg}");
        assert!(svg.contains(&format!(r#"cx="80.0" cy="{:.1}""#, y(50.0))), "{svg}");
        assert_eq!(svg.matches(&format!(r#"cx="660.0" cy="{:.1}""#, y(100.0))).count(), 3, "{svg}");
        assert!(chart(&[]).contains("none yet"));
    }
}
