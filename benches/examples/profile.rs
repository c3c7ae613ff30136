//! One contender over a corpus file, for profilers: the measured work is
//! inside `measured`, so callgrind can count it alone.
//!
//! ```sh
//! cargo build --profile profiling -p mcp-envelope-benches --example profile
//! valgrind --tool=callgrind --toggle-collect='*measured*' --dump-instr=yes \
//!     target/profiling/examples/profile reference corpus/realistic/small.jsonl
//! callgrind_annotate callgrind.out.<pid>
//! ```
//!
//! Contenders: serde, simd, reference, struct, sonic-lazy, sonic-value,
//! ignoredany, simd-tape, floor; and lines and sse, the reference backend
//! behind line framing or the event stream, over the messages framed as
//! one stream (as the framing benches read them). A `.jsonl` file is one
//! message a line; any other file is one message; `adversarial:NAME` is
//! the generator's adversarial case of that name (e.g.
//! `adversarial:keys-100000-in-envelope`), built in memory; `size:KIB` is
//! the scaling group's result message of that many KiB.

#![allow(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a profiling harness over fixed data, not input-facing"
)]

#[path = "../benches/common/mod.rs"]
mod common;

use std::hint::black_box;

use common::{KindRead, Ours, SimdTape};
use mcp_envelope::Revision;

/// One contender, warm, as a function of a message.
type Contender<'a> = Box<dyn FnMut(&[u8]) -> KindRead + 'a>;

#[inline(never)]
fn measured(messages: &[Vec<u8>], repeat: usize, parse: &mut dyn FnMut(&[u8]) -> KindRead) -> usize {
    run(messages, repeat, parse)
}

#[inline(never)]
fn run(messages: &[Vec<u8>], repeat: usize, parse: &mut dyn FnMut(&[u8]) -> KindRead) -> usize {
    let mut accepted = 0;
    for _ in 0..repeat {
        for m in messages {
            accepted += usize::from(parse(black_box(m)).is_some());
        }
    }
    accepted
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, contender, path, rest @ ..] = args.as_slice() else {
        eprintln!("usage: profile CONTENDER FILE [REPEAT]");
        std::process::exit(2);
    };
    let repeat = rest.first().map_or(1, |r| r.parse().expect("REPEAT is a number"));
    let mut revision = Revision::V2026_07_28;
    let size = path.strip_prefix("size:").and_then(|kib| kib.parse::<usize>().ok());
    let bytes = match path.strip_prefix("adversarial:") {
        _ if size.is_some() => common::message_of_size(size.unwrap_or_default() * 1024),
        Some(name) => {
            let case = common::adversarial_cases().into_iter().find(|c| c.name == name);
            let case = case.unwrap_or_else(|| panic!("no adversarial case {name}"));
            revision = case.revision;
            case.bytes
        }
        None => std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}")),
    };
    let mut messages: Vec<Vec<u8>> = if path.ends_with(".jsonl") {
        bytes.split(|&b| b == b'\n').filter(|l| !l.is_empty()).map(<[u8]>::to_vec).collect()
    } else {
        vec![bytes]
    };
    // The framings read the messages as one stream, as the framing benches do.
    match contender.as_str() {
        "lines" => messages = vec![common::framing::lines(&messages)],
        "sse" => messages = vec![common::framing::events(&messages)],
        _ => {}
    }
    let mut ours = Ours::new(revision);
    let mut tape = SimdTape::default();
    let mut parse: Contender<'_> = match contender.as_str() {
        "serde" => Box::new(|m| common::ours_serde(&mut ours.serde, m)),
        "simd" => Box::new(|m| common::ours_simd(&mut ours.simd, m)),
        "reference" => Box::new(|m| common::ours_reference(&mut ours.reference, m)),
        "struct" => Box::new(common::serde_raw_struct),
        "sonic-lazy" => Box::new(common::sonic_lazy),
        "sonic-value" => Box::new(common::sonic_value),
        "ignoredany" => Box::new(common::serde_ignored_any),
        "simd-tape" => Box::new(|m| tape.parse(m)),
        "floor" => Box::new(common::utf8_floor),
        "lines" => Box::new(|s| {
            Some(common::framing::lines_checked(&mut ours.reference, s)).filter(|&n| n > 0).map(|_| "lines")
        }),
        "sse" => Box::new(|s| {
            Some(common::framing::events_checked(&mut ours.reference, s)).filter(|&n| n > 0).map(|_| "sse")
        }),
        other => {
            eprintln!("profile: no contender {other}");
            std::process::exit(2);
        }
    };
    // Warm once outside the measured region: buffers grow here.
    run(&messages, 1, &mut *parse);
    let started = std::time::Instant::now();
    let accepted = measured(&messages, repeat, &mut *parse);
    let elapsed = started.elapsed();
    let bytes: usize = messages.iter().map(Vec::len).sum::<usize>() * repeat;
    println!(
        "{contender}: {accepted} of {} accepted, {bytes} bytes in {elapsed:.3?} ({:.0} MB/s)",
        messages.len() * repeat,
        bytes as f64 / elapsed.as_secs_f64() / 1e6
    );
}
