//! The message model both backends produce: kinds, ids, raw payloads.
//!
//! Payloads (`params`, `result`, `error.data`) are [`RawJson`]: the exact JSON
//! text of the member, borrowed from the input and never re-parsed. `method`
//! and string ids borrow when the input has no escapes in them, and own a
//! decoded copy only when it does.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::fault::Fault;
use crate::json::grammar;
use crate::limits::Limits;

mod error;
#[cfg(feature = "serde")]
mod serialization;
pub mod write;

pub use error::{Error, Reply};

/// What the parser makes of one message: its envelope, or why it is
/// refused.
pub type Parsed<'a> = Result<Envelope<'a>, Error<'a>>;

/// A request id: a string or an integer (MCP's `RequestId`), or `null` under
/// the plain JSON-RPC 2.0 profile.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Id<'a> {
    /// `"abc"`, decoded.
    Str(Cow<'a, str>),
    /// `1`, `-5`, and the integral forms `1.0`, `1e2`, `-0`.
    Int(i64),
    /// `null`, only in plain JSON-RPC 2.0 requests and results.
    Null,
}

impl Id<'_> {
    /// The same id, owning its string.
    #[must_use]
    pub fn into_owned(self) -> Id<'static> {
        match self {
            Id::Str(s) => Id::Str(Cow::Owned(s.into_owned())),
            Id::Int(n) => Id::Int(n),
            Id::Null => Id::Null,
        }
    }
}

impl From<i64> for Id<'_> {
    fn from(n: i64) -> Self {
        Id::Int(n)
    }
}

impl<'a> From<&'a str> for Id<'a> {
    fn from(s: &'a str) -> Self {
        Id::Str(Cow::Borrowed(s))
    }
}

impl From<String> for Id<'_> {
    fn from(s: String) -> Self {
        Id::Str(Cow::Owned(s))
    }
}

impl fmt::Display for Id<'_> {
    /// JSON-like: strings quoted (not escaped), integers bare, `null`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Id::Str(s) => write!(f, "{s:?}"),
            Id::Int(n) => write!(f, "{n}"),
            Id::Null => f.write_str("null"),
        }
    }
}

/// The exact JSON text of a payload member, borrowed from the message (or
/// owned, after [`RawJson::into_owned`]).
///
/// It is always one valid JSON value under the rules (the parser or
/// [`check_json`](crate::check_json) checked it), with no surrounding
/// whitespace.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct RawJson<'a>(Cow<'a, str>);

impl<'a> RawJson<'a> {
    pub(crate) fn new(json: &'a str) -> Self {
        RawJson(Cow::Borrowed(json))
    }

    /// `json` checked as one JSON value under the rules, without the
    /// whitespace around it: [`check_json`](crate::check_json).
    pub(crate) fn checked(json: &'a str) -> Result<Self, Fault> {
        grammar::validate(json, &Limits::new())?;
        Ok(RawJson::new(json.trim_matches(|c| matches!(c, ' ' | '\t' | '\n' | '\r'))))
    }

    /// The JSON text.
    #[must_use]
    pub fn get(&self) -> &str {
        &self.0
    }

    /// The JSON text with the input's lifetime, unless this payload owns it.
    #[must_use]
    pub fn borrowed(&self) -> Option<&'a str> {
        match self.0 {
            Cow::Borrowed(json) => Some(json),
            Cow::Owned(_) => None,
        }
    }

    /// The same payload, owning its text.
    #[must_use]
    pub fn into_owned(self) -> RawJson<'static> {
        RawJson(owned_str(self.0))
    }

    /// The value of the member `name` of this payload, when it is an
    /// object that has one: found by walking its top level only, nested
    /// values passed over, so `params.name` of a `tools/call` costs no
    /// parse of its arguments. Names are compared decoded.
    ///
    /// ```
    /// # use mcp_envelope::{Message, Parser, Revision};
    /// let line = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":{"name":"x"},"name":"get_me"}}"#;
    /// let envelope = Parser::new(Revision::V2026_07_28).parse(line).unwrap();
    /// let Some(Message::Request(call)) = envelope.single() else { unreachable!() };
    /// let name = call.params.as_ref().and_then(|p| p.member("name").ok().flatten());
    /// assert_eq!(name.as_ref().and_then(|n| n.as_str()).as_deref(), Some("get_me"));
    /// assert_eq!(name.and_then(|n| n.span_in(line)), Some(88..96));
    /// ```
    ///
    /// # Errors
    /// `duplicate-member` (offset within this payload) when `name` appears
    /// twice, since readers that keep the first and readers that keep the
    /// last would act on different values.
    pub fn member(&self, name: &str) -> Result<Option<RawJson<'_>>, Fault> {
        let json = self.get();
        Ok(crate::json::lookup::member(json, name)?.and_then(|span| json.get(span)).map(RawJson::new))
    }

    /// The string this payload is, decoded; `None` when it is another value.
    #[must_use]
    pub fn as_str(&self) -> Option<Cow<'_, str>> {
        crate::json::lookup::string(self.get())
    }

    /// Where this payload lies within `message`, the text it was parsed from:
    /// a byte range, or `None` if it was not parsed from `message`.
    #[must_use]
    pub fn span_in(&self, message: &[u8]) -> Option<core::ops::Range<usize>> {
        // Address arithmetic only: no pointer is dereferenced.
        let start = (self.get().as_ptr() as usize).checked_sub(message.as_ptr() as usize)?;
        let end = start.checked_add(self.0.len())?;
        (end <= message.len()).then_some(start..end)
    }
}

impl fmt::Debug for RawJson<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RawJson({})", self.get())
    }
}

impl fmt::Display for RawJson<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.get())
    }
}

/// A request: it has a `method` and an `id`, and expects a response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request<'a> {
    /// The id the response must echo.
    pub id: Id<'a>,
    /// The method name, e.g. `tools/call`.
    pub method: Cow<'a, str>,
    /// `params`, if present.
    pub params: Option<RawJson<'a>>,
}

/// A notification: a `method` and no `id`; it gets no response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notification<'a> {
    /// The method name, e.g. `notifications/progress`.
    pub method: Cow<'a, str>,
    /// `params`, if present.
    pub params: Option<RawJson<'a>>,
}

/// A successful response: `result` and `id`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResultResponse<'a> {
    /// The id of the request this answers.
    pub id: Id<'a>,
    /// The `result` member.
    pub result: RawJson<'a>,
    /// `result.resultType`, read under revision 2026-07-28 only; absent means
    /// `"complete"` (see [`ResultResponse::result_type_or_complete`]).
    pub result_type: Option<Cow<'a, str>>,
}

impl ResultResponse<'_> {
    /// `resultType`, with the absent case read as `"complete"` as 2026-07-28
    /// asks of clients talking to older servers.
    #[must_use]
    pub fn result_type_or_complete(&self) -> &str {
        self.result_type.as_deref().unwrap_or("complete")
    }
}

/// The `error` member of an error response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ErrorObject<'a> {
    /// `code`, see [`codes::classify`](crate::codes::classify).
    pub code: i64,
    /// `message`.
    pub message: Cow<'a, str>,
    /// `data`, if present.
    pub data: Option<RawJson<'a>>,
}

/// An error response: `error`, and the `id` of the request when it is known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ErrorResponse<'a> {
    /// The id of the request this answers; `None` when it was `null` or
    /// absent (the request's id could not be read).
    pub id: Option<Id<'a>>,
    /// The error.
    pub error: ErrorObject<'a>,
}

/// One JSON-RPC message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message<'a> {
    /// `method` and `id`.
    Request(Request<'a>),
    /// `method`, no `id`.
    Notification(Notification<'a>),
    /// `result` and `id`.
    Result(ResultResponse<'a>),
    /// `error`.
    Error(ErrorResponse<'a>),
}

/// The kind of a message, or of a line the CLI reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A request.
    Request,
    /// A notification.
    Notification,
    /// A result response.
    Result,
    /// An error response.
    Error,
    /// A batch.
    Batch,
}

impl Kind {
    /// `request`, `notification`, `result`, `error` or `batch`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Request => "request",
            Kind::Notification => "notification",
            Kind::Result => "result",
            Kind::Error => "error",
            Kind::Batch => "batch",
        }
    }
}

impl<'a> Message<'a> {
    /// Which kind of message this is.
    #[must_use]
    pub fn kind(&self) -> Kind {
        match self {
            Message::Request(_) => Kind::Request,
            Message::Notification(_) => Kind::Notification,
            Message::Result(_) => Kind::Result,
            Message::Error(_) => Kind::Error,
        }
    }

    /// The id, for requests and responses that have one.
    #[must_use]
    pub fn id(&self) -> Option<&Id<'a>> {
        match self {
            Message::Request(r) => Some(&r.id),
            Message::Result(r) => Some(&r.id),
            Message::Error(e) => e.id.as_ref(),
            Message::Notification(_) => None,
        }
    }

    /// The method, for requests and notifications.
    #[must_use]
    pub fn method(&self) -> Option<&str> {
        match self {
            Message::Request(r) => Some(&r.method),
            Message::Notification(n) => Some(&n.method),
            Message::Result(_) | Message::Error(_) => None,
        }
    }

    /// The raw payload: `params`, `result` or `error.data`.
    #[must_use]
    pub fn payload(&self) -> Option<&RawJson<'a>> {
        match self {
            Message::Request(r) => r.params.as_ref(),
            Message::Notification(n) => n.params.as_ref(),
            Message::Result(r) => Some(&r.result),
            Message::Error(e) => e.error.data.as_ref(),
        }
    }
}

/// What one input holds: a single message, or a batch of them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Envelope<'a> {
    /// One message.
    Single(Message<'a>),
    /// A batch (revision 2025-03-26 and plain JSON-RPC 2.0 only): each item
    /// is judged on its own, so one bad item does not spoil the others.
    Batch(Vec<Result<Message<'a>, Error<'a>>>),
}

impl<'a> Envelope<'a> {
    /// [`Kind::Batch`] or the single message's kind.
    #[must_use]
    pub fn kind(&self) -> Kind {
        match self {
            Envelope::Single(m) => m.kind(),
            Envelope::Batch(_) => Kind::Batch,
        }
    }

    /// The single message, if this is not a batch.
    #[must_use]
    pub fn single(&self) -> Option<&Message<'a>> {
        match self {
            Envelope::Single(m) => Some(m),
            Envelope::Batch(_) => None,
        }
    }
}

fn owned_str(s: Cow<'_, str>) -> Cow<'static, str> {
    Cow::Owned(s.into_owned())
}

impl Request<'_> {
    /// The same request, owning its strings and payload.
    #[must_use]
    pub fn into_owned(self) -> Request<'static> {
        Request {
            id: self.id.into_owned(),
            method: owned_str(self.method),
            params: self.params.map(RawJson::into_owned),
        }
    }
}

impl Notification<'_> {
    /// The same notification, owning its strings and payload.
    #[must_use]
    pub fn into_owned(self) -> Notification<'static> {
        Notification { method: owned_str(self.method), params: self.params.map(RawJson::into_owned) }
    }
}

impl ResultResponse<'_> {
    /// The same response, owning its strings and payload.
    #[must_use]
    pub fn into_owned(self) -> ResultResponse<'static> {
        ResultResponse {
            id: self.id.into_owned(),
            result: self.result.into_owned(),
            result_type: self.result_type.map(owned_str),
        }
    }
}

impl ErrorObject<'_> {
    /// The same error object, owning its strings and payload.
    #[must_use]
    pub fn into_owned(self) -> ErrorObject<'static> {
        ErrorObject { code: self.code, message: owned_str(self.message), data: self.data.map(RawJson::into_owned) }
    }
}

impl ErrorResponse<'_> {
    /// The same response, owning its strings and payload.
    #[must_use]
    pub fn into_owned(self) -> ErrorResponse<'static> {
        ErrorResponse { id: self.id.map(Id::into_owned), error: self.error.into_owned() }
    }
}

impl Message<'_> {
    /// The same message, owning everything it borrowed from the input: for
    /// keeping it past the input's buffer (a queue, another task, a codec).
    #[must_use]
    pub fn into_owned(self) -> Message<'static> {
        match self {
            Message::Request(r) => Message::Request(r.into_owned()),
            Message::Notification(n) => Message::Notification(n.into_owned()),
            Message::Result(r) => Message::Result(r.into_owned()),
            Message::Error(e) => Message::Error(e.into_owned()),
        }
    }
}

impl<'a> Envelope<'a> {
    /// The same envelope, owning everything it borrowed from the input.
    #[must_use]
    pub fn into_owned(self) -> Envelope<'static> {
        match self {
            Envelope::Single(m) => Envelope::Single(m.into_owned()),
            Envelope::Batch(items) => Envelope::Batch(
                items.into_iter().map(|item| item.map(Message::into_owned).map_err(Error::into_owned)).collect(),
            ),
        }
    }

    /// Every message, in order: the single one, or each batch item, valid
    /// or not (a batch's items are judged one by one).
    pub fn items(&self) -> Items<'_, 'a> {
        match self {
            Envelope::Single(m) => Items::Single(Some(m)),
            Envelope::Batch(items) => Items::Batch(items.iter()),
        }
    }
}

/// The messages of an [`Envelope`], from [`Envelope::items`].
#[derive(Clone, Debug)]
pub enum Items<'e, 'a> {
    /// A single message, not yet returned.
    #[doc(hidden)]
    Single(Option<&'e Message<'a>>),
    /// A batch's items.
    #[doc(hidden)]
    Batch(core::slice::Iter<'e, Result<Message<'a>, Error<'a>>>),
}

impl<'e, 'a> Iterator for Items<'e, 'a> {
    type Item = Result<&'e Message<'a>, &'e Error<'a>>;

    fn next(&mut self) -> Option<Self::Item> {
        match self {
            Items::Single(m) => m.take().map(Ok),
            Items::Batch(items) => items.next().map(Result::as_ref),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = match self {
            Items::Single(m) => usize::from(m.is_some()),
            Items::Batch(items) => items.len(),
        };
        (n, Some(n))
    }
}

impl ExactSizeIterator for Items<'_, '_> {}

impl<'a> IntoIterator for Envelope<'a> {
    type Item = Result<Message<'a>, Error<'a>>;
    type IntoIter = alloc::vec::IntoIter<Result<Message<'a>, Error<'a>>>;

    /// Every message, in order, by value (a single message is one item).
    fn into_iter(self) -> Self::IntoIter {
        match self {
            Envelope::Single(m) => alloc::vec![Ok(m)].into_iter(),
            Envelope::Batch(items) => items.into_iter(),
        }
    }
}
