//! The scorecard: one line per check for people, or one JSON object per
//! check and a summary for programs.

use std::collections::BTreeMap;
use std::io::{self, Write};

use mcp_envelope_grade::{Outcome, Verdict};

use super::subject::ServerInfo;
use crate::render::json::{self, Object};

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
    /// What the server said it is.
    pub server: Option<ServerInfo>,
    /// What a targets file names the server by (census).
    pub tags: Vec<(String, String)>,
    pub rows: Vec<Row>,
}

/// How many checks came out each way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
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

/// The members every line of a server starts with: its name, and the
/// tags a targets file gave it.
fn head(o: &mut Object<'_>, server: &str, tags: &[(String, String)]) {
    o.str("server", server);
    for (name, value) in tags {
        o.str_named(name, value);
    }
}

/// One JSON line per check, then the summary (with what the server said
/// it is).
pub fn json(out: &mut impl Write, card: &Card) -> io::Result<()> {
    for row in &card.rows {
        out.write_all(&json::line(|o| {
            head(o, &card.target, &card.tags);
            o.str("transport", card.transport);
            o.str("revision", &card.revision);
            o.str("check", row.check);
            o.str("verdict", row.outcome.verdict.name());
            o.str("rule", row.rule);
            o.str("sent", &row.outcome.sent);
            o.str("expected", &row.outcome.expected);
            o.str("got", &row.outcome.got);
            o.some_str("why", row.outcome.why.as_deref());
        }))?;
    }
    let counts = card.counts();
    out.write_all(&json::line(|o| {
        head(o, &card.target, &card.tags);
        o.str("transport", card.transport);
        o.str("revision", &card.revision);
        o.str("handshake", card.handshake);
        match &card.server {
            Some(info) => {
                let mut server = o.object("serverInfo");
                server.str("name", &info.name);
                server.str("version", &info.version);
                server.close();
            }
            None => o.null("serverInfo"),
        }
        let mut summary = o.object("summary");
        summary.uint("pass", counts.pass as u64);
        summary.uint("fail", counts.fail as u64);
        summary.uint("warn", counts.warn as u64);
        summary.uint("skip", counts.skip as u64);
        summary.close();
    }))
}

/// The line of a server that could not be probed at all, and why.
pub fn unreachable_json(out: &mut impl Write, server: &str, tags: &[(String, String)], why: &str) -> io::Result<()> {
    out.write_all(&json::line(|o| {
        head(o, server, tags);
        o.str("unreachable", why);
    }))
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

/// The scorecards as JUnit XML, for a CI's test report: a suite per
/// scorecard, a test case per check; a `fail` is a failure, a `skip`
/// skipped, a `warn` passes with its verdict and why as properties and
/// in its output. A server that could not be probed is a suite whose one
/// case, `handshake`, is an error.
pub fn junit(out: &mut impl Write, cards: &[Card], unreachable: &[(String, String)]) -> io::Result<()> {
    let mut total = Counts::default();
    for card in cards {
        for row in &card.rows {
            total.add(row.outcome.verdict);
        }
    }
    let tests = total.pass + total.fail + total.warn + total.skip + unreachable.len();
    writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
    writeln!(
        out,
        r#"<testsuites name="mcp-envelope probe" tests="{tests}" failures="{}" errors="{}" skipped="{}">"#,
        total.fail,
        unreachable.len(),
        total.skip
    )?;
    for card in cards {
        let c = card.counts();
        let name = format!("{} ({}, {})", card.target, card.transport, card.revision);
        writeln!(
            out,
            r#"  <testsuite name="{}" tests="{}" failures="{}" skipped="{}">"#,
            xml(&name),
            card.rows.len(),
            c.fail,
            c.skip
        )?;
        let mut properties: Vec<(String, String)> = card.tags.clone();
        if let Some(info) = &card.server {
            properties.push(("serverInfo".into(), format!("{} {}", info.name, info.version)));
        }
        properties.push(("handshake".into(), card.handshake.into()));
        writeln!(out, "    <properties>")?;
        for (key, value) in &properties {
            writeln!(out, r#"      <property name="{}" value="{}"/>"#, xml(key), xml(value))?;
        }
        writeln!(out, "    </properties>")?;
        for row in &card.rows {
            let o = &row.outcome;
            let classname = format!("probe.{}.{}", card.transport, card.revision);
            write!(out, r#"    <testcase classname="{}" name="{}""#, xml(&classname), xml(row.check))?;
            let why = o.why.as_deref().unwrap_or_default();
            let detail = format!("rule {}\nsent {}\nwant {}\ngot {}", row.rule, o.sent, o.expected, o.got);
            match o.verdict {
                Verdict::Pass => writeln!(out, "/>")?,
                Verdict::Fail => writeln!(
                    out,
                    ">\n      <failure message=\"{}\" type=\"{}\">{}</failure>\n    </testcase>",
                    xml(why),
                    xml(row.rule),
                    xml(&detail)
                )?,
                Verdict::Skip => writeln!(out, ">\n      <skipped message=\"{}\"/>\n    </testcase>", xml(why))?,
                Verdict::Warn => writeln!(
                    out,
                    ">\n      <properties>\n        <property name=\"verdict\" value=\"warn\"/>\n        \
                     <property name=\"why\" value=\"{}\"/>\n      </properties>\n      \
                     <system-out>warn: {}\n{}</system-out>\n    </testcase>",
                    xml(why),
                    xml(why),
                    xml(&detail)
                )?,
            }
        }
        writeln!(out, "  </testsuite>")?;
    }
    for (server, why) in unreachable {
        writeln!(out, r#"  <testsuite name="{}" tests="1" errors="1">"#, xml(server))?;
        writeln!(
            out,
            "    <testcase classname=\"probe\" name=\"handshake\">\n      <error message=\"{}\"/>\n    </testcase>",
            xml(why)
        )?;
        writeln!(out, "  </testsuite>")?;
    }
    writeln!(out, "</testsuites>")
}

/// Text for an XML attribute or element: the five special characters
/// escaped, and the characters XML 1.0 forbids (controls other than tab,
/// line feed and carriage return) replaced.
fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card() -> Card {
        let outcome = |verdict: Verdict, why: Option<&str>| Outcome {
            verdict,
            sent: "POST <x> & \"y\"".into(),
            expected: "error -32700".into(),
            got: "200 \u{1}".into(),
            why: why.map(str::to_owned),
        };
        Card {
            target: "stdio: server --x".into(),
            transport: "stdio",
            revision: "2025-11-25".into(),
            handshake: "initialize",
            server: Some(ServerInfo { name: "srv".into(), version: "1.0".into() }),
            tags: vec![("family".into(), "python-sdk".into())],
            rows: vec![
                Row { check: "a", rule: "r", outcome: outcome(Verdict::Pass, None) },
                Row { check: "b", rule: "r", outcome: outcome(Verdict::Fail, Some("no error came")) },
                Row { check: "c", rule: "r", outcome: outcome(Verdict::Warn, Some("a SHOULD")) },
                Row { check: "d", rule: "r", outcome: outcome(Verdict::Skip, Some("not here")) },
            ],
        }
    }

    #[test]
    fn junit_has_a_case_per_check_a_failure_per_fail_a_skip_per_skip_and_escapes_what_it_quotes() {
        let mut out = Vec::new();
        junit(&mut out, &[card()], &[("http://127.0.0.1:1/mcp".into(), "no handshake".into())]).unwrap_or_default();
        let text = String::from_utf8_lossy(&out);
        assert!(text.contains(r#"tests="5" failures="1" errors="1" skipped="1""#), "{text}");
        assert_eq!(text.matches("<testcase ").count(), 5, "{text}");
        assert!(text.contains(r#"<failure message="no error came" type="r">"#), "{text}");
        assert!(text.contains(r#"<skipped message="not here"/>"#), "{text}");
        assert!(text.contains(r#"<property name="verdict" value="warn"/>"#), "{text}");
        assert!(text.contains("POST &lt;x&gt; &amp; &quot;y&quot;") && text.contains("200 \u{FFFD}"), "{text}");
        assert!(text.contains(r#"<property name="serverInfo" value="srv 1.0"/>"#), "{text}");
        assert!(text.contains(r#"<error message="no handshake"/>"#), "{text}");
    }

    #[test]
    fn json_lines_name_the_server_its_tags_and_what_it_said_it_is() {
        let mut out = Vec::new();
        json(&mut out, &card()).unwrap_or_default();
        let lines: Vec<serde_json::Value> =
            String::from_utf8_lossy(&out).lines().map(|l| serde_json::from_str(l).unwrap_or_default()).collect();
        assert_eq!(lines.len(), 5);
        assert!(lines.iter().all(|l| l["server"] == "stdio: server --x" && l["family"] == "python-sdk"), "{lines:?}");
        let summary = &lines[4];
        assert_eq!(summary["serverInfo"], serde_json::json!({"name": "srv", "version": "1.0"}));
        assert_eq!(summary["summary"], serde_json::json!({"pass": 1, "fail": 1, "warn": 1, "skip": 1}));
    }
}
