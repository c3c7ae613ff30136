//! Newline-delimited framing, as MCP's stdio transport uses it.
//!
//! Messages are separated by `\n`; a trailing `\r` is dropped; lines of
//! nothing but JSON whitespace are skipped. Bytes may arrive in chunks of
//! any size: the lines produced do not depend on where the chunks split.
//! A line still incomplete at the end of a chunk is buffered, and only up to
//! the size limit: past it the line is counted, not stored, and reported as
//! [`Line::Oversized`] when its newline arrives. So the reader holds at
//! most one message of memory.
//!
//! [`LineReader`] is pushed chunks and calls back for each line;
//! [`Lines`] (feature `std`) pulls lines from a `BufRead` on demand;
//! `LineCodec` (feature `tokio`) is a `tokio_util` decoder and encoder. All
//! three give the same lines.

use alloc::vec::Vec;

use crate::envelope::Error;
use crate::json::grammar::is_whitespace;
use crate::span;

#[cfg(feature = "tokio")]
mod codec;
#[cfg(feature = "std")]
mod pull;
#[cfg(feature = "tokio")]
pub use codec::LineCodec;
#[cfg(feature = "std")]
pub use pull::Lines;

/// One line of the stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line<'b> {
    /// A line to parse, without its `\n` (and `\r`).
    Message {
        /// 1-based line number.
        line: u64,
        /// Byte offset of the line in the stream.
        offset: u64,
        /// The message.
        bytes: &'b [u8],
    },
    /// A line longer than the limit; its bytes were skipped.
    Oversized {
        /// 1-based line number.
        line: u64,
        /// Byte offset of the line in the stream.
        offset: u64,
        /// Its length in bytes, without the `\n`.
        len: u64,
    },
}

impl Line<'_> {
    /// For an line too long to hold, the error to answer it with: the parser's
    /// `too-large` (-32700) at offset `max_size`, with a `null` id, exactly
    /// what [`Parser::parse`](crate::Parser::parse) gives a message over the
    /// limit. `None` for a message (parse it).
    #[must_use]
    pub fn error(&self, max_size: usize) -> Option<Error<'static>> {
        match self {
            Line::Oversized { .. } => Some(Error::too_large(max_size)),
            Line::Message { .. } => None,
        }
    }
}

/// A [`Line`] that owns its bytes, for queues, tasks and codecs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineBuf {
    /// A line to parse, without its `\n` (and `\r`).
    Message {
        /// 1-based line number.
        line: u64,
        /// Byte offset of the line in the stream.
        offset: u64,
        /// The message.
        bytes: Vec<u8>,
    },
    /// A line longer than the limit; its bytes were skipped.
    Oversized {
        /// 1-based line number.
        line: u64,
        /// Byte offset of the line in the stream.
        offset: u64,
        /// Its length in bytes, without the `\n`.
        len: u64,
    },
}

impl LineBuf {
    /// The line, borrowing these bytes.
    #[must_use]
    pub fn as_line(&self) -> Line<'_> {
        match self {
            LineBuf::Message { line, offset, bytes } => Line::Message { line: *line, offset: *offset, bytes },
            LineBuf::Oversized { line, offset, len } => Line::Oversized { line: *line, offset: *offset, len: *len },
        }
    }
}

impl From<Line<'_>> for LineBuf {
    fn from(frame: Line<'_>) -> LineBuf {
        match frame {
            Line::Message { line, offset, bytes } => LineBuf::Message { line, offset, bytes: bytes.to_vec() },
            Line::Oversized { line, offset, len } => LineBuf::Oversized { line, offset, len },
        }
    }
}

/// What a complete line is.
pub(crate) enum Judged {
    /// A message of this many bytes (its `\r` dropped).
    Message(usize),
    /// Longer than the limit.
    Oversized,
    /// Nothing but JSON whitespace: skipped.
    Blank,
}

/// Judges a complete line `raw` (without its `\n`). The size is judged
/// before blankness, as it must be for a line skipped without being stored.
pub(crate) fn judge(raw: &[u8], max_size: usize) -> Judged {
    let bytes = raw.strip_suffix(b"\r").unwrap_or(raw);
    if bytes.len() > max_size {
        Judged::Oversized
    } else if bytes.iter().all(|&b| is_whitespace(b)) {
        Judged::Blank
    } else {
        Judged::Message(bytes.len())
    }
}

/// The line being read, for the push and the pull reader alike: its number
/// and offset, and what of it is held until its `\n` arrives (stored while
/// it fits the limit plus one byte, for a `\r`; counted past it).
#[derive(Clone, Debug)]
pub(crate) struct Splitter {
    max_size: usize,
    /// The incomplete line, while it fits the limit.
    partial: Vec<u8>,
    /// Length of the incomplete line, once it outgrew the limit.
    skipping: Option<u64>,
    number: u64,
    offset: u64,
}

/// A line whose `\n` (or the end of the input) arrived.
pub(crate) struct Ended {
    pub(crate) line: u64,
    pub(crate) offset: u64,
    /// Raw length, without the `\n`.
    pub(crate) len: u64,
    pub(crate) judged: Judged,
    /// A message's bytes are in [`Splitter::held`], not in the tail.
    pub(crate) held: bool,
}

impl Splitter {
    pub(crate) fn new(max_size: usize) -> Splitter {
        Splitter { max_size, partial: Vec::new(), skipping: None, number: 1, offset: 0 }
    }

    /// Nothing of the line has arrived.
    pub(crate) fn is_empty(&self) -> bool {
        self.skipping.is_none() && self.partial.is_empty()
    }

    /// The bytes held for the line.
    pub(crate) fn held(&self) -> &[u8] {
        &self.partial
    }

    /// Drops the held bytes, once their line has been handed out.
    pub(crate) fn clear(&mut self) {
        self.partial.clear();
    }

    /// Keeps `bytes` of the line, whose end has not arrived.
    pub(crate) fn hold(&mut self, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        match &mut self.skipping {
            Some(len) => *len += bytes.len() as u64,
            None if self.partial.len() + bytes.len() > self.max_size.saturating_add(1) => {
                self.skipping = Some((self.partial.len() + bytes.len()) as u64);
                self.partial.clear();
            }
            None => self.partial.extend_from_slice(bytes),
        }
    }

    /// The line ends with `tail` (the bytes before its `\n` not yet held):
    /// what it is, and the next line begins. When nothing was held, a
    /// message stays in `tail` (no copy); otherwise it is left whole in
    /// [`Splitter::held`]. Anything else leaves nothing held.
    pub(crate) fn end(&mut self, tail: &[u8]) -> Ended {
        let (line, offset) = (self.number, self.offset);
        let (len, judged, held) = if self.is_empty() {
            (tail.len() as u64, judge(tail, self.max_size), false)
        } else if let Some(len) = self.skipping.take() {
            self.partial.clear();
            (len + tail.len() as u64, Judged::Oversized, true)
        } else if self.partial.len() + tail.len() > self.max_size.saturating_add(1) {
            let len = (self.partial.len() + tail.len()) as u64;
            self.partial.clear();
            (len, Judged::Oversized, true)
        } else {
            self.partial.extend_from_slice(tail);
            let len = self.partial.len() as u64;
            let judged = judge(&self.partial, self.max_size);
            // Only a message's bytes are still wanted (until its line is
            // handed out). A line of exactly the limit plus one byte, held
            // and then judged too long, used to stay here: the pull reader,
            // which clears only after messages, counted it into the next
            // line or emitted it again at the end.
            if !matches!(judged, Judged::Message(_)) {
                self.partial.clear();
            }
            (len, judged, true)
        };
        self.number += 1;
        self.offset += len + 1;
        Ended { line, offset, len, judged, held }
    }
}

/// Splits a byte stream into lines, holding at most one line.
#[derive(Clone, Debug)]
pub struct LineReader {
    line: Splitter,
}

impl LineReader {
    /// A reader for messages of at most `max_size` bytes (see
    /// [`Limits::max_size`](crate::Limits::max_size)).
    #[must_use]
    pub fn new(max_size: usize) -> LineReader {
        LineReader { line: Splitter::new(max_size) }
    }

    /// Bytes buffered for the incomplete line: never more than the limit
    /// plus one (for a `\r`).
    #[must_use]
    pub fn buffered(&self) -> usize {
        self.line.held().len()
    }

    /// Takes the next chunk; calls `emit` for each line it completes.
    pub fn feed(&mut self, chunk: &[u8], mut emit: impl FnMut(Line<'_>)) {
        let mut rest = chunk;
        while let Some(newline) = memchr::memchr(b'\n', rest) {
            let (line, after) = rest.split_at(newline);
            self.complete(line, &mut emit);
            rest = span::from(after, 1);
        }
        self.line.hold(rest);
    }

    /// The stream ended: emits the last line if it had no newline.
    pub fn finish(&mut self, mut emit: impl FnMut(Line<'_>)) {
        if !self.line.is_empty() {
            self.complete(&[], &mut emit);
        }
    }

    /// The line ends with `tail` (the bytes of this chunk before `\n`).
    fn complete(&mut self, tail: &[u8], emit: &mut impl FnMut(Line<'_>)) {
        let Ended { line, offset, len, judged, held } = self.line.end(tail);
        match judged {
            Judged::Oversized => emit(Line::Oversized { line, offset, len }),
            Judged::Message(n) => {
                let raw = if held { self.line.held() } else { tail };
                emit(Line::Message { line, offset, bytes: span::within(raw, 0..n) });
            }
            Judged::Blank => {}
        }
        self.line.clear();
    }
}
