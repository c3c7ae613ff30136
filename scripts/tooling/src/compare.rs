//! Two runs side by side: instruction counts decide for our code; wall
//! clock is reported with a verdict only where it can mean one.

use std::collections::BTreeSet;

use crate::format::{grouped, human_time};
use crate::race::{self, Race};
use crate::results::{OURS, Results, Timing, contender_rank, group_rank, split};

/// How the two runs were made, for the report's first lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Provenance {
    /// Both commits built and run in one session, alternating rounds.
    SameSession,
    /// A saved baseline from another session.
    SavedBaseline,
}

pub struct Options<'a> {
    /// Instruction change, in percent, beyond which a bench regressed.
    pub threshold: f64,
    /// Wall-clock change, in percent, below which nothing is concluded.
    pub noise: f64,
    pub provenance: Provenance,
    /// The race's runs of the base and the head, each in its own process:
    /// where every head run beats every base run, a count that grew is no
    /// regression (the clock decides; the count explains).
    pub race: Option<(&'a [Race], &'a [Race])>,
}

/// The race's class and contender an instruction bench measures
/// (`instructions/mcp_envelope_reference/adversarial_huge_exponents`:
/// `adversarial-huge-exponents`, `mcp-envelope-reference`).
fn raced_as(bench: &str) -> Option<(String, String)> {
    let [_, contender, class] = bench.split('/').collect::<Vec<_>>()[..] else { return None };
    Some((class.replace('_', "-"), contender.replace('_', "-")))
}

pub struct Comparison {
    pub report: String,
    pub regressions: Vec<String>,
}

/// A wall-clock verdict. Peers and ceilings run the same code in both
/// commits: any change there is the machine's, so they get none. For our
/// code, a verdict needs a change beyond `noise`, intervals that do not
/// overlap and, with two rounds or more a side, every round beyond every
/// round of the other side; where instruction counts exist, they decide.
pub fn time_verdict(contender: &str, base: &Timing, head: &Timing, noise: f64, counted: bool) -> &'static str {
    if !OURS.contains(&contender) {
        return "unchanged code (machine noise)";
    }
    let change = (head.ns / base.ns - 1.0) * 100.0;
    let verdict = if change.abs() < noise {
        "within noise"
    } else if base.rounds.len().min(head.rounds.len()) < 2 {
        "within noise (1 round)"
    } else if head.rounds.iter().copied().fold(f64::NEG_INFINITY, f64::max)
        < base.rounds.iter().copied().fold(f64::INFINITY, f64::min)
        && head.hi < base.lo
    {
        "faster"
    } else if head.rounds.iter().copied().fold(f64::INFINITY, f64::min)
        > base.rounds.iter().copied().fold(f64::NEG_INFINITY, f64::max)
        && head.lo > base.hi
    {
        "slower"
    } else {
        "within noise"
    };
    match (counted, verdict) {
        (true, "faster") => "faster (instructions decide)",
        (true, "slower") => "slower (instructions decide)",
        _ => verdict,
    }
}

pub fn compare(base: &Results, head: &Results, options: &Options<'_>) -> Comparison {
    let name = |r: &Results, fallback: &str| {
        if r.meta.commit.is_empty() { fallback.to_owned() } else { r.meta.commit.clone() }
    };
    let how = match options.provenance {
        Provenance::SameSession if base.time.is_empty() && head.time.is_empty() => {
            "Both commits built and counted in one session."
        }
        Provenance::SameSession => "Both commits built and run in one session, alternating rounds.",
        Provenance::SavedBaseline => {
            "The base is a saved baseline from another session: wall-clock ratios between sessions are noisy; instruction counts are not."
        }
    };
    let cores = head.meta.cores.map_or("?".to_owned(), |c| c.to_string());
    let mut lines = vec![
        format!("# Benchmark comparison: {} → {}", name(base, "base"), name(head, "head")),
        String::new(),
        format!("Machine: {}, {cores} cores. {how}", head.meta.cpu),
        format!(
            "Instruction counts decide a regression, with a threshold of {} %, unless every run of the race has the head faster there (the clock decides); peers run unchanged code, so their wall-clock change is the machine's.",
            options.threshold
        ),
        String::new(),
    ];
    let mut regressions = Vec::new();
    if counted_any(base, head) {
        lines.extend(
            ["## Instructions (callgrind)", "", "| bench | base | head | ratio | verdict |", "|---|---|---|---|---|"]
                .map(String::from),
        );
        let names: BTreeSet<&String> = base.instructions.keys().chain(head.instructions.keys()).collect();
        for bench in names {
            match (base.instructions.get(bench), head.instructions.get(bench)) {
                (Some(&b), Some(&h)) => {
                    let ratio = if b == 0 { f64::INFINITY } else { h as f64 / b as f64 };
                    let change = (ratio - 1.0) * 100.0;
                    let clock = || {
                        let (base_runs, head_runs) = options.race?;
                        let (class, contender) = raced_as(bench)?;
                        race::faster_on_the_clock(base_runs, head_runs, &class, &contender, options.noise)
                    };
                    let verdict = if change > options.threshold {
                        match clock() {
                            Some(faster) => format!(
                                "more instructions, faster in the race ({faster:+.1} %, every run): the clock decides"
                            ),
                            None => {
                                regressions.push(format!("{bench}: +{change:.2} % instructions"));
                                "**slower**".to_owned()
                            }
                        }
                    } else if change < -options.threshold {
                        "faster".to_owned()
                    } else {
                        "within threshold".to_owned()
                    };
                    lines.push(format!(
                        "| {bench} | {} | {} | {ratio:.4} | {verdict} |",
                        grouped(b as f64),
                        grouped(h as f64)
                    ));
                }
                (b, h) => lines.push(format!(
                    "| {bench} | {} | {} | - | {} |",
                    b.map_or("-".to_owned(), |b| grouped(*b as f64)),
                    h.map_or("-".to_owned(), |h| grouped(*h as f64)),
                    if b.is_none() { "new" } else { "gone" }
                )),
            }
        }
        lines.push(String::new());
    } else {
        lines.extend(
            [
                "## Instructions (callgrind)",
                "",
                "Not counted in either run (no valgrind, or `--no-instructions`): nothing in this report decides a regression.",
                "",
            ]
            .map(String::from),
        );
    }
    if base.time.is_empty() && head.time.is_empty() {
        lines.extend(
            ["## Wall clock", "", "Not measured in either run (no criterion rounds, `--rounds 0`).", ""]
                .map(String::from),
        );
        lines.push(verdict_line(&regressions, counted_any(base, head), options.threshold));
        return Comparison { report: lines.join("\n") + "\n", regressions };
    }
    lines.extend(
        ["## Wall clock (median of rounds)", "", "| bench | base | head | ratio | verdict |", "|---|---|---|---|---|"]
            .map(String::from),
    );
    let mut names: Vec<&String> =
        base.time.keys().chain(head.time.keys()).collect::<BTreeSet<_>>().into_iter().collect();
    names.sort_by_key(|n| {
        let (group, contender, input) = split(n);
        (group_rank(group, input), contender_rank(contender), (*n).clone())
    });
    let counted = !head.instructions.is_empty();
    for bench in names {
        let (_, contender, _) = split(bench);
        match (base.time.get(bench), head.time.get(bench)) {
            (Some(b), Some(h)) => lines.push(format!(
                "| {bench} | {} | {} | {:.3} | {} |",
                human_time(b.ns),
                human_time(h.ns),
                h.ns / b.ns,
                time_verdict(contender, b, h, options.noise, counted)
            )),
            (b, h) => lines.push(format!(
                "| {bench} | {} | {} | - | {} |",
                b.map_or("-".to_owned(), |b| human_time(b.ns)),
                h.map_or("-".to_owned(), |h| human_time(h.ns)),
                if b.is_none() { "new" } else { "gone" }
            )),
        }
    }
    lines.push(String::new());
    lines.push(verdict_line(&regressions, counted_any(base, head), options.threshold));
    Comparison { report: lines.join("\n") + "\n", regressions }
}

/// Whether either run has instruction counts.
fn counted_any(base: &Results, head: &Results) -> bool {
    !base.instructions.is_empty() || !head.instructions.is_empty()
}

/// The report's last line: the verdict on regressions, or why there is none.
fn verdict_line(regressions: &[String], counted: bool, threshold: f64) -> String {
    if !counted {
        "No instruction counts, so no verdict on regressions (wall clock alone does not decide).".to_owned()
    } else if regressions.is_empty() {
        format!("No benchmark regressed beyond {threshold} % of instructions.")
    } else {
        format!(
            "**{} regression(s) beyond {threshold} % of instructions:** {}",
            regressions.len(),
            regressions.join("; ")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timing(rounds: &[f64]) -> Timing {
        let mut sorted = rounds.to_vec();
        sorted.sort_by(f64::total_cmp);
        let ns = sorted[sorted.len() / 2];
        Timing {
            ns,
            rounds: rounds.to_vec(),
            lo: sorted[0] * 0.99,
            hi: sorted[sorted.len() - 1] * 1.01,
            bytes: None,
            elements: None,
        }
    }

    fn options() -> Options<'static> {
        Options { threshold: 5.0, noise: 3.0, provenance: Provenance::SameSession, race: None }
    }

    const SMALL: &str = "instructions/mcp_envelope_serde/realistic_small";

    /// A base and a head run with one instruction count each.
    fn counted(base: u64, head: u64) -> (Results, Results) {
        let (mut b, mut h) = (Results::default(), Results::default());
        b.instructions.insert(SMALL.into(), base);
        h.instructions.insert(SMALL.into(), head);
        (b, h)
    }

    /// One run of the race: `mcp-envelope-serde` on `realistic-small` at `ns`.
    fn raced(ns: f64) -> crate::race::Race {
        use crate::race::{Class, Contender};
        let contender =
            Contender { name: "mcp-envelope-serde".into(), ns_per_message: ns, mb_per_s: 1.0, ratio: 1.0, spread: 0.0 };
        let class = Class {
            class: "realistic-small".into(),
            messages: 1,
            bytes: 1,
            default: "mcp-envelope-reference".into(),
            contenders: vec![contender],
        };
        crate::race::Race { rounds: 21, classes: vec![class] }
    }

    #[test]
    fn a_count_that_grew_is_no_regression_when_every_run_of_the_race_is_faster() {
        let (base, head) = counted(1_000_000, 1_150_000);
        let (slow, fast) = ([raced(300.0), raced(310.0)], [raced(200.0), raced(205.0)]);
        let c = compare(&base, &head, &Options { race: Some((&slow, &fast)), ..options() });
        assert!(c.regressions.is_empty(), "{:?}", c.regressions);
        assert!(
            c.report
                .contains("| 1.1500 | more instructions, faster in the race (-33.9 %, every run): the clock decides |"),
            "{}",
            c.report
        );
        // The race level, or slower: the count decides, as without it.
        for head_runs in [[raced(300.0), raced(305.0)], [raced(400.0), raced(410.0)]] {
            let c = compare(&base, &head, &Options { race: Some((&slow, &head_runs)), ..options() });
            assert_eq!(c.regressions.len(), 1, "{}", c.report);
        }
        assert_eq!(
            raced_as("instructions/mcp_envelope_reference/adversarial_huge_exponents"),
            Some(("adversarial-huge-exponents".to_owned(), "mcp-envelope-reference".to_owned()))
        );
        assert_eq!(raced_as("realistic-small/mcp-envelope-serde"), None);
    }

    #[test]
    fn an_instruction_regression_beyond_the_threshold_is_slower_and_fails() {
        let (base, mut head) = counted(1_000_000, 1_150_000);
        let c = compare(&base, &head, &options());
        assert_eq!(c.regressions, [format!("{SMALL}: +15.00 % instructions")]);
        assert!(c.report.contains("| 1,000,000 | 1,150,000 | 1.1500 | **slower** |"), "{}", c.report);
        head.instructions.insert(SMALL.into(), 1_040_000);
        assert!(compare(&base, &head, &options()).regressions.is_empty());
    }

    #[test]
    fn a_peer_gets_no_wall_clock_verdict_however_far_it_moved() {
        let (b, h) = (timing(&[100.0, 101.0]), timing(&[150.0, 151.0]));
        assert_eq!(time_verdict("sonic-rs-value", &b, &h, 3.0, false), "unchanged code (machine noise)");
        assert_eq!(time_verdict("mcp-envelope-serde", &b, &h, 3.0, false), "slower");
        assert_eq!(time_verdict("mcp-envelope-serde", &b, &h, 3.0, true), "slower (instructions decide)");
    }

    #[test]
    fn our_wall_clock_needs_rounds_that_do_not_overlap() {
        let base = timing(&[100.0, 120.0]);
        assert_eq!(time_verdict("mcp-envelope-serde", &base, &timing(&[110.0, 130.0]), 3.0, false), "within noise");
        assert_eq!(
            time_verdict("mcp-envelope-serde", &timing(&[100.0]), &timing(&[200.0]), 3.0, false),
            "within noise (1 round)"
        );
        assert_eq!(time_verdict("mcp-envelope-serde", &base, &timing(&[101.0, 102.0]), 3.0, false), "within noise");
        assert_eq!(time_verdict("mcp-envelope-serde", &base, &timing(&[80.0, 85.0]), 3.0, false), "faster");
    }

    #[test]
    fn a_report_without_instruction_counts_gives_no_all_clear() {
        let mut base = Results::default();
        let mut head = Results::default();
        base.time.insert("realistic/mcp-envelope-serde/small".into(), timing(&[100.0]));
        head.time.insert("realistic/mcp-envelope-serde/small".into(), timing(&[100.0]));
        let report = compare(&base, &head, &options()).report;
        assert!(report.contains("Not counted in either run"), "{report}");
        assert!(report.contains("no verdict on regressions"), "{report}");
        assert!(!report.contains("No benchmark regressed"), "{report}");
    }

    #[test]
    fn a_report_without_rounds_says_the_wall_clock_was_not_measured() {
        let (base, head) = counted(1_000_000, 1_200_000);
        let c = compare(&base, &head, &options());
        assert!(c.report.contains("## Wall clock\n\nNot measured in either run"), "{}", c.report);
        assert!(!c.report.contains("alternating rounds"), "{}", c.report);
        assert!(!c.report.contains("median of rounds"), "{}", c.report);
        // The instruction verdict still stands, and still fails the run.
        assert_eq!(c.regressions.len(), 1);
        assert!(c.report.contains("**1 regression(s) beyond 5 % of instructions:**"), "{}", c.report);
    }

    #[test]
    fn the_report_says_how_the_runs_were_made_and_only_that() {
        let r = Results::default();
        let same = compare(&r, &r, &options()).report;
        assert!(same.contains("one session") && !same.contains("saved baseline"));
        let saved = compare(&r, &r, &Options { provenance: Provenance::SavedBaseline, ..options() }).report;
        assert!(saved.contains("saved baseline") && !saved.contains("one session"));
    }
}
