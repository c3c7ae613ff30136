//! What an exchange can break: a stable name per rule, who broke it, and
//! a lowercase line saying what.

use crate::fault::Severity;

macro_rules! rules {
    ($( $(#[$doc:meta])* $variant:ident = ($name:literal, $by:ident, $severity:ident, $message:literal), )*) => {
        /// A rule of the Streamable HTTP transport that an exchange broke.
        /// Each has a stable kebab-case [`name`](Rule::name), part of the
        /// CLI's output like a [`Reason`](crate::Reason)'s, the side it
        /// binds, and a [`Severity`].
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum Rule {
            $( $(#[$doc])* $variant, )*
        }

        impl Rule {
            /// Every rule, in declaration order.
            pub const ALL: &'static [Rule] = &[$(Rule::$variant,)*];

            /// The stable kebab-case name, e.g. `mcp-name-mismatch`.
            #[must_use]
            pub const fn name(self) -> &'static str {
                match self { $(Rule::$variant => $name,)* }
            }

            /// Who broke it.
            #[must_use]
            pub const fn side(self) -> Side {
                match self { $(Rule::$variant => Side::$by,)* }
            }

            /// A MUST broken, or a SHOULD.
            #[must_use]
            pub const fn severity(self) -> Severity {
                match self { $(Rule::$variant => Severity::$severity,)* }
            }

            /// A one-line, lowercase description.
            #[must_use]
            pub const fn message(self) -> &'static str {
                match self { $(Rule::$variant => $message,)* }
            }
        }
    };
}

/// The side of an exchange that broke a rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// The client, in its request.
    Client,
    /// The server, in its response.
    Server,
}

impl Side {
    /// `client` or `server`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Side::Client => "client",
            Side::Server => "server",
        }
    }
}

rules! {
    /// A POST's `Accept` does not list both `application/json` and
    /// `text/event-stream` (2025-03-26 on).
    AcceptIncomplete = ("accept-incomplete", Client, Violation,
        "the post's accept header does not list both application/json and text/event-stream"),
    /// A POST's body is not sent as `application/json` (the transport
    /// pages show it so in every example, but state no rule).
    ContentTypeNotJson = ("content-type-not-json", Client, Warning, "the post's body is not sent as application/json"),
    /// A response posted under 2026-07-28, where clients send none.
    ResponsePosted = ("response-posted", Client, Violation, "the client posted a response, which 2026-07-28 does not allow"),
    /// `MCP-Protocol-Version` missing where the revision needs it.
    ProtocolVersionMissing = ("protocol-version-missing", Client, Violation,
        "the request has no mcp-protocol-version header"),
    /// `MCP-Protocol-Version` other than the body's `_meta` protocol
    /// version (2026-07-28), or sent twice.
    ProtocolVersionMismatch = ("protocol-version-mismatch", Client, Violation,
        "the mcp-protocol-version header is not the protocol version in force"),
    /// `MCP-Protocol-Version` names a revision other than the one
    /// `initialize` negotiated (2025-06-18 to 2025-11-25: SHOULD).
    ProtocolVersionNotNegotiated = ("protocol-version-not-negotiated", Client, Warning,
        "the mcp-protocol-version header names a revision other than the negotiated one"),
    /// `MCP-Protocol-Version` names no revision at all, or is sent twice
    /// (2025-06-18 to 2025-11-25).
    ProtocolVersionInvalid = ("protocol-version-invalid", Client, Violation,
        "the mcp-protocol-version header names no protocol version"),
    /// A 2026-07-28 request without
    /// `params._meta["io.modelcontextprotocol/protocolVersion"]`.
    MetaProtocolVersionMissing = ("meta-protocol-version-missing", Client, Violation,
        "the request's params._meta carries no protocol version"),
    /// A 2026-07-28 request without
    /// `params._meta["io.modelcontextprotocol/clientCapabilities"]`.
    MetaClientCapabilitiesMissing = ("meta-client-capabilities-missing", Client, Violation,
        "the request's params._meta carries no client capabilities"),
    /// A 2026-07-28 request without `Mcp-Method`.
    McpMethodMissing = ("mcp-method-missing", Client, Violation, "the request has no mcp-method header"),
    /// `Mcp-Method` is not the body's `method` (or is sent twice, or holds
    /// characters a header may not).
    McpMethodMismatch = ("mcp-method-mismatch", Client, Violation, "the mcp-method header is not the body's method"),
    /// A 2026-07-28 `tools/call`, `prompts/get` or `resources/read` without
    /// `Mcp-Name`.
    McpNameMissing = ("mcp-name-missing", Client, Violation, "the request has no mcp-name header"),
    /// `Mcp-Name` is not the body's `params.name` (`params.uri` for
    /// `resources/read`), that member is repeated, or the header is
    /// malformed (a Base64 sentinel that does not decode, control
    /// characters).
    McpNameMismatch = ("mcp-name-mismatch", Client, Violation, "the mcp-name header is not the body's name or uri"),
    /// An `Mcp-Param-*` header holds what no encoded value may: control
    /// characters, bytes past ASCII, surrounding whitespace, a Base64
    /// sentinel that does not decode (2026-07-28).
    McpParamMalformed = ("mcp-param-malformed", Client, Violation,
        "an mcp-param header holds a value no parameter encodes to"),
    /// `Mcp-Session-Id` holds more than visible ASCII (2025-03-26 to
    /// 2025-11-25).
    SessionIdInvalid = ("session-id-invalid", Client, Violation, "the mcp-session-id header holds more than visible ascii"),
    /// A request id still in flight (2026-07-28), or used before in the
    /// session (2025-03-26 to 2025-11-25), sent again by the client.
    RequestIdReused = ("request-id-reused", Client, Violation,
        "the client sent a request id it may not use again yet"),
    /// The client posted a response to an id the server never sent a
    /// request with, or had an answer to already.
    ResponseToNothing = ("response-to-nothing", Client, Violation,
        "the client posted a response to no server request in flight"),

    /// A POST of only notifications or responses was answered with a
    /// success status other than 202.
    NotAccepted = ("not-accepted", Server, Violation, "a post without requests was answered with a success other than 202"),
    /// A 202 came with a body.
    BodyOnAccepted = ("body-on-accepted", Server, Violation, "a 202 accepted came with a body"),
    /// A request was answered with a success that is neither
    /// `application/json` nor `text/event-stream` (a web page, say).
    ContentTypeUnexpected = ("content-type-unexpected", Server, Violation,
        "a request was answered with neither application/json nor text/event-stream"),
    /// An `application/json` answer that is not a response.
    NotAResponse = ("not-a-response", Server, Violation, "the json answer to a request is not a response"),
    /// A response to an id that was not posted.
    ResponseIdMismatch = ("response-id-mismatch", Server, Violation, "a response answers an id the post did not send"),
    /// A second response to the same request.
    ResponseRepeated = ("response-repeated", Server, Violation, "a request was answered twice"),
    /// A JSON answer that holds responses, but not one to each posted
    /// request (a batch's answer short of one, say).
    ResponseMissing = ("response-missing", Server, Violation, "the json answer lacks the response to a posted request"),
    /// An event stream ended without a response to a posted request
    /// ("SHOULD eventually include" it), and without an event id to
    /// resume it by under 2025-11-25.
    NoResponse = ("no-response", Server, Warning, "the answer ended without a response to a posted request"),
    /// A request of the server's own on a response stream (2026-07-28).
    ServerRequestOnStream = ("server-request-on-stream", Server, Violation,
        "the server sent a request of its own on a response stream, which 2026-07-28 does not allow"),
    /// A response on a GET stream that does not resume one (2025-03-26 to
    /// 2025-11-25).
    ResponseOnGetStream = ("response-on-get-stream", Server, Violation, "a response came on a get stream that resumes nothing"),
    /// The server's `Mcp-Session-Id` holds more than visible ASCII.
    SessionIdInvalidFromServer = ("server-session-id-invalid", Server, Violation,
        "the server's mcp-session-id header holds more than visible ascii"),
    /// A request id of the server's own still in flight, or used before
    /// in the session, sent again (2025-03-26 to 2025-11-25).
    ServerRequestIdReused = ("server-request-id-reused", Server, Violation,
        "the server sent a request id it may not use again yet"),

    /// A request whose mirrored headers disagree with its body (or are
    /// missing or malformed) was answered with a success: the server acted
    /// on a request a gateway may have routed, limited or authorised by
    /// other values (2026-07-28).
    HeaderMismatchAccepted = ("header-mismatch-accepted", Server, Violation,
        "a request whose headers disagree with its body was answered with a success"),
    /// A header fault was refused otherwise than with 400 and a JSON-RPC
    /// error -32020 carrying the request's id (2026-07-28).
    HeaderMismatchRefusal = ("header-mismatch-refusal", Server, Violation,
        "a header fault was not refused with 400 and error -32020 with the request's id"),
    /// A request without a required `_meta` field was answered with a
    /// success, or refused otherwise than with 400 and -32602 (2026-07-28).
    MetaRefusal = ("meta-refusal", Server, Violation,
        "a request without its required _meta was not refused with 400 and error -32602"),
    /// A request whose `MCP-Protocol-Version` names no protocol version was
    /// answered with a success (2025-06-18 on: 400 is due).
    UnsupportedVersionAccepted = ("unsupported-version-accepted", Server, Violation,
        "a request naming no protocol version was answered with a success"),
    /// An `UnsupportedProtocolVersion` error (-32022) without status 400,
    /// or without `data.supported` (the versions, as strings) and
    /// `data.requested` (the one asked for); or a server known to speak
    /// 2026-07-28 refusing a version it does not support with another
    /// error, or with no JSON-RPC error at all (2026-07-28).
    UnsupportedVersionRefusal = ("unsupported-version-refusal", Server, Violation,
        "an unsupported version was not refused with 400 and error -32022 naming data.supported and data.requested"),
    /// A 2026-07-28 server answered an unknown method (-32601) with a
    /// status other than 404.
    MethodNotFoundStatus = ("method-not-found-status", Server, Violation,
        "method not found (-32601) was answered with a status other than 404"),
    /// A 2026-07-28 server does not implement `server/discover`.
    DiscoverNotImplemented = ("discover-not-implemented", Server, Violation,
        "the server answered server/discover with method not found"),
    /// An invalid body (bad JSON, an invalid envelope, a batch where none
    /// is allowed) that JSON-RPC answers with an error was accepted (202,
    /// or a success holding no error response).
    InvalidBodyAccepted = ("invalid-body-accepted", Server, Violation,
        "an invalid body was accepted without the error response json-rpc gives it"),
    /// The error answering an invalid body has -32700 where -32600 is due
    /// (valid JSON that is no valid request), or -32600 where -32700 is.
    WrongErrorCode = ("wrong-error-code", Server, Violation,
        "the error answering an invalid body has the code of the other kind of fault"),
    /// An error response whose id is not the id of the request it answers
    /// (or not null when that id could not be read).
    ErrorIdMismatch = ("error-id-mismatch", Server, Violation,
        "an error response does not carry the id of the request it answers"),
    /// An error that reads like an authorisation failure (its message
    /// names a key, a token, credentials) answered with a status other than
    /// 401 or 403, where the authorisation rules want HTTP 401.
    AuthErrorNotHttp = ("auth-error-not-401", Server, Warning,
        "an error that reads like an authorisation failure came without status 401 or 403"),
    /// A refusal of a 2026-07-28 request, from a server known to speak
    /// 2026-07-28, whose body is no JSON-RPC error: a client inspecting it
    /// takes the server for a legacy one.
    RefusalNotJsonRpc = ("refusal-not-json-rpc", Server, Warning,
        "a 2026-07-28 server refused a request with a body that is no json-rpc error"),
    /// A 2026-07-28 result without `resultType`.
    ResultTypeMissing = ("result-type-missing", Server, Violation, "a 2026-07-28 result has no resultType"),
    /// A `resultType` other than `complete` and `input_required` (an
    /// extension may add one the tap cannot see advertised).
    ResultTypeUnknown = ("result-type-unknown", Server, Warning, "a result's resultType is neither complete nor input_required"),
    /// `input_required` answering a method other than `tools/call`,
    /// `prompts/get` and `resources/read`.
    InputRequiredNotAllowed = ("input-required-not-allowed", Server, Violation,
        "an input_required result answered a method that may not have one"),
    /// A message after the final response on a request's stream
    /// (2026-07-28: the response SHOULD end the stream).
    MessageAfterResponse = ("message-after-response", Server, Warning,
        "a message came on a request's stream after its final response"),
    /// `notifications/message` for a request whose `_meta` asked for no
    /// log level, or on a `subscriptions/listen` stream (2026-07-28).
    LogMessageUnrequested = ("log-message-unrequested", Server, Violation,
        "notifications/message came for a request that asked for no log level"),
    /// A `subscriptions/listen` stream whose first message is not
    /// `notifications/subscriptions/acknowledged` (2026-07-28).
    ListenNotAcknowledged = ("listen-not-acknowledged", Server, Violation,
        "a subscriptions/listen stream did not open with its acknowledgement"),
    /// A notification on a `subscriptions/listen` stream without the
    /// subscription's id in `_meta` (2026-07-28).
    ListenWithoutSubscriptionId = ("listen-without-subscription-id", Server, Violation,
        "a notification on a subscriptions/listen stream does not carry the subscription's id"),
    /// A 2026-07-28 server sent `Mcp-Session-Id`, which that revision
    /// removed ("do not mint or echo session ids": SHOULD).
    SessionIdUnder2026 = ("session-id-under-2026", Server, Warning,
        "the server sent mcp-session-id under 2026-07-28, which has no sessions"),
    /// A GET or DELETE to a 2026-07-28 endpoint answered other than 405
    /// (SHOULD).
    MethodNotRefused = ("get-or-delete-not-405", Server, Warning,
        "a get or delete under 2026-07-28 was not answered 405 method not allowed"),
}

impl core::fmt::Display for Rule {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}
