//! Event-stream framing (`text/event-stream`), as MCP's Streamable HTTP
//! transport uses it: each dispatched `message` event carries one JSON-RPC
//! message in its data.
//!
//! The stream is interpreted exactly as the WHATWG HTML standard says
//! (section 9.2.6): one byte-order mark at the start skipped; lines ending
//! at CR LF, LF or CR, with a CR at the end of one chunk and an LF at the
//! start of the next one line ending; `:` comments skipped; a field's value
//! after its first `:`, one leading space removed; `data` lines joined with
//! LF; `event` the type (`message` when none); `id` the last event id,
//! ignored when it holds NUL, kept across events; `retry` only when all
//! ASCII digits; a blank line dispatches, and an event without any `data`
//! line is not dispatched. Where a checker must say more than a browser:
//!
//! - an event whose data is empty (`data:` alone, what MCP servers send to
//!   prime a reconnection) is dispatched with empty data, which is no
//!   message: [`Event::message`] is `None` for it, and nobody parses it;
//! - an event whose data is longer than `max_size` comes out as
//!   [`Body::Oversized`], its data counted and never held (so is one whose
//!   `event` or `id` value is longer than [`MAX_FIELD_LEN`]);
//! - the stream ending inside an event gives [`Body::Cut`] rather than
//!   nothing, so a message lost that way is seen;
//! - bytes are not decoded: data that is not UTF-8 reaches the parser as it
//!   is, and the parser names the first bad byte (a browser would show
//!   U+FFFD).
//!
//! The events, and their lines and offsets, are the same for every split
//! of the stream into chunks. [`EventReader`] is pushed chunks and calls
//! back for each event; [`Events`] (feature `std`) pulls them from a
//! `BufRead`; `EventCodec` (feature `tokio`) is a `tokio_util` decoder. All
//! three hold at most `max_size` plus a byte of data, and the event type,
//! last event id and one field value of at most [`MAX_FIELD_LEN`] each.
//!
//! ```
//! use mcp_envelope::transport::sse::{Body, EventReader};
//! use mcp_envelope::{Limits, Parser, Revision};
//!
//! let stream = b"id: 0\r\ndata:\r\n\r\n: keep-alive\r\nevent: message\r\nid: 1\r\ndata: {\"jsonrpc\":\"2.0\",\r\ndata:  \"id\":1,\"result\":{}}\r\n\r\n";
//! let mut parser = Parser::new(Revision::V2026_07_28);
//! let mut reader = EventReader::new(Limits::DEFAULT_MAX_SIZE);
//! let mut seen = Vec::new();
//! // A CR LF split across two reads is one line ending.
//! for chunk in stream.split_inclusive(|&b| b == b'\r') {
//!     reader.feed(chunk, |event| {
//!         let verdict = event.message().map(|data| parser.parse(data).is_ok());
//!         seen.push((event.line, String::from_utf8_lossy(event.id).into_owned(), verdict));
//!     });
//! }
//! reader.finish(|_| unreachable!("the stream ends between events"));
//! // The priming event (empty data) carries no message; the second one's
//! // data is two lines joined with LF.
//! assert_eq!(seen, [(1, "0".to_owned(), None), (5, "1".to_owned(), Some(true))]);
//! ```

use alloc::vec::Vec;

use crate::envelope::Error;
use crate::span;

#[cfg(feature = "tokio")]
mod codec;
mod interpret;
#[cfg(feature = "std")]
mod pull;

#[cfg(feature = "tokio")]
pub use codec::EventCodec;
pub use interpret::MAX_FIELD_LEN;
#[cfg(feature = "std")]
pub use pull::Events;

use interpret::{Ending, Interpreter};

/// One event of the stream, or what stands in for one that could not be
/// dispatched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Event<'b> {
    /// 1-based line of the event's first field line.
    pub line: u64,
    /// Byte offset of that line in the stream.
    pub offset: u64,
    /// The event type: `message` unless an `event` field named another
    /// (2024-11-05's `endpoint`, say).
    pub event_type: &'b [u8],
    /// The last event id when the event ended (kept from earlier events
    /// when it set none, as the standard says); empty when there is none.
    pub id: &'b [u8],
    /// The reconnection time a `retry` field of this event set, in
    /// milliseconds.
    pub retry: Option<u64>,
    /// What the event carried.
    pub body: Body<'b>,
}

/// What an [`Event`] carried.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Body<'b> {
    /// The data: its lines joined with LF. Empty for a priming event.
    Data(&'b [u8]),
    /// Longer than the limit (`len` bytes): the data past `max_size`, or
    /// an `event` or `id` value past [`MAX_FIELD_LEN`]. Skipped, not held.
    Oversized {
        /// Length of what was too long.
        len: u64,
    },
    /// The stream ended inside the event, before its blank line: the
    /// standard discards it, so it was never delivered.
    Cut,
}

impl<'b> Event<'b> {
    /// Whether the event type is `message`, the type MCP sends messages in.
    #[must_use]
    pub fn is_message(&self) -> bool {
        self.event_type == b"message"
    }

    /// The JSON-RPC message this event carries: the data of a `message`
    /// event, when there is any. `None` for a priming event (empty data),
    /// other event types, and events too large or cut short.
    #[must_use]
    pub fn message(&self) -> Option<&'b [u8]> {
        match self.body {
            Body::Data(data) if self.is_message() && !data.is_empty() => Some(data),
            _ => None,
        }
    }

    /// For an oversized `message` event, the error to answer it with: the
    /// parser's `too-large`, exactly as [`Line::error`](super::lines::Line::error)
    /// gives for a line. `None` otherwise.
    #[must_use]
    pub fn error(&self, max_size: usize) -> Option<Error<'static>> {
        match self.body {
            Body::Oversized { .. } if self.is_message() => Some(Error::too_large(max_size)),
            _ => None,
        }
    }
}

/// An [`Event`] that owns its bytes, for queues, tasks and codecs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventBuf {
    /// 1-based line of the event's first field line.
    pub line: u64,
    /// Byte offset of that line in the stream.
    pub offset: u64,
    /// The event type.
    pub event_type: Vec<u8>,
    /// The last event id; empty when there is none.
    pub id: Vec<u8>,
    /// The reconnection time this event set.
    pub retry: Option<u64>,
    /// What the event carried.
    pub body: BodyBuf,
}

/// What an [`EventBuf`] carried.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BodyBuf {
    /// The data.
    Data(Vec<u8>),
    /// Longer than the limit.
    Oversized {
        /// Length of what was too long.
        len: u64,
    },
    /// The stream ended inside the event.
    Cut,
}

impl EventBuf {
    /// The event, borrowing these bytes.
    #[must_use]
    pub fn as_event(&self) -> Event<'_> {
        Event {
            line: self.line,
            offset: self.offset,
            event_type: &self.event_type,
            id: &self.id,
            retry: self.retry,
            body: match &self.body {
                BodyBuf::Data(data) => Body::Data(data),
                BodyBuf::Oversized { len } => Body::Oversized { len: *len },
                BodyBuf::Cut => Body::Cut,
            },
        }
    }
}

impl From<Event<'_>> for EventBuf {
    fn from(event: Event<'_>) -> EventBuf {
        EventBuf {
            line: event.line,
            offset: event.offset,
            event_type: event.event_type.to_vec(),
            id: event.id.to_vec(),
            retry: event.retry,
            body: match event.body {
                Body::Data(data) => BodyBuf::Data(data.to_vec()),
                Body::Oversized { len } => BodyBuf::Oversized { len },
                Body::Cut => BodyBuf::Cut,
            },
        }
    }
}

impl Interpreter {
    /// The event that ended as `ending`, in the step given `chunk`.
    fn event<'a>(&'a self, ending: Ending, chunk: &'a [u8]) -> Event<'a> {
        let (line, offset) = self.start();
        let body = match ending {
            Ending::Dispatched => Body::Data(self.data(chunk)),
            Ending::Oversized(len) => Body::Oversized { len },
            Ending::Cut => Body::Cut,
        };
        Event { line, offset, event_type: self.event_type(), id: self.id(), retry: self.event_retry(), body }
    }
}

/// Splits an event stream into events, holding at most one event's data.
#[derive(Clone, Debug)]
pub struct EventReader {
    interpreter: Interpreter,
}

impl EventReader {
    /// A reader for events of at most `max_size` bytes of data (see
    /// [`Limits::max_size`](crate::Limits::max_size)).
    #[must_use]
    pub fn new(max_size: usize) -> EventReader {
        EventReader { interpreter: Interpreter::new(max_size) }
    }

    /// Bytes held for the event being read (its data, type and id, the
    /// last event id, a field value): never more than `max_size + 1 + 3 *
    /// MAX_FIELD_LEN`.
    #[must_use]
    pub fn buffered(&self) -> usize {
        self.interpreter.held()
    }

    /// The last event id so far (what a client sends as `Last-Event-ID`
    /// when it reconnects); empty when there is none.
    #[must_use]
    pub fn last_event_id(&self) -> &[u8] {
        self.interpreter.id()
    }

    /// The reconnection time the stream last set, in milliseconds.
    #[must_use]
    pub fn retry(&self) -> Option<u64> {
        self.interpreter.retry()
    }

    /// Takes the next chunk; calls `emit` for each event it completes.
    pub fn feed(&mut self, chunk: &[u8], mut emit: impl FnMut(Event<'_>)) {
        let mut rest = chunk;
        loop {
            // The usual events straight from the chunk; the state machine
            // for the rest, up to the next event it ends.
            rest = span::from(rest, self.interpreter.usual_events(rest, &mut emit));
            let (used, ending) = self.interpreter.step(rest);
            match ending {
                Some(ending) => emit(self.interpreter.event(ending, rest)),
                None => break,
            }
            rest = span::from(rest, used);
        }
    }

    /// The stream ended: emits the event it ended inside, as [`Body::Cut`].
    pub fn finish(&mut self, mut emit: impl FnMut(Event<'_>)) {
        if let Some(ending) = self.interpreter.finish() {
            emit(self.interpreter.event(ending, &[]));
        }
    }
}
