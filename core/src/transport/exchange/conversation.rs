//! What outlives one exchange: the revision in force, the one `initialize`
//! negotiated, and whether the server has shown it speaks 2026-07-28.

use super::{Exchange, Header, Headers};
use crate::revision::Revision;

/// What outlives one exchange: the revision whose rules apply, the one
/// `initialize` negotiated (which `MCP-Protocol-Version` must then carry),
/// and whether the server has shown it speaks 2026-07-28.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Conversation {
    /// The revision the caller expects.
    pub revision: Revision,
    /// The revision an `initialize` result named, once one was seen.
    pub negotiated: Option<Revision>,
    /// The server answered a 2026-07-28 request as a 2026-07-28 server
    /// does (a success, or one of that revision's own errors): its
    /// refusals are held to that revision's, which a server of an earlier
    /// revision, refusing a version it does not know, is not.
    pub modern: bool,
}

impl Conversation {
    /// A conversation under `revision`, nothing negotiated yet.
    #[must_use]
    pub fn new(revision: Revision) -> Conversation {
        Conversation { revision, negotiated: None, modern: false }
    }

    /// The revision whose rules apply: the negotiated one once known.
    #[must_use]
    pub fn in_force(&self) -> Revision {
        self.negotiated.unwrap_or(self.revision)
    }

    /// The revision whose rules apply to a request with these headers: a
    /// request that declares 2026-07-28 in `MCP-Protocol-Version` is one,
    /// whatever was negotiated before (2026-07-28 negotiates per request,
    /// and its clients probe older servers that way first); any other
    /// follows [`Conversation::in_force`], except that when 2026-07-28 is
    /// expected and nothing was negotiated, a request that declares an
    /// earlier revision is judged under it, and one without the header
    /// comes from a client of an earlier revision, judged as a server that
    /// gets no `MCP-Protocol-Version` assumes: 2025-03-26 (its `initialize`
    /// then negotiates). Parse the request's body under
    /// it.
    #[must_use]
    pub fn in_force_for(&self, headers: &Headers<'_>) -> Revision {
        let declared = headers.protocol_version.value().and_then(|v| core::str::from_utf8(v).ok()?.parse().ok());
        match (declared, self.negotiated) {
            (Some(revision), _) if Revision::mirrors_headers(revision) => revision,
            (_, Some(negotiated)) => negotiated,
            // A client of an earlier revision, saying which.
            (Some(revision), None) if self.revision.mirrors_headers() => revision,
            (None, None) if self.revision.mirrors_headers() && headers.protocol_version == Header::Absent => {
                Revision::V2025_03_26
            }
            _ => self.revision,
        }
    }

    /// Takes what `exchange` taught: a negotiated revision, a server that
    /// speaks 2026-07-28.
    pub fn learn(&mut self, exchange: &Exchange) {
        if let Some(revision) = exchange.negotiated() {
            self.negotiated = Some(revision);
        }
        self.modern |= exchange.modern();
    }
}
