//! A warm parser does not allocate: a global allocator counts, and parsing
//! a second round of the same kinds of messages must not call it. It also
//! tracks the bytes live on the heap, for the bound on a maximal batch.

#![allow(clippy::unwrap_used, reason = "tests fail loudly")]
#![allow(unsafe_code, reason = "a counting global allocator")]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

#[cfg(feature = "simd-json")]
use mcp_envelope::backend::SimdJson;
use mcp_envelope::backend::{Backend, Reference, SerdeJson};
use mcp_envelope::{Envelope, Limits, Parser, Revision};

struct Counting;

thread_local! {
    // Per thread, since tests run in parallel. Const-initialised, so reading
    // it never allocates.
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
    // Bytes allocated minus bytes freed on this thread, and the highest
    // value since the last `reset_peak`.
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

fn count() {
    ALLOCATIONS.with(|n| n.set(n.get() + 1));
}

fn grow(bytes: usize, sign: isize) {
    let delta = sign * isize::try_from(bytes).unwrap_or(isize::MAX);
    let live = LIVE.with(|l| {
        l.set(l.get() + delta);
        l.get()
    });
    PEAK.with(|p| p.set(p.get().max(live)));
}

/// The heap's high-water mark since the last call, above what was live then.
fn reset_peak() -> isize {
    let live = LIVE.with(Cell::get);
    let peak = PEAK.with(|p| p.replace(live));
    peak - live
}

fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}

// SAFETY: forwards every call to the system allocator unchanged; only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        grow(layout.size(), 1);
        // SAFETY: same contract as our caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        grow(layout.size(), -1);
        // SAFETY: same contract as our caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // Counted as a fresh block before the old one is freed: a moving
        // realloc holds both for a moment.
        grow(new_size, 1);
        grow(layout.size(), -1);
        // SAFETY: same contract as our caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Messages without escapes in `method` or `id`; escapes in payloads are fine.
const VALID_JSON: &[&str] = &[
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search","arguments":{"q":"a \"b\" \u00e9","deep":[[[{"x":[1,2,3]}]]]}}}"#,
    r#"{"jsonrpc":"2.0","id":"req-2","result":{"resultType":"complete","content":[{"type":"text","text":"line\nline"}]}}"#,
    r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":{"k":[true,false,null]}}}"#,
    r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"internal","data":[1e400]}}"#,
    r#"{"jsonrpc":"2.0","id":4,"id":5,"method":"bad"}"#,
];

const INVALID_JSON: &[&str] = &[r#"{"jsonrpc":"2.0","id":6,"method":"m","params":{"a":1,}}"#];

fn allocations_when_warm<B: Backend>(messages: &[&str]) -> usize {
    let mut parser = Parser::<B>::with_backend(Revision::V2026_07_28);
    for m in messages {
        let _ = parser.parse(m.as_bytes());
    }
    let before = allocations();
    for _ in 0..10 {
        for m in messages {
            let outcome = parser.parse(m.as_bytes());
            std::hint::black_box(&outcome);
        }
    }
    allocations() - before
}

#[test]
fn a_warm_parser_does_not_allocate_per_message() {
    assert_eq!(allocations_when_warm::<SerdeJson>(VALID_JSON), 0, "serde");
    assert_eq!(allocations_when_warm::<Reference>(VALID_JSON), 0, "reference");
    #[cfg(feature = "simd-json")]
    assert_eq!(allocations_when_warm::<SimdJson>(VALID_JSON), 0, "simd");
}

#[test]
fn invalid_json_costs_at_most_serde_json_s_boxed_error() {
    // serde_json boxes every error it returns: one allocation per message it
    // rejects. The reference backend and simd-json's path allocate nothing.
    assert_eq!(allocations_when_warm::<SerdeJson>(INVALID_JSON), 10, "serde");
    assert_eq!(allocations_when_warm::<Reference>(INVALID_JSON), 0, "reference");
    #[cfg(feature = "simd-json")]
    assert_eq!(allocations_when_warm::<SimdJson>(INVALID_JSON), 0, "simd");
}

/// Peak heap of one cold parse of `input`, above what was live before.
fn peak_heap_of_parse<B: Backend>(limits: Limits, input: &[u8]) -> (usize, isize) {
    reset_peak();
    let mut parser = Parser::<B>::with_backend(Revision::JsonRpc).with_limits(limits);
    let items = match parser.parse(input) {
        Ok(Envelope::Batch(items)) => items.len(),
        other => panic!("expected a batch, got {other:?}"),
    };
    drop(parser);
    (items, reset_peak())
}

#[test]
fn a_maximal_batch_costs_a_bounded_heap() {
    // The batch the default limit allows at most, of realistic requests.
    let item = r#"{"jsonrpc":"2.0","id":12345,"method":"tools/call","params":{"name":"search_code","arguments":{"q":"fn main"}}}"#;
    let limits = Limits::new();
    let input = format!("[{}]", vec![item; limits.max_batch_len].join(","));
    let bound = isize::try_from(input.len() + BATCH_HEAP_PER_ITEM * limits.max_batch_len).unwrap();
    let peaks = [
        ("serde", peak_heap_of_parse::<SerdeJson>(limits, input.as_bytes())),
        ("reference", peak_heap_of_parse::<Reference>(limits, input.as_bytes())),
    ];
    for (backend, (items, peak)) in peaks {
        assert_eq!(items, limits.max_batch_len, "{backend}");
        eprintln!("{backend}: peak heap {peak} bytes for a {} byte batch of {items} items", input.len());
        assert!(peak <= bound, "{backend}: peak heap {peak} > {bound} for {} input bytes", input.len());
    }
    // simd-json costs some fourteen times what it reads; it reads a batch
    // in chunks, so it adds that cost for the largest chunk only.
    #[cfg(feature = "simd-json")]
    {
        let (items, peak) = peak_heap_of_parse::<SimdJson>(limits, input.as_bytes());
        assert_eq!(items, limits.max_batch_len, "simd");
        let chunk = 2 * SimdJson::CHUNK_LEN + item.len();
        let bound = bound + isize::try_from(SIMD_JSON_HEAP_PER_INPUT_BYTE * chunk).unwrap();
        eprintln!("simd: peak heap {peak} bytes for a {} byte batch of {items} items", input.len());
        assert!(peak <= bound, "simd: peak heap {peak} > {bound} for {} input bytes", input.len());
    }
}

#[test]
fn a_batch_past_the_limit_is_refused_without_holding_its_items() {
    // Ten times the limit: the tape stops taking items at the limit, and no
    // list of messages is made, so the cost is that of a maximal batch.
    let item = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
    let limits = Limits::new().with_max_batch_len(100);
    let input = format!("[{}]", vec![item; 1000].join(","));
    let bound = isize::try_from(BATCH_HEAP_PER_ITEM * limits.max_batch_len).unwrap();
    for (backend, (reason, peak), bound) in [
        ("serde", peak_heap_of_refusal::<SerdeJson>(limits, input.as_bytes()), bound),
        ("reference", peak_heap_of_refusal::<Reference>(limits, input.as_bytes()), bound),
        #[cfg(feature = "simd-json")]
        (
            "simd",
            peak_heap_of_refusal::<SimdJson>(limits, input.as_bytes()),
            bound + isize::try_from(SIMD_JSON_HEAP_PER_INPUT_BYTE * (2 * SimdJson::CHUNK_LEN + item.len())).unwrap(),
        ),
    ] {
        assert_eq!(reason, Some("batch-too-long"), "{backend}");
        assert!(peak <= bound, "{backend}: peak heap {peak} > {bound} for a batch of 1000 items, limit 100");
    }
}

/// The reason a cold parse of `input` gives, and its peak heap.
fn peak_heap_of_refusal<B: Backend>(limits: Limits, input: &[u8]) -> (Option<&'static str>, isize) {
    reset_peak();
    let reason =
        Parser::<B>::with_backend(Revision::JsonRpc).with_limits(limits).parse(input).err().map(|e| e.reason().name());
    (reason, reset_peak())
}

/// What one batch item may cost beyond the input's own bytes: its message
/// (`Result<Message, Error>`, allocated once for the whole batch) and its
/// nodes on the tape (16 bytes each, 13 for the item above, with the tape's
/// doubling while it grows). At the default limit that is at most 300 KiB.
const BATCH_HEAP_PER_ITEM: usize = 300;

/// simd-json's cost per byte it reads: a padded copy, a string buffer, a
/// structural index and a tape of every value (measured: 14.0 on the
/// maximal batch read whole, before batches were read in chunks).
#[cfg(feature = "simd-json")]
const SIMD_JSON_HEAP_PER_INPUT_BYTE: usize = 15;

#[test]
fn the_line_reader_copies_only_lines_split_across_chunks_and_never_past_the_limit() {
    use mcp_envelope::transport::lines::LineReader;
    let mut reader = LineReader::new(1000);
    let mut messages = 0;
    // Lines that end in their chunk are lent from it: nothing is copied.
    let before = allocations();
    reader.feed(b"{\"jsonrpc\":\"2.0\",\"method\":\"a\"}\n{\"jsonrpc\":\"2.0\",\"method\":\"b\"}\n", |_| messages += 1);
    assert_eq!((messages, allocations() - before), (2, 0));
    // A line begun in one chunk is held; when a chunk of a megabyte ends
    // it, what was held is dropped, not grown to the line's length.
    let mut rest = vec![b' '; 1 << 20];
    rest.extend_from_slice(b"1}\n");
    reader.feed(b"{\"a\":", |_| {});
    reset_peak();
    let live = LIVE.with(Cell::get);
    let mut oversized = 0;
    reader.feed(&rest, |frame| {
        oversized += usize::from(matches!(frame, mcp_envelope::transport::lines::Line::Oversized { .. }))
    });
    assert_eq!(oversized, 1);
    // The high-water mark above what was live before (a cleared Vec keeps
    // its capacity, so what is live after says nothing).
    let grown = PEAK.with(Cell::get) - live;
    assert!(grown < 4096, "the reader copied the long line: {grown} bytes");
}

#[test]
fn an_event_s_data_grows_towards_the_limit_never_past_it() {
    use mcp_envelope::transport::sse::EventReader;
    // Data under a 1 MB limit, fed in chunks: the buffer at most doubles
    // what it holds (plus a chunk), and never passes the limit: 600 KB
    // doubling from 512 KiB would reserve 1 MiB; the reader stops at the
    // limit. A small event reserves little, whatever the limit.
    let limit = 1_000_000;
    for (len, chunk) in [(3_000, 100), (40_000, 512), (300_000, 4096), (600_000, 4096)] {
        let data = format!("data: {}\n", "x".repeat(len));
        let mut reader = EventReader::new(limit);
        let live = LIVE.with(Cell::get);
        for part in data.as_bytes().chunks(chunk) {
            reader.feed(part, |_| {});
        }
        // What the reader holds before the blank line: the data's buffer
        // and a few small ones.
        let held = usize::try_from(LIVE.with(Cell::get) - live).unwrap_or(usize::MAX);
        let most = (2 * len + chunk).min(limit + 1) + 4096;
        assert!((len..=most).contains(&held), "held {held} bytes for {len} of data under a limit of {limit}");
        let mut got = 0;
        reader.feed(b"\n", |e| got += e.message().map_or(0, <[u8]>::len));
        assert_eq!(got, len);
    }
}
