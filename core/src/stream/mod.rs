//! Newline-delimited framing, as MCP's stdio transport uses it.
//!
//! Messages are separated by `\n`; a trailing `\r` is dropped; lines of
//! nothing but JSON whitespace are skipped. Bytes may arrive in chunks of
//! any size: the frames produced do not depend on where the chunks split.
//! A line still incomplete at the end of a chunk is buffered, and only up to
//! the size limit: past it the line is counted, not stored, and reported as
//! [`Frame::Oversized`] when its newline arrives. So the reader holds at
//! most one message of memory.
//!
//! [`LineReader`] is pushed chunks and calls back for each frame;
//! [`Frames`] (feature `std`) pulls lines from a `BufRead` on demand;
//! `LineCodec` (feature `tokio`) is a `tokio_util` decoder and encoder. All
//! three give the same frames.

use alloc::vec::Vec;

use crate::error::Error;
use crate::scan::is_whitespace;

#[cfg(feature = "tokio")]
mod codec;
#[cfg(feature = "std")]
mod pull;
#[cfg(feature = "tokio")]
pub use codec::LineCodec;
#[cfg(feature = "std")]
pub use pull::Frames;

/// One line of the stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Frame<'b> {
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

impl Frame<'_> {
    /// For an oversized frame, the error to answer it with: the parser's
    /// `too-large` (-32700) at offset `max_size`, with a `null` id, exactly
    /// what [`Parser::parse`](crate::Parser::parse) gives a message over the
    /// limit. `None` for a message (parse it).
    #[must_use]
    pub fn error(&self, max_size: usize) -> Option<Error<'static>> {
        match self {
            Frame::Oversized { .. } => Some(Error::too_large(max_size)),
            Frame::Message { .. } => None,
        }
    }
}

/// A [`Frame`] that owns its bytes, for queues, tasks and codecs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FrameBuf {
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

impl FrameBuf {
    /// The frame, borrowing these bytes.
    #[must_use]
    pub fn as_frame(&self) -> Frame<'_> {
        match self {
            FrameBuf::Message { line, offset, bytes } => Frame::Message { line: *line, offset: *offset, bytes },
            FrameBuf::Oversized { line, offset, len } => Frame::Oversized { line: *line, offset: *offset, len: *len },
        }
    }
}

impl From<Frame<'_>> for FrameBuf {
    fn from(frame: Frame<'_>) -> FrameBuf {
        match frame {
            Frame::Message { line, offset, bytes } => FrameBuf::Message { line, offset, bytes: bytes.to_vec() },
            Frame::Oversized { line, offset, len } => FrameBuf::Oversized { line, offset, len },
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

/// Keeps `bytes` of a line whose end has not arrived: stored while the line
/// fits the limit (plus one byte, for a `\r`), counted past it.
pub(crate) fn hold(partial: &mut Vec<u8>, skipping: &mut Option<u64>, max_size: usize, bytes: &[u8]) {
    if bytes.is_empty() {
        return;
    }
    match skipping {
        Some(len) => *len += bytes.len() as u64,
        None if partial.len() + bytes.len() > max_size.saturating_add(1) => {
            *skipping = Some((partial.len() + bytes.len()) as u64);
            partial.clear();
        }
        None => partial.extend_from_slice(bytes),
    }
}

/// The held line ends with `tail`: its raw length (without the `\n`) and
/// what it is; a message is left whole in `partial`.
pub(crate) fn end_held(
    partial: &mut Vec<u8>,
    skipping: &mut Option<u64>,
    max_size: usize,
    tail: &[u8],
) -> (u64, Judged) {
    if let Some(len) = skipping.take() {
        partial.clear();
        return (len + tail.len() as u64, Judged::Oversized);
    }
    let total = partial.len() + tail.len();
    if total > max_size.saturating_add(1) {
        partial.clear();
        return (total as u64, Judged::Oversized);
    }
    partial.extend_from_slice(tail);
    (total as u64, judge(partial, max_size))
}

/// Hands `emit` the frame of a line whose raw length is `len`: a message
/// (`raw` cut to the judged length), an oversized line, or nothing if blank.
fn emit_judged(line: u64, offset: u64, raw: &[u8], len: u64, judged: Judged, emit: &mut impl FnMut(Frame<'_>)) {
    match judged {
        Judged::Oversized => emit(Frame::Oversized { line, offset, len }),
        Judged::Message(n) => emit(Frame::Message { line, offset, bytes: raw.get(..n).unwrap_or_default() }),
        Judged::Blank => {}
    }
}

/// Splits a byte stream into lines, holding at most one line.
#[derive(Clone, Debug)]
pub struct LineReader {
    max_size: usize,
    /// The incomplete line, while it fits the limit.
    partial: Vec<u8>,
    /// Length of the incomplete line, once it outgrew the limit.
    skipping: Option<u64>,
    /// Line number and offset of the line being read.
    line: u64,
    offset: u64,
}

impl LineReader {
    /// A reader for messages of at most `max_size` bytes (see
    /// [`Limits::max_size`](crate::Limits::max_size)).
    #[must_use]
    pub fn new(max_size: usize) -> LineReader {
        LineReader { max_size, partial: Vec::new(), skipping: None, line: 1, offset: 0 }
    }

    /// Bytes buffered for the incomplete line: never more than the limit
    /// plus one (for a `\r`).
    #[must_use]
    pub fn buffered(&self) -> usize {
        self.partial.len()
    }

    /// Takes the next chunk; calls `emit` for each line it completes.
    pub fn feed(&mut self, chunk: &[u8], mut emit: impl FnMut(Frame<'_>)) {
        let mut rest = chunk;
        while let Some(newline) = memchr::memchr(b'\n', rest) {
            let (line, after) = rest.split_at(newline);
            self.complete(line, &mut emit);
            rest = after.get(1..).unwrap_or_default();
        }
        self.hold(rest);
    }

    /// The stream ended: emits the last line if it had no newline.
    pub fn finish(&mut self, mut emit: impl FnMut(Frame<'_>)) {
        if self.skipping.is_some() || !self.partial.is_empty() {
            self.complete(&[], &mut emit);
        }
    }

    fn hold(&mut self, bytes: &[u8]) {
        hold(&mut self.partial, &mut self.skipping, self.max_size, bytes);
    }

    /// The line ends with `tail` (the bytes of this chunk before `\n`).
    fn complete(&mut self, tail: &[u8], emit: &mut impl FnMut(Frame<'_>)) {
        let (line, offset) = (self.line, self.offset);
        let len = if self.skipping.is_none() && self.partial.is_empty() {
            // The whole line is in this chunk: no copy.
            emit_judged(line, offset, tail, tail.len() as u64, judge(tail, self.max_size), emit);
            tail.len() as u64
        } else {
            let (len, judged) = end_held(&mut self.partial, &mut self.skipping, self.max_size, tail);
            emit_judged(line, offset, &self.partial, len, judged, emit);
            self.partial.clear();
            len
        };
        self.line += 1;
        self.offset += len + 1;
    }
}
