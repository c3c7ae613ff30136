//! What judging an exchange finds: a rule broken, and where.

use super::Rule;
use crate::envelope::Error;
use crate::fault::Severity;

/// Where in an exchange a rule was broken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// A request header, by the name the specification spells it with.
    RequestHeader(&'static str),
    /// A response header.
    ResponseHeader(&'static str),
    /// The response's status.
    Status,
    /// A byte offset in the request body.
    RequestBody(usize),
    /// A message of the response: the JSON body (line 1, offset 0), or the
    /// event of a stream that began at this line and byte.
    Response {
        /// 1-based line of the event (1 for a JSON body).
        line: u64,
        /// Byte offset of the event in the stream (0 for a JSON body).
        offset: u64,
    },
    /// The end of the response.
    End,
}

/// One rule broken, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The rule.
    pub rule: Rule,
    /// Where.
    pub place: Place,
    pub(super) reply: Option<Error<'static>>,
}

impl Finding {
    /// A finding of `rule` at `place`.
    #[must_use]
    pub fn new(rule: Rule, place: Place) -> Finding {
        Finding { rule, place, reply: None }
    }

    /// For a 2026-07-28 header fault: the JSON-RPC error the server
    /// answers with (HTTP 400): -32020 `header-mismatch`, at the body's
    /// value, with the request's id. Write it with
    /// [`write::error_for`](crate::write::error_for).
    #[must_use]
    pub fn reply(&self) -> Option<&Error<'static>> {
        self.reply.as_ref()
    }

    /// The rule's severity: a MUST broken, or a SHOULD.
    #[must_use]
    pub fn severity(&self) -> Severity {
        self.rule.severity()
    }
}
