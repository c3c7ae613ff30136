//! Request ids across a conversation: the reuse rule of each revision, and
//! responses that answer nothing.
//!
//! One tracker follows one direction: the requests one side sends and the
//! responses that side receives.

use alloc::collections::BTreeSet;
use alloc::string::String;
use core::fmt;

use crate::envelope::{Id, Message};
use crate::revision::{IdReuse, Revision};

/// What the tracker objects to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IdFault {
    /// A request reuses an id the revision does not allow again: one still
    /// in flight, or (up to 2025-11-25) any id used before in the session.
    Reused(Id<'static>),
    /// A response whose id matches no request in flight.
    Unknown(Id<'static>),
}

impl fmt::Display for IdFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IdFault::Reused(id) => write!(f, "request id {id} was already used"),
            IdFault::Unknown(id) => write!(f, "response id {id} matches no request in flight"),
        }
    }
}

impl core::error::Error for IdFault {}

/// A set of ids, searchable by borrowed id.
#[derive(Clone, Debug, Default)]
struct IdSet {
    strings: BTreeSet<String>,
    integers: BTreeSet<i64>,
}

impl IdSet {
    fn contains(&self, id: &Id<'_>) -> bool {
        match id {
            Id::Str(s) => self.strings.contains(s.as_ref()),
            Id::Int(n) => self.integers.contains(n),
            Id::Null => false,
        }
    }

    fn insert(&mut self, id: &Id<'_>) {
        match id {
            Id::Str(s) => {
                self.strings.insert(String::from(s.as_ref()));
            }
            Id::Int(n) => {
                self.integers.insert(*n);
            }
            Id::Null => {}
        }
    }

    fn remove(&mut self, id: &Id<'_>) -> bool {
        match id {
            Id::Str(s) => self.strings.remove(s.as_ref()),
            Id::Int(n) => self.integers.remove(n),
            Id::Null => false,
        }
    }

    fn len(&self) -> usize {
        self.strings.len() + self.integers.len()
    }
}

/// The ids of requests in flight (and, under the session rule, of every
/// request sent so far).
#[derive(Clone, Debug)]
pub struct InFlight {
    reuse: IdReuse,
    in_flight: IdSet,
    /// Every id sent, under [`IdReuse::Session`] only.
    used: IdSet,
}

impl InFlight {
    /// A tracker applying `revision`'s reuse rule.
    #[must_use]
    pub fn new(revision: Revision) -> InFlight {
        InFlight { reuse: revision.id_reuse(), in_flight: IdSet::default(), used: IdSet::default() }
    }

    /// A request with `id` was sent. A `null` id (plain JSON-RPC) is not
    /// tracked: no response can be matched to it.
    ///
    /// # Errors
    /// [`IdFault::Reused`] if the rule forbids this id now; the tracker is
    /// unchanged.
    pub fn sent(&mut self, id: &Id<'_>) -> Result<(), IdFault> {
        if *id == Id::Null {
            return Ok(());
        }
        let taken = match self.reuse {
            IdReuse::Session => self.used.contains(id),
            IdReuse::InFlight => self.in_flight.contains(id),
        };
        if taken {
            return Err(IdFault::Reused(id.clone().into_owned()));
        }
        if self.reuse == IdReuse::Session {
            self.used.insert(id);
        }
        self.in_flight.insert(id);
        Ok(())
    }

    /// A response with `id` arrived; its request is no longer in flight.
    ///
    /// # Errors
    /// [`IdFault::Unknown`] if no request with that id is in flight.
    pub fn received(&mut self, id: &Id<'_>) -> Result<(), IdFault> {
        if self.in_flight.remove(id) { Ok(()) } else { Err(IdFault::Unknown(id.clone().into_owned())) }
    }

    /// Follows a message this side sent (requests) or received (responses);
    /// notifications and error responses without an id are ignored.
    ///
    /// # Errors
    /// As [`InFlight::sent`] and [`InFlight::received`].
    pub fn observe(&mut self, message: &Message<'_>) -> Result<(), IdFault> {
        match message {
            Message::Request(r) => self.sent(&r.id),
            Message::Result(r) => self.received(&r.id),
            Message::Error(e) => e.id.as_ref().map_or(Ok(()), |id| self.received(id)),
            Message::Notification(_) => Ok(()),
        }
    }

    /// The request with `id` is taken back, as if never sent: its sender
    /// may use the id again (a request refused by HTTP before any JSON-RPC
    /// answer, which a client may send again after authorising).
    pub fn withdraw(&mut self, id: &Id<'_>) {
        if self.in_flight.remove(id) && self.reuse == IdReuse::Session {
            self.used.remove(id);
        }
    }

    /// Whether a request with `id` awaits its response.
    #[must_use]
    pub fn is_in_flight(&self, id: &Id<'_>) -> bool {
        self.in_flight.contains(id)
    }

    /// The ids of the requests awaiting a response: integers in order,
    /// then strings in order.
    pub fn pending(&self) -> impl Iterator<Item = Id<'_>> {
        let integers = self.in_flight.integers.iter().map(|&n| Id::Int(n));
        integers.chain(self.in_flight.strings.iter().map(|s| Id::from(s.as_str())))
    }

    /// How many requests await a response.
    #[must_use]
    pub fn len(&self) -> usize {
        self.in_flight.len()
    }

    /// True when no request awaits a response.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.in_flight.len() == 0
    }
}
