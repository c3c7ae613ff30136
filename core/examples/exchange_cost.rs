//! What judging an exchange costs: every seed of `corpus/exchange` (a
//! request and its answer) judged by the exchange rules through the public
//! API alone, as `tap --http` judges them, many times over. Prints the
//! time per exchange (the median of five rounds) for comparison with the
//! latency the proxy adds; under callgrind, the instructions.
//!
//! ```sh
//! cargo run --release -p mcp-envelope --example exchange_cost [ROUNDS [SEED_FOLDER]]
//! valgrind --tool=callgrind target/release/examples/exchange_cost 200
//! ```

#![allow(clippy::unwrap_used, clippy::indexing_slicing, reason = "a measuring harness over committed files")]

use std::hint::black_box;
use std::time::Instant;

use mcp_envelope::transport::exchange::{Conversation, Exchange, Headers, Place};
use mcp_envelope::transport::sse::EventReader;
use mcp_envelope::{Parser, Revision};

/// One seed, split as the corpus README says.
struct Seed {
    conversation: Conversation,
    method: String,
    request: Vec<(String, Vec<u8>)>,
    body: Vec<u8>,
    status: u16,
    response: Vec<(String, Vec<u8>)>,
    answer: Vec<u8>,
}

fn lines(block: &[u8]) -> (String, Vec<(String, Vec<u8>)>) {
    let mut lines = block.split(|&b| b == b'\n');
    let first = String::from_utf8_lossy(lines.next().unwrap_or_default()).into_owned();
    let pairs = lines
        .filter_map(|line| {
            let colon = line.iter().position(|&b| b == b':')?;
            Some((String::from_utf8_lossy(&line[..colon]).into_owned(), line[colon + 1..].to_vec()))
        })
        .collect();
    (first, pairs)
}

fn seed(input: &[u8]) -> Seed {
    let revisions = Revision::ALL;
    let revision = revisions[usize::from(input[0]) % revisions.len()];
    let negotiated = revisions.get(usize::from(input[0] / 16) % (revisions.len() + 1)).copied();
    let conversation = Conversation { revision, negotiated, ..Conversation::new(revision) };
    let parts: Vec<&[u8]> = input[2..].splitn(4, |&b| b == 0).collect();
    let (method, request) = lines(parts[0]);
    let (status, response) = lines(parts[2]);
    Seed {
        conversation,
        method,
        request,
        body: parts[1].to_vec(),
        status: status.trim().parse().unwrap_or(200),
        response,
        answer: parts[3].to_vec(),
    }
}

fn headers(pairs: &[(String, Vec<u8>)]) -> Headers<'_> {
    Headers::from_pairs(pairs.iter().map(|(n, v)| (n.as_str(), v.as_slice())))
}

/// Judges one exchange as the tap does; the number of findings.
fn judge(seed: &Seed, reader: &mut EventReader) -> usize {
    let request = headers(&seed.request);
    let mut parser = Parser::new(seed.conversation.in_force_for(&request));
    let mut exchange = if seed.method == "POST" {
        Exchange::post(&seed.conversation, &request, &seed.body, &parser.parse(&seed.body))
    } else {
        Exchange::other(&seed.conversation, &seed.method, &request)
    };
    exchange.response(seed.status, &headers(&seed.response));
    match exchange.reads_events() {
        Some(true) => {
            reader.feed(&seed.answer, |e| {
                if let Some(data) = e.message() {
                    exchange.message(Place::Response { line: e.line, offset: e.offset }, &parser.parse(data));
                }
            });
            reader.finish(|_| {});
        }
        Some(false) if !seed.answer.is_empty() => {
            exchange.message(Place::Response { line: 1, offset: 0 }, &parser.parse(&seed.answer));
        }
        _ => exchange.body_bytes(seed.answer.len()),
    }
    exchange.end();
    exchange.findings().len()
}

fn main() {
    let rounds: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(20_000);
    let dir = std::env::args().nth(2).map_or_else(
        || std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/exchange"),
        std::path::PathBuf::from,
    );
    let mut seeds: Vec<Seed> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "exchange"))
        .map(|p| seed(&std::fs::read(p).unwrap()))
        .collect();
    seeds.sort_by_key(|s| s.body.len());
    let mut reader = EventReader::new(1 << 20);
    let mut times = Vec::new();
    for _ in 0..5 {
        let start = Instant::now();
        let mut findings = 0;
        for _ in 0..rounds {
            for seed in &seeds {
                findings += judge(black_box(seed), &mut reader);
            }
        }
        black_box(findings);
        times.push(start.elapsed().as_nanos() as f64 / (rounds * seeds.len()) as f64);
    }
    times.sort_by(f64::total_cmp);
    println!("{} exchanges x {rounds}: {:.0} ns per exchange judged (median of 5 rounds)", seeds.len(), times[2]);
}
