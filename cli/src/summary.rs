//! What the CLI reports of one message, owned, so the verdicts of two
//! backends can be compared (payload spans included) and rendered.

use std::ops::Range;

use mcp_envelope::Severity;
use mcp_envelope::{Envelope, Error, Id, Kind, Message, Parsed, Reason, write};

/// An id as the output shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IdValue {
    Str(String),
    Int(i64),
    Null,
}

impl From<&Id<'_>> for IdValue {
    fn from(id: &Id<'_>) -> Self {
        match id {
            Id::Str(s) => IdValue::Str(s.to_string()),
            Id::Int(n) => IdValue::Int(*n),
            Id::Null => IdValue::Null,
        }
    }
}

/// An invalid message (or batch item).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invalid {
    pub reason: Reason,
    /// Byte offset of the fault within the message.
    pub offset: usize,
    pub id: Option<IdValue>,
    /// The error response to send, as JSON text; `None` when no answer is
    /// due (the message was response-shaped).
    pub reply: Option<String>,
}

impl Invalid {
    pub fn from_error(e: &Error<'_>) -> Invalid {
        let mut reply = Vec::new();
        let reply = write::error_for(&mut reply, e).then(|| String::from_utf8_lossy(&reply).into_owned());
        Invalid { reason: e.reason(), offset: e.offset(), id: e.id().map(IdValue::from), reply }
    }
}

/// The verdict on one message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Summary {
    Valid { kind: Kind, id: Option<IdValue>, method: Option<String>, payload: Option<Range<usize>> },
    Batch(Vec<Summary>),
    Invalid(Invalid),
}

impl Summary {
    pub fn of(input: &[u8], parsed: &Parsed<'_>) -> Summary {
        match parsed {
            Ok(Envelope::Single(m)) => Summary::message(input, m),
            Ok(Envelope::Batch(items)) => Summary::Batch(
                items
                    .iter()
                    .map(|item| match item {
                        Ok(m) => Summary::message(input, m),
                        Err(e) => Summary::Invalid(Invalid::from_error(e)),
                    })
                    .collect(),
            ),
            Err(e) => Summary::Invalid(Invalid::from_error(e)),
        }
    }

    fn message(input: &[u8], m: &Message<'_>) -> Summary {
        Summary::Valid {
            kind: m.kind(),
            id: m.id().map(IdValue::from),
            method: m.method().map(str::to_owned),
            payload: m.payload().and_then(|p| p.span_in(input)),
        }
    }

    /// True if this message, or any item of this batch, is invalid.
    pub fn has_invalid(&self) -> bool {
        self.severity().is_some()
    }

    /// The gravest severity of what is invalid in it (a batch counts as
    /// its worst item); `None` when all of it is valid.
    pub fn severity(&self) -> Option<Severity> {
        match self {
            Summary::Valid { .. } => None,
            // `Severity` orders a violation first.
            Summary::Batch(items) => items.iter().filter_map(Summary::severity).min(),
            Summary::Invalid(invalid) => Some(invalid.reason.severity()),
        }
    }
}

/// Whether every backend summarised one message alike (trivially so for one
/// backend).
pub fn all_agree(verdicts: &[(&str, Summary)]) -> bool {
    verdicts.windows(2).all(|w| matches!(w, [a, b] if a.1 == b.1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backends_agree_only_when_every_summary_is_the_same() {
        const PING: &[u8] = br#"{"jsonrpc":"2.0","method":"ping"}"#;
        let valid = || Summary::of(PING, &mcp_envelope::Parser::new(mcp_envelope::Revision::JsonRpc).parse(PING));
        let invalid = || Summary::Invalid(Invalid::from_error(&mcp_envelope::Error::too_large(10)));
        assert!(all_agree(&[]));
        assert!(all_agree(&[("serde", valid())]));
        assert!(all_agree(&[("serde", valid()), ("simd", valid()), ("reference", valid())]));
        assert!(!all_agree(&[("serde", valid()), ("simd", valid()), ("reference", invalid())]));
        assert!(!all_agree(&[("serde", invalid()), ("simd", valid())]));
    }
}
