//! The id rules across both directions of a stdio session, with the
//! requests the tap could not read whole.

use mcp_envelope::transport::ids::InFlight;
use mcp_envelope::transport::oversized::Glimpse;
use mcp_envelope::{Id, Kind, Revision};

use super::Direction;
use crate::summary::IdValue;

/// What one side sent: its requests in flight, and the oversized lines
/// that may have been requests whose id the tap never saw.
struct SideIds {
    requests: InFlight,
    /// Ids of oversized lines of unknown kind (a response to one is fine).
    maybe: Vec<Id<'static>>,
    /// Oversized lines that showed no id: each may be a request, so as
    /// many responses to unknown ids are not flagged.
    unattributed: u64,
    /// Oversized responses to this side's requests that showed no id.
    unread_answers: u64,
}

impl SideIds {
    fn new(revision: Revision) -> SideIds {
        SideIds { requests: InFlight::new(revision), maybe: Vec::new(), unattributed: 0, unread_answers: 0 }
    }

    /// A response to `id` came from the other side.
    fn answered(&mut self, id: &Id<'_>) -> Option<String> {
        let fault = self.requests.received(id).err()?;
        if let Some(at) = self.maybe.iter().position(|m| m == id) {
            self.maybe.swap_remove(at);
            return None;
        }
        if self.unattributed > 0 {
            self.unattributed -= 1;
            return None;
        }
        Some(fault.to_string())
    }
}

/// Requests each side sent, and the responses the other side gave.
pub struct Ids {
    client: SideIds,
    server: SideIds,
}

impl Ids {
    pub fn new(revision: Revision) -> Ids {
        Ids { client: SideIds::new(revision), server: SideIds::new(revision) }
    }

    fn sides(&mut self, from: Direction) -> (&mut SideIds, &mut SideIds) {
        match from {
            Direction::Client => (&mut self.client, &mut self.server),
            Direction::Server => (&mut self.server, &mut self.client),
        }
    }

    /// What the id rules say of a valid message sent by `from`.
    pub fn observe(&mut self, from: Direction, kind: Kind, id: Option<&IdValue>) -> Option<String> {
        let id = match id {
            Some(IdValue::Str(s)) => Id::from(s.as_str()),
            Some(IdValue::Int(n)) => Id::Int(*n),
            Some(IdValue::Null) | None => return None,
        };
        let (own, peer) = self.sides(from);
        match kind {
            Kind::Request => own.requests.sent(&id).err().map(|fault| fault.to_string()),
            Kind::Result | Kind::Error => peer.answered(&id),
            Kind::Notification | Kind::Batch => None,
        }
    }

    /// A line too large to hold, sent by `from`: followed as far as its
    /// head and tail tell.
    pub fn oversized(&mut self, from: Direction, seen: &Glimpse<'_>) -> Option<String> {
        let (own, peer) = self.sides(from);
        match (seen.kind, &seen.id) {
            (Some(Kind::Request), Some(id)) => own.requests.sent(id).err().map(|fault| fault.to_string()),
            (Some(Kind::Result | Kind::Error), Some(id)) => peer.answered(id),
            // It answers one of the peer's requests, which cannot be told.
            (Some(Kind::Result | Kind::Error), None) => {
                peer.unread_answers += 1;
                None
            }
            (_, Some(id)) => {
                own.maybe.push(id.clone().into_owned());
                None
            }
            (Some(Kind::Batch), None) => {
                // Any number of requests: no unknown id is flagged again.
                own.unattributed = u64::MAX;
                None
            }
            (_, None) => {
                own.unattributed = own.unattributed.saturating_add(1);
                None
            }
        }
    }

    /// The requests `from` sent that are still unanswered, and how many
    /// responses too large to read may have answered some of them.
    pub fn unanswered(&self, from: Direction) -> (Vec<IdValue>, u64) {
        let side = match from {
            Direction::Client => &self.client,
            Direction::Server => &self.server,
        };
        (side.requests.pending().map(|id| IdValue::from(&id)).collect(), side.unread_answers)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glimpse(kind: Option<Kind>, id: Option<i64>) -> Glimpse<'static> {
        Glimpse { kind, id: id.map(Id::Int) }
    }

    #[test]
    fn an_oversized_request_read_from_its_head_is_in_flight_until_answered() {
        let mut ids = Ids::new(Revision::V2026_07_28);
        assert_eq!(ids.oversized(Direction::Client, &glimpse(Some(Kind::Request), Some(10))), None);
        assert_eq!(ids.unanswered(Direction::Client), (vec![IdValue::Int(10)], 0));
        assert_eq!(ids.observe(Direction::Server, Kind::Result, Some(&IdValue::Int(10))), None);
        assert!(ids.unanswered(Direction::Client).0.is_empty());
        let again = ids.observe(Direction::Server, Kind::Result, Some(&IdValue::Int(10)));
        assert_eq!(again.as_deref(), Some("response id 10 matches no request in flight"));
    }

    #[test]
    fn a_response_to_a_line_the_tap_could_not_attribute_is_not_flagged() {
        let mut ids = Ids::new(Revision::V2026_07_28);
        ids.oversized(Direction::Client, &glimpse(None, None));
        ids.oversized(Direction::Client, &glimpse(None, Some(4)));
        assert_eq!(ids.observe(Direction::Server, Kind::Result, Some(&IdValue::Int(4))), None);
        assert_eq!(ids.observe(Direction::Server, Kind::Error, Some(&IdValue::Int(77))), None);
        // Each unattributed line excuses one response, no more.
        assert!(ids.observe(Direction::Server, Kind::Result, Some(&IdValue::Int(78))).is_some());
    }

    #[test]
    fn an_oversized_response_answers_its_request() {
        let mut ids = Ids::new(Revision::V2026_07_28);
        ids.observe(Direction::Client, Kind::Request, Some(&IdValue::Int(2)));
        assert_eq!(ids.oversized(Direction::Server, &glimpse(Some(Kind::Result), Some(2))), None);
        assert_eq!(ids.unanswered(Direction::Client), (vec![], 0));
        // One whose id cannot be read leaves the request listed, with a word.
        ids.observe(Direction::Client, Kind::Request, Some(&IdValue::Int(3)));
        ids.oversized(Direction::Server, &glimpse(Some(Kind::Result), None));
        assert_eq!(ids.unanswered(Direction::Client), (vec![IdValue::Int(3)], 1));
    }
}
