//! The benchmark table of one run, in Markdown.

use std::collections::BTreeMap;

use crate::format::{grouped, human_time, rate};
use crate::results::{CEILINGS, DEFAULT, OURS, Results, Timing, contender_rank, group_rank, split};

/// The default backend's bench function in the instruction suite
/// (benches/benches/instructions.rs names functions with `_` where the
/// wall-clock suite names contenders with `-`).
const DEFAULT_FUNCTION: &str = "mcp_envelope_reference";

/// "reads differently": how many of a peer's verdicts differ from ours.
fn difference(results: &Results, group: &str, input: &str, contender: &str) -> String {
    if OURS.contains(&contender) || CEILINGS.contains(&contender) {
        return String::new();
    }
    let found = if group == "adversarial" {
        results.verdicts.get("adversarial").and_then(|v| v.get(&format!("{contender}/{input}")))
    } else {
        results.verdicts.get(group).and_then(|v| v.get(contender))
    };
    match found {
        Some((0, _)) => "0".to_owned(),
        Some((n, of)) => format!("{n} of {of}"),
        None => String::new(),
    }
}

/// What an instruction count is compared with: the default backend's
/// count on the same input (`instructions/<contender>/<input>`), or for the
/// framing benches line framing's, which is what the event stream's target
/// is measured against.
fn instruction_base(results: &Results, name: &str) -> Option<u64> {
    let mut parts = name.splitn(3, '/');
    let (Some("instructions"), Some(contender), Some(input)) = (parts.next(), parts.next(), parts.next()) else {
        return None;
    };
    let base = if contender.starts_with("framing_") { "framing_lines" } else { DEFAULT_FUNCTION };
    results.instructions.get(&format!("instructions/{base}/{input}")).copied().filter(|&b| b > 0)
}

pub fn render(results: &Results) -> String {
    let m = &results.meta;
    let commit = if m.commit.is_empty() { "working tree" } else { m.commit.as_str() };
    let cores = m.cores.map_or("?".to_owned(), |c| c.to_string());
    // Each bench's median is over its rounds, and its rounds' medians are
    // what `collect` kept: say how many, rather than "one run" for three.
    let rounds = results.time.values().map(|t| t.rounds.len()).max().unwrap_or(0);
    let medians = match rounds {
        0 | 1 => "Medians of one run".to_owned(),
        n => format!("Medians of {n} rounds (each bench: the median of its rounds' medians)"),
    };
    let mut lines = vec![
        format!("Machine: {}, {cores} cores; {}; commit {commit}.", m.cpu, m.date),
        format!("{medians}; ratios are to {DEFAULT} (the default backend) in the same group and run."),
        String::new(),
        "| group | contender | median | throughput | vs the default backend | reads differently |".to_owned(),
        "|---|---|---|---|---|---|".to_owned(),
    ];
    let mut groups: BTreeMap<(usize, u64, String, String), BTreeMap<&str, &Timing>> = BTreeMap::new();
    for (id, timing) in &results.time {
        let (group, contender, input) = split(id);
        let (rank, number, input_key) = group_rank(group, input);
        groups.entry((rank, number, input_key, group.to_owned())).or_default().insert(contender, timing);
    }
    for ((_, _, input, group), row) in &groups {
        let key = format!("{group} {input}").trim().to_owned();
        let base = row.get(DEFAULT);
        let mut contenders: Vec<_> = row.iter().collect();
        contenders.sort_by_key(|(name, _)| (contender_rank(name), name.to_owned()));
        for (contender, timing) in contenders {
            let ratio = base.map_or("-".to_owned(), |b| format!("{:.2}x time", timing.ns / b.ns));
            // Only our parsers refuse on size; the peers have no limit and read it all.
            let refused = group == "adversarial" && OURS.contains(contender) && results.refused_before_parsing(input);
            let throughput = if refused {
                "refused on its size, unread".to_owned()
            } else {
                let (mb, msgs) = timing.rate();
                rate(mb, msgs)
            };
            lines.push(format!(
                "| {key} | {contender} | {} | {throughput} | {ratio} | {} |",
                human_time(timing.ns),
                difference(results, group, input, contender)
            ));
        }
    }
    if results.instructions.is_empty() {
        // Said, not left out: an absent table would read as nothing to report.
        lines.extend([
            String::new(),
            "Instruction counts: not run (valgrind or gungraun-runner missing, or not asked for).".to_owned(),
        ]);
    } else {
        lines.extend([
            String::new(),
            "Instruction counts: the ratio is to the default backend on the same input (framing rows: to line \
             framing plus the default backend's check, the event stream's target)."
                .to_owned(),
            String::new(),
            "| instructions (callgrind) | count | vs the default backend |".to_owned(),
            "|---|---|---|".to_owned(),
        ]);
        for (name, count) in &results.instructions {
            let ratio = instruction_base(results, name)
                .map_or("-".to_owned(), |base| format!("{:.2}x instructions", *count as f64 / base as f64));
            lines.push(format!("| {name} | {} | {ratio} |", grouped(*count as f64)));
        }
    }
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timing(ns: f64, bytes: f64) -> Timing {
        Timing { ns, rounds: vec![ns], lo: ns, hi: ns, bytes: Some(bytes), elements: Some(1.0) }
    }

    #[test]
    fn rows_show_throughput_ratios_to_the_default_backend_and_peer_differences() {
        let mut r = Results::default();
        r.time.insert("realistic-small/mcp-envelope-reference".into(), timing(1000.0, 1e3));
        r.time.insert("realistic-small/mcp-envelope-serde".into(), timing(2000.0, 1e3));
        r.time.insert("realistic-small/sonic-rs-value".into(), timing(500.0, 1e3));
        r.verdicts.entry("realistic-small".into()).or_default().insert("sonic-rs-value".into(), (3, 40));
        let table = render(&r);
        assert!(table.contains("ratios are to mcp-envelope-reference (the default backend)"), "{table}");
        assert!(
            table.contains(
                "| realistic-small | mcp-envelope-reference | 1 µs | 1,000 MB/s, 1,000,000 msg/s | 1.00x time |  |"
            ),
            "{table}"
        );
        assert!(
            table.contains("| realistic-small | mcp-envelope-serde | 2 µs | 500 MB/s, 500,000 msg/s | 2.00x time |  |"),
            "{table}"
        );
        assert!(
            table.contains(
                "| realistic-small | sonic-rs-value | 500 ns | 2,000 MB/s, 2,000,000 msg/s | 0.50x time | 3 of 40 |"
            ),
            "{table}"
        );
    }

    #[test]
    fn the_header_says_how_many_rounds_the_medians_are_of() {
        let mut r = Results::default();
        r.time.insert("realistic-small/mcp-envelope-serde".into(), timing(1000.0, 1e3));
        assert!(render(&r).contains("Medians of one run;"));
        let three = Timing { rounds: vec![900.0, 1000.0, 1300.0], ..timing(1000.0, 1e3) };
        r.time.insert("realistic-small/mcp-envelope-serde".into(), three);
        let table = render(&r);
        assert!(table.contains("Medians of 3 rounds") && !table.contains("one run"), "{table}");
    }

    #[test]
    fn a_case_refused_on_its_size_shows_no_rate() {
        let mut r = Results::default();
        r.time.insert("adversarial/mcp-envelope-serde/over-size-limit".into(), timing(16.0, 67_108_865.0));
        r.time.insert("adversarial/sonic-rs-value/over-size-limit".into(), timing(67_108_865.0, 67_108_865.0));
        r.verdicts.entry("refused-before-parsing".into()).or_default().insert("over-size-limit".into(), (1, 1));
        let table = render(&r);
        assert!(table.contains("| mcp-envelope-serde | 16 ns | refused on its size, unread |"), "{table}");
        assert!(table.contains("| sonic-rs-value | 67.1 ms | 1,000 MB/s, 15 msg/s |"), "a peer reads it all: {table}");
    }

    #[test]
    fn instruction_counts_that_did_not_run_are_said_not_to_have_run() {
        let mut r = Results::default();
        assert!(render(&r).contains("Instruction counts: not run"));
        r.instructions.insert("instructions/a/b".into(), 1234);
        let table = render(&r);
        assert!(table.contains("| instructions/a/b | 1,234 | - |") && !table.contains("not run"), "{table}");
    }

    #[test]
    fn instruction_counts_are_compared_with_the_default_backend_and_framing_with_line_framing() {
        let mut r = Results::default();
        for (name, count) in [
            ("mcp_envelope_reference/realistic_small", 2_000),
            ("serde_json_rawvalue_struct/realistic_small", 3_000),
            ("sonic_rs_value/adversarial_escapes", 500),
            ("framing_lines/realistic_small", 2_200),
            ("framing_sse/realistic_small", 2_750),
        ] {
            r.instructions.insert(format!("instructions/{name}"), count);
        }
        let table = render(&r);
        for row in [
            "| instructions/mcp_envelope_reference/realistic_small | 2,000 | 1.00x instructions |",
            "| instructions/serde_json_rawvalue_struct/realistic_small | 3,000 | 1.50x instructions |",
            "| instructions/framing_sse/realistic_small | 2,750 | 1.25x instructions |",
            // No count of the default backend on that input: no ratio.
            "| instructions/sonic_rs_value/adversarial_escapes | 500 | - |",
        ] {
            assert!(table.contains(row), "{row} in {table}");
        }
    }
}
