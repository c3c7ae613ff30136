//! The fuzz targets' checks under plain `cargo test`: bolero runs each on
//! random input for a bounded time (MCP_ENVELOPE_PROPERTY_SECONDS, default
//! 2), and every regression file and seed file is replayed through its
//! target's check.

use std::time::Duration;

use mcp_envelope::backend::{SerdeJson, SimdJson};
use mcp_envelope::{Parser, Revision};
use mcp_envelope_check as check;

use crate::support::{files, root};

fn budget() -> Duration {
    let seconds = std::env::var("MCP_ENVELOPE_PROPERTY_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(2.0);
    Duration::from_secs_f64(seconds)
}

#[test]
fn property_parse_serde() {
    bolero::check!().with_test_time(budget()).for_each(check::parse_serde);
}

#[test]
fn property_parse_simd() {
    bolero::check!().with_test_time(budget()).for_each(check::parse_simd);
}

#[test]
fn property_differential() {
    bolero::check!().with_test_time(budget()).for_each(check::differential);
}

#[test]
fn property_structured() {
    // Raw bytes decoded by `arbitrary`, exactly as libFuzzer feeds the
    // target (bolero's own `with_arbitrary` adapter generates nothing for a
    // recursive type like `Sketch`).
    bolero::check!().with_test_time(budget()).for_each(check::structured_bytes);
}

#[test]
fn property_stream() {
    bolero::check!().with_test_time(budget()).for_each(check::stream);
}

#[test]
fn property_sse() {
    bolero::check!().with_test_time(budget()).for_each(check::sse);
}

#[test]
fn property_exchange() {
    bolero::check!().with_test_time(budget()).for_each(check::exchange);
}

#[test]
fn property_ids() {
    bolero::check!().with_test_time(budget()).for_each(check::ids);
}

#[test]
fn property_grade() {
    bolero::check!().with_test_time(budget()).for_each(check::grade);
}

/// The check each fuzz target runs, by target name.
fn target(name: &str) -> Option<fn(&[u8])> {
    Some(match name {
        "parse_serde" => check::parse_serde,
        "parse_simd" => check::parse_simd,
        "differential" => check::differential,
        "structured" => check::structured_bytes,
        "stream" => check::stream,
        "sse" => check::sse,
        "exchange" => check::exchange,
        "ids" => check::ids,
        "grade" => check::grade,
        _ => return None,
    })
}

/// The byte-level checks that take a configuration, by target name.
fn target_under(name: &str) -> Option<fn(&[u8], usize)> {
    Some(match name {
        "parse_serde" => check::parse_serde_under,
        "parse_simd" => check::parse_simd_under,
        "differential" => check::differential_under,
        _ => return None,
    })
}

fn regressions() -> std::path::PathBuf {
    root().join("fuzz/regressions")
}

#[test]
fn every_regression_file_is_replayed_through_its_target_and_has_a_note() {
    let root = regressions();
    for name in ["parse_serde", "parse_simd", "differential", "structured", "stream", "sse", "exchange", "ids", "grade"]
    {
        assert!(root.join(name).join("NOTES.md").is_file(), "fuzz/regressions/{name}/NOTES.md is missing");
    }
    for dir in std::fs::read_dir(&root).unwrap() {
        let dir = dir.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let check = target(&name).unwrap_or_else(|| panic!("fuzz/regressions/{name}: no such target"));
        let notes = std::fs::read_to_string(dir.join("NOTES.md")).unwrap_or_default();
        for (file, bytes) in files(&dir).into_iter().filter(|(f, _)| f != "NOTES.md") {
            assert!(notes.contains(&format!("`{file}`")), "fuzz/regressions/{name}/{file} has no note in NOTES.md");
            // Under the configuration the fuzzer chose, and every other.
            check(&bytes);
            if let Some(under) = target_under(&name) {
                (0..check::CONFIGURATIONS).for_each(|index| under(&bytes, index));
            }
        }
    }
}

#[test]
fn seed_files_pass_every_byte_level_check() {
    let mut seeds = files(&root().join("testdata").join("jsontestsuite/test_parsing"));
    let examples = root().join("testdata").join("mcp-spec/2026-07-28/examples");
    for dir in std::fs::read_dir(examples).unwrap() {
        seeds.extend(files(&dir.unwrap().path()));
    }
    // Every seed under every configuration (revision and limits), not only
    // the one it selects when fuzzed.
    for (name, bytes) in &seeds {
        for check in [check::parse_serde_under, check::parse_simd_under, check::differential_under] {
            for index in 0..check::CONFIGURATIONS {
                let run = std::panic::catch_unwind(|| check(bytes, index));
                assert!(run.is_ok(), "{name} under configuration {index}");
            }
        }
    }
}

#[test]
fn the_event_stream_and_exchange_seeds_pass_their_checks() {
    let corpus = root().join("corpus");
    let mut streams = files(&corpus.join("sse/realistic"));
    streams.extend(files(&corpus.join("sse/adversarial")));
    streams.extend(files(&corpus.join("sse/captured")));
    assert!(streams.len() >= 10, "corpus/sse holds {} streams", streams.len());
    for (name, stream) in streams.iter().filter(|(n, _)| n.ends_with(".sse")) {
        // Under a small limit and a large one, and two chunkings.
        for config in [[7u8, 1], [63, 200]] {
            let input = [&config[..], stream].concat();
            assert!(std::panic::catch_unwind(|| check::sse(&input)).is_ok(), "corpus/sse {name} {config:?}");
        }
    }
    let exchanges: Vec<_> =
        files(&corpus.join("exchange")).into_iter().filter(|(n, _)| n.ends_with(".exchange")).collect();
    assert!(exchanges.len() >= 8, "corpus/exchange holds {} exchanges", exchanges.len());
    for (name, input) in &exchanges {
        assert!(std::panic::catch_unwind(|| check::exchange(input)).is_ok(), "corpus/exchange {name}");
    }
}

#[test]
fn the_captured_stdio_traffic_is_valid_to_every_backend() {
    let corpus = root().join("corpus/stdio");
    let captured: Vec<_> = files(&corpus).into_iter().filter(|(n, _)| n.ends_with(".jsonl")).collect();
    assert!(captured.len() >= 8, "corpus/stdio holds {} files", captured.len());
    let mut messages = 0;
    for (name, bytes) in &captured {
        for line in bytes.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
            for revision in [Revision::V2025_11_25, Revision::V2026_07_28] {
                let serde = Parser::<SerdeJson>::with_backend(revision).parse(line).map(|e| e.kind());
                let simd = Parser::<SimdJson>::with_backend(revision).parse(line).map(|e| e.kind());
                assert!(serde.is_ok(), "corpus/stdio/{name} under {revision}: {serde:?}");
                assert_eq!(serde, simd, "corpus/stdio/{name} under {revision}");
            }
            messages += 1;
        }
        // And through the stream target's check, under two configurations.
        for config in [[7u8, 1], [63, 200]] {
            let input = [&config[..], bytes].concat();
            assert!(std::panic::catch_unwind(|| check::stream(&input)).is_ok(), "corpus/stdio {name} {config:?}");
        }
    }
    assert!(messages >= 30, "{messages} messages");
}
