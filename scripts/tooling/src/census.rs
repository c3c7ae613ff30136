//! The census report: the probe's JSON lines of every server the census
//! probed (scripts/census.sh) as the tables of docs/census.md, written
//! between its markers so that the hand-written review around them stays.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

/// Where the generated tables begin and end in docs/census.md.
pub const BEGIN: &str = "<!-- census: tables, written by scripts/census.sh -->";
pub const END: &str = "<!-- census: end of the tables -->";

/// How many checks came out each way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub pass: u64,
    pub fail: u64,
    pub warn: u64,
    pub skip: u64,
}

impl Counts {
    fn add(&mut self, verdict: &str) {
        match verdict {
            "pass" => self.pass += 1,
            "fail" => self.fail += 1,
            "warn" => self.warn += 1,
            _ => self.skip += 1,
        }
    }

    fn of(summary: &Value) -> Counts {
        let n = |key: &str| summary.get(key).and_then(Value::as_u64).unwrap_or(0);
        Counts { pass: n("pass"), fail: n("fail"), warn: n("warn"), skip: n("skip") }
    }
}

/// One scorecard: a server over one transport under one revision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Card {
    pub name: String,
    pub package: String,
    pub version: String,
    pub family: String,
    pub library: String,
    pub transport: String,
    pub revision: String,
    pub server_info: String,
    pub counts: Counts,
    /// The checks that failed.
    pub failed: BTreeSet<String>,
}

/// A server, over one transport, that was not probed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotProbed {
    pub name: String,
    pub package: String,
    pub family: String,
    pub why: String,
}

/// What a census found.
#[derive(Debug, Default)]
pub struct Census {
    pub cards: Vec<Card>,
    pub not_probed: Vec<NotProbed>,
    /// Per check and rule, in the order the checks first came.
    pub checks: Vec<(String, String, Counts)>,
}

fn text(line: &Value, key: &str) -> String {
    line.get(key).and_then(Value::as_str).unwrap_or_default().to_owned()
}

/// Reads the census's JSON lines.
pub fn read(lines: &str) -> Result<Census, String> {
    let mut census = Census::default();
    // The checks of the scorecard being read, per server, transport, revision.
    let mut failed: BTreeMap<(String, String, String), BTreeSet<String>> = BTreeMap::new();
    for (n, line) in lines.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let line: Value = serde_json::from_str(line).map_err(|e| format!("line {}: {e}", n + 1))?;
        let name = text(&line, "name");
        if let Some(why) = line.get("unreachable").and_then(Value::as_str) {
            let transport = match text(&line, "transport").as_str() {
                "" if text(&line, "server").starts_with("stdio:") => "stdio".to_owned(),
                "" => "http".to_owned(),
                transport => transport.to_owned(),
            };
            let why = why.strip_prefix("not probed: ").unwrap_or(why);
            census.not_probed.push(NotProbed {
                name: format!("{name} ({transport})"),
                package: format!("{}@{}", text(&line, "package"), text(&line, "version")),
                family: text(&line, "family"),
                why: why.to_owned(),
            });
            continue;
        }
        let key = (name.clone(), text(&line, "transport"), text(&line, "revision"));
        if let Some(check) = line.get("check").and_then(Value::as_str) {
            let verdict = text(&line, "verdict");
            let rule = text(&line, "rule");
            match census.checks.iter_mut().find(|(c, r, _)| c == check && *r == rule) {
                Some((_, _, counts)) => counts.add(&verdict),
                None => {
                    let mut counts = Counts::default();
                    counts.add(&verdict);
                    census.checks.push((check.to_owned(), rule, counts));
                }
            }
            if verdict == "fail" {
                failed.entry(key).or_default().insert(check.to_owned());
            }
            continue;
        }
        let Some(summary) = line.get("summary") else { continue };
        let info = line
            .get("serverInfo")
            .filter(|v| v.is_object())
            .map_or_else(String::new, |i| format!("{} {}", text(i, "name"), text(i, "version")).trim().to_owned());
        census.cards.push(Card {
            package: text(&line, "package"),
            version: text(&line, "version"),
            family: text(&line, "family"),
            library: text(&line, "library"),
            transport: key.1.clone(),
            revision: key.2.clone(),
            server_info: info,
            counts: Counts::of(summary),
            failed: failed.remove(&key).unwrap_or_default(),
            name,
        });
    }
    census.cards.sort_by(|a, b| {
        (&a.family, &a.name, &a.transport, &a.revision).cmp(&(&b.family, &b.name, &b.transport, &b.revision))
    });
    census.not_probed.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(census)
}

fn score(c: &Counts) -> String {
    let judged = c.pass + c.fail + c.warn;
    if judged == 0 { "-".to_owned() } else { format!("{:.0} %", 100.0 * c.pass as f64 / judged as f64) }
}

/// The tables: the headline, per server, per check, per family, and the
/// servers not probed.
pub fn render(census: &Census, run: &str) -> String {
    let servers: BTreeSet<&str> = census.cards.iter().map(|c| c.name.as_str()).collect();
    let families: BTreeSet<&str> = census.cards.iter().map(|c| c.family.as_str()).collect();
    let over = |transport: &str| {
        census.cards.iter().filter(|c| c.transport == transport).map(|c| c.name.as_str()).collect::<BTreeSet<_>>().len()
    };
    let mut total = Counts::default();
    for card in &census.cards {
        total.pass += card.counts.pass;
        total.fail += card.counts.fail;
        total.warn += card.counts.warn;
        total.skip += card.counts.skip;
    }
    let mut out = String::new();
    out.push_str(&format!(
        "**{} servers probed** ({} over stdio, {} over Streamable HTTP) from {} families, {} scorecards \
         (one per server, transport and revision it accepts), {} checks run: {} pass, {} fail, {} warn, {} skip; \
         {} servers or transports not probed. {run}\n\n",
        servers.len(),
        over("stdio"),
        over("http"),
        families.len(),
        census.cards.len(),
        total.pass + total.fail + total.warn + total.skip,
        total.pass,
        total.fail,
        total.warn,
        total.skip,
        census.not_probed.len(),
    ));
    out.push_str("### Per server\n\n");
    out.push_str("| server | package | family | library | serverInfo | transport | revision | pass | fail | warn | skip | score |\n");
    out.push_str("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for c in &census.cards {
        out.push_str(&format!(
            "| {} | {}@{} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            c.name,
            c.package,
            c.version,
            c.family,
            c.library,
            if c.server_info.is_empty() { "-" } else { &c.server_info },
            c.transport,
            c.revision,
            c.counts.pass,
            c.counts.fail,
            c.counts.warn,
            c.counts.skip,
            score(&c.counts)
        ));
    }
    out.push_str("\n### Per check\n\nHow many scorecards pass, fail, warn on or skip each check.\n\n");
    out.push_str("| check | rule | pass | fail | warn | skip |\n|---|---|---|---|---|---|\n");
    for (check, rule, c) in &census.checks {
        out.push_str(&format!("| `{check}` | `{rule}` | {} | {} | {} | {} |\n", c.pass, c.fail, c.warn, c.skip));
    }
    out.push_str(
        "\n### Per family\n\nThe checks every scorecard of a family fails, and its servers' median score.\n\n",
    );
    out.push_str(
        "| family | servers | scorecards | median score | failed by every scorecard |\n|---|---|---|---|---|\n",
    );
    for family in &families {
        let cards: Vec<&Card> = census.cards.iter().filter(|c| c.family == *family).collect();
        let names: BTreeSet<&str> = cards.iter().map(|c| c.name.as_str()).collect();
        let mut common: Option<BTreeSet<String>> = None;
        for card in &cards {
            common = Some(match common {
                None => card.failed.clone(),
                Some(so_far) => so_far.intersection(&card.failed).cloned().collect(),
            });
        }
        let mut scores: Vec<f64> = cards
            .iter()
            .filter_map(|c| {
                let judged = c.counts.pass + c.counts.fail + c.counts.warn;
                (judged > 0).then(|| 100.0 * c.counts.pass as f64 / judged as f64)
            })
            .collect();
        scores.sort_by(f64::total_cmp);
        let median = scores.get(scores.len() / 2).map_or_else(|| "-".to_owned(), |s| format!("{s:.0} %"));
        let common: Vec<String> = common.unwrap_or_default().into_iter().map(|c| format!("`{c}`")).collect();
        out.push_str(&format!(
            "| {family} | {} | {} | {median} | {} |\n",
            names.len(),
            cards.len(),
            if common.is_empty() { "-".to_owned() } else { common.join(", ") }
        ));
    }
    out.push_str("\n### Not probed\n\n");
    if census.not_probed.is_empty() {
        out.push_str("None.\n");
    } else {
        out.push_str("| server | package | family | why |\n|---|---|---|---|\n");
        for n in &census.not_probed {
            out.push_str(&format!("| {} | {} | {} | {} |\n", n.name, n.package, n.family, n.why.replace('|', "\\|")));
        }
    }
    out
}

/// `document` with its generated part, between the markers, replaced.
pub fn splice(document: &str, tables: &str) -> Result<String, String> {
    let begin = document.find(BEGIN).ok_or("the document has no begin marker")?;
    let end = document.find(END).ok_or("the document has no end marker")?;
    if end < begin {
        return Err("the end marker comes before the begin marker".to_owned());
    }
    let head = document.get(..begin + BEGIN.len()).unwrap_or_default();
    let tail = document.get(end..).unwrap_or_default();
    Ok(format!("{head}\n\n{}\n{tail}", tables.trim_end()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINES: &str = concat!(
        r#"{"server":"stdio: a","name":"a","package":"pa","version":"1","family":"f1","library":"l","transport":"stdio","revision":"2025-11-25","check":"x","verdict":"fail","rule":"r"}"#,
        "\n",
        r#"{"server":"stdio: a","name":"a","package":"pa","version":"1","family":"f1","library":"l","transport":"stdio","revision":"2025-11-25","check":"y","verdict":"pass","rule":"r"}"#,
        "\n",
        r#"{"server":"stdio: a","name":"a","package":"pa","version":"1","family":"f1","library":"l","transport":"stdio","revision":"2025-11-25","handshake":"initialize","serverInfo":{"name":"srv","version":"9"},"summary":{"pass":1,"fail":1,"warn":0,"skip":0}}"#,
        "\n",
        r#"{"server":"http://127.0.0.1:1/mcp","name":"b","package":"pb","version":"2","family":"f2","unreachable":"no handshake with it"}"#,
        "\n",
        r#"{"name":"c","package":"pc","version":"3","family":"f1","transport":"stdio","unreachable":"not probed: broken as published"}"#,
        "\n",
    );

    #[test]
    fn the_lines_make_scorecards_with_their_failed_checks_and_the_servers_not_probed() {
        let census = read(LINES).unwrap();
        assert_eq!(census.cards.len(), 1);
        let card = &census.cards[0];
        assert_eq!((card.name.as_str(), card.server_info.as_str()), ("a", "srv 9"));
        assert_eq!(card.failed.iter().collect::<Vec<_>>(), ["x"]);
        assert_eq!(card.counts, Counts { pass: 1, fail: 1, warn: 0, skip: 0 });
        assert_eq!(census.not_probed.len(), 2);
        assert_eq!(census.not_probed[0].name, "b (http)");
        assert_eq!(census.not_probed[1].why, "broken as published");
        assert_eq!(census.checks.len(), 2);
    }

    #[test]
    fn the_tables_give_the_headline_each_server_each_check_and_each_family() {
        let tables = render(&read(LINES).unwrap(), "Run: 1 s.");
        assert!(
            tables.starts_with("**1 servers probed** (1 over stdio, 0 over Streamable HTTP) from 1 families"),
            "{tables}"
        );
        assert!(
            tables.contains("| a | pa@1 | f1 | l | srv 9 | stdio | 2025-11-25 | 1 | 1 | 0 | 0 | 50 % |"),
            "{tables}"
        );
        assert!(tables.contains("| `x` | `r` | 0 | 1 | 0 | 0 |"), "{tables}");
        assert!(tables.contains("| f1 | 1 | 1 | 50 % | `x` |"), "{tables}");
        assert!(tables.contains("| c (stdio) | pc@3 | f1 | broken as published |"), "{tables}");
    }

    #[test]
    fn the_tables_go_between_the_markers_and_nothing_else_changes() {
        let document = format!("# Census\n\nintro\n\n{BEGIN}\n\nold\n{END}\n\nreview\n");
        let spliced = splice(&document, "new tables\n").unwrap();
        assert_eq!(spliced, format!("# Census\n\nintro\n\n{BEGIN}\n\nnew tables\n{END}\n\nreview\n"));
        assert!(splice("no markers", "x").is_err());
    }
}
