//! cargo-mutants' outcomes (`mutants.out/outcomes.json`) as the score per
//! file, and the missed mutants nobody has shown to be harmless: those
//! listed in the reviewed file (`mutants/accepted.txt`, one mutant per line
//! with ` # ` and the reason) are accepted, every other one fails the run.

use std::collections::BTreeMap;

use serde_json::Value;

/// How one file's mutants fared.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
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
        total.caught += s.caught;
        total.missed += s.missed;
        total.timeout += s.timeout;
        total.unviable += s.unviable;
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
}
