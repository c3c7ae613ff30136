//! The same messages framed two ways, read and checked: as stdio lines,
//! and as a Streamable HTTP event stream (a priming event, then one
//! `message` event with an id per message, as the reference server sends),
//! both fed in chunks as a socket delivers them; and the event stream
//! through sse-stream (rmcp's decoder) with a serde_json struct, what a
//! careful peer does today.

use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};

use bytes::Bytes;
use futures_util::Stream;
use mcp_envelope::Parser;
use mcp_envelope::backend::Reference;
use mcp_envelope::transport::lines::LineReader;
use mcp_envelope::transport::sse::EventReader;

/// What a socket read delivers at a time.
pub const CHUNK: usize = 16 * 1024;

/// Big enough for every message of the corpus.
const MAX: usize = 64 * 1024 * 1024;

pub fn lines(messages: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::new();
    for m in messages {
        out.extend_from_slice(m);
        out.push(b'\n');
    }
    out
}

pub fn events(messages: &[Vec<u8>]) -> Vec<u8> {
    let mut out = b"id: 0\ndata: \n\n".to_vec();
    for (i, m) in messages.iter().enumerate() {
        out.extend_from_slice(format!("event: message\nid: {}\ndata: ", i + 1).as_bytes());
        out.extend_from_slice(m);
        out.extend_from_slice(b"\n\n");
    }
    out
}

/// The stream as `Bytes` chunks (cheap to clone: reference counts).
pub fn chunks(stream: &[u8]) -> Vec<Bytes> {
    let all = Bytes::copy_from_slice(stream);
    (0..stream.len()).step_by(CHUNK).map(|at| all.slice(at..(at + CHUNK).min(stream.len()))).collect()
}

/// Each message of a line-framed stream, read as a socket delivers it.
fn each_line(stream: &[u8], mut each: impl FnMut(&[u8])) {
    let mut reader = LineReader::new(MAX);
    for chunk in stream.chunks(CHUNK) {
        reader.feed(chunk, |frame| {
            if let mcp_envelope::transport::lines::Line::Message { bytes, .. } = frame {
                each(bytes);
            }
        });
    }
    reader.finish(|_| {});
}

/// Each message of an event stream, read as a socket delivers it.
fn each_event(stream: &[u8], mut each: impl FnMut(&[u8])) {
    let mut reader = EventReader::new(MAX);
    for chunk in stream.chunks(CHUNK) {
        reader.feed(chunk, |event| {
            if let Some(data) = event.message() {
                each(data);
            }
        });
    }
    reader.finish(|_| {});
}

/// Valid messages read from a line-framed stream.
pub fn lines_checked(parser: &mut Parser<Reference>, stream: &[u8]) -> usize {
    let mut valid = 0;
    each_line(stream, |bytes| valid += usize::from(parser.parse(bytes).is_ok()));
    valid
}

/// Valid messages read from an event stream.
pub fn events_checked(parser: &mut Parser<Reference>, stream: &[u8]) -> usize {
    let mut valid = 0;
    each_event(stream, |data| valid += usize::from(parser.parse(data).is_ok()));
    valid
}

/// Messages framed as lines, not checked: the framing's own share.
pub fn lines_framed(stream: &[u8]) -> usize {
    let mut framed = 0;
    each_line(stream, |bytes| framed += usize::from(!std::hint::black_box(bytes).is_empty()));
    framed
}

/// Message events framed, not checked: the framing's own share.
pub fn events_framed(stream: &[u8]) -> usize {
    let mut framed = 0;
    each_event(stream, |data| framed += usize::from(!std::hint::black_box(data).is_empty()));
    framed
}

/// Messages sse-stream dispatches that a serde_json envelope struct reads.
pub fn sse_stream_serde(chunks: &[Bytes]) -> usize {
    let stream = futures_util::stream::iter(chunks.iter().cloned().map(Ok::<Bytes, Infallible>));
    let mut events = sse_stream::SseByteStream::new(stream);
    // Every chunk is ready, so the stream never waits.
    let mut cx = Context::from_waker(Waker::noop());
    let mut valid = 0;
    while let Poll::Ready(Some(Ok(event))) = Pin::new(&mut events).poll_next(&mut cx) {
        if let Some(data) = event.data.filter(|d| !d.is_empty()) {
            valid += usize::from(super::serde_raw_struct(data.as_bytes()).is_some());
        }
    }
    valid
}
