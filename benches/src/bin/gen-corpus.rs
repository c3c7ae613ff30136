//! Writes the committed corpus: `corpus/realistic/*.jsonl`,
//! `corpus/adversarial/*`, and the statistics in `corpus/README.md`.
//!
//!     cargo run --release -p mcp-envelope-benches --bin gen-corpus
//!
//! Deterministic: the same bytes on every run. Messages over 1 MiB are not
//! written (the benchmarks build them in memory from the same generator).

#![allow(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a generator and harness over fixed data, not input-facing"
)]

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs;

use mcp_envelope_benches::{SizeClass, adversarial, realistic, workspace_root};

const COMMIT_LIMIT: usize = 1024 * 1024;

fn main() -> std::io::Result<()> {
    let root = workspace_root().join("corpus");
    fs::create_dir_all(root.join("realistic"))?;
    fs::create_dir_all(root.join("adversarial"))?;

    let samples = realistic::generate();
    let mut files: BTreeMap<&str, Vec<u8>> = BTreeMap::new();
    // (class, label) -> (count, bytes)
    let mut mix: BTreeMap<(SizeClass, String), (usize, usize)> = BTreeMap::new();
    let mut left_out = Vec::new();
    for s in &samples {
        let class = SizeClass::of(s.bytes.len());
        let entry = mix.entry((class, s.label.clone())).or_default();
        entry.0 += 1;
        entry.1 += s.bytes.len();
        if s.bytes.len() > COMMIT_LIMIT {
            left_out.push((s.label.clone(), s.bytes.len()));
            continue;
        }
        let file = files.entry(class.name()).or_default();
        file.extend(&s.bytes);
        file.push(b'\n');
    }
    for (class, bytes) in &files {
        fs::write(root.join("realistic").join(format!("{class}.jsonl")), bytes)?;
    }

    let mut readme = String::from(README_HEAD);
    let _ = writeln!(readme, "## The realistic mix\n\n{} messages from `realistic::generate()`.\n", samples.len());
    let _ = writeln!(readme, "| class | message | count | bytes |\n|---|---|---|---|");
    let mut totals: BTreeMap<SizeClass, (usize, usize)> = BTreeMap::new();
    for ((class, label), (count, bytes)) in &mix {
        let _ = writeln!(readme, "| {} | {label} | {count} | {bytes} |", class.name());
        let t = totals.entry(*class).or_default();
        t.0 += count;
        t.1 += bytes;
    }
    for (class, (count, bytes)) in &totals {
        let _ = writeln!(readme, "| **{}** | **all** | **{count}** | **{bytes}** |", class.name());
    }
    let _ = writeln!(readme, "\nNot committed (over 1 MiB; built at bench time): {}.\n", describe(&left_out));

    let _ = writeln!(
        readme,
        "## The adversarial cases\n\n| case | bytes | revision | expected | committed |\n|---|---|---|---|---|"
    );
    for case in adversarial::small().into_iter().chain(adversarial::large()) {
        let committed = case.bytes.len() <= COMMIT_LIMIT;
        if committed {
            let ext = if case.name == "html-page" { "html" } else { "json" };
            fs::write(root.join("adversarial").join(format!("{}.{ext}", case.name)), &case.bytes)?;
        }
        let _ = writeln!(
            readme,
            "| {} | {} | {} | {:?} | {} |",
            case.name,
            case.bytes.len(),
            case.revision,
            case.expect,
            if committed { "yes" } else { "no, built at bench time" }
        );
    }
    fs::write(root.join("README.md"), readme)?;
    println!("wrote corpus/ ({} realistic messages)", samples.len());
    Ok(())
}

fn describe(items: &[(String, usize)]) -> String {
    if items.is_empty() {
        return "nothing".into();
    }
    items.iter().map(|(label, len)| format!("{label} of {len} bytes")).collect::<Vec<_>>().join(", ")
}

const README_HEAD: &str = "# Corpus

Realistic and adversarial MCP messages for the benchmarks, the fuzz seed
corpora and `mcp-envelope check`. Everything here is written by a
deterministic generator with a fixed seed (`benches/src/`), so anyone can
regenerate it byte for byte:

    cargo run --release -p mcp-envelope-benches --bin gen-corpus

A test (`benches/tests/corpus.rs`) fails if these files and the generator
drift apart. The benchmarks build every class in memory from the same code,
including the inputs too large to commit.

- `realistic/small.jsonl`, `medium.jsonl`, `large.jsonl`: one message per
  line, by size class (under 1 KiB, 1 to 64 KiB, over 64 KiB).
- `adversarial/`: one input per file, each with the verdict it must get.

Sources: the tool definitions are GitHub's (`testdata/github-mcp-server-toolsnaps/`,
MIT), and the spec examples are MCP 2026-07-28's (`testdata/mcp-spec/`,
MIT / Apache-2.0); see `testdata/README.md`. The rest is generated.

";
