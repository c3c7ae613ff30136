//! The pull side of the framing: [`Lines`] reads lines from a
//! [`BufRead`](std::io::BufRead) one at a time, for loops that use `?` and
//! stop when they like. Same lines as [`LineReader`](super::LineReader).

use std::io::{self, BufRead};

use super::{Judged, Line, LineBuf, Splitter};
use crate::span;

/// Lines of a [`BufRead`], read on demand, holding at most one line.
///
/// [`Lines::next_line`] lends each line, without copying it when the
/// line lies whole in the reader's buffer; as an [`Iterator`] it yields
/// owned [`LineBuf`]s.
///
/// ```
/// use mcp_envelope::transport::lines::{Line, Lines};
/// use mcp_envelope::{Limits, Parser, Revision};
///
/// fn count_valid(input: impl std::io::BufRead) -> std::io::Result<usize> {
///     let mut parser = Parser::new(Revision::V2026_07_28);
///     let mut lines = Lines::new(input, Limits::DEFAULT_MAX_SIZE);
///     let mut valid = 0;
///     while let Some(line) = lines.next_line()? {
///         if let Line::Message { bytes, .. } = line {
///             valid += usize::from(parser.parse(bytes).is_ok());
///         }
///     }
///     Ok(valid)
/// }
/// assert_eq!(count_valid(&b"{\"jsonrpc\":\"2.0\",\"method\":\"a\"}\n\n{\r\n"[..]).unwrap(), 1);
/// ```
#[derive(Debug)]
pub struct Lines<R> {
    reader: R,
    line: Splitter,
    /// Bytes of the reader's buffer lent out by the last line.
    lent: usize,
    /// The last line was lent from the line's held bytes.
    held_lent: bool,
    ended: bool,
}

impl<R: BufRead> Lines<R> {
    /// Lines of at most `max_size` bytes (see
    /// [`Limits::max_size`](crate::Limits::max_size)) from `reader`.
    pub fn new(reader: R, max_size: usize) -> Lines<R> {
        Lines { reader, line: Splitter::new(max_size), lent: 0, held_lent: false, ended: false }
    }

    /// The reader back, positioned after the last line returned.
    pub fn into_inner(mut self) -> R {
        self.reader.consume(core::mem::take(&mut self.lent));
        self.reader
    }

    /// The next line, or `None` at the end of the input.
    ///
    /// # Errors
    /// What the reader returned, other than [`io::ErrorKind::Interrupted`]
    /// (retried). Reading again after an error goes on from where it was.
    pub fn next_line(&mut self) -> io::Result<Option<Line<'_>>> {
        self.reader.consume(core::mem::take(&mut self.lent));
        if core::mem::take(&mut self.held_lent) {
            self.line.clear();
        }
        while !self.ended {
            let buf = match self.reader.fill_buf() {
                Ok(buf) => buf,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            let (ended, used) = match memchr::memchr(b'\n', buf) {
                None if buf.is_empty() => {
                    self.ended = true;
                    if self.line.is_empty() {
                        return Ok(None);
                    }
                    (self.line.end(&[]), 0)
                }
                None => {
                    let used = buf.len();
                    self.line.hold(buf);
                    self.reader.consume(used);
                    continue;
                }
                Some(at) => (self.line.end(span::within(buf, 0..at)), at + 1),
            };
            let (line, offset) = (ended.line, ended.offset);
            match ended.judged {
                Judged::Message(len) if !ended.held => {
                    self.lent = used;
                    // The same bytes again: nothing was consumed, so no I/O.
                    let buf = self.reader.fill_buf()?;
                    return Ok(Some(Line::Message { line, offset, bytes: span::within(buf, 0..len) }));
                }
                Judged::Message(len) => {
                    self.reader.consume(used);
                    self.held_lent = true;
                    return Ok(Some(Line::Message { line, offset, bytes: span::within(self.line.held(), 0..len) }));
                }
                Judged::Oversized => {
                    self.reader.consume(used);
                    return Ok(Some(Line::Oversized { line, offset, len: ended.len }));
                }
                // `Line::end` has already dropped whatever a blank line held.
                Judged::Blank => self.reader.consume(used),
            }
        }
        Ok(None)
    }
}

impl<R: BufRead> Iterator for Lines<R> {
    type Item = io::Result<LineBuf>;

    /// The next line, owned.
    fn next(&mut self) -> Option<io::Result<LineBuf>> {
        self.next_line().map(|f| f.map(LineBuf::from)).transpose()
    }
}
