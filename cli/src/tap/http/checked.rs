//! The response body on its way to the client: each frame is read (event
//! by event for an event stream) and logged before it is handed on, so
//! nothing waits for the end of a stream, and memory stays within the
//! size limit whatever the stream's length.

use std::pin::Pin;
use std::task::{Context, Poll};

use bytes::Bytes;
use http_body::{Body, Frame, SizeHint};
use hyper::body::Incoming;
use mcp_envelope::transport::exchange::Place;
use mcp_envelope::transport::sse::EventReader;

use super::sink::Sink;

/// How the body is read.
enum Reading {
    /// An event stream: one message per `message` event.
    Events(Box<EventReader>),
    /// One JSON body, held up to the size limit; `len` counts all of it.
    Json { held: Vec<u8>, len: usize },
    /// Anything else: only its length matters (a 202's body is a fault).
    Other,
}

/// What is judged of a response as it passes.
pub struct Judge {
    reading: Reading,
    sink: Sink,
}

impl Judge {
    /// Reads as the content type says: `events` for `text/event-stream`,
    /// `json` for `application/json`.
    pub fn new(sink: Sink, events: bool, json: bool) -> Judge {
        let max = sink.state.limits.max_size;
        let reading = if events {
            Reading::Events(Box::new(EventReader::new(max)))
        } else if json {
            Reading::Json { held: Vec::new(), len: 0 }
        } else {
            Reading::Other
        };
        Judge { reading, sink }
    }

    fn data(&mut self, data: &[u8]) {
        let max = self.sink.state.limits.max_size;
        match &mut self.reading {
            Reading::Events(reader) => reader.feed(data, |event| self.sink.event(&event)),
            Reading::Json { held, len } => {
                *len += data.len();
                if *len <= max {
                    held.extend_from_slice(data);
                } else {
                    // Over the limit: what was held is of no use any more.
                    *held = Vec::new();
                }
            }
            Reading::Other => {
                self.sink.exchange.body_bytes(data.len());
                self.sink.findings();
            }
        }
    }

    /// The body ended: the last event, the JSON body, the exchange's end.
    fn finish(mut self) {
        match &mut self.reading {
            Reading::Events(reader) => reader.finish(|event| self.sink.event(&event)),
            Reading::Json { held, len } => {
                let (held, len) = (std::mem::take(held), *len);
                if len > self.sink.state.limits.max_size {
                    self.sink.exchange.unreadable();
                    self.sink.oversized(super::sink::From::Server, None, None);
                } else if len > 0 {
                    self.sink.response_message(Place::Response { line: 1, offset: 0 }, None, None, &held);
                }
            }
            Reading::Other => {}
        }
        self.sink.exchange.end();
        self.sink.findings();
        self.sink.ended();
        self.sink.state.conversations.learn(self.sink.session.as_deref(), &self.sink.exchange);
    }
}

/// The upstream's response body, judged as it is relayed.
pub struct Checked {
    inner: Incoming,
    judge: Option<Judge>,
}

impl Checked {
    pub fn new(inner: Incoming, judge: Judge) -> Checked {
        Checked { inner, judge: Some(judge) }
    }
}

impl Body for Checked {
    type Data = Bytes;
    type Error = hyper::Error;

    fn poll_frame(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, hyper::Error>>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.inner).poll_frame(cx);
        match &polled {
            Poll::Ready(Some(Ok(frame))) => {
                if let (Some(judge), Some(data)) = (&mut this.judge, frame.data_ref()) {
                    judge.data(data);
                }
            }
            Poll::Ready(Some(Err(e))) => {
                if let Some(judge) = this.judge.take() {
                    judge.sink.note("upstream-failed", Some(&e.to_string()));
                    judge.finish();
                }
            }
            Poll::Ready(None) => {
                if let Some(judge) = this.judge.take() {
                    judge.finish();
                }
            }
            Poll::Pending => {}
        }
        // The client may stop polling once the body says it is complete.
        if this.inner.is_end_stream()
            && let Some(judge) = this.judge.take()
        {
            judge.finish();
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

impl Drop for Checked {
    fn drop(&mut self) {
        let Some(judge) = self.judge.take() else { return };
        if self.inner.is_end_stream() {
            judge.finish();
        } else {
            // The client went away (or the proxy is stopping) mid-body:
            // what was relayed is logged; the rest never passed.
            judge.sink.note("client-gone", Some("the response was not relayed to its end"));
        }
    }
}
