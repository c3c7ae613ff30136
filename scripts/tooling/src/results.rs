//! The results file one benchmark run writes (`results.json`): the same
//! layout the saved baselines in `bench-results/baselines/` use.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

/// Where and when a run happened.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Meta {
    #[serde(default)]
    pub date: String,
    #[serde(default)]
    pub cpu: String,
    #[serde(default)]
    pub cores: Option<u64>,
    #[serde(default)]
    pub commit: String,
}

/// One benchmark's wall clock over the rounds of a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Timing {
    /// Median of the rounds' medians, in nanoseconds.
    pub ns: f64,
    /// Each round's median.
    #[serde(default)]
    pub rounds: Vec<f64>,
    /// Lowest lower bound and highest upper bound of criterion's
    /// confidence intervals for the median, across rounds.
    pub lo: f64,
    pub hi: f64,
    /// Bytes and messages per iteration, when the bench declared them.
    pub bytes: Option<f64>,
    pub elements: Option<f64>,
}

impl Timing {
    /// MB/s and messages/s.
    pub fn rate(&self) -> (Option<f64>, Option<f64>) {
        let seconds = self.ns / 1e9;
        if seconds <= 0.0 {
            return (None, None);
        }
        (self.bytes.map(|b| b / seconds / 1e6), self.elements.map(|e| e / seconds))
    }
}

/// A run's results.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Results {
    #[serde(default)]
    pub meta: Meta,
    #[serde(default)]
    pub time: BTreeMap<String, Timing>,
    #[serde(default)]
    pub instructions: BTreeMap<String, u64>,
    /// What the throughput bench recorded: group → peer → (differences,
    /// of), and `refused-before-parsing` → case → (1, 1).
    #[serde(default)]
    pub verdicts: BTreeMap<String, BTreeMap<String, (u64, u64)>>,
}

impl Results {
    pub fn load(path: &Path) -> Result<Results, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    pub fn save(&self, path: &Path) -> Result<(), String> {
        let text = serde_json::to_string_pretty(self).map_err(|e| e.to_string())?;
        std::fs::write(path, text + "\n").map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Whether the adversarial case `name` is refused on its length alone.
    pub fn refused_before_parsing(&self, name: &str) -> bool {
        self.verdicts.get("refused-before-parsing").is_some_and(|cases| cases.contains_key(name))
    }
}

/// (group, contender, input) of a bench id `group/contender/input...`.
pub fn split(bench_id: &str) -> (&str, &str, &str) {
    let mut parts = bench_id.splitn(3, '/');
    let group = parts.next().unwrap_or_default();
    let contender = parts.next().unwrap_or_default();
    let input = parts.next().unwrap_or_default();
    (group, contender, input)
}

/// Our three backends.
pub const OURS: [&str; 3] = ["mcp-envelope-reference", "mcp-envelope-serde", "mcp-envelope-simd"];
/// The backend [`Parser`](https://docs.rs/mcp-envelope) uses by default:
/// the one every ratio is to.
pub const DEFAULT: &str = "mcp-envelope-reference";
/// Each library's own ceiling, our default backend's stages short of the
/// rules, and the floor: they classify nothing.
pub const CEILINGS: [&str; 5] = ["serde_json-ignoredany", "simd-json-tape", "stage-tape", "stage-syntax", "utf8-floor"];

/// Contenders in table order: ours, the peers, the ceilings.
pub fn contender_rank(name: &str) -> usize {
    const ORDER: [&str; 14] = [
        "mcp-envelope-reference",
        "mcp-envelope-serde",
        "mcp-envelope-simd",
        "serde_json-rawvalue-struct",
        "sonic-rs-lazyvalue",
        "sonic-rs-value",
        "serde_json-value",
        "rmcp-untyped",
        "rmcp-typed",
        "serde_json-ignoredany",
        "simd-json-tape",
        "stage-tape",
        "stage-syntax",
        "utf8-floor",
    ];
    ORDER.iter().position(|n| *n == name).unwrap_or(ORDER.len())
}

/// Groups in table order; scaling rows by their number.
pub fn group_rank(group: &str, input: &str) -> (usize, u64, String) {
    const ORDER: [&str; 6] =
        ["realistic-small", "realistic-medium", "realistic-large", "adversarial", "scaling-size", "scaling-depth"];
    let rank = ORDER.iter().position(|g| *g == group).unwrap_or(ORDER.len());
    let digits: String = input.chars().filter(char::is_ascii_digit).collect();
    let number = if group.starts_with("scaling") { digits.parse().unwrap_or(0) } else { 0 };
    (rank, number, input.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bench_id_splits_into_group_contender_and_input() {
        assert_eq!(
            split("adversarial/mcp-envelope-serde/keys-100000"),
            ("adversarial", "mcp-envelope-serde", "keys-100000")
        );
        assert_eq!(split("realistic-small/utf8-floor"), ("realistic-small", "utf8-floor", ""));
        assert_eq!(split("scaling-size/x/16384/k"), ("scaling-size", "x", "16384/k"));
    }

    #[test]
    fn scaling_rows_sort_by_their_number_and_ours_come_first() {
        assert!(group_rank("scaling-size", "65536") > group_rank("scaling-size", "8192"));
        assert!(group_rank("realistic-small", "") < group_rank("adversarial", "a"));
        assert!(contender_rank("mcp-envelope-reference") < contender_rank("sonic-rs-value"));
        assert_eq!(contender_rank("something-new"), 14);
        // The stages, from the tape down to UTF-8 alone, end the table.
        assert!(contender_rank("stage-tape") < contender_rank("stage-syntax"));
        assert!(contender_rank("stage-syntax") < contender_rank("utf8-floor"));
    }

    #[test]
    fn a_rate_needs_a_time() {
        let t = Timing { ns: 2e9, rounds: vec![2e9], lo: 1e9, hi: 3e9, bytes: Some(4e6), elements: Some(10.0) };
        assert_eq!(t.rate(), (Some(2.0), Some(5.0)));
        assert_eq!(Timing { ns: 0.0, ..t }.rate(), (None, None));
    }

    #[test]
    fn results_files_of_earlier_runs_still_load() {
        let text = r#"{"meta":{"date":"2026-12-01T00:00:00Z","cpu":"x","cores":2,"commit":"abc"},
            "time":{"realistic-small/utf8-floor":{"ns":10.5,"rounds":[10.5],"lo":10,"hi":11,"bytes":100,"elements":null}},
            "instructions":{"instructions/a/b":123},"verdicts":{"adversarial":{"rmcp-typed/x":[1,1]}}}"#;
        let r: Results = serde_json::from_str(text).unwrap_or_default();
        assert_eq!(r.meta.commit, "abc");
        assert_eq!(r.time["realistic-small/utf8-floor"].bytes, Some(100.0));
        assert_eq!(r.instructions["instructions/a/b"], 123);
        assert_eq!(r.verdicts["adversarial"]["rmcp-typed/x"], (1, 1));
    }
}
