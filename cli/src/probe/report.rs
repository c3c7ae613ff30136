//! The scorecard: one line per check for people, or one JSON object per
//! check and a summary for programs.

use std::collections::BTreeMap;
use std::io::{self, Write};

use serde::Serialize;

use mcp_envelope_grade::{Outcome, Verdict};

/// One check's outcome, with what names it.
#[derive(Clone, Debug)]
pub struct Row {
    pub check: &'static str,
    pub rule: &'static str,
    pub outcome: Outcome,
}

/// The checks of one revision.
#[derive(Clone, Debug)]
pub struct Card {
    /// What was probed: the URL, or `stdio: COMMAND`.
    pub target: String,
    pub transport: &'static str,
    pub revision: String,
    /// How the revision was agreed on (`server/discover`, `initialize`).
    pub handshake: &'static str,
    pub rows: Vec<Row>,
}

/// How many checks came out each way.
#[derive(Clone, Copy, Debug, Default, Serialize, PartialEq, Eq)]
pub struct Counts {
    pub pass: usize,
    pub fail: usize,
    pub warn: usize,
    pub skip: usize,
}

impl Counts {
    pub fn add(&mut self, verdict: Verdict) {
        match verdict {
            Verdict::Pass => self.pass += 1,
            Verdict::Fail => self.fail += 1,
            Verdict::Warn => self.warn += 1,
            Verdict::Skip => self.skip += 1,
        }
    }
}

impl Card {
    pub fn counts(&self) -> Counts {
        let mut counts = Counts::default();
        for row in &self.rows {
            counts.add(row.outcome.verdict);
        }
        counts
    }
}

#[derive(Serialize)]
struct CheckLine<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    target: Option<&'a str>,
    transport: &'a str,
    revision: &'a str,
    check: &'a str,
    verdict: &'a str,
    rule: &'a str,
    sent: &'a str,
    expected: &'a str,
    got: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    why: Option<&'a str>,
}

#[derive(Serialize)]
struct SummaryLine<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    target: Option<&'a str>,
    transport: &'a str,
    revision: &'a str,
    handshake: &'a str,
    summary: Counts,
}

/// One JSON line per check, then the summary; `tagged` adds the target.
pub fn json(out: &mut impl Write, card: &Card, tagged: bool) -> io::Result<()> {
    let target = tagged.then_some(card.target.as_str());
    for row in &card.rows {
        let line = CheckLine {
            target,
            transport: card.transport,
            revision: &card.revision,
            check: row.check,
            verdict: row.outcome.verdict.name(),
            rule: row.rule,
            sent: &row.outcome.sent,
            expected: &row.outcome.expected,
            got: &row.outcome.got,
            why: row.outcome.why.as_deref(),
        };
        serde_json::to_writer(&mut *out, &line)?;
        out.write_all(b"\n")?;
    }
    let summary = SummaryLine {
        target,
        transport: card.transport,
        revision: &card.revision,
        handshake: card.handshake,
        summary: card.counts(),
    };
    serde_json::to_writer(&mut *out, &summary)?;
    out.write_all(b"\n")
}

/// The scorecard for people: a line per check, verdict first.
pub fn text(out: &mut impl Write, card: &Card) -> io::Result<()> {
    writeln!(out, "{} over {}, revision {} ({})", card.target, card.transport, card.revision, card.handshake)?;
    let width = card.rows.iter().map(|r| r.check.len()).max().unwrap_or(0);
    for row in &card.rows {
        let o = &row.outcome;
        let verdict = o.verdict.name().to_ascii_uppercase();
        if o.verdict == Verdict::Skip {
            writeln!(
                out,
                "{verdict:<4}  {:<width$}  [{}]  {}",
                row.check,
                row.rule,
                o.why.as_deref().unwrap_or_default()
            )?;
            continue;
        }
        write!(
            out,
            "{verdict:<4}  {:<width$}  [{}]  sent {}  want {}  got {}",
            row.check, row.rule, o.sent, o.expected, o.got
        )?;
        match &o.why {
            Some(why) if o.verdict != Verdict::Pass => writeln!(out, "  ({why})")?,
            _ => writeln!(out)?,
        }
    }
    let c = card.counts();
    writeln!(out, "{} checks: {} pass, {} fail, {} warn, {} skip", card.rows.len(), c.pass, c.fail, c.warn, c.skip)
}

/// The census table: per check, how many servers pass, fail, warn, skip;
/// per server, its score.
pub fn census(out: &mut impl Write, cards: &[Card], unreachable: &[(String, String)]) -> io::Result<()> {
    let mut by_check: BTreeMap<(&str, &str), Counts> = BTreeMap::new();
    let mut order: Vec<&str> = Vec::new();
    for card in cards {
        for row in &card.rows {
            if !order.contains(&row.check) {
                order.push(row.check);
            }
            by_check.entry((row.check, row.rule)).or_default().add(row.outcome.verdict);
        }
    }
    writeln!(out, "| check | rule | pass | fail | warn | skip |")?;
    writeln!(out, "|---|---|---|---|---|---|")?;
    for check in order {
        for ((name, rule), c) in by_check.iter().filter(|((name, _), _)| *name == check) {
            writeln!(out, "| {name} | {rule} | {} | {} | {} | {} |", c.pass, c.fail, c.warn, c.skip)?;
        }
    }
    writeln!(out)?;
    writeln!(out, "| server | transport | revision | score | pass | fail | warn | skip |")?;
    writeln!(out, "|---|---|---|---|---|---|---|---|")?;
    for card in cards {
        let c = card.counts();
        let judged = c.pass + c.fail + c.warn;
        let score = if judged == 0 { 0.0 } else { 100.0 * c.pass as f64 / judged as f64 };
        writeln!(
            out,
            "| {} | {} | {} | {score:.0} % | {} | {} | {} | {} |",
            card.target, card.transport, card.revision, c.pass, c.fail, c.warn, c.skip
        )?;
    }
    for (target, why) in unreachable {
        writeln!(out, "| {target} | - | - | not probed: {why} | | | | |")?;
    }
    Ok(())
}
