//! Event-stream framing against an independent decoder: `sse-stream`, the
//! decoder rmcp reads Streamable HTTP with. Both must dispatch the same
//! events (type, last event id, data); where they differ by design the
//! comparison stops, and RULES.md section 7 says why:
//!
//! - the oracle validates UTF-8 and ends the stream at the first invalid
//!   byte in a field it recognises; the standard decodes with
//!   replacement, and the framing hands the bytes on for the JSON parser
//!   to reject, so only the events before the oracle's error are compared;
//! - the framing skips an `event` or `id` value longer than
//!   [`MAX_FIELD_LEN`](mcp_envelope::transport::sse::MAX_FIELD_LEN) (memory bound);
//!   the oracle holds any: streams with one are not compared past it.

use core::convert::Infallible;
use core::pin::Pin;
use core::task::{Context, Poll, Waker};
use std::vec::Vec;

use bytes::Bytes;
use futures_util::Stream;
use sse_stream::SseByteStream;

use mcp_envelope::transport::sse::{BodyBuf, EventBuf};

/// One dispatched event as both decoders can say it: its type, the last
/// event id, its data.
pub(super) type Dispatched = (Vec<u8>, Vec<u8>, Vec<u8>);

/// The dispatched events among the framing's, up to the first one that
/// the oracle would hold differently (an oversized field).
pub(super) fn ours(events: &[EventBuf]) -> Vec<Dispatched> {
    events
        .iter()
        .map_while(|e| match &e.body {
            BodyBuf::Data(data) => Some(Some((e.event_type.clone(), e.id.clone(), data.clone()))),
            BodyBuf::Cut => Some(None),
            BodyBuf::Oversized { .. } => None,
        })
        .flatten()
        .collect()
}

/// The oracle's dispatched events for `bytes` fed in two chunks split at
/// `at`, and whether it stopped at an error.
pub(super) fn oracle(bytes: &[u8], at: usize) -> (Vec<Dispatched>, bool) {
    let (head, tail) = bytes.split_at(at.min(bytes.len()));
    let chunks = [Bytes::copy_from_slice(head), Bytes::copy_from_slice(tail)];
    let mut stream = SseByteStream::new(futures_util::stream::iter(chunks.map(Ok::<Bytes, Infallible>)));
    // Every chunk is ready: the stream never waits, so a no-op waker will do.
    let mut cx = Context::from_waker(Waker::noop());
    let mut last_id = Vec::new();
    let mut out = Vec::new();
    loop {
        match Pin::new(&mut stream).poll_next(&mut cx) {
            Poll::Ready(Some(Ok(block))) => {
                // The standard keeps the last id across events, set by any
                // block (the oracle reports each block's own).
                if let Some(id) = block.id {
                    last_id = id.into_bytes();
                }
                // A block without data is not dispatched; an empty type
                // is `message`.
                if let Some(data) = block.data {
                    let event = block.event.filter(|e| !e.is_empty()).unwrap_or_else(|| "message".into());
                    out.push((event.into_bytes(), last_id.clone(), data.into_bytes()));
                }
            }
            Poll::Ready(Some(Err(_))) => return (out, true),
            Poll::Ready(None) | Poll::Pending => return (out, false),
        }
    }
}
