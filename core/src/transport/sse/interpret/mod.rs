//! The event-stream interpretation of the WHATWG HTML standard ("Server-sent
//! events", section 9.2.6), as a state machine that takes bytes in pieces
//! of any size and stops at the end of each event.
//!
//! It works on bytes, not decoded text: the data goes to the parser, which
//! checks UTF-8 itself and says where it fails (a browser would put U+FFFD
//! there instead). Lines end at CR LF, LF or CR; a CR ends its line at once
//! and an LF right after it, in this piece or the next, is skipped, so a CR
//! LF split across reads is one line ending, never two.

use alloc::vec::Vec;

use crate::span;

mod fields;
mod lines;
mod usual;

/// The longest `event` or `id` value held, in bytes. Real ones are short (a
/// type name, a stream id and a counter); a longer one makes its event
/// too large rather than growing memory past `max_size` plus this.
pub const MAX_FIELD_LEN: usize = 1024;

const BOM: [u8; 3] = [0xEF, 0xBB, 0xBF];
/// Longest field name that means anything (`retry`, `event`).
const MAX_NAME: usize = 5;

/// Where the interpreter is within a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum At {
    /// At the start of a line: a blank line, a comment or a field follows.
    LineStart,
    /// Reading a field's name, up to its `:` or the end of the line.
    Name,
    /// Reading the value of a field that means something; `first` until
    /// its first byte was seen (one leading space is removed).
    Value { field: Field, first: bool },
    /// A comment, or a field that means nothing: skipped to the line's end.
    Skip,
}

/// The fields the standard gives a meaning to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Field {
    Data,
    Event,
    Id,
    Retry,
}

impl Field {
    fn named(name: &[u8]) -> Option<Field> {
        Some(match name {
            b"data" => Field::Data,
            b"event" => Field::Event,
            b"id" => Field::Id,
            b"retry" => Field::Retry,
            _ => return None,
        })
    }
}

/// How an event ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ending {
    /// Dispatched: its blank line arrived and it had data.
    Dispatched,
    /// Its blank line arrived, but something of it was too long (`len`
    /// bytes): the data past `max_size`, or an `event` or `id` value past
    /// [`MAX_FIELD_LEN`].
    Oversized(u64),
    /// The stream ended inside it.
    Cut,
}

/// The state of one event stream.
#[derive(Clone, Debug)]
pub(crate) struct Interpreter {
    max_size: usize,
    at: At,
    /// The last line ended with CR: an LF next is part of that line ending.
    after_cr: bool,
    /// Bytes of a byte-order mark matched at the start; `None` once past it.
    bom: Option<usize>,
    /// The line the next byte belongs to, 1-based.
    line: u64,
    /// Stream offset of the next byte.
    offset: u64,
    /// The name of the field being read, while it is short enough to mean
    /// something.
    name: [u8; MAX_NAME],
    /// Its length; past `MAX_NAME`, a name that means nothing.
    name_len: usize,
    /// A field line (not a comment) arrived since the last blank line.
    pending: bool,
    /// Line and offset of the event's first field line.
    start: (u64, u64),
    /// The data buffer: each `data` value and an LF, while it fits
    /// `max_size` plus that LF.
    data: Vec<u8>,
    /// Its length, counted on past the limit.
    data_len: u64,
    /// The event type buffer.
    event_type: Vec<u8>,
    /// The last event ID buffer (it outlives events, as the standard says).
    id: Vec<u8>,
    /// The `event` or `id` value being read, and its length counted on
    /// past [`MAX_FIELD_LEN`] (for `retry`, only its length).
    value: Vec<u8>,
    value_len: u64,
    /// A `retry` value being read: its number, and whether it is only
    /// ASCII digits so far.
    retry_value: u64,
    retry_digits: bool,
    /// The reconnection time last set, and the one set within this event.
    retry: Option<u64>,
    event_retry: Option<u64>,
    /// Length of the first `event` or `id` value of this event that was too long.
    over_field: Option<u64>,
    /// The last event returned, whose buffers are reset before any more
    /// bytes are taken (its data is lent until then).
    ended: Option<Ending>,
    /// The event's one data line so far, where it lies in the bytes being
    /// read, when it is not copied (the common event: one `data` line,
    /// whole in one chunk). Copied into `data` before those bytes go.
    lent: Option<(usize, usize)>,
    /// Whether data may be lent: not for readers that give the bytes back
    /// before the event is read (the pull reader).
    lend: bool,
}

impl Interpreter {
    pub(crate) fn new(max_size: usize) -> Interpreter {
        Interpreter {
            max_size,
            at: At::LineStart,
            after_cr: false,
            bom: Some(0),
            line: 1,
            offset: 0,
            name: [0; MAX_NAME],
            name_len: 0,
            pending: false,
            start: (1, 0),
            data: Vec::new(),
            data_len: 0,
            event_type: Vec::new(),
            id: Vec::new(),
            value: Vec::new(),
            value_len: 0,
            retry_value: 0,
            retry_digits: false,
            retry: None,
            event_retry: None,
            over_field: None,
            ended: None,
            lent: None,
            lend: true,
        }
    }

    /// An interpreter that always copies the data.
    #[cfg(feature = "std")]
    pub(crate) fn copying(max_size: usize) -> Interpreter {
        Interpreter { lend: false, ..Interpreter::new(max_size) }
    }

    /// Takes bytes of `chunk` until an event ends or the chunk is used up:
    /// how many it took, and how the event ended, if one did. The event's
    /// parts stay readable until the next call.
    pub(crate) fn step(&mut self, chunk: &[u8]) -> (usize, Option<Ending>) {
        self.reset_ended();
        let mut taken = 0;
        if let Some(matched) = self.bom {
            // The mark may come in pieces: hold what matches so far.
            let mut matched = matched;
            while let (Some(&byte), Some(&want)) = (chunk.get(taken), BOM.get(matched)) {
                if byte != want {
                    break;
                }
                matched += 1;
                taken += 1;
            }
            if matched == BOM.len() {
                self.offset += BOM.len() as u64;
                self.bom = None;
            } else if taken == chunk.len() {
                self.bom = Some(matched);
                return (taken, None);
            } else {
                // Not a mark: what matched of it was ordinary bytes (the
                // start of a field name, which cannot end an event).
                self.bom = None;
                let (_, ending) = self.run(span::within(&BOM, 0..matched));
                debug_assert!(ending.is_none());
            }
        }
        let (used, ending) = self.run(span::from(chunk, taken));
        // Lent data lies in the chunk, past the mark.
        self.lent = self.lent.map(|(from, to)| (from + taken, to + taken));
        (taken + used, ending)
    }

    /// The stream ended: an event it was inside is cut (the standard
    /// discards it; a checker reports it). Only once.
    pub(crate) fn finish(&mut self) -> Option<Ending> {
        self.reset_ended();
        if let Some(matched) = self.bom.take() {
            let _ = self.run(span::within(&BOM, 0..matched));
        }
        if !self.pending {
            return None;
        }
        self.pending = false;
        self.at = At::LineStart;
        self.ended = Some(Ending::Cut);
        Some(Ending::Cut)
    }

    /// Line and offset of the event's first field line.
    pub(crate) fn start(&self) -> (u64, u64) {
        self.start
    }

    /// The event type: the buffer, or `message` when it is empty.
    pub(crate) fn event_type(&self) -> &[u8] {
        if self.event_type.is_empty() { b"message" } else { &self.event_type }
    }

    /// The last event ID buffer.
    pub(crate) fn id(&self) -> &[u8] {
        &self.id
    }

    /// The event's data, once dispatched: lent from `chunk` (what was
    /// given to the step that dispatched it), or held.
    pub(crate) fn data<'a>(&'a self, chunk: &'a [u8]) -> &'a [u8] {
        match self.lent {
            Some((from, to)) => span::within(chunk, from..to),
            None => &self.data,
        }
    }

    /// The reconnection time set within the event.
    pub(crate) fn event_retry(&self) -> Option<u64> {
        self.event_retry
    }

    /// The reconnection time last set.
    pub(crate) fn retry(&self) -> Option<u64> {
        self.retry
    }

    /// Bytes held: the data, the event type and id, a value being read.
    pub(crate) fn held(&self) -> usize {
        self.data.len() + self.event_type.len() + self.id.len() + self.value.len()
    }
}
