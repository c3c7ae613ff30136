//! What the server answers to one message, whatever carried it: parsed by
//! the core under the revision agreed on, refused as JSON-RPC and the
//! revision say, or answered by its few methods.

use mcp_envelope::{Envelope, Error, Id, Message, Parser, Reason, Request, Revision, write};
use serde_json::{Value, json};

use crate::{Server, ServerReply};

pub const LEGACY: [Revision; 4] =
    [Revision::V2025_11_25, Revision::V2025_06_18, Revision::V2025_03_26, Revision::V2024_11_05];

const META_VERSION: &str = "io.modelcontextprotocol/protocolVersion";
const META_CAPABILITIES: &str = "io.modelcontextprotocol/clientCapabilities";
const META_CLIENT_INFO: &str = "io.modelcontextprotocol/clientInfo";
/// The one resource it has.
const README: &str = "mcp-envelope://probe/readme";
const SUBSCRIPTION_ID: &str = "io.modelcontextprotocol/subscriptionId";

impl Server {
    /// Answers one message under `revision` (the one agreed on; for HTTP
    /// the request's).
    pub fn answer(&self, bytes: &[u8], revision: Revision, http: bool) -> ServerReply {
        let parsing = if self.faults.on("batch-always") && bytes.trim_ascii_start().starts_with(b"[") {
            Revision::V2025_03_26
        } else {
            revision
        };
        let bytes = match bytes.strip_prefix(b"\xef\xbb\xbf") {
            Some(rest) if self.faults.on("bom-tolerated") => rest,
            _ => bytes,
        };
        if self.faults.on("crash-on-large") && bytes.len() > 1 << 20 && !http {
            std::process::exit(3);
        }
        match Parser::new(parsing).parse(bytes) {
            Err(error) if self.faults.on("flood-on-bad-json") && error.code() == -32700 => {
                ServerReply { status: 200, flood: true, ..ServerReply::default() }
            }
            // A request and a response at once, taken as either, as
            // lenient servers do.
            Err(error) if error.reason() == Reason::ConflictingMembers && self.faults.on("both-as-request") => {
                let mut value: Value = serde_json::from_slice(bytes).unwrap();
                value.as_object_mut().unwrap().retain(|k, _| k != "result" && k != "error");
                self.answer(&serde_json::to_vec(&value).unwrap(), revision, http)
            }
            Err(error) if error.reason() == Reason::ConflictingMembers && self.faults.on("both-as-response") => {
                ServerReply::accepted()
            }
            Err(error) => self.refuse(&error, http),
            Ok(Envelope::Single(message)) => self.one(&message, revision, http),
            Ok(Envelope::Batch(items)) => {
                let answers: Vec<Vec<u8>> = items
                    .iter()
                    .filter_map(|item| match item {
                        Ok(message) => self.one(message, revision, http).body,
                        Err(error) => self.refuse(error, http).body,
                    })
                    .collect();
                if answers.is_empty() {
                    return ServerReply::accepted();
                }
                ServerReply::json(200, [b"[".to_vec(), answers.join(&b","[..]), b"]".to_vec()].concat())
            }
        }
    }

    /// The error JSON-RPC gives a message that is not a valid one.
    fn refuse(&self, error: &Error<'_>, http: bool) -> ServerReply {
        let bad_id = matches!(error.reason(), Reason::NullId | Reason::InvalidId);
        if self.faults.on("bad-id-as-notification") && bad_id {
            return ServerReply::accepted();
        }
        let mut code = error.code();
        if self.faults.on("parse-as-invalid") && code == -32700 {
            code = -32600;
        }
        if self.faults.on("invalid-as-parse") && code == -32600 {
            code = -32700;
        }
        let mut out = Vec::new();
        if !write::error_for(&mut out, error) {
            return ServerReply::accepted();
        }
        let mut value: Value = serde_json::from_slice(&out).unwrap();
        value["error"]["code"] = json!(code);
        if self.faults.on("error-id-null") {
            value["id"] = Value::Null;
        }
        ServerReply::json(if http { 400 } else { 200 }, serde_json::to_vec(&value).unwrap())
    }

    fn one(&self, message: &Message<'_>, revision: Revision, http: bool) -> ServerReply {
        let f = |name: &str| self.faults.on(name);
        let request = match message {
            Message::Request(request) => request,
            Message::Notification(_) if f("answer-notifications") => {
                return ServerReply::json(200, error_body(None, -32601, "no such notification"));
            }
            Message::Result(_) | Message::Error(_) if f("answer-responses") => {
                return ServerReply::json(200, error_body(None, -32600, "a response to nothing"));
            }
            Message::Notification(_) | Message::Result(_) | Message::Error(_) => return ServerReply::accepted(),
        };
        let id = self.echo(&request.id);
        let modern = revision.mirrors_headers();
        let result = |result: Value| {
            let mut result = result;
            if modern && !f("no-result-type") {
                result["resultType"] = json!("complete");
            }
            ServerReply::json(200, serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": id, "result": result})).unwrap())
        };
        let error = |status: u16, code: i64, text: &str| {
            let id = if f("error-id-null") { Value::Null } else { id.clone() };
            ServerReply::json(
                status,
                serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": text}}))
                    .unwrap(),
            )
        };
        let refused = if http && modern { 400 } else { 200 };
        if modern && let Some(missing) = self.meta_missing(request) {
            return error(refused, -32602, missing);
        }
        // A list result, with the caching hints 2026-07-28 wants unless a
        // fault leaves them out.
        let list = |key: &str, fault: &str| {
            let mut list = json!({key: []});
            if modern && !f(fault) {
                list["ttlMs"] = json!(0);
                list["cacheScope"] = json!("private");
            }
            result(list)
        };
        match &*request.method {
            "initialize" if !modern || f("initialize-kept") => {
                let asked = request.params.as_ref().and_then(|p| p.member("protocolVersion").ok().flatten());
                let asked = asked.and_then(|v| v.as_str().map(|s| s.into_owned())).unwrap_or_default();
                let offered = LEGACY
                    .iter()
                    .find(|r| r.name() == asked && (!http || r.has_streamable_http()))
                    .unwrap_or(&LEGACY[0]);
                let mut reply = result(
                    json!({"protocolVersion": offered.name(), "capabilities": {}, "serverInfo": {"name": "probe_server", "version": "1"}}),
                );
                if http && !modern {
                    let session = format!("session-{}", self.minted.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
                    self.sessions.lock().unwrap().insert(session.clone());
                    reply.session = Some(session);
                }
                reply
            }
            "server/discover" if modern => result(self.discover()),
            "ping" if !modern || f("ping-kept") => result(json!({})),
            "logging/setLevel" if modern && f("set-level-kept") => result(json!({})),
            "resources/subscribe" if modern && f("subscribe-kept") => result(json!({})),
            "resources/unsubscribe" if modern && f("unsubscribe-kept") => result(json!({})),
            "tools/list" => list("tools", "tools-list-without-caching-hints"),
            "prompts/list" if modern => {
                let mut listed = list("prompts", "prompts-list-without-caching-hints");
                if let Some(body) = listed.body.as_mut().filter(|_| !f("prompts-undeclared-empty")) {
                    let mut value: Value = serde_json::from_slice(body).unwrap();
                    value["result"]["prompts"] = json!([{"name": "greeting", "description": "says hello"}]);
                    *body = serde_json::to_vec(&value).unwrap();
                }
                listed
            }
            "resources/list" if modern => {
                let mut listed = list("resources", "resources-list-without-caching-hints");
                if let Some(body) = &mut listed.body {
                    let mut value: Value = serde_json::from_slice(body).unwrap();
                    value["result"]["resources"] = json!([{"uri": README, "name": "readme"}]);
                    *body = serde_json::to_vec(&value).unwrap();
                }
                listed
            }
            "resources/read" if modern => {
                let uri = request.params.as_ref().and_then(|p| p.member("uri").ok().flatten());
                if uri.and_then(|u| u.as_str().map(|s| s.into_owned())).as_deref() != Some(README) {
                    return error(refused, -32602, "no such resource");
                }
                let mut read = json!({"contents": [{"uri": README, "text": "nothing changes here"}]});
                if !f("resource-read-without-caching-hints") {
                    read["ttlMs"] = json!(0);
                    read["cacheScope"] = json!("private");
                }
                result(read)
            }
            "resources/templates/list" if modern => {
                list("resourceTemplates", "resource-templates-list-without-caching-hints")
            }
            "subscriptions/listen" if modern => self.listen(&id),
            "prompts/get" => error(refused, -32602, "no such prompt"),
            _ => {
                let status = if http && modern && !f("unknown-method-200") { 404 } else { 200 };
                error(status, -32601, "method not found")
            }
        }
    }

    /// What a 2026-07-28 request lacks of its required `_meta`, unless a
    /// fault lets it go.
    fn meta_missing(&self, request: &Request<'_>) -> Option<&'static str> {
        let meta = request.params.as_ref().and_then(|p| p.member("_meta").ok().flatten());
        let Some(meta) = meta else {
            return (!self.faults.on("meta-optional")).then_some("params._meta is missing");
        };
        let has = |key: &str| meta.member(key).ok().flatten().is_some();
        if !has(META_VERSION) && !self.faults.on("protocol-version-optional") {
            return Some("params._meta has no protocol version");
        }
        if !has(META_CAPABILITIES) && !self.faults.on("capabilities-optional") {
            return Some("params._meta has no client capabilities");
        }
        if !has(META_CLIENT_INFO) && self.faults.on("client-info-required") {
            return Some("params._meta has no client info");
        }
        None
    }

    /// `server/discover`'s result: the revisions it speaks, the lists it
    /// has (tools announce their changes), the caching hints, its name.
    fn discover(&self) -> Value {
        let mut result = json!({
            "supportedVersions": ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"],
            "capabilities": {"tools": {"listChanged": true}, "prompts": {}, "resources": {}},
        });
        if self.faults.on("prompts-undeclared") || self.faults.on("prompts-undeclared-empty") {
            result["capabilities"] = json!({"tools": {"listChanged": true}, "resources": {}});
        }
        if !self.faults.on("discover-without-caching-hints") {
            result["ttlMs"] = json!(0);
            result["cacheScope"] = json!("private");
        }
        if !self.faults.on("discover-without-server-info") {
            result["_meta"] = json!({"io.modelcontextprotocol/serverInfo": {"name": "probe_server", "version": "1"}});
        }
        result
    }

    /// `subscriptions/listen`: the acknowledgement first, tagged with the
    /// request's id (faults: a change announced before it, or no tag),
    /// then nothing, for nothing here ever changes.
    fn listen(&self, id: &Value) -> ServerReply {
        let tag = json!({SUBSCRIPTION_ID: id});
        let first = if self.faults.on("listen-without-ack") {
            json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed", "params": {"_meta": tag}})
        } else if self.faults.on("listen-untagged") {
            json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged", "params": {"notifications": {"toolsListChanged": true}}})
        } else {
            json!({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged", "params": {"_meta": tag, "notifications": {"toolsListChanged": true}}})
        };
        ServerReply {
            status: 200,
            body: Some(serde_json::to_vec(&first).unwrap()),
            stream: true,
            ..ServerReply::default()
        }
    }

    /// The id as the answer carries it.
    pub fn echo(&self, id: &Id<'_>) -> Value {
        match id {
            Id::Str(s) if self.faults.on("string-id-as-number") && s.parse::<i64>().is_ok() => {
                json!(s.parse::<i64>().unwrap())
            }
            Id::Str(s) => json!(s.as_ref()),
            Id::Int(n) if self.faults.on("id-through-double") => json!(*n as f64 as i64),
            Id::Int(n) => json!(*n),
            Id::Null => Value::Null,
        }
    }
}

pub fn error_body(id: Option<&Value>, code: i64, text: &str) -> Vec<u8> {
    serde_json::to_vec(
        &json!({"jsonrpc": "2.0", "id": id.cloned().unwrap_or(Value::Null), "error": {"code": code, "message": text}}),
    )
    .unwrap()
}

/// The revision a message declares in `_meta` (2026-07-28 sends it on
/// every request), if any.
pub fn declared(bytes: &[u8]) -> Option<Revision> {
    let value: Value = serde_json::from_slice(bytes).ok()?;
    // A batch's first item speaks for it.
    let message = if value.is_array() { value.get(0)? } else { &value };
    message.pointer("/params/_meta/io.modelcontextprotocol~1protocolVersion")?.as_str()?.parse().ok()
}
