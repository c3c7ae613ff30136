//! What an exchange can break: a stable name per rule, who broke it, and
//! a lowercase line saying what.

macro_rules! rules {
    ($( $(#[$doc:meta])* $variant:ident = ($name:literal, $by:ident, $message:literal), )*) => {
        /// A rule of the Streamable HTTP transport that an exchange broke.
        /// Each has a stable kebab-case [`name`](Rule::name), part of the
        /// CLI's output like a [`Reason`](crate::Reason)'s.
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
    AcceptIncomplete = ("accept-incomplete", Client,
        "the post's accept header does not list both application/json and text/event-stream"),
    /// A POST's body is not sent as `application/json`.
    ContentTypeNotJson = ("content-type-not-json", Client, "the post's body is not sent as application/json"),
    /// A response posted under 2026-07-28, where clients send none.
    ResponsePosted = ("response-posted", Client, "the client posted a response, which 2026-07-28 does not allow"),
    /// `MCP-Protocol-Version` missing where the revision needs it.
    ProtocolVersionMissing = ("protocol-version-missing", Client, "the request has no mcp-protocol-version header"),
    /// `MCP-Protocol-Version` other than the negotiated revision (before
    /// 2026-07-28), or than the body's `_meta` protocol version
    /// (2026-07-28), or sent twice.
    ProtocolVersionMismatch = ("protocol-version-mismatch", Client,
        "the mcp-protocol-version header is not the protocol version in force"),
    /// A 2026-07-28 request without
    /// `params._meta["io.modelcontextprotocol/protocolVersion"]`.
    MetaProtocolVersionMissing = ("meta-protocol-version-missing", Client,
        "the request's params._meta carries no protocol version"),
    /// A 2026-07-28 request without `Mcp-Method`.
    McpMethodMissing = ("mcp-method-missing", Client, "the request has no mcp-method header"),
    /// `Mcp-Method` is not the body's `method` (or is sent twice, or holds
    /// characters a header may not).
    McpMethodMismatch = ("mcp-method-mismatch", Client, "the mcp-method header is not the body's method"),
    /// A 2026-07-28 `tools/call`, `prompts/get` or `resources/read` without
    /// `Mcp-Name`.
    McpNameMissing = ("mcp-name-missing", Client, "the request has no mcp-name header"),
    /// `Mcp-Name` is not the body's `params.name` (`params.uri` for
    /// `resources/read`), that member is repeated, or the header is
    /// malformed (a Base64 sentinel that does not decode, control
    /// characters).
    McpNameMismatch = ("mcp-name-mismatch", Client, "the mcp-name header is not the body's name or uri"),
    /// `Mcp-Session-Id` holds more than visible ASCII (2025-03-26 to
    /// 2025-11-25).
    SessionIdInvalid = ("session-id-invalid", Client, "the mcp-session-id header holds more than visible ascii"),

    /// A POST of only notifications or responses was answered with a
    /// success status other than 202.
    NotAccepted = ("not-accepted", Server, "a post without requests was answered with a success other than 202"),
    /// A 202 came with a body.
    BodyOnAccepted = ("body-on-accepted", Server, "a 202 accepted came with a body"),
    /// A request was answered with a success that is neither
    /// `application/json` nor `text/event-stream` (a web page, say).
    ContentTypeUnexpected = ("content-type-unexpected", Server,
        "a request was answered with neither application/json nor text/event-stream"),
    /// An `application/json` answer that is not a response.
    NotAResponse = ("not-a-response", Server, "the json answer to a request is not a response"),
    /// A response to an id that was not posted.
    ResponseIdMismatch = ("response-id-mismatch", Server, "a response answers an id the post did not send"),
    /// A second response to the same request.
    ResponseRepeated = ("response-repeated", Server, "a request was answered twice"),
    /// The answer ended without a response to a posted request.
    NoResponse = ("no-response", Server, "the answer ended without a response to a posted request"),
    /// A request of the server's own on a response stream (2026-07-28).
    ServerRequestOnStream = ("server-request-on-stream", Server,
        "the server sent a request of its own on a response stream, which 2026-07-28 does not allow"),
    /// A response on a GET stream that does not resume one (2025-03-26 to
    /// 2025-11-25).
    ResponseOnGetStream = ("response-on-get-stream", Server, "a response came on a get stream that resumes nothing"),
    /// The server's `Mcp-Session-Id` holds more than visible ASCII.
    SessionIdInvalidFromServer = ("server-session-id-invalid", Server,
        "the server's mcp-session-id header holds more than visible ascii"),
}

impl core::fmt::Display for Rule {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}
