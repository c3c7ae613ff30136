//! Event-stream framing under arbitrary chunking, by all three readers (the
//! push [`EventReader`], the pull [`Events`] and the tokio [`EventCodec`]),
//! held to a plain model of the WHATWG algorithm that reads the whole
//! stream at once and holds everything.

use std::vec::Vec;

use crate::chunks::{Sizes, split};
use crate::harness::{self, Expect};
use crate::sse_oracle;
use crate::{assert_same, shown};
use mcp_envelope::Parser;
use mcp_envelope::Revision;
use mcp_envelope::backend::{SerdeJson, SimdJson};
use mcp_envelope::transport::sse::{BodyBuf, EventBuf, EventCodec, EventReader, Events, MAX_FIELD_LEN};

/// What the readers may hold beyond `max_size`: the data's last LF, and the
/// event type, last event id and a field value being read.
fn bound(max: usize) -> usize {
    max + 1 + 3 * MAX_FIELD_LEN
}

/// Whether `chunks` through a fresh push reader give `expected`; the reader
/// never holds more than [`bound`] after a chunk.
fn pushed_gives<'c>(max: usize, chunks: impl Iterator<Item = &'c [u8]>, expected: &[EventBuf]) -> bool {
    let mut reader = EventReader::new(max);
    let mut expect = Expect::new(expected);
    for chunk in chunks {
        reader.feed(chunk, |e| expect.next(|x| x.as_event() == e));
        assert!(reader.buffered() <= bound(max), "held {} bytes with a limit of {max}", reader.buffered());
    }
    reader.finish(|e| expect.next(|x| x.as_event() == e));
    expect.all_met()
}

/// The events of `chunks` through a fresh push reader, owned (for the
/// failure message, and for the short head read a byte at a time).
fn pushed<'c>(max: usize, chunks: impl Iterator<Item = &'c [u8]>) -> Vec<EventBuf> {
    let mut reader = EventReader::new(max);
    let mut out = Vec::new();
    for chunk in chunks {
        reader.feed(chunk, |e| out.push(EventBuf::from(e)));
    }
    reader.finish(|e| out.push(EventBuf::from(e)));
    out
}

/// Whether [`Events`] over `bytes`, pulled as [`harness::pulled`] pulls
/// them, gives `expected`.
fn pulled_gives(max: usize, bytes: &[u8], sizes: &mut Sizes, expected: &[EventBuf]) -> bool {
    harness::pulled(
        bytes,
        max,
        sizes,
        expected,
        |reader| Events::new(reader, max),
        |events, expect| {
            let event = events.next_event()?;
            Ok(event.map(|e| expect.next(|x| x.as_event() == e)).is_some())
        },
    )
}

/// Whether [`EventCodec`] fed `chunks` gives `expected`; it takes every
/// byte it is given and holds no more than the push reader.
fn decoded_gives<'c>(max: usize, chunks: impl Iterator<Item = &'c [u8]>, expected: &[EventBuf]) -> bool {
    harness::decoded(
        EventCodec::new(max),
        chunks,
        expected,
        |event, x| x.as_event() == event.as_event(),
        |codec, buf| assert!(buf.is_empty() && codec.buffered() <= bound(max), "the codec holds more than it may"),
    )
}

/// The event being read by the model.
#[derive(Default)]
struct Pending {
    start: Option<(u64, u64)>,
    data: Vec<u8>,
    has_data: bool,
    event_type: Vec<u8>,
    retry: Option<u64>,
    over_field: Option<u64>,
}

/// The WHATWG event-stream interpretation, plainly: the whole stream split
/// into lines first, every buffer unbounded, and the limits applied only
/// when an event ends.
fn model(stream: &[u8], max: usize) -> Vec<EventBuf> {
    let (mut rest, mut offset) = match stream.strip_prefix(b"\xEF\xBB\xBF") {
        Some(rest) => (rest, 3u64),
        None => (stream, 0),
    };
    let mut events = Vec::new();
    let (mut line, mut id, mut event) = (1u64, Vec::new(), Pending::default());
    loop {
        let end = rest.iter().position(|&b| b == b'\r' || b == b'\n');
        let text = rest.get(..end.unwrap_or(rest.len())).unwrap_or_default();
        if end.is_none() {
            // An unfinished line at the end is never processed, but a
            // field line there is the start of an event.
            if !text.is_empty() && !text.starts_with(b":") {
                event.start.get_or_insert((line, offset));
            }
            break;
        }
        let mut next = text.len() + 1;
        if rest.get(text.len()) == Some(&b'\r') && rest.get(next) == Some(&b'\n') {
            next += 1;
        }
        if text.is_empty() {
            if let Some(done) = dispatch(&mut event, &id, max) {
                events.push(done);
            }
        } else if !text.starts_with(b":") {
            event.start.get_or_insert((line, offset));
            let (name, value) = match text.iter().position(|&b| b == b':') {
                Some(colon) => {
                    let value = text.get(colon + 1..).unwrap_or_default();
                    (text.get(..colon).unwrap_or_default(), value.strip_prefix(b" ").unwrap_or(value))
                }
                None => (text, &[][..]),
            };
            field(&mut event, &mut id, name, value);
        }
        rest = rest.get(next..).unwrap_or_default();
        offset += next as u64;
        line += 1;
    }
    if let Some((line, offset)) = event.start {
        let event_type = if event.event_type.is_empty() { b"message".to_vec() } else { event.event_type };
        events.push(EventBuf { line, offset, event_type, id, retry: event.retry, body: BodyBuf::Cut });
    }
    events
}

fn field(event: &mut Pending, id: &mut Vec<u8>, name: &[u8], value: &[u8]) {
    let too_long = value.len() > MAX_FIELD_LEN;
    match name {
        b"data" => {
            event.data.extend_from_slice(value);
            event.data.push(b'\n');
            event.has_data = true;
        }
        b"event" | b"id" if too_long => {
            event.over_field.get_or_insert(value.len() as u64);
        }
        b"event" => event.event_type = value.to_vec(),
        b"id" if !value.contains(&0) => *id = value.to_vec(),
        b"retry" if !value.is_empty() && value.iter().all(u8::is_ascii_digit) => {
            let n = value.iter().fold(0u64, |n, &d| n.saturating_mul(10).saturating_add(u64::from(d - b'0')));
            event.retry = Some(n);
        }
        _ => {}
    }
}

fn dispatch(event: &mut Pending, id: &[u8], max: usize) -> Option<EventBuf> {
    let done = core::mem::take(event);
    let (line, offset) = done.start?;
    let mut data = done.data;
    data.pop();
    let body = if done.has_data && data.len() > max {
        BodyBuf::Oversized { len: data.len() as u64 }
    } else if let Some(len) = done.over_field {
        BodyBuf::Oversized { len }
    } else if !done.has_data {
        return None;
    } else {
        BodyBuf::Data(data)
    };
    let event_type = if done.event_type.is_empty() { b"message".to_vec() } else { done.event_type };
    Some(EventBuf { line, offset, event_type, id: id.to_vec(), retry: done.retry, body })
}

/// Messages parsed by both backends per input: the `differential` target
/// compares them on every input anyway; this shows that framed data
/// reaches them.
const PARSED_EVENTS: usize = 16;

/// Whether the framing's dispatched events are the oracle's. They agree
/// on every event both list; the framing lists at least the oracle's
/// unless an oversized field cut its list short, and the oracle lists at
/// least the framing's unless it stopped at invalid UTF-8.
fn agrees(ours: &[sse_oracle::Dispatched], theirs: &[sse_oracle::Dispatched], stopped: bool, cut_short: bool) -> bool {
    let both = ours.len().min(theirs.len());
    ours.get(..both) == theirs.get(..both)
        && (cut_short || ours.len() >= theirs.len())
        && (stopped || theirs.len() >= ours.len())
}

/// Input: one byte for the size limit, one for the chunking, then the
/// stream. The push reader gives the model's events (types, ids, retry
/// times, data, lines and offsets) whether the stream arrives whole, in
/// chunks of pseudo-random sizes (empty ones included) or, for its
/// beginning, a byte at a time; the pull reader (through a buffer of
/// pseudo-random size over reads of pseudo-random size, some interrupted)
/// and the tokio codec (fed the same chunks) give the same; none holds
/// more than the limit allows; sse-stream dispatches the same events (see
/// `sse_oracle` for where it may stop early); and the first messages get
/// the same verdict from both backends.
pub fn sse(input: &[u8]) {
    let [max, seed, bytes @ ..] = input else { return };
    let max = usize::from(*max % 64) + 1;
    let expected = model(bytes, max);
    assert!(
        pushed_gives(max, core::iter::once(bytes), &expected),
        "the reader's events differ from the model's on {} (limit {max}):\n  reader: {:?}\n  model:  {expected:?}",
        shown(bytes),
        pushed(max, core::iter::once(bytes))
    );
    let mut sizes = Sizes::new(u32::from(*seed));
    let chunks = split(bytes, &mut sizes, 2 * max + 3);
    assert!(
        pushed_gives(max, chunks.iter().copied(), &expected),
        "chunking changed the events of {} (limit {max}): {:?}",
        shown(bytes),
        pushed(max, chunks.iter().copied())
    );
    assert!(
        pulled_gives(max, bytes, &mut sizes, &expected),
        "the pull reader's events differ on {} (limit {max})",
        shown(bytes)
    );
    assert!(
        decoded_gives(max, chunks.iter().copied(), &expected),
        "the codec's events differ on {} (limit {max})",
        shown(bytes)
    );
    // A byte at a time over the first lines (over everything it would cost
    // a call per byte, and the random chunking reaches one-byte chunks too).
    let head = bytes.get(..4 * max + 8).unwrap_or(bytes);
    let head_whole = pushed(max, core::iter::once(head));
    assert!(
        pushed_gives(max, head.chunks(1), &head_whole),
        "bytewise on {}: {:?}, whole {head_whole:?}",
        shown(head),
        pushed(max, head.chunks(1))
    );

    // The independent decoder, with a limit nothing here reaches: the
    // model's events unless one was over the limit (the limit applies only
    // when an event ends, so nothing else differs), when it reads again.
    let over = |e: &EventBuf| matches!(e.body, BodyBuf::Oversized { .. });
    let reread;
    let unbounded = if expected.iter().any(over) {
        reread = model(bytes, bytes.len() + 1);
        &reread
    } else {
        &expected
    };
    let ours = sse_oracle::ours(unbounded);
    let (theirs, stopped) = sse_oracle::oracle(bytes, usize::from(*seed) % (bytes.len() + 1));
    let agree = agrees(&ours, &theirs, stopped, unbounded.iter().any(over));
    assert!(agree, "sse-stream reads {} otherwise:\n  ours:   {ours:?}\n  theirs: {theirs:?}", shown(bytes));

    let mut serde = Parser::<SerdeJson>::with_backend(Revision::V2026_07_28);
    let mut simd = Parser::<SimdJson>::with_backend(Revision::V2026_07_28);
    for data in expected.iter().filter_map(|e| e.as_event().message()).take(PARSED_EVENTS) {
        assert_same(data, &"an event's data", ("serde", &serde.parse(data)), ("simd", &simd.parse(data)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_model_reads_what_the_standard_says() {
        let stream = b"\xEF\xBB\xBFid: 1\r\ndata: a\r\ndata\r\n\r\n:c\nevent: e\nretry: 9\ndata:  b\n\nid: x\0\ndata:c\n\nid: 2\n\ndata: z";
        let got = model(stream, 100);
        let shape: Vec<_> = got
            .iter()
            .map(|e| (e.line, e.offset, e.event_type.clone(), e.id.clone(), e.retry, e.body.clone()))
            .collect();
        assert_eq!(
            shape,
            [
                (1, 3, b"message".to_vec(), b"1".to_vec(), None, BodyBuf::Data(b"a\n".to_vec())),
                (6, 30, b"e".to_vec(), b"1".to_vec(), Some(9), BodyBuf::Data(b" b".to_vec())),
                (10, 58, b"message".to_vec(), b"1".to_vec(), None, BodyBuf::Data(b"c".to_vec())),
                (15, 80, b"message".to_vec(), b"2".to_vec(), None, BodyBuf::Cut),
            ]
        );
        assert_eq!(model(b"data: abcdef\n\n", 5)[0].body, BodyBuf::Oversized { len: 6 });
    }

    #[test]
    fn the_oracle_dispatches_what_the_standard_says_and_a_missing_event_is_caught() {
        let stream = b"id: 1\r\ndata: a\r\n\r\nevent: e\ndata: b\n\nid: 2\n\ndata: c\n\ndata: cut";
        let (theirs, stopped) = sse_oracle::oracle(stream, 9);
        assert!(!stopped);
        assert_eq!(theirs, sse_oracle::ours(&model(stream, 100)));
        let ids: Vec<&[u8]> = theirs.iter().map(|(_, id, _)| &id[..]).collect();
        assert_eq!(ids, [&b"1"[..], b"1", b"2"]);
        assert!(!agrees(&theirs[..2], &theirs, false, false));
        assert!(agrees(&theirs[..2], &theirs, false, true), "an oversized field may cut ours short");
        assert!(!agrees(&theirs, &theirs[..2], false, false));
        assert!(agrees(&theirs, &theirs[..2], true, false), "the oracle may stop at invalid UTF-8");
        // Invalid UTF-8 in data: the oracle stops there.
        assert!(sse_oracle::oracle(b"data: \xFF\n\n", 3).1);
    }

    #[test]
    fn a_reader_that_differs_from_the_model_is_caught() {
        // The property panics when the reader and the model disagree; a
        // second blank line changes nothing, a changed byte does.
        let stream = b"\x10\x03data: {}\n\nid: 1\ndata: [1]\n\n";
        sse(stream);
        let model_events = model(&stream[2..], 17);
        let mut other = model_events.clone();
        other[1].line += 1;
        assert_ne!(model_events, other);
        assert_ne!(model(b"data: {}\r\r", 17), model(b"data: {}\r\n", 17));
    }
}
