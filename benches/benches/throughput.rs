//! Wall-clock throughput, in bytes and in messages, of our two backends and
//! the peers on the same messages: realistic traffic by size class, the
//! adversarial cases, and scaling with message size, nesting depth,
//! envelope members, escapes and batch length.
//!
//! Every contender's answers are checked before it is timed: ours must be
//! right on every message; how often each peer reads a message differently
//! from the rules is written to `target/bench-verdicts.json` for the report.

#![allow(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a generator and harness over fixed data, not input-facing"
)]

mod common;

use std::collections::BTreeMap;
use std::hint::black_box;
use std::time::Duration;

use common::{
    KindRead, Ours, PEERS, SimdTape, adversarial_cases, check_ours_on_realistic, class, is_ceiling, ours_reference,
    ours_serde, ours_simd, peer_differences, stage_syntax, stage_tape,
};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use mcp_envelope::backend::{Reference, SerdeJson, SimdJson};
use mcp_envelope::{Parser, Revision};
use mcp_envelope_benches::SizeClass;
use mcp_envelope_benches::adversarial::Expect;

fn total(messages: &[Vec<u8>]) -> u64 {
    messages.iter().map(|m| m.len() as u64).sum()
}

/// Peer differences found while checking, for the report.
fn record(group: &str, peer: &str, differences: usize, of: usize) {
    let path = mcp_envelope_benches::workspace_root().join("target/bench-verdicts.json");
    let mut all: BTreeMap<String, BTreeMap<String, (usize, usize)>> =
        std::fs::read(&path).ok().and_then(|b| serde_json::from_slice(&b).ok()).unwrap_or_default();
    all.entry(group.to_owned()).or_default().insert(peer.to_owned(), (differences, of));
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    let _ = std::fs::write(&path, serde_json::to_vec_pretty(&all).unwrap_or_default());
}

fn realistic(c: &mut Criterion) {
    for size in [SizeClass::Small, SizeClass::Medium, SizeClass::Large] {
        let name = format!("realistic-{}", size.name());
        let messages = class(size);
        check_ours_on_realistic(&name, &messages);
        let mut group = c.benchmark_group(&name);
        group.throughput(Throughput::ElementsAndBytes { elements: messages.len() as u64, bytes: total(&messages) });
        if size == SizeClass::Large {
            group.sample_size(20);
        }
        let mut ours = Ours::new(Revision::V2026_07_28);
        group.bench_function("mcp-envelope-serde", |b| {
            b.iter(|| {
                messages.iter().map(|m| ours_serde(&mut ours.serde, black_box(m)).is_some() as usize).sum::<usize>()
            })
        });
        group.bench_function("mcp-envelope-simd", |b| {
            b.iter(|| {
                messages.iter().map(|m| ours_simd(&mut ours.simd, black_box(m)).is_some() as usize).sum::<usize>()
            })
        });
        group.bench_function("mcp-envelope-reference", |b| {
            b.iter(|| {
                messages
                    .iter()
                    .map(|m| ours_reference(&mut ours.reference, black_box(m)).is_some() as usize)
                    .sum::<usize>()
            })
        });
        // The default backend's stages (the workbench's chart of where a
        // message's time goes): up to the tape, and the grammar alone.
        let mut tape_only = Parser::<Reference>::with_backend(Revision::V2026_07_28);
        group.bench_function("stage-tape", |b| {
            b.iter(|| {
                messages.iter().map(|m| stage_tape(&mut tape_only, black_box(m)).is_some() as usize).sum::<usize>()
            })
        });
        group.bench_function("stage-syntax", |b| {
            b.iter(|| messages.iter().map(|m| stage_syntax(black_box(m)).is_some() as usize).sum::<usize>())
        });
        let mut simd_tape = SimdTape::default();
        group.bench_function("simd-json-tape", |b| {
            b.iter(|| messages.iter().map(|m| simd_tape.parse(black_box(m)).is_some() as usize).sum::<usize>())
        });
        for (peer, parse) in PEERS {
            if !is_ceiling(peer) {
                record(&name, peer, peer_differences(parse, &messages, Revision::V2026_07_28), messages.len());
            }
            group.bench_function(peer, |b| {
                b.iter(|| messages.iter().map(|m| parse(black_box(m)).is_some() as usize).sum::<usize>())
            });
        }
        group.finish();
    }
}

fn check_case(ours: &mut Ours, case: &mcp_envelope_benches::adversarial::Case) {
    for (backend, outcome) in [
        ("serde", ours.serde.parse(&case.bytes).map(|e| e.kind().name()).map_err(|e| e.reason().name())),
        ("simd", ours.simd.parse(&case.bytes).map(|e| e.kind().name()).map_err(|e| e.reason().name())),
        ("reference", ours.reference.parse(&case.bytes).map(|e| e.kind().name()).map_err(|e| e.reason().name())),
    ] {
        let expected = match case.expect {
            Expect::Valid(kind) => Ok(kind),
            Expect::Invalid(reason) => Err(reason),
        };
        assert_eq!(outcome, expected, "{} on {backend}", case.name);
    }
}

fn adversarial(c: &mut Criterion) {
    let mut group = c.benchmark_group("adversarial");
    group.sample_size(10).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(1));
    for case in adversarial_cases() {
        let mut ours = Ours::new(case.revision);
        check_case(&mut ours, &case);
        if matches!(case.expect, Expect::Invalid("too-large")) {
            // Refused on its length alone: no byte is read, so a rate in
            // MB/s would be meaningless. The report says so instead.
            record("refused-before-parsing", case.name, 1, 1);
        }
        let bytes = case.bytes.as_slice();
        group.throughput(Throughput::ElementsAndBytes { elements: 1, bytes: bytes.len() as u64 });
        group.bench_with_input(BenchmarkId::new("mcp-envelope-serde", case.name), bytes, |b, m| {
            b.iter(|| ours_serde(&mut ours.serde, black_box(m)))
        });
        group.bench_with_input(BenchmarkId::new("mcp-envelope-simd", case.name), bytes, |b, m| {
            b.iter(|| ours_simd(&mut ours.simd, black_box(m)))
        });
        group.bench_with_input(BenchmarkId::new("mcp-envelope-reference", case.name), bytes, |b, m| {
            b.iter(|| ours_reference(&mut ours.reference, black_box(m)))
        });
        for (peer, parse) in PEERS {
            if case.deep && peer.starts_with("sonic-rs") {
                continue; // no depth limit: overflows the stack (rules, section 6)
            }
            if !is_ceiling(peer) {
                let ours_verdict: KindRead = ours_serde(&mut ours.serde, bytes);
                record("adversarial", &format!("{peer}/{}", case.name), usize::from(parse(bytes) != ours_verdict), 1);
            }
            group.bench_with_input(BenchmarkId::new(peer, case.name), bytes, |b, m| b.iter(|| parse(black_box(m))));
        }
    }
    group.finish();
}

fn nested_of_depth(depth: usize) -> Vec<u8> {
    // The envelope is level 1; `params` adds one level per array.
    let arrays = depth.saturating_sub(1);
    format!(r#"{{"jsonrpc":"2.0","id":1,"method":"m","params":{}{}}}"#, "[".repeat(arrays), "]".repeat(arrays))
        .into_bytes()
}

fn scaling(c: &mut Criterion) {
    let mut group = c.benchmark_group("scaling-size");
    group.sample_size(10).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(1));
    let mut ours = Ours::new(Revision::V2026_07_28);
    for kib in [1, 4, 16, 64, 256, 1024, 4096, 16384] {
        let message = common::message_of_size(kib * 1024);
        assert_eq!(ours_serde(&mut ours.serde, &message), Some("result"));
        assert_eq!(ours_simd(&mut ours.simd, &message), Some("result"));
        assert_eq!(ours_reference(&mut ours.reference, &message), Some("result"));
        group.throughput(Throughput::Bytes(message.len() as u64));
        let label = format!("{kib}KiB");
        group.bench_with_input(BenchmarkId::new("mcp-envelope-reference", &label), &message, |b, m| {
            b.iter(|| ours_reference(&mut ours.reference, black_box(m)))
        });
        group.bench_with_input(BenchmarkId::new("mcp-envelope-serde", &label), &message, |b, m| {
            b.iter(|| ours_serde(&mut ours.serde, black_box(m)))
        });
        group.bench_with_input(BenchmarkId::new("mcp-envelope-simd", &label), &message, |b, m| {
            b.iter(|| ours_simd(&mut ours.simd, black_box(m)))
        });
        group.bench_with_input(BenchmarkId::new("utf8-floor", &label), &message, |b, m| {
            b.iter(|| common::utf8_floor(black_box(m)))
        });
    }
    group.finish();

    // The other shapes that grow, from 64 KiB (where the size scaling is
    // fastest) to 16 MiB: the issue's scaling target compares the two ends.
    for shape in mcp_envelope_benches::scaling::shapes() {
        let mut group = c.benchmark_group(format!("scaling-{}", shape.name));
        group.sample_size(10).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(1));
        let mut serde = Parser::<SerdeJson>::with_backend(shape.revision).with_limits(shape.limits);
        let mut simd = Parser::<SimdJson>::with_backend(shape.revision).with_limits(shape.limits);
        let mut reference = Parser::<Reference>::with_backend(shape.revision).with_limits(shape.limits);
        for kib in [64, 1024, 16384] {
            let message = (shape.build)(kib * 1024);
            let expect = Some(shape.expect);
            assert_eq!(ours_serde(&mut serde, &message), expect, "{} {kib} KiB", shape.name);
            assert_eq!(ours_simd(&mut simd, &message), expect, "{} {kib} KiB", shape.name);
            assert_eq!(ours_reference(&mut reference, &message), expect, "{} {kib} KiB", shape.name);
            group.throughput(Throughput::Bytes(message.len() as u64));
            let label = format!("{kib}KiB");
            group.bench_with_input(BenchmarkId::new("mcp-envelope-reference", &label), &message, |b, m| {
                b.iter(|| ours_reference(&mut reference, black_box(m)))
            });
            group.bench_with_input(BenchmarkId::new("mcp-envelope-serde", &label), &message, |b, m| {
                b.iter(|| ours_serde(&mut serde, black_box(m)))
            });
            group.bench_with_input(BenchmarkId::new("mcp-envelope-simd", &label), &message, |b, m| {
                b.iter(|| ours_simd(&mut simd, black_box(m)))
            });
            group.bench_with_input(BenchmarkId::new("utf8-floor", &label), &message, |b, m| {
                b.iter(|| common::utf8_floor(black_box(m)))
            });
        }
        group.finish();
    }

    // JSON-RPC profile: array params, so any depth can be built. Past 128
    // the answer is too-deep, found in time linear in the depth.
    let mut group = c.benchmark_group("scaling-depth");
    group.sample_size(10).warm_up_time(Duration::from_millis(500)).measurement_time(Duration::from_secs(1));
    let mut ours = Ours::new(Revision::JsonRpc);
    for depth in [2, 8, 32, 64, 127, 128, 129, 1024, 100_000] {
        let message = nested_of_depth(depth);
        let expected = if depth <= 128 { Some("request") } else { None };
        assert_eq!(ours_serde(&mut ours.serde, &message), expected, "depth {depth}");
        assert_eq!(ours_simd(&mut ours.simd, &message), expected, "depth {depth}");
        assert_eq!(ours_reference(&mut ours.reference, &message), expected, "depth {depth}");
        group.throughput(Throughput::Bytes(message.len() as u64));
        group.bench_with_input(BenchmarkId::new("mcp-envelope-reference", depth), &message, |b, m| {
            b.iter(|| ours_reference(&mut ours.reference, black_box(m)))
        });
        group.bench_with_input(BenchmarkId::new("mcp-envelope-serde", depth), &message, |b, m| {
            b.iter(|| ours_serde(&mut ours.serde, black_box(m)))
        });
        group.bench_with_input(BenchmarkId::new("mcp-envelope-simd", depth), &message, |b, m| {
            b.iter(|| ours_simd(&mut ours.simd, black_box(m)))
        });
    }
    group.finish();
}

/// Event-stream framing against line framing on the same messages, and
/// against sse-stream with a serde_json struct on the same stream.
fn framing(c: &mut Criterion) {
    use common::framing;
    for size in [SizeClass::Small, SizeClass::Medium] {
        let messages = class(size);
        let (lines, events) = (framing::lines(&messages), framing::events(&messages));
        let chunks = framing::chunks(&events);
        let mut parser = Parser::<Reference>::with_backend(Revision::V2026_07_28);
        // Every contender reads every message, and finds it valid.
        let n = messages.len();
        assert_eq!(framing::lines_checked(&mut parser, &lines), n);
        assert_eq!(framing::events_checked(&mut parser, &events), n);
        assert_eq!(framing::sse_stream_serde(&chunks), n);
        let mut group = c.benchmark_group(format!("framing-{}", size.name()));
        group.throughput(Throughput::Elements(n as u64));
        group.bench_function("mcp-envelope-lines", |b| {
            b.iter(|| framing::lines_checked(&mut parser, black_box(&lines)))
        });
        group.bench_function("mcp-envelope-sse", |b| {
            b.iter(|| framing::events_checked(&mut parser, black_box(&events)))
        });
        group.bench_function("sse-stream-serde-struct", |b| b.iter(|| framing::sse_stream_serde(black_box(&chunks))));
        group.finish();
    }
}

/// The adversarial event streams, read and checked.
fn framing_adversarial(c: &mut Criterion) {
    let mut group = c.benchmark_group("framing-adversarial");
    group.sample_size(10);
    let mut parser = Parser::<Reference>::with_backend(Revision::V2026_07_28);
    for stream in mcp_envelope_benches::streams::adversarial() {
        assert_eq!(common::framing::events_checked(&mut parser, &stream.bytes), stream.messages, "{}", stream.name);
        group.throughput(Throughput::Bytes(stream.bytes.len() as u64));
        group.bench_with_input(BenchmarkId::new("mcp-envelope-sse", stream.name), &stream.bytes, |b, bytes| {
            b.iter(|| common::framing::events_checked(&mut parser, black_box(bytes)))
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(2)).sample_size(30);
    targets = realistic, adversarial, scaling, framing, framing_adversarial
}
criterion_main!(benches);
