//! MCP stdio framing as a `tokio_util::codec` decoder and encoder (feature
//! `tokio`), with the same lines and the same size rule as
//! [`LineReader`](super::LineReader): a line over the limit is counted, not
//! buffered, and comes out as [`LineBuf::Oversized`].

use std::io;

use bytes::{Buf, BufMut, BytesMut};
use tokio_util::codec::{Decoder, Encoder};

use super::{Judged, LineBuf, judge};
use crate::span;

/// Decodes lines into owned [`LineBuf`]s and encodes messages as lines.
///
/// ```no_run
/// # async fn run() -> std::io::Result<()> {
/// use futures_util::{SinkExt, StreamExt};
/// use mcp_envelope::transport::lines::{LineBuf, LineCodec};
/// use tokio_util::codec::{FramedRead, FramedWrite};
///
/// let mut input = FramedRead::new(tokio::io::stdin(), LineCodec::new(1 << 20));
/// let mut output = FramedWrite::new(tokio::io::stdout(), LineCodec::new(1 << 20));
/// while let Some(line) = input.next().await {
///     if let LineBuf::Message { bytes, .. } = line? {
///         output.send(&bytes[..]).await?;
///     }
/// }
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Debug)]
pub struct LineCodec {
    max_size: usize,
    /// Length of the line being skipped, once it outgrew the limit.
    skipping: Option<u64>,
    /// How much of the buffer is known to hold no newline.
    searched: usize,
    line: u64,
    offset: u64,
}

impl LineCodec {
    /// Lines of at most `max_size` bytes (see
    /// [`Limits::max_size`](crate::Limits::max_size)).
    #[must_use]
    pub fn new(max_size: usize) -> LineCodec {
        LineCodec { max_size, skipping: None, searched: 0, line: 1, offset: 0 }
    }

    /// The line that ended after `raw_len` bytes is done.
    fn next_line(&mut self, raw_len: u64) -> (u64, u64) {
        let at = (self.line, self.offset);
        self.line += 1;
        self.offset += raw_len + 1;
        at
    }

    /// Judges the complete line `raw` and moves past it.
    fn frame(&mut self, raw: &[u8]) -> Option<LineBuf> {
        let (line, offset) = self.next_line(raw.len() as u64);
        match judge(raw, self.max_size) {
            Judged::Message(len) => Some(LineBuf::Message { line, offset, bytes: span::within(raw, 0..len).to_vec() }),
            Judged::Oversized => Some(LineBuf::Oversized { line, offset, len: raw.len() as u64 }),
            Judged::Blank => None,
        }
    }
}

impl Decoder for LineCodec {
    type Item = LineBuf;
    type Error = io::Error;

    fn decode(&mut self, buf: &mut BytesMut) -> io::Result<Option<LineBuf>> {
        loop {
            if let Some(skipped) = self.skipping {
                let Some(at) = memchr::memchr(b'\n', buf) else {
                    self.skipping = Some(skipped + buf.len() as u64);
                    buf.clear();
                    return Ok(None);
                };
                self.skipping = None;
                buf.advance(at + 1);
                let len = skipped + at as u64;
                let (line, offset) = self.next_line(len);
                return Ok(Some(LineBuf::Oversized { line, offset, len }));
            }
            let from = self.searched.min(buf.len());
            let Some(at) = memchr::memchr(b'\n', span::from(buf, from)).map(|i| from + i) else {
                if buf.len() > self.max_size.saturating_add(1) {
                    // Past the limit: count the line instead of keeping it.
                    self.skipping = Some(buf.len() as u64);
                    buf.clear();
                    self.searched = 0;
                } else {
                    self.searched = buf.len();
                }
                return Ok(None);
            };
            self.searched = 0;
            let line = buf.split_to(at + 1);
            if let Some(frame) = self.frame(span::within(&line, 0..at)) {
                return Ok(Some(frame));
            }
        }
    }

    /// The last line, when the input ends without a newline.
    fn decode_eof(&mut self, buf: &mut BytesMut) -> io::Result<Option<LineBuf>> {
        if let Some(frame) = self.decode(buf)? {
            return Ok(Some(frame));
        }
        // `decode` has counted into `skipping` whatever it left unread.
        if let Some(len) = self.skipping.take() {
            let (line, offset) = self.next_line(len);
            return Ok(Some(LineBuf::Oversized { line, offset, len }));
        }
        if buf.is_empty() {
            return Ok(None);
        }
        let rest = buf.split();
        self.searched = 0;
        Ok(self.frame(&rest))
    }
}

impl Encoder<&[u8]> for LineCodec {
    type Error = io::Error;

    /// One message and its newline. A message holding a newline would break
    /// the framing (JSON never needs one: strings escape it), so it is
    /// refused with [`io::ErrorKind::InvalidInput`].
    fn encode(&mut self, message: &[u8], out: &mut BytesMut) -> io::Result<()> {
        if memchr::memchr(b'\n', message).is_some() {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, "a message must not contain a newline"));
        }
        out.reserve(message.len() + 1);
        out.put_slice(message);
        out.put_u8(b'\n');
        Ok(())
    }
}
