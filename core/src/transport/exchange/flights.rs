//! Request ids across the exchanges of one conversation: each side's
//! requests in flight, whatever stream or POST carries them and their
//! answers (RULES.md, section 8, "Ids across requests").
//!
//! A conversation is a session where the revision has them (2025-03-26 to
//! 2025-11-25: an id is never used twice in it), and otherwise whatever
//! the caller can tell one client by (the tap: one client connection).

use super::{Finding, Place, Rule};
use crate::envelope::{Id, Message};
use crate::revision::Revision;
use crate::transport::ids::InFlight;

/// Both sides' requests in flight in one conversation.
#[derive(Clone, Debug)]
pub struct Flights {
    client: InFlight,
    server: InFlight,
}

impl Flights {
    /// The ids of a conversation under `revision`'s reuse rule.
    #[must_use]
    pub fn new(revision: Revision) -> Flights {
        Flights { client: InFlight::new(revision), server: InFlight::new(revision) }
    }

    /// A valid message the client posted as `body` (one item of it, for a
    /// batch): a request whose id may not be used yet is
    /// [`Rule::RequestIdReused`], a response that answers no request of
    /// the server's in flight [`Rule::ResponseToNothing`]. The place is
    /// the id's offset in a body of one message.
    pub fn posted(&mut self, message: &Message<'_>, body: &[u8]) -> Option<Finding> {
        let rule = match message {
            Message::Request(request) => self.client.sent(&request.id).err().map(|_| Rule::RequestIdReused),
            Message::Result(result) => self.server.received(&result.id).err().map(|_| Rule::ResponseToNothing),
            Message::Error(error) => {
                let id = error.id.as_ref()?;
                self.server.received(id).err().map(|_| Rule::ResponseToNothing)
            }
            Message::Notification(_) => None,
        }?;
        let text = core::str::from_utf8(body).unwrap_or_default();
        let offset = crate::json::lookup::member(text, "id").ok().flatten().map_or(0, |span| span.start);
        Some(Finding::new(rule, Place::RequestBody(offset)))
    }

    /// A valid message the server sent at `place`, on a POST's stream or
    /// (`get`) a GET stream: its requests are followed
    /// ([`Rule::ServerRequestIdReused`]); its responses end the flight of
    /// the client's requests. A response on a GET stream (which resumes a
    /// POST's) to no request in flight is [`Rule::ResponseIdMismatch`]; on
    /// a POST's stream, that is the exchange's to judge.
    pub fn sent(&mut self, message: &Message<'_>, place: Place, get: bool) -> Option<Finding> {
        let answered = match message {
            Message::Request(request) => {
                return self.server.sent(&request.id).err().map(|_| Finding::new(Rule::ServerRequestIdReused, place));
            }
            Message::Result(result) => &result.id,
            Message::Error(error) => error.id.as_ref()?,
            Message::Notification(_) => return None,
        };
        let known = self.client.received(answered).is_ok();
        (get && !known).then(|| Finding::new(Rule::ResponseIdMismatch, place))
    }

    /// The client's request `id` was refused by an HTTP status with no
    /// JSON-RPC answer to it: taken back, so the client may send it again
    /// (after authorising, say) without reusing an id.
    pub fn withdraw(&mut self, id: &Id<'_>) {
        self.client.withdraw(id);
    }

    /// Whether the client's request `id` awaits its response (one the
    /// server may send on a resumed stream).
    #[must_use]
    pub fn awaits(&self, id: &Id<'_>) -> bool {
        self.client.is_in_flight(id)
    }

    /// The client's requests awaiting a response.
    pub fn pending(&self) -> impl Iterator<Item = Id<'_>> {
        self.client.pending()
    }
}

impl Default for Flights {
    fn default() -> Flights {
        Flights::new(Revision::V2026_07_28)
    }
}
