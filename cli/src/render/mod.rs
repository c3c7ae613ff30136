//! Output: one readable line per message for people, or one JSON object
//! per message for programs (`check`), and the tap's log, one JSON line per
//! message, finding or note (`tap`). Every JSON line that concerns a
//! message starts with the same context ([`Context`]), then the verdict's
//! members ([`message`]); one renderer per command ([`check`], [`tap`]).

pub mod check;
pub(crate) mod json;
mod message;
pub mod tap;

use crate::input::Tag;
use crate::summary::Summary;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// One line per message, with an excerpt under faults.
    Text,
    /// One JSON object per message, one per line.
    Json,
}

/// What the check found of one message: one verdict, or each backend's
/// when they differ.
pub enum Checked<'s> {
    One(&'s Summary),
    Disagreement(&'s [(&'static str, Summary)]),
}

/// What an event without a message is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eventless<'a> {
    /// A `message` event with empty data (a priming event), or an event of
    /// another type, with its data.
    NoMessage(&'a [u8]),
    /// The stream ended inside the event.
    Cut,
}

/// Where a message was, as every JSON line about it begins: the members
/// that apply, in this order.
#[derive(Clone, Copy, Default)]
pub struct Context<'a> {
    /// In `tap --http`: the exchange's number.
    pub exchange: Option<u64>,
    /// In `tap`: who sent the message, `client` or `server`.
    pub direction: Option<&'static str>,
    /// In `tap --http`: the request's method, and for what the server sent
    /// the response's status and content type.
    pub http_method: Option<&'a str>,
    pub status: Option<u16>,
    pub content_type: Option<&'a str>,
    /// In `check`: the file.
    pub file: Option<&'a str>,
    /// The line: of the file, of the direction's stream, or of the event.
    pub line: Option<u64>,
    /// In an event stream: the event that carried it.
    pub event: Option<Tag<'a>>,
}

impl Context<'_> {
    fn write(&self, o: &mut json::Object<'_>) {
        if let Some(exchange) = self.exchange {
            o.uint("exchange", exchange);
        }
        o.some_str("direction", self.direction);
        o.some_str("http_method", self.http_method);
        if let Some(status) = self.status {
            o.uint("status", u64::from(status));
        }
        o.some_str("content_type", self.content_type);
        o.some_str("file", self.file);
        if let Some(line) = self.line {
            o.uint("line", line);
        }
        if let Some(Tag { event_type, id }) = self.event {
            // The event's type, and its last event id (none: null).
            o.lossy("event", event_type);
            if id.is_empty() {
                o.null("event_id");
            } else {
                o.lossy("event_id", id);
            }
        }
    }
}

const CUT_HINT: &str = "the stream ended before the event's blank line, so it was never delivered";

/// An eventless event's line: `context` (whose event is always given: a
/// `message` one with no id when the stream gave none), then `kind`
/// (`empty-data`, `other-event` with its `data`, or `cut`).
fn eventless_line(context: &Context<'_>, what: Eventless<'_>) -> Vec<u8> {
    let event = context.event.unwrap_or(Tag { event_type: b"message", id: b"" });
    json::line(|o| {
        Context { line: Some(context.line.unwrap_or(1)), event: Some(event), ..*context }.write(o);
        match what {
            Eventless::NoMessage(_) if event.event_type == b"message" => o.str("kind", "empty-data"),
            Eventless::NoMessage(data) => {
                o.str("kind", "other-event");
                o.lossy("data", data);
            }
            Eventless::Cut => {
                o.str("kind", "cut");
                // A message lost, no rule broken.
                o.str("severity", "warning");
                o.str("hint", CUT_HINT);
            }
        }
    })
}
