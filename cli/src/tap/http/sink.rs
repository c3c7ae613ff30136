//! One exchange's log: each message in either direction, each event
//! without a message, each finding of the exchange rules, as they come.

use std::sync::Arc;

use mcp_envelope::Parsed;
use mcp_envelope::transport::exchange::{Exchange, Finding, Place};
use mcp_envelope::transport::sse::{Body, Event};

use super::State;
use super::conversations::SharedFlights;
use crate::input::Tag;
use crate::parsers::Parsers;
use crate::render::tap::{self as render, LineNotes};
use crate::render::{Checked, Context, Eventless};
use crate::summary::{Invalid, Summary, all_agree};

/// Who sent a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum From {
    Client,
    Server,
}

impl From {
    fn name(self) -> &'static str {
        match self {
            From::Client => "client",
            From::Server => "server",
        }
    }
}

/// What the log needs of one exchange while it lasts.
pub struct Sink {
    pub state: Arc<State>,
    /// The exchange's number, from 1, in the order requests arrived.
    pub number: u64,
    pub method: String,
    pub exchange: Exchange,
    pub parsers: Parsers,
    /// The request's content type, then the response's.
    pub content_type: Option<String>,
    pub status: Option<u16>,
    /// The session the exchange belongs to, once known.
    pub session: Option<Vec<u8>>,
    /// The request ids of the exchange's conversation.
    pub flights: SharedFlights,
}

impl Sink {
    fn context<'a>(&'a self, from: From, line: Option<u64>, event: Option<Tag<'a>>) -> Context<'a> {
        Context {
            exchange: Some(self.number),
            direction: Some(from.name()),
            http_method: Some(&self.method),
            status: if from == From::Server { self.status } else { None },
            content_type: self.content_type.as_deref(),
            file: None,
            line,
            event,
        }
    }

    /// Logs each backend's verdict on one message.
    pub fn verdicts(
        &self,
        from: From,
        line: Option<u64>,
        event: Option<Tag<'_>>,
        verdicts: &[(&'static str, Summary)],
    ) {
        let Some((_, first)) = verdicts.first() else { return };
        let agree = all_agree(verdicts);
        self.state.count_message(first.has_invalid(), !agree);
        let checked = if agree { Checked::One(first) } else { Checked::Disagreement(verdicts) };
        self.state.write(render::message_line(&self.context(from, line, event), &checked, &LineNotes::default()));
    }

    /// A message too large to hold, at `line`.
    pub fn oversized(&self, from: From, line: Option<u64>, event: Option<Tag<'_>>) {
        let error = mcp_envelope::Error::too_large(self.state.limits.max_size);
        let invalid = [("all", Summary::Invalid(Invalid::from_error(&error)))];
        self.verdicts(from, line, event, &invalid);
    }

    /// One message of the response, read and held to the exchange rules
    /// and to the ids of the conversation.
    pub fn response_message(&mut self, place: Place, line: Option<u64>, event: Option<Tag<'_>>, bytes: &[u8]) {
        let exchange = &mut self.exchange;
        let get = self.method == "GET";
        let mut flights = self.flights.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let (verdicts, found) = self.parsers.verdicts_and(bytes, |parsed| {
            exchange.message(place, parsed);
            valid(parsed).filter_map(|message| flights.sent(message, place, get)).collect::<Vec<_>>()
        });
        drop(flights);
        // The session an `initialize` result opens is known at once, before
        // the stream ends and the client's next request comes.
        if self.exchange.negotiated().is_some() {
            self.state.conversations.learn(self.session.as_deref(), &self.exchange);
        }
        self.verdicts(From::Server, line, event, &verdicts);
        self.findings();
        for finding in &found {
            self.finding(finding);
        }
    }

    /// One event of a response stream.
    pub fn event(&mut self, event: &Event<'_>) {
        let tag = Tag { event_type: event.event_type, id: event.id };
        let place = Place::Response { line: event.line, offset: event.offset };
        let line = Some(event.line);
        if !event.id.is_empty() {
            self.exchange.event_id();
        }
        match event.body {
            Body::Data(data) if event.is_message() && !data.is_empty() => {
                self.response_message(place, line, Some(tag), data);
            }
            // A priming event: nothing to log, and nothing it could break.
            Body::Data(_) if event.is_message() => {}
            Body::Data(data) => {
                let entry =
                    render::eventless_line(&self.context(From::Server, line, Some(tag)), Eventless::NoMessage(data));
                self.state.write(entry);
            }
            Body::Oversized { .. } => {
                self.exchange.unreadable();
                if event.is_message() {
                    self.oversized(From::Server, line, Some(tag));
                }
            }
            Body::Cut => {
                self.exchange.unreadable();
                self.state.count_message(true, false);
                self.state.write(render::eventless_line(&self.context(From::Server, line, Some(tag)), Eventless::Cut));
            }
        }
    }

    /// Logs the exchange's findings not logged yet.
    pub fn findings(&mut self) {
        for finding in self.exchange.new_findings() {
            self.state.count_finding(finding);
            self.state.write(render::finding_line(self.number, finding));
        }
    }

    /// Logs a finding of the conversation's ids.
    pub fn finding(&self, finding: &Finding) {
        self.state.count_finding(finding);
        self.state.write(render::finding_line(self.number, finding));
    }

    /// The exchange ended: a request its status refused with no JSON-RPC
    /// answer is taken back from the ids in flight.
    pub fn ended(&self) {
        if (200..300).contains(&self.exchange.status()) {
            return;
        }
        let mut flights = self.flights.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        for id in self.exchange.unanswered() {
            flights.withdraw(id);
        }
    }

    /// Logs what happened to the exchange outside the rules.
    pub fn note(&self, note: &'static str, detail: Option<&str>) {
        self.state.write(render::note_line(self.number, &self.method, note, detail));
    }
}

/// The valid messages of a parsed body.
fn valid<'p, 'a>(parsed: &'p Parsed<'a>) -> impl Iterator<Item = &'p mcp_envelope::Message<'a>> {
    parsed.iter().flat_map(|envelope| envelope.items().filter_map(Result::ok))
}
