//! How the probe words what it sends under a revision: requests with the
//! `_meta` 2026-07-28 asks for, and the HTTP headers that mirror them
//! (SEP-2243).

use mcp_envelope::Revision;
use serde_json::{Map, Value, json};

/// The name the probe gives itself.
pub const CLIENT: &str = "mcp-envelope-probe";

/// Requests and their headers under one revision.
#[derive(Clone, Copy, Debug)]
pub struct Wire {
    pub revision: Revision,
}

/// One message to send, with the headers a Streamable HTTP client sends
/// with it (empty on stdio).
#[derive(Clone, Debug, Default)]
pub struct Message {
    pub body: Vec<u8>,
    /// `(name, value)`: `MCP-Protocol-Version` and SEP-2243's mirrors.
    pub headers: Vec<(&'static str, String)>,
}

impl Wire {
    /// A request that changes nothing and every server of the revision
    /// answers with a result: `ping`, which 2026-07-28 removed for
    /// `server/discover` (which its servers must implement).
    pub fn harmless(&self) -> &'static str {
        if self.revision.mirrors_headers() { "server/discover" } else { "ping" }
    }

    /// `params`, with the `_meta` every 2026-07-28 request carries.
    pub fn params(&self, params: Option<Value>) -> Option<Value> {
        if !self.revision.mirrors_headers() {
            return params;
        }
        let mut object = match params {
            Some(Value::Object(object)) => object,
            _ => Map::new(),
        };
        let meta = object.entry("_meta").or_insert_with(|| json!({}));
        if let Value::Object(meta) = meta {
            // A check may have put another version there on purpose.
            meta.entry("io.modelcontextprotocol/protocolVersion").or_insert_with(|| json!(self.revision.name()));
            meta.entry("io.modelcontextprotocol/clientCapabilities").or_insert_with(|| json!({}));
            meta.insert(
                "io.modelcontextprotocol/clientInfo".into(),
                json!({"name": CLIENT, "version": env!("CARGO_PKG_VERSION")}),
            );
        }
        Some(Value::Object(object))
    }

    /// A request (`id` given) or a notification (`None`), worded for the
    /// revision, with its headers.
    pub fn message(&self, id: Option<Value>, method: &str, params: Option<Value>) -> Message {
        let params = self.params(params);
        let mut body = Map::new();
        body.insert("jsonrpc".into(), json!("2.0"));
        if let Some(id) = id {
            body.insert("id".into(), id);
        }
        body.insert("method".into(), json!(method));
        if let Some(params) = &params {
            body.insert("params".into(), params.clone());
        }
        let body = serde_json::to_vec(&Value::Object(body)).unwrap_or_default();
        Message { headers: self.headers(method, params.as_ref()), body }
    }

    /// The headers a POST of `method` carries under the revision.
    pub fn headers(&self, method: &str, params: Option<&Value>) -> Vec<(&'static str, String)> {
        let mut headers = Vec::new();
        if self.revision.has_protocol_version_header() {
            headers.push(("MCP-Protocol-Version", self.revision.name().to_owned()));
        }
        if self.revision.mirrors_headers() {
            headers.push(("Mcp-Method", method.to_owned()));
            let key = match method {
                "tools/call" | "prompts/get" => Some("name"),
                "resources/read" => Some("uri"),
                _ => None,
            };
            if let Some(name) = key.and_then(|k| params?.get(k)?.as_str()) {
                headers.push(("Mcp-Name", name.to_owned()));
            }
        }
        headers
    }

    /// The `initialize` request of the revisions that have one.
    pub fn initialize(&self, id: u64) -> Message {
        let params = json!({
            "protocolVersion": self.revision.name(),
            "capabilities": {},
            "clientInfo": {"name": CLIENT, "version": env!("CARGO_PKG_VERSION")},
        });
        Message {
            body: serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": id, "method": "initialize", "params": params}))
                .unwrap_or_default(),
            headers: Vec::new(),
        }
    }
}
