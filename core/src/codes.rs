//! What an `error.code` means, as a function of the code and the revision.

use core::fmt;

use crate::revision::Revision;

/// The five codes JSON-RPC 2.0 defines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Standard {
    /// -32700: the body was not valid JSON.
    ParseError,
    /// -32600: valid JSON, not a valid request.
    InvalidRequest,
    /// -32601: no such method.
    MethodNotFound,
    /// -32602: the method exists, the arguments are wrong.
    InvalidParams,
    /// -32603: the server failed while handling the request.
    InternalError,
}

/// Codes an MCP revision gives a name to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum McpCode {
    /// -32002, "resource not found", 2024-11-05 to 2025-11-25 (2026-07-28
    /// replaced it with -32602).
    ResourceNotFound,
    /// -32042, URL elicitation required, 2025-11-25 only.
    UrlElicitationRequired,
    /// -32020 (2026-07-28).
    HeaderMismatch,
    /// -32021 (2026-07-28).
    MissingRequiredClientCapability,
    /// -32022 (2026-07-28).
    UnsupportedProtocolVersion,
}

/// The class of an error code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CodeClass {
    /// One of JSON-RPC's five.
    Standard(Standard),
    /// A code the revision names.
    Mcp(McpCode),
    /// -32000..=-32019 under 2026-07-28: legacy, implementation-defined; a
    /// client must not read meaning into it.
    Legacy,
    /// -32020..=-32099 under 2026-07-28, not (yet) named: reserved for the
    /// MCP specification.
    McpReserved,
    /// -32000..=-32099 before 2026-07-28 and in plain JSON-RPC: "reserved
    /// for implementation-defined server-errors".
    ServerDefined,
    /// The rest of -32768..=-32000: reserved by JSON-RPC, no meaning.
    JsonRpcReserved,
    /// Anything else: defined by the application.
    Application,
}

impl CodeClass {
    /// A short lowercase name, e.g. `method-not-found`, `legacy`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            CodeClass::Standard(Standard::ParseError) => "parse-error",
            CodeClass::Standard(Standard::InvalidRequest) => "invalid-request",
            CodeClass::Standard(Standard::MethodNotFound) => "method-not-found",
            CodeClass::Standard(Standard::InvalidParams) => "invalid-params",
            CodeClass::Standard(Standard::InternalError) => "internal-error",
            CodeClass::Mcp(McpCode::ResourceNotFound) => "resource-not-found",
            CodeClass::Mcp(McpCode::UrlElicitationRequired) => "url-elicitation-required",
            CodeClass::Mcp(McpCode::HeaderMismatch) => "header-mismatch",
            CodeClass::Mcp(McpCode::MissingRequiredClientCapability) => "missing-required-client-capability",
            CodeClass::Mcp(McpCode::UnsupportedProtocolVersion) => "unsupported-protocol-version",
            CodeClass::Legacy => "legacy",
            CodeClass::McpReserved => "mcp-reserved",
            CodeClass::ServerDefined => "server-defined",
            CodeClass::JsonRpcReserved => "json-rpc-reserved",
            CodeClass::Application => "application",
        }
    }
}

impl fmt::Display for CodeClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Classifies `code` under `revision`.
#[must_use]
pub fn classify(code: i64, revision: Revision) -> CodeClass {
    let split = revision == Revision::V2026_07_28;
    match code {
        -32700 => CodeClass::Standard(Standard::ParseError),
        -32600 => CodeClass::Standard(Standard::InvalidRequest),
        -32601 => CodeClass::Standard(Standard::MethodNotFound),
        -32602 => CodeClass::Standard(Standard::InvalidParams),
        -32603 => CodeClass::Standard(Standard::InternalError),
        -32002 if revision.is_mcp() && !split => CodeClass::Mcp(McpCode::ResourceNotFound),
        -32042 if revision == Revision::V2025_11_25 => CodeClass::Mcp(McpCode::UrlElicitationRequired),
        -32020 if split => CodeClass::Mcp(McpCode::HeaderMismatch),
        -32021 if split => CodeClass::Mcp(McpCode::MissingRequiredClientCapability),
        -32022 if split => CodeClass::Mcp(McpCode::UnsupportedProtocolVersion),
        -32019..=-32000 if split => CodeClass::Legacy,
        -32099..=-32020 if split => CodeClass::McpReserved,
        -32099..=-32000 => CodeClass::ServerDefined,
        -32768..=-32000 => CodeClass::JsonRpcReserved,
        _ => CodeClass::Application,
    }
}
