//! Newline-delimited framing, as MCP's stdio transport uses it.
//!
//! Messages are separated by `\n`; a trailing `\r` is dropped; lines of
//! nothing but JSON whitespace are skipped. Bytes may arrive in chunks of
//! any size: the frames produced do not depend on where the chunks split.
//! A line still incomplete at the end of a chunk is buffered, and only up to
//! the size limit: past it the line is counted, not stored, and reported as
//! [`Frame::Oversized`] when its newline arrives. So the reader holds at
//! most one message of memory.

use alloc::vec::Vec;

use crate::scan::is_whitespace;

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

    /// The line ends with `tail` (the bytes of this chunk before `\n`).
    fn complete(&mut self, tail: &[u8], emit: &mut impl FnMut(Frame<'_>)) {
        let (line, offset) = (self.line, self.offset);
        let len = match self.skipping.take() {
            Some(len) => {
                let len = len + tail.len() as u64;
                emit(Frame::Oversized { line, offset, len });
                len
            }
            None if self.partial.is_empty() => {
                // The whole line is in this chunk: no copy.
                self.emit_line(line, offset, tail, emit);
                tail.len() as u64
            }
            None => {
                let len = (self.partial.len() + tail.len()) as u64;
                if len > self.max_size.saturating_add(1) as u64 {
                    emit(Frame::Oversized { line, offset, len });
                } else {
                    let mut whole = core::mem::take(&mut self.partial);
                    whole.extend_from_slice(tail);
                    self.emit_line(line, offset, &whole, emit);
                    whole.clear();
                    self.partial = whole;
                }
                self.partial.clear();
                len
            }
        };
        self.line += 1;
        self.offset += len + 1;
    }

    /// Emits a complete line. The size is judged before blankness, as it
    /// must be for a line that was skipped without being stored.
    fn emit_line(&self, line: u64, offset: u64, raw: &[u8], emit: &mut impl FnMut(Frame<'_>)) {
        let bytes = raw.strip_suffix(b"\r").unwrap_or(raw);
        if bytes.len() > self.max_size {
            emit(Frame::Oversized { line, offset, len: raw.len() as u64 });
        } else if !bytes.iter().all(|&b| is_whitespace(b)) {
            emit(Frame::Message { line, offset, bytes });
        }
    }
}
