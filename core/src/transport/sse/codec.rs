//! The event-stream framing as a `tokio_util::codec` decoder (feature
//! `tokio`), with the same events as [`EventReader`](super::EventReader).
//! It takes every byte it is given: what an unfinished event holds lives
//! in the decoder, so the read buffer never grows past one read.

use std::io;

use bytes::{Buf, BytesMut};
use tokio_util::codec::Decoder;

use super::{EventBuf, Interpreter};

/// Decodes an event stream into owned [`EventBuf`]s.
///
/// ```no_run
/// # async fn run(body: impl tokio::io::AsyncRead + Unpin) -> std::io::Result<()> {
/// use futures_util::StreamExt;
/// use mcp_envelope::transport::sse::EventCodec;
/// use tokio_util::codec::FramedRead;
///
/// let mut events = FramedRead::new(body, EventCodec::new(1 << 20));
/// while let Some(event) = events.next().await {
///     if let Some(message) = event?.as_event().message() {
///         println!("{}", String::from_utf8_lossy(message));
///     }
/// }
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Debug)]
pub struct EventCodec {
    interpreter: Interpreter,
}

impl EventCodec {
    /// Events of at most `max_size` bytes of data (see
    /// [`Limits::max_size`](crate::Limits::max_size)).
    #[must_use]
    pub fn new(max_size: usize) -> EventCodec {
        EventCodec { interpreter: Interpreter::new(max_size) }
    }

    /// Bytes held for the event being read, as
    /// [`EventReader::buffered`](super::EventReader::buffered).
    #[must_use]
    pub fn buffered(&self) -> usize {
        self.interpreter.held()
    }
}

impl Decoder for EventCodec {
    type Item = EventBuf;
    type Error = io::Error;

    fn decode(&mut self, buf: &mut BytesMut) -> io::Result<Option<EventBuf>> {
        let (used, ending) = self.interpreter.step(buf);
        // Owned before the bytes it may lend from go.
        let event = ending.map(|ending| EventBuf::from(self.interpreter.event(ending, buf)));
        buf.advance(used);
        Ok(event)
    }

    /// The stream ended: the event it ended inside, as
    /// [`BodyBuf::Cut`](super::BodyBuf::Cut), once.
    fn decode_eof(&mut self, buf: &mut BytesMut) -> io::Result<Option<EventBuf>> {
        if let Some(event) = self.decode(buf)? {
            return Ok(Some(event));
        }
        Ok(self.interpreter.finish().map(|ending| EventBuf::from(self.interpreter.event(ending, &[]))))
    }
}
