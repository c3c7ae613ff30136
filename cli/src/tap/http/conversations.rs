//! What the tap remembers between exchanges: each session's conversation
//! (the revision `initialize` negotiated) and its request ids in flight,
//! the conversation of requests without a session, and whether the server
//! has shown it speaks 2026-07-28.
//!
//! Ids are followed per session where the revision has sessions, and per
//! client connection where it has none: nothing else in a 2026-07-28
//! request names its sender, and two clients on one host (or behind one
//! gateway) may each use id 1 at once, which is no fault of either.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use mcp_envelope::Revision;
use mcp_envelope::transport::exchange::{Conversation, Exchange, Flights};

/// The ids of one conversation, shared by its exchanges.
pub type SharedFlights = Arc<Mutex<Flights>>;

struct Session {
    conversation: Conversation,
    flights: SharedFlights,
}

/// Every conversation the tap follows.
pub struct Conversations {
    sessions: Mutex<HashMap<Vec<u8>, Session>>,
    /// The conversation of requests without a session (before
    /// `initialize`, or with a server that keeps none).
    sessionless: Mutex<Conversation>,
    /// The server answered a 2026-07-28 request as a server of that
    /// revision does (one upstream, so one answer for all).
    modern: AtomicBool,
}

impl Conversations {
    pub fn new(revision: Revision) -> Conversations {
        Conversations {
            sessions: Mutex::new(HashMap::new()),
            sessionless: Mutex::new(Conversation::new(revision)),
            modern: AtomicBool::new(false),
        }
    }

    /// The conversation a request of `session` (or of none) belongs to.
    pub fn conversation(&self, session: Option<&[u8]>) -> Conversation {
        let sessionless = *self.sessionless.lock().unwrap_or_else(PoisonError::into_inner);
        let known = session.and_then(|id| {
            self.sessions.lock().unwrap_or_else(PoisonError::into_inner).get(id).map(|s| s.conversation)
        });
        let mut conversation = known.unwrap_or(sessionless);
        conversation.modern = self.modern.load(Ordering::Relaxed);
        conversation
    }

    /// The ids a request of `session` is followed with: the session's, or
    /// for a request without one, its client connection's.
    pub fn flights(&self, session: Option<&[u8]>, connection: &SharedFlights) -> SharedFlights {
        let Some(id) = session else { return Arc::clone(connection) };
        let sessionless = *self.sessionless.lock().unwrap_or_else(PoisonError::into_inner);
        let mut sessions = self.sessions.lock().unwrap_or_else(PoisonError::into_inner);
        let session = sessions.entry(id.to_vec()).or_insert_with(|| Session {
            conversation: sessionless,
            flights: Arc::new(Mutex::new(Flights::new(sessionless.in_force()))),
        });
        Arc::clone(&session.flights)
    }

    /// Takes what `exchange` taught the conversation of `session`: the
    /// revision an `initialize` negotiated (a new session starts with it),
    /// a server that speaks 2026-07-28.
    pub fn learn(&self, session: Option<&[u8]>, exchange: &Exchange) {
        if exchange.modern() {
            self.modern.store(true, Ordering::Relaxed);
        }
        let Some(revision) = exchange.negotiated() else { return };
        let mut sessionless = self.sessionless.lock().unwrap_or_else(PoisonError::into_inner);
        match session {
            Some(id) => {
                let mut conversation = *sessionless;
                conversation.negotiated = Some(revision);
                let mut sessions = self.sessions.lock().unwrap_or_else(PoisonError::into_inner);
                let entry = sessions
                    .entry(id.to_vec())
                    .or_insert_with(|| Session { conversation, flights: Arc::new(Mutex::new(Flights::new(revision))) });
                entry.conversation.negotiated = Some(revision);
            }
            None => sessionless.negotiated = Some(revision),
        }
    }

    /// The session ended (its DELETE).
    pub fn forget(&self, session: &[u8]) {
        self.sessions.lock().unwrap_or_else(PoisonError::into_inner).remove(session);
    }
}
