//! Instruction counts (valgrind's callgrind, through gungraun) for the same
//! contenders on the committed corpus: repeatable to a fraction of a percent
//! on a noisy shared machine, so commits can be compared by them.
//!
//! Needs valgrind and `gungraun-runner` at the gungraun version in
//! Cargo.lock (`scripts/bench.sh` installs the runner when it is missing).
//! Without them this suite says so, names the command that installs what
//! is missing, and passes, unless `MCP_ENVELOPE_REQUIRE_INSTRUCTIONS` is
//! set (as in CI), when it fails.

#![allow(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a generator and harness over fixed data, not input-facing"
)]

mod common;

use std::hint::black_box;

use common::{KindRead, Ours, ours_reference, ours_serde, ours_simd};
use gungraun::{library_benchmark, library_benchmark_group, main};
use mcp_envelope::Revision;
use mcp_envelope::backend::Reference;
use mcp_envelope_benches::workspace_root;

/// The messages of a committed corpus file: a `.jsonl` stream, or one
/// adversarial file. Read in the setup, so not counted.
fn load(name: &str) -> Vec<Vec<u8>> {
    let path = workspace_root().join("corpus").join(name);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    if name.ends_with(".jsonl") {
        bytes.split(|&b| b == b'\n').filter(|l| !l.is_empty()).map(<[u8]>::to_vec).collect()
    } else {
        vec![bytes]
    }
}

fn count(verdicts: impl Iterator<Item = KindRead>) -> usize {
    verdicts.filter(Option::is_some).count()
}

// One function per contender, one benchmark per input, named after it.

#[library_benchmark]
#[bench::realistic_small(args = ("realistic/small.jsonl"), setup = load)]
#[bench::realistic_medium(args = ("realistic/medium.jsonl"), setup = load)]
#[bench::realistic_large(args = ("realistic/large.jsonl"), setup = load)]
#[bench::adversarial_escapes(args = ("adversarial/escapes-64k.json"), setup = load)]
#[bench::adversarial_long_numbers(args = ("adversarial/long-numbers.json"), setup = load)]
#[bench::adversarial_huge_exponents(args = ("adversarial/huge-exponents.json"), setup = load)]
#[bench::adversarial_nesting_100000(args = ("adversarial/nesting-100000.json"), setup = load)]
#[bench::adversarial_truncated(args = ("adversarial/truncated.json"), setup = load)]
fn mcp_envelope_serde(messages: Vec<Vec<u8>>) -> usize {
    let mut ours = Ours::new(Revision::V2026_07_28);
    black_box(count(messages.iter().map(|m| ours_serde(&mut ours.serde, black_box(m)))))
}

#[library_benchmark]
#[bench::realistic_small(args = ("realistic/small.jsonl"), setup = load)]
#[bench::realistic_medium(args = ("realistic/medium.jsonl"), setup = load)]
#[bench::realistic_large(args = ("realistic/large.jsonl"), setup = load)]
#[bench::adversarial_escapes(args = ("adversarial/escapes-64k.json"), setup = load)]
#[bench::adversarial_long_numbers(args = ("adversarial/long-numbers.json"), setup = load)]
#[bench::adversarial_huge_exponents(args = ("adversarial/huge-exponents.json"), setup = load)]
#[bench::adversarial_nesting_100000(args = ("adversarial/nesting-100000.json"), setup = load)]
#[bench::adversarial_truncated(args = ("adversarial/truncated.json"), setup = load)]
fn mcp_envelope_simd(messages: Vec<Vec<u8>>) -> usize {
    let mut ours = Ours::new(Revision::V2026_07_28);
    black_box(count(messages.iter().map(|m| ours_simd(&mut ours.simd, black_box(m)))))
}

#[library_benchmark]
#[bench::realistic_small(args = ("realistic/small.jsonl"), setup = load)]
#[bench::realistic_medium(args = ("realistic/medium.jsonl"), setup = load)]
#[bench::realistic_large(args = ("realistic/large.jsonl"), setup = load)]
#[bench::adversarial_escapes(args = ("adversarial/escapes-64k.json"), setup = load)]
#[bench::adversarial_long_numbers(args = ("adversarial/long-numbers.json"), setup = load)]
#[bench::adversarial_huge_exponents(args = ("adversarial/huge-exponents.json"), setup = load)]
#[bench::adversarial_nesting_100000(args = ("adversarial/nesting-100000.json"), setup = load)]
#[bench::adversarial_truncated(args = ("adversarial/truncated.json"), setup = load)]
fn mcp_envelope_reference(messages: Vec<Vec<u8>>) -> usize {
    let mut ours = Ours::new(Revision::V2026_07_28);
    black_box(count(messages.iter().map(|m| ours_reference(&mut ours.reference, black_box(m)))))
}

#[library_benchmark]
#[bench::realistic_small(args = ("realistic/small.jsonl"), setup = load)]
#[bench::realistic_medium(args = ("realistic/medium.jsonl"), setup = load)]
#[bench::realistic_large(args = ("realistic/large.jsonl"), setup = load)]
#[bench::adversarial_escapes(args = ("adversarial/escapes-64k.json"), setup = load)]
#[bench::adversarial_long_numbers(args = ("adversarial/long-numbers.json"), setup = load)]
#[bench::adversarial_huge_exponents(args = ("adversarial/huge-exponents.json"), setup = load)]
#[bench::adversarial_nesting_100000(args = ("adversarial/nesting-100000.json"), setup = load)]
#[bench::adversarial_truncated(args = ("adversarial/truncated.json"), setup = load)]
fn serde_json_rawvalue_struct(messages: Vec<Vec<u8>>) -> usize {
    black_box(count(messages.iter().map(|m| common::serde_raw_struct(black_box(m)))))
}

#[library_benchmark]
#[bench::realistic_small(args = ("realistic/small.jsonl"), setup = load)]
#[bench::realistic_medium(args = ("realistic/medium.jsonl"), setup = load)]
#[bench::realistic_large(args = ("realistic/large.jsonl"), setup = load)]
fn serde_json_value(messages: Vec<Vec<u8>>) -> usize {
    black_box(count(messages.iter().map(|m| common::serde_value(black_box(m)))))
}

#[library_benchmark]
#[bench::realistic_small(args = ("realistic/small.jsonl"), setup = load)]
#[bench::realistic_medium(args = ("realistic/medium.jsonl"), setup = load)]
#[bench::realistic_large(args = ("realistic/large.jsonl"), setup = load)]
fn rmcp_untyped(messages: Vec<Vec<u8>>) -> usize {
    black_box(count(messages.iter().map(|m| common::rmcp_untyped(black_box(m)))))
}

#[library_benchmark]
#[bench::realistic_small(args = ("realistic/small.jsonl"), setup = load)]
#[bench::realistic_medium(args = ("realistic/medium.jsonl"), setup = load)]
#[bench::realistic_large(args = ("realistic/large.jsonl"), setup = load)]
fn sonic_rs_lazyvalue(messages: Vec<Vec<u8>>) -> usize {
    black_box(count(messages.iter().map(|m| common::sonic_lazy(black_box(m)))))
}

#[library_benchmark]
#[bench::realistic_small(args = ("realistic/small.jsonl"), setup = load)]
#[bench::realistic_medium(args = ("realistic/medium.jsonl"), setup = load)]
#[bench::realistic_large(args = ("realistic/large.jsonl"), setup = load)]
// Not on 100 000 levels: sonic-rs has no depth limit and overflows the
// stack there (RULES.md, the nesting rule).
#[bench::adversarial_escapes(args = ("adversarial/escapes-64k.json"), setup = load)]
#[bench::adversarial_long_numbers(args = ("adversarial/long-numbers.json"), setup = load)]
#[bench::adversarial_huge_exponents(args = ("adversarial/huge-exponents.json"), setup = load)]
#[bench::adversarial_truncated(args = ("adversarial/truncated.json"), setup = load)]
fn sonic_rs_value(messages: Vec<Vec<u8>>) -> usize {
    black_box(count(messages.iter().map(|m| common::sonic_value(black_box(m)))))
}

#[library_benchmark]
#[bench::realistic_small(args = ("realistic/small.jsonl"), setup = load)]
#[bench::realistic_medium(args = ("realistic/medium.jsonl"), setup = load)]
#[bench::realistic_large(args = ("realistic/large.jsonl"), setup = load)]
fn serde_json_ignoredany(messages: Vec<Vec<u8>>) -> usize {
    black_box(count(messages.iter().map(|m| common::serde_ignored_any(black_box(m)))))
}

#[library_benchmark]
#[bench::realistic_small(args = ("realistic/small.jsonl"), setup = load)]
#[bench::realistic_medium(args = ("realistic/medium.jsonl"), setup = load)]
#[bench::realistic_large(args = ("realistic/large.jsonl"), setup = load)]
fn simd_json_tape(messages: Vec<Vec<u8>>) -> usize {
    let mut tape = common::SimdTape::default();
    black_box(count(messages.iter().map(|m| tape.parse(black_box(m)))))
}

#[library_benchmark]
#[bench::realistic_small(args = ("realistic/small.jsonl"), setup = load)]
#[bench::realistic_medium(args = ("realistic/medium.jsonl"), setup = load)]
#[bench::realistic_large(args = ("realistic/large.jsonl"), setup = load)]
fn utf8_floor(messages: Vec<Vec<u8>>) -> usize {
    black_box(count(messages.iter().map(|m| common::utf8_floor(black_box(m)))))
}

// The default backend's stages: up to the tape (no rules), and UTF-8 with
// the grammar alone (no tape).

#[library_benchmark]
#[bench::realistic_small(args = ("realistic/small.jsonl"), setup = load)]
#[bench::realistic_medium(args = ("realistic/medium.jsonl"), setup = load)]
#[bench::realistic_large(args = ("realistic/large.jsonl"), setup = load)]
fn stage_tape(messages: Vec<Vec<u8>>) -> usize {
    let mut parser = mcp_envelope::Parser::<Reference>::with_backend(Revision::V2026_07_28);
    black_box(count(messages.iter().map(|m| common::stage_tape(&mut parser, black_box(m)))))
}

#[library_benchmark]
#[bench::realistic_small(args = ("realistic/small.jsonl"), setup = load)]
#[bench::realistic_medium(args = ("realistic/medium.jsonl"), setup = load)]
#[bench::realistic_large(args = ("realistic/large.jsonl"), setup = load)]
fn stage_syntax(messages: Vec<Vec<u8>>) -> usize {
    black_box(count(messages.iter().map(|m| common::stage_syntax(black_box(m)))))
}

/// The messages of a corpus file framed as lines and as an event stream,
/// and the event stream in chunks (setup, not counted).
fn framed(name: &str) -> (Vec<u8>, Vec<u8>, Vec<bytes::Bytes>) {
    let messages = load(name);
    let events = common::framing::events(&messages);
    let chunks = common::framing::chunks(&events);
    (common::framing::lines(&messages), events, chunks)
}

#[library_benchmark]
#[bench::realistic_small(args = ("realistic/small.jsonl"), setup = framed)]
#[bench::realistic_medium(args = ("realistic/medium.jsonl"), setup = framed)]
fn framing_lines(framed: (Vec<u8>, Vec<u8>, Vec<bytes::Bytes>)) -> usize {
    let mut parser = mcp_envelope::Parser::<Reference>::with_backend(Revision::V2026_07_28);
    black_box(common::framing::lines_checked(&mut parser, black_box(&framed.0)))
}

#[library_benchmark]
#[bench::realistic_small(args = ("realistic/small.jsonl"), setup = framed)]
#[bench::realistic_medium(args = ("realistic/medium.jsonl"), setup = framed)]
fn framing_sse(framed: (Vec<u8>, Vec<u8>, Vec<bytes::Bytes>)) -> usize {
    let mut parser = mcp_envelope::Parser::<Reference>::with_backend(Revision::V2026_07_28);
    black_box(common::framing::events_checked(&mut parser, black_box(&framed.1)))
}

#[library_benchmark]
#[bench::realistic_small(args = ("realistic/small.jsonl"), setup = framed)]
#[bench::realistic_medium(args = ("realistic/medium.jsonl"), setup = framed)]
fn framing_sse_stream_serde_struct(framed: (Vec<u8>, Vec<u8>, Vec<bytes::Bytes>)) -> usize {
    black_box(common::framing::sse_stream_serde(black_box(&framed.2)))
}

library_benchmark_group!(name = framing, benchmarks = [framing_lines, framing_sse, framing_sse_stream_serde_struct]);

library_benchmark_group!(
    name = contenders,
    benchmarks = [
        mcp_envelope_serde,
        mcp_envelope_simd,
        mcp_envelope_reference,
        serde_json_rawvalue_struct,
        serde_json_value,
        rmcp_untyped,
        sonic_rs_lazyvalue,
        sonic_rs_value,
        serde_json_ignoredany,
        simd_json_tape,
        stage_tape,
        stage_syntax,
        utf8_floor
    ]
);

fn main() {
    // gungraun's runner calls this binary back with `--gungraun-run`: it
    // is there, and must not be asked again under valgrind.
    let callback = std::env::args().nth(1).is_some_and(|arg| arg == "--gungraun-run");
    if !callback && let Some(missing) = mcp_envelope_benches::runner::missing(&workspace_root()) {
        eprintln!("instruction-count suite (benches/benches/instructions.rs) not run: {missing}");
        if std::env::var_os("MCP_ENVELOPE_REQUIRE_INSTRUCTIONS").is_some() {
            std::process::exit(1);
        }
        return;
    }
    gungraun_main();
}

/// gungraun's own `main`, defined and called inside this function.
fn gungraun_main() {
    main!(library_benchmark_groups = contenders, framing);
    main();
}
