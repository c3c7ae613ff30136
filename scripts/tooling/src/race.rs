//! The race (benches/benches/race.rs): its figures as tables with the
//! speed targets judged, one record per commit in the history kept in the
//! repository (docs/bench/race-history.jsonl), and one chart per class of
//! time per message, commit by commit, for every contender.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::svg::{self, Series};

/// What one run of the race wrote (`--json FILE`).
#[derive(Debug, Deserialize)]
pub struct Race {
    pub rounds: usize,
    pub classes: Vec<Class>,
}

#[derive(Debug, Deserialize)]
pub struct Class {
    pub class: String,
    pub messages: u64,
    pub bytes: u64,
    /// The contender every ratio is to.
    pub default: String,
    pub contenders: Vec<Contender>,
}

#[derive(Debug, Deserialize)]
pub struct Contender {
    pub name: String,
    pub ns_per_message: f64,
    pub mb_per_s: f64,
    /// Its time over the default's: above 1, the default is faster.
    pub ratio: f64,
    /// (p90 - p10) / median of its rounds.
    pub spread: f64,
}

impl Race {
    fn class(&self, name: &str) -> Option<&Class> {
        self.classes.iter().find(|c| c.class == name)
    }
}

impl Class {
    fn ratio(&self, contender: &str) -> Option<f64> {
        self.contenders.iter().find(|c| c.name == contender).map(|c| c.ratio)
    }
}

/// One speed target: what is compared, the ratio wanted, the ratio found.
#[derive(Debug, PartialEq)]
pub struct Target {
    pub what: String,
    pub wanted: f64,
    pub found: Option<f64>,
}

impl Target {
    pub fn met(&self) -> bool {
        self.found.is_some_and(|f| f >= self.wanted)
    }
}

/// The speed targets (issue 37), judged by the race: each is a peer's time
/// over ours, which must reach `wanted`.
pub fn targets(race: &Race) -> Vec<Target> {
    let mut out = Vec::new();
    let mut want = |class: &str, contender: &str, wanted: f64, what: String| {
        let found = race.class(class).and_then(|c| c.ratio(contender));
        out.push(Target { what, wanted, found });
    };
    for (size, ignored) in [("small", 1.0), ("medium", 1.0), ("large", 1.3)] {
        let class = format!("realistic-{size}");
        want(&class, "serde_json-ignoredany", ignored, format!("{size}: serde_json IgnoredAny"));
        want(&class, "serde_json-rawvalue-struct", 1.5, format!("{size}: the &RawValue struct"));
        want(&class, "sonic-rs-value", 1.25, format!("{size}: sonic-rs Value"));
    }
    // Framing: the event stream against line framing, and against
    // sse-stream with a struct (ratios to the event stream).
    want("framing-small", "mcp-envelope-lines", 0.95, "event stream, small: line framing".to_owned());
    want("framing-small", "sse-stream-serde-struct", 2.5, "event stream, small: sse-stream + struct".to_owned());
    for class in race.classes.iter().filter(|c| c.class.starts_with("adversarial-")) {
        let name = class.class.trim_start_matches("adversarial-");
        want(&class.class, "serde_json-rawvalue-struct", 1.0, format!("adversarial {name}: the &RawValue struct"));
    }
    out
}

/// Whether the race, run several times a side each in its own process,
/// has `contender` faster on `class` at the head than at the base: every
/// head run under every base run, and the medians apart by more than
/// `noise` percent. The change of the medians, in percent, if so.
pub fn faster_on_the_clock(base: &[Race], head: &[Race], class: &str, contender: &str, noise: f64) -> Option<f64> {
    let times = |runs: &[Race]| -> Option<Vec<f64>> {
        let mut t: Vec<f64> = runs
            .iter()
            .filter_map(|r| r.class(class)?.contenders.iter().find(|c| c.name == contender).map(|c| c.ns_per_message))
            .collect();
        t.sort_by(f64::total_cmp);
        (!t.is_empty()).then_some(t)
    };
    let (b, h) = (times(base)?, times(head)?);
    let change = (h.get(h.len() / 2)? / b.get(b.len() / 2)? - 1.0) * 100.0;
    (h.last()? < b.first()? && change < -noise).then_some(change)
}

/// The race as Markdown: a table per realistic and framing class, one row
/// for the adversarial ones, and the targets judged.
pub fn report(race: &Race) -> String {
    let mut out = String::new();
    for class in race.classes.iter().filter(|c| !c.class.starts_with("adversarial-")) {
        let mean = class.bytes as f64 / class.messages.max(1) as f64;
        let _ = writeln!(out, "\n**{}** ({} messages, {mean:.0} bytes on average)\n", class.class, class.messages);
        let _ = writeln!(out, "| contender | ns a message | MB/s | its time over {}'s | spread |", class.default);
        let _ = writeln!(out, "|---|---|---|---|---|");
        for c in &class.contenders {
            let _ = writeln!(
                out,
                "| {} | {:.1} | {:.0} | {:.2}x | {:.1} % |",
                c.name,
                c.ns_per_message,
                c.mb_per_s,
                c.ratio,
                c.spread * 100.0
            );
        }
    }
    let _ = writeln!(out, "\n**Targets** (a peer's time over the default backend's, {} rounds)\n", race.rounds);
    let _ = writeln!(out, "| against | wanted | found | met |");
    let _ = writeln!(out, "|---|---|---|---|");
    for t in targets(race) {
        let found = t.found.map_or_else(|| "-".to_owned(), |f| format!("{f:.2}x"));
        let _ = writeln!(out, "| {} | {:.2}x | {found} | {} |", t.what, t.wanted, if t.met() { "yes" } else { "no" });
    }
    out
}

/// Two commits' races, each run several times in its own process, the
/// runs alternated: for each class and contender, the median of each
/// side's runs and the change, and each target at both commits.
pub fn compare(base: &[Race], head: &[Race]) -> String {
    let median_of = |runs: &[Race], class: &str, contender: &str| -> Option<f64> {
        let mut values: Vec<f64> = runs
            .iter()
            .filter_map(|r| r.class(class)?.contenders.iter().find(|c| c.name == contender).map(|c| c.ns_per_message))
            .collect();
        values.sort_by(f64::total_cmp);
        values.get(values.len() / 2).copied()
    };
    let mut out = String::new();
    let _ = writeln!(out, "| class | contender | base ns | head ns | change |");
    let _ = writeln!(out, "|---|---|---|---|---|");
    let Some(first) = head.first() else { return out };
    for class in &first.classes {
        for c in &class.contenders {
            let (b, h) = (median_of(base, &class.class, &c.name), median_of(head, &class.class, &c.name));
            let change = match (b, h) {
                (Some(b), Some(h)) => format!("{:+.1} %", (h / b - 1.0) * 100.0),
                _ => "-".to_owned(),
            };
            let shown = |v: Option<f64>| v.map_or_else(|| "-".to_owned(), |v| format!("{v:.1}"));
            let _ = writeln!(out, "| {} | {} | {} | {} | {change} |", class.class, c.name, shown(b), shown(h));
        }
    }
    let _ = writeln!(out, "\n| target | wanted | base | head |");
    let _ = writeln!(out, "|---|---|---|---|");
    let judged = |runs: &[Race]| runs.first().map(targets).unwrap_or_default();
    for (b, h) in judged(base).iter().zip(judged(head)) {
        let shown = |t: &Target| t.found.map_or_else(|| "-".to_owned(), |f| format!("{f:.2}x"));
        let _ = writeln!(out, "| {} | {:.2}x | {} | {} |", h.what, h.wanted, shown(b), shown(&h));
    }
    out
}

/// One commit's line in the history.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// The commit measured, short.
    pub commit: String,
    /// Its subject line, shortened.
    pub subject: String,
    /// When it was committed, and when measured (UTC).
    pub committed: String,
    pub date: String,
    /// The machine: cpu and cores.
    pub machine: String,
    pub rounds: usize,
    /// Nanoseconds a message, by class and contender: the race's medians.
    pub race: BTreeMap<String, BTreeMap<String, f64>>,
    /// The spread of each contender's rounds, by class and contender.
    pub spread: BTreeMap<String, BTreeMap<String, f64>>,
    /// Instructions a message (callgrind), by `class/contender`.
    #[serde(default)]
    pub instructions: BTreeMap<String, f64>,
}

/// A record of `race` at a commit, with its instruction counts.
pub fn record(race: &Race, meta: Meta, instructions: BTreeMap<String, f64>) -> Record {
    let mut times: BTreeMap<String, BTreeMap<String, f64>> = BTreeMap::new();
    let mut spreads: BTreeMap<String, BTreeMap<String, f64>> = BTreeMap::new();
    for class in &race.classes {
        for c in &class.contenders {
            times.entry(class.class.clone()).or_default().insert(c.name.clone(), round(c.ns_per_message, 2));
            spreads.entry(class.class.clone()).or_default().insert(c.name.clone(), round(c.spread, 4));
        }
    }
    Record {
        commit: meta.commit,
        subject: meta.subject.chars().take(100).collect(),
        committed: meta.committed,
        date: meta.date,
        machine: meta.machine,
        rounds: race.rounds,
        race: times,
        spread: spreads,
        instructions,
    }
}

/// What a record says of where it was made.
pub struct Meta {
    pub commit: String,
    pub subject: String,
    pub committed: String,
    pub date: String,
    pub machine: String,
}

fn round(v: f64, digits: i32) -> f64 {
    let scale = 10f64.powi(digits);
    (v * scale).round() / scale
}

/// The classes charted: realistic traffic and the event streams.
pub const CHARTED: [&str; 5] =
    ["realistic-small", "realistic-medium", "realistic-large", "framing-small", "framing-medium"];

/// One chart per charted class: time per message by commit, every
/// contender a line (the latest record of each commit).
pub fn charts(records: &[Record]) -> Vec<(String, String)> {
    let commits = crate::history::commits_in_order(records.iter().map(|r| r.commit.as_str()));
    let latest = |commit: &str| records.iter().rev().find(|r| r.commit == commit);
    let mut out = Vec::new();
    for class in CHARTED {
        let mut names: Vec<String> =
            records.iter().filter_map(|r| r.race.get(class)).flat_map(|m| m.keys().cloned()).collect();
        names.sort_by_key(|n| (crate::results::contender_rank(n), n.clone()));
        names.dedup();
        if names.is_empty() {
            continue;
        }
        let series: Vec<Series> = names
            .iter()
            .map(|name| {
                let values =
                    commits.iter().map(|c| latest(c).and_then(|r| r.race.get(class)?.get(name)).copied()).collect();
                (name.clone(), values)
            })
            .collect();
        let title = format!("{class}: ns a message, commit by commit (the race; lower is better)");
        out.push((class.to_owned(), svg::lines(&title, &commits, &series, &svg::NANOSECONDS)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const RACE: &str = r#"{"rounds":21,"classes":[
        {"class":"realistic-small","messages":659,"bytes":147616,"default":"mcp-envelope-reference","contenders":[
            {"name":"mcp-envelope-reference","ns_per_message":226.0,"mb_per_s":993.0,"ratio":1.0,"spread":0.037},
            {"name":"serde_json-ignoredany","ns_per_message":225.0,"mb_per_s":997.0,"ratio":0.9956,"spread":0.043},
            {"name":"serde_json-rawvalue-struct","ns_per_message":368.9,"mb_per_s":608.0,"ratio":1.632,"spread":0.042}]},
        {"class":"adversarial-batch-100","messages":1,"bytes":4191,"default":"mcp-envelope-reference","contenders":[
            {"name":"mcp-envelope-reference","ns_per_message":8438.8,"mb_per_s":497.0,"ratio":1.0,"spread":0.035},
            {"name":"serde_json-rawvalue-struct","ns_per_message":146.5,"mb_per_s":28616.0,"ratio":0.0174,"spread":0.041}]}]}"#;

    fn meta(commit: &str) -> Meta {
        Meta {
            commit: commit.to_owned(),
            subject: "a change".to_owned(),
            committed: "2026-12-07T01:00:00Z".to_owned(),
            date: "2026-12-07T02:00:00Z".to_owned(),
            machine: "a cpu, 2 cores".to_owned(),
        }
    }

    #[test]
    fn the_targets_are_judged_by_the_race_s_ratios_and_a_missing_contender_is_not_met() {
        let race: Race = serde_json::from_str(RACE).unwrap();
        let found = targets(&race);
        let get = |what: &str| found.iter().find(|t| t.what == what).unwrap();
        assert!(!get("small: serde_json IgnoredAny").met(), "0.9956 is under 1.0");
        assert!(get("small: the &RawValue struct").met());
        assert_eq!(get("small: sonic-rs Value").found, None);
        assert!(!get("small: sonic-rs Value").met());
        assert!(!get("adversarial batch-100: the &RawValue struct").met());
        let text = report(&race);
        assert!(text.contains("| small: the &RawValue struct | 1.50x | 1.63x | yes |"), "{text}");
    }

    #[test]
    fn a_record_holds_each_class_s_medians_and_round_trips_through_its_json_line() {
        let race: Race = serde_json::from_str(RACE).unwrap();
        let counts = BTreeMap::from([("realistic-small/mcp-envelope-reference".to_owned(), 2629.2)]);
        let record = record(&race, meta("abc1234"), counts);
        assert_eq!(record.race["realistic-small"]["serde_json-ignoredany"], 225.0);
        assert_eq!(record.spread["adversarial-batch-100"]["mcp-envelope-reference"], 0.035);
        let line = serde_json::to_string(&record).unwrap();
        assert_eq!(serde_json::from_str::<Record>(&line).unwrap(), record);
    }

    #[test]
    fn each_charted_class_gets_a_line_per_contender_across_the_commits() {
        let race: Race = serde_json::from_str(RACE).unwrap();
        let records = [record(&race, meta("aaa"), BTreeMap::new()), record(&race, meta("bbb"), BTreeMap::new())];
        let charts = charts(&records);
        assert_eq!(charts.len(), 1, "only realistic-small has figures");
        let (class, svg) = &charts[0];
        assert_eq!(class, "realistic-small");
        assert!(svg.contains(">aaa<") && svg.contains(">bbb<") && svg.contains("serde_json-ignoredany"));
        assert_eq!(svg.matches("<circle").count(), 6, "three contenders, two commits");
    }

    /// The history kept in the repository: every line a record, at least
    /// ten commits, each with the realistic classes raced.
    #[test]
    fn the_repository_s_race_history_holds_records_of_at_least_ten_commits() {
        let path = crate::root().join("docs/bench/race-history.jsonl");
        let records: Vec<Record> = crate::history::load_lines(&path).unwrap();
        let commits = crate::history::commits_in_order(records.iter().map(|r| r.commit.as_str()));
        assert!(commits.len() >= 10, "{} commits", commits.len());
        for r in &records {
            assert!(!r.machine.is_empty() && r.date.ends_with('Z') && r.rounds >= 3, "{}", r.commit);
            for class in ["realistic-small", "realistic-medium", "realistic-large"] {
                let raced = r.race.get(class).map_or(0, BTreeMap::len);
                assert!(raced >= 4, "{} {class}: {raced} contenders", r.commit);
            }
        }
    }

    fn run(class: &str, contender: &str, ns: f64) -> Race {
        Race {
            rounds: 21,
            classes: vec![Class {
                class: class.to_owned(),
                messages: 1,
                bytes: 1,
                default: contender.to_owned(),
                contenders: vec![Contender {
                    name: contender.to_owned(),
                    ns_per_message: ns,
                    mb_per_s: 1.0,
                    ratio: 1.0,
                    spread: 0.0,
                }],
            }],
        }
    }

    #[test]
    fn the_clock_says_faster_only_when_every_head_run_beats_every_base_run_beyond_the_noise() {
        let runs = |ns: &[f64]| ns.iter().map(|&n| run("adversarial-x", "ours", n)).collect::<Vec<_>>();
        let faster =
            faster_on_the_clock(&runs(&[31.6, 32.2, 31.7]), &runs(&[21.2, 20.9, 20.6]), "adversarial-x", "ours", 3.0);
        assert!(faster.is_some_and(|c| (c + 34.1).abs() < 0.1), "{faster:?}");
        // Runs that overlap, a change within the noise, a contender or a
        // class the race did not run: no verdict.
        assert_eq!(faster_on_the_clock(&runs(&[30.0, 20.0]), &runs(&[21.0, 19.0]), "adversarial-x", "ours", 3.0), None);
        assert_eq!(faster_on_the_clock(&runs(&[30.0]), &runs(&[29.5]), "adversarial-x", "ours", 3.0), None);
        assert_eq!(faster_on_the_clock(&runs(&[30.0]), &runs(&[20.0]), "adversarial-x", "peer", 3.0), None);
        assert_eq!(faster_on_the_clock(&runs(&[30.0]), &[], "adversarial-x", "ours", 3.0), None);
    }
}
