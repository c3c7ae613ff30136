//! `--expected-failures FILE`, for a server author's CI: the checks the
//! server is known to fail, one name a line, optionally after a revision
//! and a transport (`2025-11-25 stdio id-null`: only there), `#` for
//! comments. With it the probe exits 0 when no other check fails, 1 when
//! one does, and notes each listed check that now passes.

use super::catalogue::CHECKS;
use super::report::Card;
use mcp_envelope::Revision;
use mcp_envelope_grade::Verdict;

/// One listed check.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Entry {
    revision: Option<String>,
    transport: Option<String>,
    check: String,
}

impl Entry {
    fn covers(&self, card: &Card, check: &str) -> bool {
        self.check == check
            && self.revision.as_ref().is_none_or(|r| *r == card.revision)
            && self.transport.as_ref().is_none_or(|t| t == card.transport)
    }

    fn shown(&self) -> String {
        match (&self.revision, &self.transport) {
            (Some(revision), Some(transport)) => format!("{revision} {transport} {}", self.check),
            _ => self.check.clone(),
        }
    }
}

/// The listed checks.
#[derive(Clone, Debug, Default)]
pub struct Baseline {
    entries: Vec<Entry>,
}

/// What the scorecards say against a baseline.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Against {
    /// Failures the baseline does not list: `revision transport check`.
    pub unexpected: Vec<String>,
    /// Listed checks that ran and did not fail.
    pub now_passing: Vec<String>,
}

impl Baseline {
    /// Reads a baseline; an unknown check, revision or transport is an
    /// error with its line (a typo would silently list nothing).
    pub fn parse(text: &str) -> Result<Baseline, String> {
        let mut entries = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or_default().trim();
            if line.is_empty() {
                continue;
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            let entry = match words.as_slice() {
                [check] => Entry { revision: None, transport: None, check: (*check).to_owned() },
                [revision, transport, check] => {
                    let known = revision.parse::<Revision>().is_ok_and(Revision::is_mcp);
                    if !known {
                        return Err(format!("line {}: {revision:?} is no MCP revision", n + 1));
                    }
                    if !matches!(*transport, "stdio" | "http") {
                        return Err(format!("line {}: {transport:?} is neither stdio nor http", n + 1));
                    }
                    Entry {
                        revision: Some((*revision).to_owned()),
                        transport: Some((*transport).to_owned()),
                        check: (*check).to_owned(),
                    }
                }
                _ => return Err(format!("line {}: give a check, or a revision, a transport and a check", n + 1)),
            };
            if !CHECKS.iter().any(|c| c.name == entry.check) {
                return Err(format!("line {}: {:?} is no check of the probe", n + 1, entry.check));
            }
            entries.push(entry);
        }
        Ok(Baseline { entries })
    }

    pub fn against(&self, cards: &[Card]) -> Against {
        let mut against = Against::default();
        // Each entry: whether a check it lists ran, and whether one failed.
        let mut seen = vec![(false, false); self.entries.len()];
        for card in cards {
            for row in &card.rows {
                let failed = row.outcome.verdict == Verdict::Fail;
                let mut listed = false;
                for (entry, (ran, any_failed)) in self.entries.iter().zip(seen.iter_mut()) {
                    if entry.covers(card, row.check) {
                        listed = true;
                        *ran = true;
                        *any_failed |= failed;
                    }
                }
                if failed && !listed {
                    against.unexpected.push(format!("{} {} {}", card.revision, card.transport, row.check));
                }
            }
        }
        for (entry, (ran, failed)) in self.entries.iter().zip(seen) {
            if ran && !failed {
                against.now_passing.push(entry.shown());
            }
        }
        against
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::probe::report::Row;
    use mcp_envelope_grade::Outcome;

    fn card(revision: &str, transport: &'static str, verdicts: &[(&'static str, Verdict)]) -> Card {
        Card {
            target: "t".into(),
            transport,
            revision: revision.into(),
            handshake: "initialize",
            server: None,
            tags: Vec::new(),
            rows: verdicts
                .iter()
                .map(|(check, verdict)| Row {
                    check,
                    rule: "r",
                    outcome: Outcome { verdict: *verdict, ..Outcome::skip("") },
                })
                .collect(),
        }
    }

    #[test]
    fn only_failures_the_baseline_does_not_list_are_unexpected_and_listed_passes_are_noted() {
        let baseline =
            Baseline::parse("# known\nid-null\n2025-11-25 stdio batch-empty  # this one only there\n\nid-object\n")
                .unwrap_or_default();
        let cards = [
            card("2025-11-25", "stdio", &[("id-null", Verdict::Fail), ("batch-empty", Verdict::Fail)]),
            card("2025-11-25", "http", &[("batch-empty", Verdict::Fail), ("id-object", Verdict::Pass)]),
        ];
        let against = baseline.against(&cards);
        assert_eq!(against.unexpected, ["2025-11-25 http batch-empty"]);
        assert_eq!(against.now_passing, ["id-object"]);
    }

    #[test]
    fn a_baseline_naming_no_check_or_revision_is_refused_with_its_line() {
        for (text, why) in [
            ("id-nul", "line 1: \"id-nul\" is no check"),
            ("# x\n2025-11-26 stdio id-null", "line 2: \"2025-11-26\" is no MCP revision"),
            ("2025-11-25 tcp id-null", "line 1: \"tcp\" is neither"),
            ("2025-11-25 id-null", "line 1: give a check"),
        ] {
            let error = Baseline::parse(text).err().unwrap_or_default();
            assert!(error.starts_with(why), "{text}: {error}");
        }
    }
}
