//! The pull side of the event-stream framing: [`Events`] reads events from
//! a [`BufRead`](std::io::BufRead) one at a time. Same events as
//! [`EventReader`](super::EventReader).

use std::io::{self, BufRead};

use super::{Event, EventBuf, Interpreter};

/// Events of a [`BufRead`], read on demand, holding at most one event.
///
/// [`Events::next_event`] lends each event; as an [`Iterator`] it yields
/// owned [`EventBuf`]s.
///
/// ```
/// use mcp_envelope::transport::sse::Events;
///
/// let stream = &b"event: endpoint\ndata: /messages?session=1\n\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":1}\n\n"[..];
/// let mut events = Events::new(stream, 1 << 20);
/// let endpoint = events.next_event()?.expect("an event");
/// assert_eq!((endpoint.event_type, endpoint.message()), (&b"endpoint"[..], None));
/// let ping = events.next_event()?.expect("an event");
/// assert_eq!(ping.line, 4);
/// assert!(ping.message().is_some());
/// assert!(events.next_event()?.is_none());
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct Events<R> {
    reader: R,
    interpreter: Interpreter,
    ended: bool,
}

impl<R: BufRead> Events<R> {
    /// Events of at most `max_size` bytes of data (see
    /// [`Limits::max_size`](crate::Limits::max_size)) from `reader`.
    pub fn new(reader: R, max_size: usize) -> Events<R> {
        Events { reader, interpreter: Interpreter::copying(max_size), ended: false }
    }

    /// The reader back, positioned after the last event returned.
    pub fn into_inner(self) -> R {
        self.reader
    }

    /// The last event id so far; empty when there is none.
    #[must_use]
    pub fn last_event_id(&self) -> &[u8] {
        self.interpreter.id()
    }

    /// The next event, or `None` at the end of the input.
    ///
    /// # Errors
    /// What the reader returned, other than [`io::ErrorKind::Interrupted`]
    /// (retried). Reading again after an error goes on from where it was.
    pub fn next_event(&mut self) -> io::Result<Option<Event<'_>>> {
        while !self.ended {
            let buf = match self.reader.fill_buf() {
                Ok(buf) => buf,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buf.is_empty() {
                self.ended = true;
                return Ok(self.interpreter.finish().map(|ending| self.interpreter.event(ending, &[])));
            }
            let (used, ending) = self.interpreter.step(buf);
            self.reader.consume(used);
            if let Some(ending) = ending {
                return Ok(Some(self.interpreter.event(ending, &[])));
            }
        }
        Ok(None)
    }
}

impl<R: BufRead> Iterator for Events<R> {
    type Item = io::Result<EventBuf>;

    /// The next event, owned.
    fn next(&mut self) -> Option<io::Result<EventBuf>> {
        self.next_event().map(|e| e.map(EventBuf::from)).transpose()
    }
}
