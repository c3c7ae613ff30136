//! Why a message was refused: a JSON-RPC code, a stable reason, a byte offset.
//! The crate's leaf vocabulary: it imports nothing from the crate, and every
//! stage below the envelope speaks it ([`Error`](crate::Error), the
//! envelope's refusal, carries a [`Fault`] and the id).
//!
//! Messages are lowercase and never contain input bytes: the offset says where
//! to look, and a caller that wants an excerpt takes it from its own input.

use core::fmt;

/// JSON-RPC 2.0 "Parse error": the bytes are not one JSON value.
pub const PARSE_ERROR: i64 = -32700;
/// JSON-RPC 2.0 "Invalid Request": valid JSON, but not a valid envelope.
pub const INVALID_REQUEST: i64 = -32600;
/// JSON-RPC 2.0 "Invalid params": what [`RawJson::deserialize`](crate::RawJson::deserialize) answers with.
pub const INVALID_PARAMS: i64 = -32602;
/// MCP 2026-07-28 `HeaderMismatch`: on Streamable HTTP, a routing header
/// that is missing, malformed or disagrees with the body (see
/// [`exchange`](crate::transport::exchange)).
pub const HEADER_MISMATCH: i64 = -32020;

/// How binding a broken rule is: of a reason the parser gives
/// ([`Reason::severity`]) and of an exchange rule
/// ([`Rule::severity`](crate::transport::exchange::Rule::severity)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// A MUST or MUST NOT of the specification.
    Violation,
    /// A SHOULD or SHOULD NOT, something the texts leave open, a limit of
    /// this reader's own, or evidence that is a heuristic (an error
    /// message that reads like an authorisation failure).
    Warning,
}

impl Severity {
    /// `violation` or `warning`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Severity::Violation => "violation",
            Severity::Warning => "warning",
        }
    }
}

macro_rules! reasons {
    ($( $(#[$doc:meta])* $variant:ident = ($code:expr, $name:literal, $message:literal, $hint:expr), )*) => {
        /// Why a message is invalid. Each reason has a stable kebab-case
        /// [`name`](Reason::name) (printed by the CLI and part of the public
        /// contract) and a JSON-RPC [`code`](Reason::code).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[cfg_attr(feature = "arbitrary", derive(arbitrary::Arbitrary))]
        #[non_exhaustive]
        pub enum Reason {
            $( $(#[$doc])* $variant, )*
        }

        impl Reason {
            /// Every reason, in declaration order.
            pub const ALL: &'static [Reason] = &[$(Reason::$variant,)*];

            /// The stable kebab-case name, e.g. `duplicate-member`.
            #[must_use]
            pub const fn name(self) -> &'static str {
                match self { $(Reason::$variant => $name,)* }
            }

            /// The JSON-RPC error code to answer with: -32700 or -32600 for
            /// the parser's reasons, -32020 for [`Reason::HeaderMismatch`].
            #[must_use]
            pub const fn code(self) -> i64 {
                match self { $(Reason::$variant => $code,)* }
            }

            /// A one-line, lowercase description.
            #[must_use]
            pub const fn message(self) -> &'static str {
                match self { $(Reason::$variant => $message,)* }
            }

            /// What probably happened, where that helps more than the message.
            #[must_use]
            pub const fn hint(self) -> Option<&'static str> {
                match self { $(Reason::$variant => $hint,)* }
            }
        }
    };
}

reasons! {
    /// The message is larger than [`Limits::max_size`](crate::Limits::max_size).
    TooLarge = (PARSE_ERROR, "too-large", "message is larger than the size limit", None),
    /// Nothing but JSON whitespace.
    Empty = (PARSE_ERROR, "empty", "message is empty", None),
    /// The message starts with U+FEFF, which RFC 8259 section 8.1 forbids.
    ByteOrderMark = (PARSE_ERROR, "byte-order-mark", "message starts with a byte-order mark",
        Some("JSON text must not start with U+FEFF (RFC 8259, section 8.1); strip it before sending")),
    /// The message starts with `<`.
    HtmlPage = (PARSE_ERROR, "html-page", "message is markup, not JSON",
        Some("the address served a web page, not a JSON-RPC endpoint")),
    /// A byte sequence that is not UTF-8.
    InvalidUtf8 = (PARSE_ERROR, "invalid-utf8", "message is not valid UTF-8", None),
    /// Nesting deeper than [`Limits::max_depth`](crate::Limits::max_depth).
    TooDeep = (PARSE_ERROR, "too-deep", "nesting is deeper than the limit", None),
    /// The input ends inside a value.
    UnexpectedEnd = (PARSE_ERROR, "unexpected-end", "message ends inside a value",
        Some("the message looks truncated")),
    /// A byte that cannot start a JSON value.
    ExpectedValue = (PARSE_ERROR, "expected-value", "expected a JSON value", None),
    /// Inside an object, something other than a string where a member name belongs.
    ExpectedMemberName = (PARSE_ERROR, "expected-member-name", "expected a member name (a string)", None),
    /// A member name not followed by `:`.
    ExpectedColon = (PARSE_ERROR, "expected-colon", "expected ':' after a member name", None),
    /// After a value inside an object or array, neither `,` nor the closing bracket.
    ExpectedCommaOrEnd = (PARSE_ERROR, "expected-comma-or-end", "expected ',' or the end of the object or array", None),
    /// More than whitespace after the value.
    TrailingCharacters = (PARSE_ERROR, "trailing-characters", "unexpected characters after the message",
        Some("one message per line: stdio framing separates messages with a newline")),
    /// U+0000..U+001F unescaped inside a string.
    ControlCharacter = (PARSE_ERROR, "control-character", "unescaped control character in a string", None),
    /// A backslash not followed by one of `"\/bfnrt` or `u` and four hex digits.
    InvalidEscape = (PARSE_ERROR, "invalid-escape", "invalid escape sequence in a string", None),
    /// A `\u` escape that is half of a surrogate pair without its other half.
    LoneSurrogate = (PARSE_ERROR, "lone-surrogate", "unpaired utf-16 surrogate in a \\u escape", None),
    /// A number outside RFC 8259's grammar.
    InvalidNumber = (PARSE_ERROR, "invalid-number", "invalid number", None),
    /// A word that is not `true`, `false` or `null`.
    InvalidLiteral = (PARSE_ERROR, "invalid-literal", "invalid literal (expected true, false or null)", None),

    /// The top-level value is a string, number, boolean or null.
    NotAnObject = (INVALID_REQUEST, "not-an-object", "message is not a json object", None),
    /// A top-level array under a revision without batches.
    BatchNotAllowed = (INVALID_REQUEST, "batch-not-allowed", "message is a batch, which this revision does not allow",
        Some("batches exist only in mcp 2025-03-26 and plain json-rpc 2.0; send one message at a time")),
    /// `[]`.
    EmptyBatch = (INVALID_REQUEST, "empty-batch", "batch is empty", None),
    /// More items than [`Limits::max_batch_len`](crate::Limits::max_batch_len);
    /// the offset is that of the first item past the limit.
    BatchTooLong = (INVALID_REQUEST, "batch-too-long", "batch has more items than the limit",
        Some("split the batch into smaller ones, or raise the receiver's batch limit")),
    /// An object with none of `method`, `id`, `result`, `error`.
    BarePayload = (INVALID_REQUEST, "bare-payload", "object has none of method, id, result or error",
        Some("this looks like a bare payload without a json-rpc envelope")),
    /// No `jsonrpc` member.
    MissingJsonrpc = (INVALID_REQUEST, "missing-jsonrpc", "member \"jsonrpc\" is missing", None),
    /// `jsonrpc` is not exactly the string `"2.0"`.
    InvalidJsonrpc = (INVALID_REQUEST, "invalid-jsonrpc", "member \"jsonrpc\" is not the string \"2.0\"", None),
    /// A member name appears twice in the envelope or in its `error` object.
    DuplicateMember = (INVALID_REQUEST, "duplicate-member", "member name is repeated", None),
    /// An `id` (or `jsonrpc`) but none of `method`, `result`, `error`.
    IncompleteEnvelope = (INVALID_REQUEST, "incomplete-envelope", "message has none of method, result or error", None),
    /// `method` with `result` or `error`, or `result` with `error`.
    ConflictingMembers = (INVALID_REQUEST, "conflicting-members", "message mixes members of different kinds", None),
    /// `id` is not a string or an integer.
    InvalidId = (INVALID_REQUEST, "invalid-id", "id is not a string or an integer", None),
    /// `id` is `null` where the revision needs a real id.
    NullId = (INVALID_REQUEST, "null-id", "id is null",
        Some("mcp ids must not be null; a notification has no id member at all")),
    /// A response without an `id` where the revision needs one.
    MissingId = (INVALID_REQUEST, "missing-id", "response has no id", None),
    /// `method` is not a string.
    InvalidMethod = (INVALID_REQUEST, "invalid-method", "method is not a string", None),
    /// `params` is not an object (MCP revisions).
    ParamsNotObject = (INVALID_REQUEST, "params-not-object", "params is not an object", None),
    /// `params` is neither an object nor an array (plain JSON-RPC 2.0).
    ParamsNotStructured = (INVALID_REQUEST, "params-not-structured", "params is neither an object nor an array", None),
    /// `result` is not an object (MCP revisions).
    ResultNotObject = (INVALID_REQUEST, "result-not-object", "result is not an object", None),
    /// `result.resultType` is present and not a string (2026-07-28).
    ResultTypeNotString = (INVALID_REQUEST, "result-type-not-string", "result.resultType is not a string", None),
    /// `error` is not an object.
    ErrorNotObject = (INVALID_REQUEST, "error-not-object", "error is not an object", None),
    /// `error` has no `code`.
    MissingErrorCode = (INVALID_REQUEST, "missing-error-code", "error has no code", None),
    /// `error.code` is not an integer.
    InvalidErrorCode = (INVALID_REQUEST, "invalid-error-code", "error code is not an integer", None),
    /// `error` has no `message`.
    MissingErrorMessage = (INVALID_REQUEST, "missing-error-message", "error has no message", None),
    /// `error.message` is not a string.
    InvalidErrorMessage = (INVALID_REQUEST, "invalid-error-message", "error message is not a string", None),

    /// Streamable HTTP under 2026-07-28: a header that mirrors the body
    /// (`Mcp-Method`, `Mcp-Name`, `MCP-Protocol-Version`) is missing,
    /// malformed or disagrees with it; the offset is the body's value. Never
    /// from the parser: [`exchange`](crate::transport::exchange) finds it.
    HeaderMismatch = (HEADER_MISMATCH, "header-mismatch", "a header that mirrors the body is missing, malformed or disagrees with it",
        Some("gateways route on these headers while servers act on the body: both must say the same")),
}

impl Reason {
    /// The reason named `name` (the inverse of [`Reason::name`]).
    #[must_use]
    pub fn from_name(name: &str) -> Option<Reason> {
        Reason::ALL.iter().copied().find(|r| r.name() == name)
    }

    /// How binding the rule the sender broke is. Every reason refuses the
    /// message; a [`Warning`](Severity::Warning) is one the texts do not
    /// forbid outright: a repeated member name (RFC 8259, section 4: names
    /// "SHOULD be unique"), an unpaired surrogate escape (RFC 8259, section
    /// 8.2 allows it in the grammar; refused here because parsers read it
    /// two ways), and this reader's own limits (size, depth, batch
    /// length), which no text sets. All the others break a MUST of JSON,
    /// JSON-RPC 2.0 or MCP, with one blur: `invalid-id` and
    /// `invalid-error-code` also cover integers past 64 bits (this reader's
    /// range, not a rule) and, in plain JSON-RPC, a fractional id (a
    /// SHOULD NOT), which the reason alone cannot tell apart.
    #[must_use]
    pub const fn severity(self) -> Severity {
        // Every reason listed, so that a new one must choose.
        match self {
            Reason::DuplicateMember
            | Reason::LoneSurrogate
            | Reason::TooLarge
            | Reason::TooDeep
            | Reason::BatchTooLong => Severity::Warning,
            Reason::Empty
            | Reason::ByteOrderMark
            | Reason::HtmlPage
            | Reason::InvalidUtf8
            | Reason::UnexpectedEnd
            | Reason::ExpectedValue
            | Reason::ExpectedMemberName
            | Reason::ExpectedColon
            | Reason::ExpectedCommaOrEnd
            | Reason::TrailingCharacters
            | Reason::ControlCharacter
            | Reason::InvalidEscape
            | Reason::InvalidNumber
            | Reason::InvalidLiteral
            | Reason::NotAnObject
            | Reason::BatchNotAllowed
            | Reason::EmptyBatch
            | Reason::BarePayload
            | Reason::MissingJsonrpc
            | Reason::InvalidJsonrpc
            | Reason::IncompleteEnvelope
            | Reason::ConflictingMembers
            | Reason::InvalidId
            | Reason::NullId
            | Reason::MissingId
            | Reason::InvalidMethod
            | Reason::ParamsNotObject
            | Reason::ParamsNotStructured
            | Reason::ResultNotObject
            | Reason::ResultTypeNotString
            | Reason::ErrorNotObject
            | Reason::MissingErrorCode
            | Reason::InvalidErrorCode
            | Reason::MissingErrorMessage
            | Reason::InvalidErrorMessage
            | Reason::HeaderMismatch => Severity::Violation,
        }
    }

    /// True for reasons about the JSON text (code -32700).
    #[must_use]
    pub const fn is_parse_error(self) -> bool {
        self.code() == PARSE_ERROR
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Where and why: the part of an error that does not borrow the input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Fault {
    /// Why.
    pub reason: Reason,
    /// Byte offset of the fault within the message.
    pub offset: usize,
}

impl Fault {
    #[cold]
    /// A fault: `reason` at byte `offset`.
    #[must_use]
    pub const fn new(reason: Reason, offset: usize) -> Fault {
        Fault { reason, offset }
    }
}

impl fmt::Display for Fault {
    /// `member name is repeated at byte 24 (duplicate-member)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {} ({})", self.reason.message(), self.offset, self.reason.name())
    }
}

impl core::error::Error for Fault {}
