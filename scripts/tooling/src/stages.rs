//! Where a message's time goes: the default backend's pipeline stage by
//! stage (UTF-8 alone, then the JSON grammar, then the tape, then the
//! envelope rules) on each realistic class, from one run's timings and, where
//! the run has them, its instruction counts. Each stage is measured as the
//! pipeline up to it (`stage-syntax`, `stage-tape` in the benches), so a
//! stage's share is the difference between two measurements.

use std::fmt::Write;

use crate::format::grouped;
use crate::results::{DEFAULT, Results};
use crate::svg;

/// The stages in pipeline order: the contender that runs the pipeline up to
/// and including each, its function in the instruction suite, and its name.
const STAGES: [(&str, &str, &str); 4] = [
    ("utf8-floor", "utf8_floor", "UTF-8"),
    ("stage-syntax", "stage_syntax", "JSON grammar"),
    ("stage-tape", "stage_tape", "tape"),
    (DEFAULT, "mcp_envelope_reference", "envelope rules"),
];

const CLASSES: [&str; 3] = ["small", "medium", "large"];

/// One class: what the pipeline up to each stage cost (nanoseconds or
/// instructions), and by time the throughput of the whole verdict and of
/// UTF-8 alone (MB/s).
#[derive(Debug, PartialEq)]
struct Row {
    class: &'static str,
    cumulative: [f64; 4],
    rates: Option<(f64, f64)>,
}

impl Row {
    /// Each stage's share of the whole, in percent, summing to 100. Noise
    /// on a busy machine can measure a stage cheaper than the one before
    /// it (it counts 0) or part of the pipeline dearer than all of it (it
    /// counts as all of it), so no bar runs past the whole.
    fn shares(&self) -> [f64; 4] {
        let total = self.cumulative[3];
        let mut before = 0.0;
        self.cumulative.map(|upto| {
            let upto = upto.min(total);
            let share = if total > 0.0 { (upto - before).max(0.0) / total * 100.0 } else { 0.0 };
            before = f64::max(before, upto);
            share
        })
    }
}

/// The classes whose four stages all ran, by wall clock.
fn by_time(results: &Results) -> Vec<Row> {
    CLASSES
        .iter()
        .filter_map(|&class| {
            let timing = |contender: &str| results.time.get(&format!("realistic-{class}/{contender}"));
            let mut cumulative = [0.0; 4];
            for (slot, (contender, _, _)) in cumulative.iter_mut().zip(STAGES) {
                *slot = timing(contender)?.ns;
            }
            let mb = |contender: &str| timing(contender).and_then(|t| t.rate().0);
            Some(Row { class, cumulative, rates: mb(DEFAULT).zip(mb("utf8-floor")) })
        })
        .collect()
}

/// The classes whose four stages all ran, by instruction count.
fn by_instructions(results: &Results) -> Vec<Row> {
    CLASSES
        .iter()
        .filter_map(|&class| {
            let mut cumulative = [0.0; 4];
            for (slot, (_, function, _)) in cumulative.iter_mut().zip(STAGES) {
                *slot = *results.instructions.get(&format!("instructions/{function}/realistic_{class}"))? as f64;
            }
            Some(Row { class, cumulative, rates: None })
        })
        .collect()
}

/// The bars of one panel: a bar per class, its stages' shares, and what it
/// cost in all at its right.
fn bars(rows: &[Row], total: impl Fn(&Row) -> String) -> Vec<svg::Stack> {
    rows.iter().map(|row| (row.class.to_owned(), row.shares().to_vec(), total(row))).collect()
}

/// The chart: one panel by wall clock, one by instruction count, each
/// left out when its run lacks a stage.
pub fn chart(results: &Results) -> String {
    let time = by_time(results);
    let instructions = by_instructions(results);
    let mut panels = Vec::new();
    if !time.is_empty() {
        let label = |row: &Row| match row.rates {
            Some((whole, floor)) => format!("{} MB/s; UTF-8 alone {} MB/s", grouped(whole), grouped(floor)),
            None => String::new(),
        };
        panels.push(("By time (this run)".to_owned(), bars(&time, label)));
    }
    if !instructions.is_empty() {
        let label = |row: &Row| format!("{} instructions", grouped(row.cumulative[3]));
        panels.push(("By instructions (callgrind)".to_owned(), bars(&instructions, label)));
    }
    let m = &results.meta;
    let subtitle = format!(
        "The default backend on each realistic class; {}, commit {}",
        m.cpu,
        if m.commit.is_empty() { "?" } else { &m.commit }
    );
    let legend: Vec<&str> = STAGES.iter().map(|(_, _, name)| *name).collect();
    svg::stacked(
        "Where a message's time goes, stage by stage (share of the whole verdict)",
        &subtitle,
        &panels,
        &legend,
    )
}

/// The same figures as a Markdown table, or a sentence saying why there are
/// none.
pub fn table(results: &Results) -> String {
    let mut out = String::new();
    let header = "| measured by | class | UTF-8 | JSON grammar | tape | envelope rules | whole verdict |";
    let mut lines = Vec::new();
    for (by, rows) in [("time", by_time(results)), ("instructions", by_instructions(results))] {
        for row in rows {
            let s = row.shares();
            let whole = match (by, row.rates) {
                ("time", Some((whole, _))) => format!("{} MB/s", grouped(whole)),
                _ => grouped(row.cumulative[3]),
            };
            lines.push(format!(
                "| {by} | {} | {:.0} % | {:.0} % | {:.0} % | {:.0} % | {whole} |",
                row.class, s[0], s[1], s[2], s[3]
            ));
        }
    }
    if lines.is_empty() {
        return "Stages: not measured (the run has no `stage-*` benches for a realistic class).".to_owned();
    }
    let _ = writeln!(out, "{header}\n|---|---|---|---|---|---|---|");
    out.push_str(&lines.join("\n"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::results::Timing;

    fn timing(ns: f64) -> Timing {
        Timing { ns, rounds: vec![ns], lo: ns, hi: ns, bytes: Some(1e6), elements: Some(10.0) }
    }

    fn small_by_time(floor: f64, syntax: f64, tape: f64, whole: f64) -> Results {
        let mut r = Results::default();
        for (contender, ns) in [("utf8-floor", floor), ("stage-syntax", syntax), ("stage-tape", tape), (DEFAULT, whole)]
        {
            r.time.insert(format!("realistic-small/{contender}"), timing(ns));
        }
        r
    }

    #[test]
    fn each_stage_is_the_difference_from_the_one_before_as_a_share_of_the_whole() {
        let rows = by_time(&small_by_time(100.0, 600.0, 700.0, 1000.0));
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].shares(), [10.0, 50.0, 10.0, 30.0]);
        // Measured cheaper than the stage before it: noise, counted 0, and
        // the stage after it is measured from the larger figure.
        let noisy = Row { class: "small", cumulative: [100.0, 600.0, 550.0, 1000.0], rates: None };
        assert_eq!(noisy.shares(), [10.0, 50.0, 0.0, 40.0]);
        // Part of the pipeline measured dearer than all of it: it is all of
        // it, and the shares still make the whole.
        let past = Row { class: "large", cumulative: [100.0, 1200.0, 1300.0, 1000.0], rates: None };
        assert_eq!(past.shares(), [10.0, 90.0, 0.0, 0.0]);
        let nothing = Row { class: "large", cumulative: [0.0; 4], rates: None };
        assert_eq!(nothing.shares(), [0.0; 4]);
    }

    #[test]
    fn a_class_missing_a_stage_is_left_out_and_said_when_none_is_left() {
        let mut r = small_by_time(100.0, 600.0, 700.0, 1000.0);
        r.time.remove("realistic-small/stage-tape");
        assert!(by_time(&r).is_empty());
        assert!(table(&r).starts_with("Stages: not measured"), "{}", table(&r));
    }

    #[test]
    fn the_table_and_chart_give_each_stage_by_time_and_by_instructions() {
        let mut r = small_by_time(100.0, 600.0, 700.0, 1000.0);
        for (function, count) in
            [("utf8_floor", 200), ("stage_syntax", 1400), ("stage_tape", 1600), ("mcp_envelope_reference", 2000)]
        {
            r.instructions.insert(format!("instructions/{function}/realistic_small"), count);
        }
        let table = table(&r);
        // 1 MB in 1,000 ns is 1,000,000 MB/s whole; the floor ten times that.
        assert!(table.contains("| time | small | 10 % | 50 % | 10 % | 30 % | 1,000,000 MB/s |"), "{table}");
        assert!(table.contains("| instructions | small | 10 % | 60 % | 10 % | 20 % | 2,000 |"), "{table}");
        let chart = chart(&r);
        assert!(chart.contains("1,000,000 MB/s; UTF-8 alone 10,000,000 MB/s"), "{chart}");
        assert!(chart.contains("2,000 instructions"), "{chart}");
        for stage in ["UTF-8", "JSON grammar", "tape", "envelope rules"] {
            assert!(chart.contains(&format!(">{stage}</text>")), "the legend names {stage}: {chart}");
        }
    }
}
