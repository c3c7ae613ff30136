//! The exchange seeds (`corpus/exchange`) are held to the findings each was
//! written for, listed in `corpus/exchange/FINDINGS`: one for each rule a
//! server or client breaks, and one for each conforming refusal, which
//! must give none of the server's.

use std::collections::BTreeMap;

use mcp_envelope_check as check;

use crate::support::root;

#[test]
fn every_exchange_seed_gives_the_findings_it_was_written_for() {
    let dir = root().join("corpus/exchange");
    let listed = std::fs::read_to_string(dir.join("FINDINGS")).unwrap();
    let mut expected = BTreeMap::new();
    for line in listed.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')) {
        let (name, findings) = line.split_once(':').unwrap();
        let findings: Vec<String> = findings.split_whitespace().filter(|f| *f != "-").map(str::to_owned).collect();
        expected.insert(name.trim().to_owned(), findings);
    }
    let mut seen = BTreeMap::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()).and_then(|n| n.strip_suffix(".exchange")) else {
            continue;
        };
        let input = std::fs::read(&path).unwrap();
        let found: Vec<String> = check::exchange_findings(&input).iter().map(|f| f.rule.name().to_owned()).collect();
        seen.insert(name.to_owned(), found);
    }
    if std::env::var_os("MCP_ENVELOPE_PRINT_FINDINGS").is_some() {
        for (name, found) in &seen {
            println!("{name}: {}", if found.is_empty() { "-".to_owned() } else { found.join(" ") });
        }
    }
    assert_eq!(seen, expected, "corpus/exchange/FINDINGS is not what the seeds give");
}
