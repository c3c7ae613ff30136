//! The race: every contender over the same messages in one process, its
//! rounds interleaved with the others' (ours, a peer, the next peer...,
//! each round in another order), so that a busy moment of the machine
//! falls on all alike. The clock decides the speed targets here; the
//! instruction counts (`instructions.rs`) explain them.
//!
//!   cargo bench -p mcp-envelope-benches --bench race -- [--rounds N] [--json FILE] [--only CLASS]
//!   valgrind --tool=callgrind --toggle-collect='*measured*' RACE --count CLASS:CONTENDER
//!
//! For each class: time per message (the median of the rounds), MB/s,
//! each contender's ratio to the default backend (its time over ours:
//! above 1 we are faster) and the spread of its rounds ((p90 - p10) over
//! the median). Every contender's answers are checked before it is timed.
//! The `minimal` and `stages-SIZE` classes time the default backend beside
//! its own pipeline cut short, to say which stage the time lies in.
//! `--json FILE` writes the figures for the workbench report and the
//! history. `--test` (as `cargo bench -- --test` passes) runs each class
//! once, for its checks.

#![allow(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a harness over fixed data, not input-facing"
)]

mod common;

use std::hint::black_box;
use std::time::{Duration, Instant};

use common::{
    Ours, SimdTape, check_ours_on_realistic, class, ours_reference, ours_serde, ours_simd, serde_ignored_any,
    serde_raw_struct, sonic_value,
};
use mcp_envelope::backend::Reference;
use mcp_envelope::{Parser, Revision};
use mcp_envelope_benches::SizeClass;

/// How long one contender's turn in a round lasts, about.
const TURN: Duration = Duration::from_millis(8);

/// One contender: its name, and one pass over the class's messages (how
/// many it read as valid, so the work is never thrown away).
struct Runner<'a> {
    name: &'static str,
    pass: Box<dyn FnMut() -> usize + 'a>,
}

/// A class: its messages' count and bytes, and its contenders.
struct Class<'a> {
    name: String,
    messages: usize,
    bytes: usize,
    runners: Vec<Runner<'a>>,
}

/// What one contender did over the rounds: nanoseconds a message, each
/// round.
struct Times {
    name: &'static str,
    per_message: Vec<f64>,
}

impl Times {
    fn median(&self) -> f64 {
        quantile(&self.per_message, 0.5)
    }

    /// (p90 - p10) / median.
    fn spread(&self) -> f64 {
        (quantile(&self.per_message, 0.9) - quantile(&self.per_message, 0.1)) / self.median()
    }
}

fn quantile(values: &[f64], q: f64) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let at = ((sorted.len() - 1) as f64 * q).round() as usize;
    sorted[at]
}

/// The realistic messages of a size class, every contender checked on
/// them first (ours right on each; the peers must read each as valid).
fn realistic<'a>(size: SizeClass, messages: &'a [Vec<u8>], ours: &'a mut Ours, tape: &'a mut SimdTape) -> Class<'a> {
    check_ours_on_realistic(size.name(), messages);
    for (name, peer) in
        [("ignoredany", serde_ignored_any as fn(&[u8]) -> _), ("raw", serde_raw_struct), ("sonic", sonic_value)]
    {
        assert!(messages.iter().all(|m| peer(m).is_some()), "{name} refused a realistic message");
    }
    let bytes = messages.iter().map(Vec::len).sum();
    let Ours { serde, simd, reference } = ours;
    let all = |f: &mut dyn FnMut(&[u8]) -> bool| messages.iter().filter(|m| f(black_box(m))).count();
    let runners: Vec<Runner<'a>> = vec![
        Runner {
            name: "mcp-envelope-reference",
            pass: Box::new(move || all(&mut |m| ours_reference(reference, m).is_some())),
        },
        Runner { name: "mcp-envelope-serde", pass: Box::new(move || all(&mut |m| ours_serde(serde, m).is_some())) },
        Runner { name: "mcp-envelope-simd", pass: Box::new(move || all(&mut |m| ours_simd(simd, m).is_some())) },
        Runner { name: "serde_json-ignoredany", pass: Box::new(move || all(&mut |m| serde_ignored_any(m).is_some())) },
        Runner {
            name: "serde_json-rawvalue-struct",
            pass: Box::new(move || all(&mut |m| serde_raw_struct(m).is_some())),
        },
        Runner { name: "sonic-rs-value", pass: Box::new(move || all(&mut |m| sonic_value(m).is_some())) },
        Runner { name: "simd-json-tape", pass: Box::new(move || all(&mut |m| tape.parse(m).is_some())) },
        Runner { name: "rmcp-typed", pass: Box::new(move || all(&mut |m| common::rmcp_typed(m).is_some())) },
    ];
    Class { name: format!("realistic-{}", size.name()), messages: messages.len(), bytes, runners }
}

/// The default backend beside its own pipeline cut short (UTF-8 alone,
/// UTF-8 and the JSON grammar, the tape without the envelope rules) and
/// serde_json's syntax pass: which stage a message's time lies in. Over
/// the smallest valid messages (`minimal`) it is the fixed cost a message
/// pays before its first byte (UTF-8 validation's set-up, the parser's
/// reset, the tape, the rules); over a realistic class (`stages-SIZE`),
/// each stage's share of the clock.
#[cfg(not(race_history))]
fn stages<'a>(name: &str, messages: &'a [Vec<u8>], parsers: &'a mut [Parser<Reference>; 2]) -> Class<'a> {
    let [parser, staged] = parsers;
    for m in messages {
        assert!(ours_reference(parser, m).is_some() && serde_ignored_any(m).is_some(), "a message refused");
    }
    let bytes = messages.iter().map(Vec::len).sum();
    let all = |f: &mut dyn FnMut(&[u8]) -> bool| messages.iter().filter(|m| f(black_box(m))).count();
    let runners: Vec<Runner<'a>> = vec![
        Runner {
            name: "mcp-envelope-reference",
            pass: Box::new(move || all(&mut |m| ours_reference(parser, m).is_some())),
        },
        Runner { name: "serde_json-ignoredany", pass: Box::new(move || all(&mut |m| serde_ignored_any(m).is_some())) },
        Runner { name: "utf8-floor", pass: Box::new(move || all(&mut |m| common::utf8_floor(m).is_some())) },
        Runner { name: "stage-syntax", pass: Box::new(move || all(&mut |m| common::stage_syntax(m).is_some())) },
        Runner { name: "stage-tape", pass: Box::new(move || all(&mut |m| common::stage_tape(staged, m).is_some())) },
    ];
    Class { name: name.to_owned(), messages: messages.len(), bytes, runners }
}

/// The minimal messages: a request, a notification, a result, an error.
#[cfg(not(race_history))]
fn minimal_messages() -> Vec<Vec<u8>> {
    [
        r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
        r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"no"}}"#,
    ]
    .iter()
    .map(|m| m.as_bytes().to_vec())
    .collect()
}

/// One adversarial case against the peers the targets name there.
fn adversarial<'a>(case: &'a mcp_envelope_benches::adversarial::Case, parser: &'a mut Parser<Reference>) -> Class<'a> {
    let bytes = case.bytes.as_slice();
    let mut runners: Vec<Runner<'a>> = vec![
        Runner {
            name: "mcp-envelope-reference",
            pass: Box::new(move || usize::from(ours_reference(parser, black_box(bytes)).is_some())),
        },
        Runner {
            name: "serde_json-rawvalue-struct",
            pass: Box::new(move || usize::from(serde_raw_struct(black_box(bytes)).is_some())),
        },
    ];
    if !case.deep {
        runners.push(Runner {
            name: "sonic-rs-value",
            pass: Box::new(move || usize::from(sonic_value(black_box(bytes)).is_some())),
        });
    }
    Class { name: format!("adversarial-{}", case.name), messages: 1, bytes: bytes.len(), runners }
}

/// Event streams: ours framing lines and events, and sse-stream with a
/// serde_json struct on the same events.
#[cfg(not(race_history))]
fn framing<'a>(size: SizeClass, streams: &'a Streams, parser: &'a mut Parser<Reference>) -> Class<'a> {
    use common::framing as f;
    let n = streams.messages;
    assert_eq!(f::lines_checked(parser, &streams.lines), n);
    assert_eq!(f::events_checked(parser, &streams.events), n);
    assert_eq!(f::sse_stream_serde(&streams.chunks), n);
    // One parser for both of ours: each pass resets it.
    let parser = std::cell::RefCell::new(parser);
    let parser = std::rc::Rc::new(parser);
    let (a, b) = (std::rc::Rc::clone(&parser), parser);
    let runners: Vec<Runner<'a>> = vec![
        Runner {
            name: "mcp-envelope-sse",
            pass: Box::new(move || f::events_checked(&mut a.borrow_mut(), black_box(&streams.events))),
        },
        Runner {
            name: "mcp-envelope-lines",
            pass: Box::new(move || f::lines_checked(&mut b.borrow_mut(), black_box(&streams.lines))),
        },
        Runner {
            name: "sse-stream-serde-struct",
            pass: Box::new(move || f::sse_stream_serde(black_box(&streams.chunks))),
        },
        Runner { name: "sse-framing-alone", pass: Box::new(move || f::events_framed(black_box(&streams.events))) },
        Runner { name: "lines-framing-alone", pass: Box::new(move || f::lines_framed(black_box(&streams.lines))) },
    ];
    Class { name: format!("framing-{}", size.name()), messages: n, bytes: streams.events.len(), runners }
}

/// A class's messages as a line-framed stream, an event stream, and the
/// event stream in chunks.
#[cfg(not(race_history))]
struct Streams {
    messages: usize,
    lines: Vec<u8>,
    events: Vec<u8>,
    chunks: Vec<bytes::Bytes>,
}

/// One pass, alone in its own function, for callgrind to count.
#[inline(never)]
fn measured(runner: &mut Runner<'_>) -> usize {
    black_box((runner.pass)())
}

/// How many passes one contender's turn takes: about [`TURN`].
fn passes(runner: &mut Runner<'_>) -> u32 {
    let started = Instant::now();
    let mut done = 0u32;
    while started.elapsed() < TURN / 4 || done == 0 {
        black_box((runner.pass)());
        done += 1;
    }
    let per_pass = started.elapsed().as_secs_f64() / f64::from(done);
    ((TURN.as_secs_f64() / per_pass).ceil() as u32).max(1)
}

/// Runs a class's race: `rounds` rounds, each contender once a round, the
/// order turned by one each round.
fn race(class: &mut Class<'_>, rounds: usize) -> Vec<Times> {
    let counts: Vec<u32> = class.runners.iter_mut().map(passes).collect();
    let mut times: Vec<Times> = class.runners.iter().map(|r| Times { name: r.name, per_message: Vec::new() }).collect();
    let n = class.runners.len();
    for round in 0..rounds {
        for k in 0..n {
            let i = (k + round) % n;
            let runner = &mut class.runners[i];
            let started = Instant::now();
            for _ in 0..counts[i] {
                black_box((runner.pass)());
            }
            let elapsed = started.elapsed().as_secs_f64() * 1e9;
            times[i].per_message.push(elapsed / f64::from(counts[i]) / class.messages as f64);
        }
    }
    times
}

struct Options {
    rounds: usize,
    json: Option<String>,
    only: Option<String>,
    /// `CLASS:CONTENDER`: one pass of that contender inside [`measured`],
    /// for callgrind to count alone (`--toggle-collect='*measured*'`).
    count: Option<String>,
    test: bool,
}

fn options() -> Options {
    let mut options = Options { rounds: 21, json: None, only: None, count: None, test: false };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--rounds" => options.rounds = args.next().and_then(|n| n.parse().ok()).unwrap_or(21).max(3),
            "--json" => options.json = args.next(),
            "--only" => options.only = args.next(),
            "--count" => options.count = args.next(),
            "--test" => options.test = true,
            // What cargo bench passes to every harness.
            _ => {}
        }
    }
    options
}

fn main() {
    let options = options();
    // The classes asked for: by `--count`'s class or `--only`'s prefix.
    let selector = options.count.as_deref().map(|c| c.split(':').next().unwrap_or(c)).or(options.only.as_deref());
    let wants = |family: &str| selector.is_none_or(|s| s.starts_with(family) || family.starts_with(s));
    let sizes: Vec<SizeClass> = if wants("realistic") || wants("stages") {
        vec![SizeClass::Small, SizeClass::Medium, SizeClass::Large]
    } else {
        Vec::new()
    };
    let realistic_messages: Vec<Vec<Vec<u8>>> = sizes.iter().map(|s| class(*s)).collect();
    let mut ours: Vec<Ours> = sizes.iter().map(|_| Ours::new(Revision::V2026_07_28)).collect();
    let mut tapes: Vec<SimdTape> = sizes.iter().map(|_| SimdTape::default()).collect();
    let cases = if wants("adversarial") { common::adversarial_cases() } else { Vec::new() };
    let mut case_parsers: Vec<Parser<Reference>> =
        cases.iter().map(|c| Parser::<Reference>::with_backend(c.revision)).collect();
    #[cfg(not(race_history))]
    let framed = if wants("framing") { vec![SizeClass::Small, SizeClass::Medium] } else { Vec::new() };
    #[cfg(not(race_history))]
    let streams: Vec<Streams> = framed
        .iter()
        .map(|s| {
            let messages = class(*s);
            let (lines, events) = (common::framing::lines(&messages), common::framing::events(&messages));
            let chunks = common::framing::chunks(&events);
            Streams { messages: messages.len(), lines, events, chunks }
        })
        .collect();
    #[cfg(not(race_history))]
    let mut stream_parsers: Vec<Parser<Reference>> =
        streams.iter().map(|_| Parser::<Reference>::with_backend(Revision::V2026_07_28)).collect();

    // The stage classes (not in the history: its charts keep the
    // realistic contenders), the minimal messages first.
    #[cfg(not(race_history))]
    let staged: Vec<(String, Vec<Vec<u8>>)> = {
        let mut staged = Vec::new();
        if wants("minimal") {
            staged.push(("minimal".to_owned(), minimal_messages()));
        }
        for (size, messages) in sizes.iter().zip(&realistic_messages) {
            if wants(&format!("stages-{}", size.name())) {
                staged.push((format!("stages-{}", size.name()), messages.clone()));
            }
        }
        staged
    };
    #[cfg(not(race_history))]
    let mut staged_parsers: Vec<[Parser<Reference>; 2]> =
        staged.iter().map(|_| [Revision::V2026_07_28; 2].map(Parser::<Reference>::with_backend)).collect();

    let mut classes: Vec<Class<'_>> = Vec::new();
    #[cfg(not(race_history))]
    for ((name, messages), parsers) in staged.iter().zip(staged_parsers.iter_mut()) {
        classes.push(stages(name, messages, parsers));
    }
    for ((size, messages), (ours, tape)) in
        sizes.iter().zip(&realistic_messages).zip(ours.iter_mut().zip(tapes.iter_mut()))
    {
        classes.push(realistic(*size, messages, ours, tape));
    }
    #[cfg(not(race_history))]
    for ((size, streams), parser) in framed.iter().zip(&streams).zip(stream_parsers.iter_mut()) {
        classes.push(framing(*size, streams, parser));
    }
    for (case, parser) in cases.iter().zip(case_parsers.iter_mut()) {
        // Refused on their length alone, before a byte is read: no race.
        if case.bytes.len() > 1 << 25 {
            continue;
        }
        classes.push(adversarial(case, parser));
    }
    classes.retain(|c| options.only.as_ref().is_none_or(|only| c.name.starts_with(only.as_str())));
    if let Some(wanted) = &options.count {
        let (class_name, contender) = wanted.split_once(':').expect("--count CLASS:CONTENDER");
        let class = classes.iter_mut().find(|c| c.name == class_name).expect("no such class");
        let messages = class.messages;
        let runner = class.runners.iter_mut().find(|r| r.name == contender).expect("no such contender");
        // Warm, as the race's rounds are: one pass before the counted one.
        black_box((runner.pass)());
        let read = measured(runner);
        println!("{class_name} {contender}: one pass over {messages} messages, {read} read as valid");
        return;
    }

    let rounds = if options.test { 1 } else { options.rounds };
    let mut report = Vec::new();
    for class in &mut classes {
        let times = race(class, rounds);
        if options.test {
            continue;
        }
        print_class(class, &times);
        report.push(json_class(class, &times));
    }
    if options.test {
        println!("race: {} classes run once each, answers checked", classes.len());
        return;
    }
    if let Some(path) = options.json {
        let body = format!("{{\"rounds\":{rounds},\"classes\":[{}]}}\n", report.join(","));
        std::fs::write(&path, body).unwrap_or_else(|e| panic!("writing {path}: {e}"));
    }
}

fn print_class(class: &Class<'_>, times: &[Times]) {
    let ours = times[0].median();
    let mean_bytes = class.bytes as f64 / class.messages as f64;
    println!("\n{} ({} messages, {:.0} bytes on average)\n", class.name, class.messages, mean_bytes);
    println!("| contender | ns a message | MB/s | ratio to {} | spread |", times[0].name);
    println!("|---|---|---|---|---|");
    for t in times {
        let median = t.median();
        println!(
            "| {} | {:.1} | {:.0} | {:.2}x | {:.1} % |",
            t.name,
            median,
            mean_bytes / median * 1e3,
            median / ours,
            t.spread() * 100.0
        );
    }
}

fn json_class(class: &Class<'_>, times: &[Times]) -> String {
    let ours = times[0].median();
    let mean_bytes = class.bytes as f64 / class.messages as f64;
    let contenders: Vec<String> = times
        .iter()
        .map(|t| {
            let median = t.median();
            format!(
                "{{\"name\":\"{}\",\"ns_per_message\":{median:.2},\"mb_per_s\":{:.1},\"ratio\":{:.4},\"spread\":{:.4}}}",
                t.name,
                mean_bytes / median * 1e3,
                median / ours,
                t.spread()
            )
        })
        .collect();
    format!(
        "{{\"class\":\"{}\",\"messages\":{},\"bytes\":{},\"default\":\"{}\",\"contenders\":[{}]}}",
        class.name,
        class.messages,
        class.bytes,
        times[0].name,
        contenders.join(",")
    )
}
