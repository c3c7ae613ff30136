//! SEP-2243 (MCP 2026-07-28): the headers that mirror the body, which
//! gateways route and authorise on while the server acts on the body. A
//! header missing, malformed or other than the body's value is answered
//! HTTP 400 with -32020, at the body's value.

use alloc::vec::Vec;

use super::headers::{Header, Headers, is_plain, mirrored};
use super::{Finding, Place, Rule};
use crate::envelope::Error;
use crate::envelope::{Message, RawJson};
use crate::fault::{Fault, Reason};

/// Where `_meta` keeps the protocol version (2026-07-28).
const META_PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
/// Where `_meta` keeps the client's capabilities (2026-07-28).
const META_CLIENT_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";

/// The member of `params` that `Mcp-Name` mirrors for `method`.
fn named_by(method: &str) -> Option<&'static str> {
    match method {
        "tools/call" | "prompts/get" => Some("name"),
        "resources/read" => Some("uri"),
        _ => None,
    }
}

/// The revision a message's `params._meta` declares (2026-07-28).
pub(super) fn declared(message: &Message<'_>) -> Option<crate::Revision> {
    let params = match message {
        Message::Request(r) => r.params.as_ref()?,
        Message::Notification(n) => n.params.as_ref()?,
        Message::Result(_) | Message::Error(_) => return None,
    };
    let meta = params.member("_meta").ok().flatten()?;
    meta.member(META_PROTOCOL_VERSION).ok().flatten()?.as_str()?.parse().ok()
}

/// The findings of one request or notification posted as `body`.
pub(super) fn check(headers: &Headers<'_>, body: &[u8], message: &Message<'_>) -> Vec<Finding> {
    let (id, method, params, request) = match message {
        Message::Request(r) => (Some(&r.id), &*r.method, r.params.as_ref(), true),
        Message::Notification(n) => (None, &*n.method, n.params.as_ref(), false),
        Message::Result(_) | Message::Error(_) => return Vec::new(),
    };
    let text = core::str::from_utf8(body).unwrap_or_default();
    let at = |json: Option<&RawJson<'_>>| json.and_then(|j| j.span_in(body)).map_or(0, |span| span.start);
    let mut found = Vec::new();
    let mut fault = |rule: Rule, header: &'static str, offset: usize| {
        let error = Error::new(Fault::new(Reason::HeaderMismatch, offset), id.map(|id| id.clone().into_owned()));
        found.push(Finding { rule, place: Place::RequestHeader(header), reply: Some(error) });
    };

    // Mcp-Method: on every request; on a notification (the revision leaves
    // them open) only held to the body when sent.
    let method_at = || crate::json::lookup::member(text, "method").ok().flatten().map_or(0, |span| span.start);
    match headers.mcp_method {
        Header::Absent if request => fault(Rule::McpMethodMissing, "Mcp-Method", method_at()),
        Header::Absent => {}
        Header::One(value) if is_plain(value) && value == method.as_bytes() => {}
        Header::One(_) | Header::Repeated => fault(Rule::McpMethodMismatch, "Mcp-Method", method_at()),
    }

    // Mcp-Name: what the method acts on, Base64 sentinel decoded.
    if let Some(key) = named_by(method) {
        let target = params.map(|p| p.member(key)).unwrap_or(Ok(None));
        let params_at = at(params);
        match (target, headers.mcp_name) {
            (Err(repeat), _) => fault(Rule::McpNameMismatch, "Mcp-Name", params_at + repeat.offset),
            (Ok(None), Header::Absent) => {}
            (Ok(None), _) => fault(Rule::McpNameMismatch, "Mcp-Name", params_at),
            (Ok(Some(value)), header) => {
                let offset = at(Some(&value));
                match (value.as_str(), header) {
                    // Not a string: invalid params, the server's to answer.
                    (None, Header::Absent) => {}
                    (Some(_), Header::Absent) if request => fault(Rule::McpNameMissing, "Mcp-Name", offset),
                    (Some(_), Header::Absent) => {}
                    // A malformed value stands for no text.
                    (Some(name), Header::One(sent)) if mirrored(sent).is(&name) => {}
                    _ => fault(Rule::McpNameMismatch, "Mcp-Name", offset),
                }
            }
        }
    }

    // MCP-Protocol-Version: on every POST, equal to the body's `_meta`.
    let meta = params.and_then(|p| p.member("_meta").ok().flatten());
    let version = meta.as_ref().and_then(|m| m.member(META_PROTOCOL_VERSION).ok().flatten());
    let version_at = if version.is_some() { at(version.as_ref()) } else { at(params) };
    let header = "MCP-Protocol-Version";
    match (headers.protocol_version, version.as_ref().and_then(RawJson::as_str)) {
        (Header::Absent, _) => fault(Rule::ProtocolVersionMissing, header, version_at),
        (Header::Repeated, _) => fault(Rule::ProtocolVersionMismatch, header, version_at),
        (Header::One(sent), Some(body)) if sent != body.as_bytes() => {
            fault(Rule::ProtocolVersionMismatch, header, version_at);
        }
        (Header::One(_), _) => {}
    }
    if headers.param_malformed {
        fault(Rule::McpParamMalformed, "Mcp-Param-*", at(params));
    }
    // A request without a required `_meta` field is invalid params
    // (-32602), the server's to answer: no -32020.
    if request && version.is_none() {
        found.push(Finding::new(Rule::MetaProtocolVersionMissing, Place::RequestBody(at(params))));
    }
    let capabilities = meta.as_ref().and_then(|m| m.member(META_CLIENT_CAPABILITIES).ok().flatten());
    if request && capabilities.is_none() {
        let place = Place::RequestBody(if meta.is_some() { at(meta.as_ref()) } else { at(params) });
        found.push(Finding::new(Rule::MetaClientCapabilitiesMissing, place));
    }
    found
}
