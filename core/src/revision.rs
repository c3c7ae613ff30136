//! What each revision of MCP (and plain JSON-RPC 2.0) allows.
//!
//! Every difference between revisions that the parser applies is a method
//! here, so the classifier never compares revision names itself.

use core::fmt;
use core::str::FromStr;

/// The protocol revision whose rules apply.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
pub enum Revision {
    /// MCP 2024-11-05.
    V2024_11_05,
    /// MCP 2025-03-26: the only MCP revision with JSON-RPC batches.
    V2025_03_26,
    /// MCP 2025-06-18: batches removed.
    V2025_06_18,
    /// MCP 2025-11-25: error responses may omit `id`.
    V2025_11_25,
    /// MCP 2026-07-28: `resultType`, sessions removed (ids only need to be
    /// unique among requests in flight). The default.
    #[default]
    V2026_07_28,
    /// Plain JSON-RPC 2.0: batches, `null` ids, positional (array) params,
    /// results of any type.
    JsonRpc,
}

/// How long a request id stays taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IdReuse {
    /// Never reused within the session (MCP up to 2025-11-25: an id "MUST
    /// NOT have been previously used by the requestor within the same session").
    Session,
    /// Free again once its response arrived (2026-07-28: an id "MUST NOT
    /// match the ID of any other request the sender has issued and not yet
    /// received a response for"; also our reading of plain JSON-RPC 2.0).
    InFlight,
}

impl Revision {
    /// Every revision, oldest first, then the plain JSON-RPC profile.
    pub const ALL: [Revision; 6] = [
        Revision::V2024_11_05,
        Revision::V2025_03_26,
        Revision::V2025_06_18,
        Revision::V2025_11_25,
        Revision::V2026_07_28,
        Revision::JsonRpc,
    ];

    /// `2024-11-05` ... `2026-07-28`, or `jsonrpc`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Revision::V2024_11_05 => "2024-11-05",
            Revision::V2025_03_26 => "2025-03-26",
            Revision::V2025_06_18 => "2025-06-18",
            Revision::V2025_11_25 => "2025-11-25",
            Revision::V2026_07_28 => "2026-07-28",
            Revision::JsonRpc => "jsonrpc",
        }
    }

    /// True for the MCP revisions, false for plain JSON-RPC 2.0.
    #[must_use]
    pub const fn is_mcp(self) -> bool {
        !matches!(self, Revision::JsonRpc)
    }

    /// A top-level array is a batch (2025-03-26 added them, 2025-06-18
    /// removed them; JSON-RPC 2.0 section 6 has them).
    #[must_use]
    pub const fn allows_batches(self) -> bool {
        matches!(self, Revision::V2025_03_26 | Revision::JsonRpc)
    }

    /// `id: null` makes a request (JSON-RPC 2.0 allows it, though it
    /// discourages it); MCP says "the ID MUST NOT be null".
    #[must_use]
    pub const fn allows_null_request_id(self) -> bool {
        !self.is_mcp()
    }

    /// An error response may leave out `id` (MCP 2025-11-25 made it
    /// optional in `JSONRPCErrorResponse`; JSON-RPC 2.0 requires it).
    #[must_use]
    pub const fn allows_error_without_id(self) -> bool {
        matches!(self, Revision::V2025_11_25 | Revision::V2026_07_28)
    }

    /// `params` must be an object (MCP), or may also be an array (JSON-RPC).
    #[must_use]
    pub const fn allows_array_params(self) -> bool {
        !self.is_mcp()
    }

    /// `result` must be an object (MCP's `Result`), or may be any value.
    #[must_use]
    pub const fn allows_any_result(self) -> bool {
        !self.is_mcp()
    }

    /// `result.resultType` is read and must be a string when present.
    #[must_use]
    pub const fn has_result_type(self) -> bool {
        matches!(self, Revision::V2026_07_28)
    }

    /// Streamable HTTP is the HTTP transport (2025-03-26 on; 2024-11-05
    /// had "HTTP with SSE", a GET stream and a separate POST endpoint).
    #[must_use]
    pub const fn has_streamable_http(self) -> bool {
        !matches!(self, Revision::V2024_11_05 | Revision::JsonRpc)
    }

    /// Every HTTP request after initialisation carries
    /// `MCP-Protocol-Version` (2025-06-18 on; 2026-07-28: every POST).
    #[must_use]
    pub const fn has_protocol_version_header(self) -> bool {
        matches!(self, Revision::V2025_06_18 | Revision::V2025_11_25 | Revision::V2026_07_28)
    }

    /// The transport names the status of a request whose `Origin` the
    /// server refuses: 403 Forbidden (2025-11-25 on; 2025-03-26 and
    /// 2025-06-18 only say the Origin must be validated).
    #[must_use]
    pub const fn names_origin_refusal(self) -> bool {
        matches!(self, Revision::V2025_11_25 | Revision::V2026_07_28)
    }

    /// Sessions, named by `Mcp-Session-Id` (2025-03-26 to 2025-11-25;
    /// 2026-07-28 removed them).
    #[must_use]
    pub const fn has_sessions(self) -> bool {
        matches!(self, Revision::V2025_03_26 | Revision::V2025_06_18 | Revision::V2025_11_25)
    }

    /// 2026-07-28 alone: SEP-2243's `Mcp-Method` and `Mcp-Name` mirror the
    /// body, `MCP-Protocol-Version` must equal the body's
    /// `_meta["io.modelcontextprotocol/protocolVersion"]`, clients post no
    /// responses and servers send no requests of their own on a response
    /// stream (both replaced by results that ask for input).
    #[must_use]
    pub const fn mirrors_headers(self) -> bool {
        matches!(self, Revision::V2026_07_28)
    }

    /// The id-reuse rule for the in-flight tracker.
    #[must_use]
    pub const fn id_reuse(self) -> IdReuse {
        match self {
            Revision::V2026_07_28 | Revision::JsonRpc => IdReuse::InFlight,
            _ => IdReuse::Session,
        }
    }
}

impl fmt::Display for Revision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A revision name that is not one of [`Revision::ALL`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnknownRevision;

impl fmt::Display for UnknownRevision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown revision (expected 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28 or jsonrpc)")
    }
}

impl core::error::Error for UnknownRevision {}

impl FromStr for Revision {
    type Err = UnknownRevision;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Revision::ALL.iter().copied().find(|r| r.name() == s).ok_or(UnknownRevision)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_transport_names_403_for_a_refused_origin_from_2025_11_25_on() {
        let named = [Revision::V2025_03_26, Revision::V2025_06_18, Revision::V2025_11_25, Revision::V2026_07_28]
            .map(Revision::names_origin_refusal);
        assert_eq!(named, [false, false, true, true]);
    }
}
