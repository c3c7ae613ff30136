//! An MCP server for the tests of `mcp-envelope probe`: conforming by
//! default (each message judged by the core, and every fault answered as
//! RULES.md says), with faults of real servers to switch on one at a time
//! (`--fault NAME`, repeatable), each failing the probe's checks it
//! touches and no other. Over stdio, or Streamable HTTP on one port or
//! many (a census in one process).
//!
//!   probe_server [--fault NAME]... stdio
//!   probe_server [--fault NAME]... http PORT [COUNT]
//!
//! Over HTTP it listens on 127.0.0.1, on COUNT ports from PORT (0: free
//! ones), and prints each endpoint URL on a line of its own.
//!
//! It speaks 2026-07-28 (`server/discover`, no sessions, SEP-2243's
//! headers checked by the core's exchange rules) and 2024-11-05 (stdio) to
//! 2025-11-25 (`initialize`; over HTTP a session each, batches under
//! 2025-03-26). Its methods change nothing: `ping` (up to 2025-11-25),
//! `server/discover`, `tools/list` (none), `prompts/get` (no such prompt).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, reason = "a test server")]

use std::collections::HashSet;
use std::convert::Infallible;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use mcp_envelope::transport::exchange::{Conversation, Exchange, Headers};
use mcp_envelope::{Envelope, Error, Id, Message, Parser, Reason, Revision, write};
use serde_json::{Value, json};

const LEGACY: [Revision; 4] =
    [Revision::V2025_11_25, Revision::V2025_06_18, Revision::V2025_03_26, Revision::V2024_11_05];

/// The faults switched on.
#[derive(Default)]
struct Faults(HashSet<String>);

impl Faults {
    fn on(&self, name: &str) -> bool {
        self.0.contains(name)
    }
}

/// What the server answers to one message.
#[derive(Default)]
struct ServerReply {
    /// HTTP status (stdio: unused).
    status: u16,
    /// The answer, if any.
    body: Option<Vec<u8>>,
    /// A session minted.
    session: Option<String>,
}

impl ServerReply {
    fn json(status: u16, body: Vec<u8>) -> ServerReply {
        ServerReply { status, body: Some(body), session: None }
    }

    fn accepted() -> ServerReply {
        ServerReply { status: 202, body: None, session: None }
    }
}

/// The server: its faults, the sessions it minted (HTTP), and those that
/// have sent `MCP-Protocol-Version`.
struct Server {
    faults: Faults,
    sessions: Mutex<HashSet<String>>,
    versioned: Mutex<HashSet<String>>,
    minted: AtomicUsize,
    in_flight: AtomicUsize,
}

impl Server {
    /// Answers one message under `revision` (the one agreed on; for HTTP
    /// the request's). `modern_http`: a 2026-07-28 POST, whose unknown
    /// methods are 404.
    fn answer(&self, bytes: &[u8], revision: Revision, http: bool) -> ServerReply {
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
        let request = match message {
            Message::Request(request) => request,
            Message::Notification(_) if self.faults.on("answer-notifications") => {
                return ServerReply::json(200, error_body(None, -32601, "no such notification"));
            }
            Message::Result(_) | Message::Error(_) if self.faults.on("answer-responses") => {
                return ServerReply::json(200, error_body(None, -32600, "a response to nothing"));
            }
            Message::Notification(_) | Message::Result(_) | Message::Error(_) => return ServerReply::accepted(),
        };
        let id = self.echo(&request.id);
        let modern = revision.mirrors_headers();
        let result = |result: Value| {
            let mut result = result;
            if modern && !self.faults.on("no-result-type") {
                result["resultType"] = json!("complete");
            }
            ServerReply::json(200, serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": id, "result": result})).unwrap())
        };
        let error = |status: u16, code: i64, text: &str| {
            let id = if self.faults.on("error-id-null") { Value::Null } else { id.clone() };
            ServerReply::json(
                status,
                serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": text}}))
                    .unwrap(),
            )
        };
        match &*request.method {
            "initialize" if !modern => {
                let asked = request.params.as_ref().and_then(|p| p.member("protocolVersion").ok().flatten());
                let asked = asked.and_then(|v| v.as_str().map(|s| s.into_owned())).unwrap_or_default();
                let offered = LEGACY
                    .iter()
                    .find(|r| r.name() == asked && (!http || r.has_streamable_http()))
                    .unwrap_or(&LEGACY[0]);
                let mut reply = result(
                    json!({"protocolVersion": offered.name(), "capabilities": {}, "serverInfo": {"name": "probe_server", "version": "1"}}),
                );
                if http {
                    let session = format!("session-{}", self.minted.fetch_add(1, Ordering::Relaxed));
                    self.sessions.lock().unwrap().insert(session.clone());
                    reply.session = Some(session);
                }
                reply
            }
            "server/discover" if modern => result(json!({
                "supportedVersions": ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"],
                "capabilities": {},
                "ttlMs": 0,
                "cacheScope": "private",
                "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "probe_server", "version": "1"}}
            })),
            "ping" if !modern => result(json!({})),
            "tools/list" => result(json!({"tools": []})),
            "prompts/get" => error(if http && modern { 400 } else { 200 }, -32602, "no such prompt"),
            _ => {
                let status = if http && modern && !self.faults.on("unknown-method-200") { 404 } else { 200 };
                error(status, -32601, "method not found")
            }
        }
    }

    /// The id as the answer carries it.
    fn echo(&self, id: &Id<'_>) -> Value {
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

fn error_body(id: Option<&Value>, code: i64, text: &str) -> Vec<u8> {
    serde_json::to_vec(
        &json!({"jsonrpc": "2.0", "id": id.cloned().unwrap_or(Value::Null), "error": {"code": code, "message": text}}),
    )
    .unwrap()
}

/// The revision a message declares in `_meta` (2026-07-28 sends it on
/// every request), if any.
fn declared(bytes: &[u8]) -> Option<Revision> {
    let value: Value = serde_json::from_slice(bytes).ok()?;
    // A batch's first item speaks for it.
    let message = if value.is_array() { value.get(0)? } else { &value };
    message.pointer("/params/_meta/io.modelcontextprotocol~1protocolVersion")?.as_str()?.parse().ok()
}

/// Stdio: one message a line, answered in order; a message is judged under
/// the revision its `_meta` declares (2026-07-28), else the one
/// `initialize` agreed on.
fn stdio(server: &Server) {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    if server.faults.on("stdout-noise") {
        writeln!(out, "probe_server starting").unwrap();
        out.flush().unwrap();
    }
    let mut agreed = Revision::V2025_11_25;
    let mut line = Vec::new();
    loop {
        line.clear();
        if stdin.lock().read_until(b'\n', &mut line).unwrap_or(0) == 0 {
            break;
        }
        let message = line.strip_suffix(b"\n").unwrap_or(&line);
        let message = message.strip_suffix(b"\r").unwrap_or(message);
        if message.trim_ascii().is_empty() {
            continue;
        }
        // The revision a message declares is read as the server reads it.
        let read = match message.strip_prefix(b"\xef\xbb\xbf") {
            Some(rest) if server.faults.on("bom-tolerated") => rest,
            _ => message,
        };
        let revision = declared(read).filter(|r| *r == Revision::V2026_07_28).unwrap_or(agreed);
        let reply = server.answer(message, revision, false);
        if let Some(body) = &reply.body {
            let value: Value = serde_json::from_slice(body).unwrap_or_default();
            if let Some(version) = value.pointer("/result/protocolVersion").and_then(Value::as_str) {
                agreed = version.parse().unwrap_or(agreed);
            }
            out.write_all(body).unwrap();
            out.write_all(b"\n").unwrap();
            out.flush().unwrap();
        }
    }
    if server.faults.on("hang-at-eof") {
        std::thread::sleep(std::time::Duration::from_secs(3600));
    }
    if server.faults.on("exit-1-at-eof") {
        std::process::exit(1);
    }
}

fn respond(status: u16, content_type: Option<&str>, body: Vec<u8>) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(body)));
    *response.status_mut() = StatusCode::from_u16(status).unwrap();
    if let Some(kind) = content_type {
        response.headers_mut().insert("content-type", kind.parse().unwrap());
    }
    response
}

/// One HTTP request.
async fn exchange(server: Arc<Server>, request: Request<Incoming>) -> Result<Response<Full<Bytes>>, Infallible> {
    let busy = server.in_flight.fetch_add(1, Ordering::SeqCst) > 0;
    if server.faults.on("busy") {
        // Each request is held a moment, so that two sent at once meet.
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let answer = http(&server, request, busy).await;
    server.in_flight.fetch_sub(1, Ordering::SeqCst);
    Ok(answer)
}

async fn http(server: &Server, request: Request<Incoming>, busy: bool) -> Response<Full<Bytes>> {
    let f = |name: &str| server.faults.on(name);
    let (parts, body) = request.into_parts();
    let header = |name: &str| parts.headers.get(name).and_then(|v| v.to_str().ok()).map(str::to_owned);
    let version = header("mcp-protocol-version");
    let declared: Option<Revision> = version.as_deref().and_then(|v| v.parse().ok()).filter(|r: &Revision| r.is_mcp());
    let modern = declared == Some(Revision::V2026_07_28);
    let session = header("mcp-session-id");
    let method = parts.method.as_str().to_owned();
    if method == "PUT" || method == "PATCH" {
        if f("put-404") {
            return respond(404, Some("text/html"), b"<!DOCTYPE html><title>Not Found</title>".to_vec());
        }
        let mut response = respond(405, None, Vec::new());
        if !f("405-without-allow") {
            response.headers_mut().insert("allow", "GET, POST, DELETE".parse().unwrap());
        }
        return response;
    }
    if method == "GET" || method == "DELETE" {
        if modern {
            let served = (method == "GET" && f("get-2026-served")) || (method == "DELETE" && f("delete-2026-served"));
            if served {
                return respond(
                    200,
                    Some(if method == "GET" { "text/event-stream" } else { "text/plain" }),
                    Vec::new(),
                );
            }
            let mut response = respond(405, None, Vec::new());
            response.headers_mut().insert("allow", "POST".parse().unwrap());
            return response;
        }
        if method == "DELETE"
            && let Some(id) = &session
        {
            if !f("delete-keeps-session") {
                server.sessions.lock().unwrap().remove(id);
            }
            return respond(200, None, Vec::new());
        }
        let mut response = respond(405, None, Vec::new());
        response.headers_mut().insert("allow", "POST, DELETE".parse().unwrap());
        return response;
    }
    if busy && f("busy") {
        return respond(503, Some("text/plain"), b"busy".to_vec());
    }
    let bytes = match body.collect().await {
        Ok(collected) => collected.to_bytes(),
        Err(_) => return respond(400, None, Vec::new()),
    };
    if bytes.len() > 8 << 20 {
        return respond(413, Some("text/plain"), b"too large".to_vec());
    }
    if f("crash-on-large") && bytes.len() > 1 << 20 {
        return respond(500, Some("text/plain"), b"internal error".to_vec());
    }
    let json_type = header("content-type").is_some_and(|t| t.to_ascii_lowercase().starts_with("application/json"));
    if !json_type && !f("any-content-type") {
        return respond(415, None, Vec::new());
    }
    let accept = header("accept").unwrap_or_default().to_ascii_lowercase();
    if !accept.contains("application/json") && !accept.contains("*/*") && !f("stream-despite-accept") {
        return respond(406, None, Vec::new());
    }
    // A version header that names no revision: 400, with 2026-07-28's own
    // error (a server of both eras may send it whatever the era).
    if let Some(text) = &version
        && declared.is_none()
        && !f("any-version")
    {
        let data = if f("unsupported-without-data") {
            None
        } else {
            Some(json!({"supported": ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"], "requested": text}))
        };
        let id: Value =
            serde_json::from_slice::<Value>(&bytes).ok().and_then(|v| v.get("id").cloned()).unwrap_or(Value::Null);
        let mut error = json!({"code": -32022, "message": "unsupported protocol version"});
        if let Some(data) = data {
            error["data"] = data;
        }
        return respond(
            400,
            Some("application/json"),
            serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": id, "error": error})).unwrap(),
        );
    }
    let revision = if modern || (declared.is_none() && version.is_some()) {
        Revision::V2026_07_28
    } else {
        declared.unwrap_or(Revision::V2025_03_26)
    };
    if modern && !f("no-header-check") {
        let pairs: Vec<(&str, &[u8])> = parts.headers.iter().map(|(n, v)| (n.as_str(), v.as_bytes())).collect();
        let headers = Headers::from_pairs(pairs.iter().copied());
        let parsed = Parser::new(Revision::V2026_07_28).parse(&bytes);
        let exchange = Exchange::post(&Conversation::new(Revision::V2026_07_28), &headers, &bytes, &parsed);
        if let Some(reply) = exchange.findings().iter().find_map(|f| f.reply()) {
            let mut out = Vec::new();
            write::error_for(&mut out, reply);
            return respond(400, Some("application/json"), out);
        }
        let meta = exchange.findings().iter().any(|f| f.rule.name().starts_with("meta-"));
        if meta && let Ok(Envelope::Single(Message::Request(r))) = &parsed {
            let id = server.echo(&r.id);
            return respond(400, Some("application/json"), error_body(Some(&id), -32602, "required _meta is missing"));
        }
    }
    let initialize = serde_json::from_slice::<Value>(&bytes).ok().and_then(|v| v.get("method").cloned())
        == Some(json!("initialize"));
    // A server that reads the version header unchecked once a session has
    // sent it: a request of that session without it fails.
    if let Some(id) = session.as_ref().filter(|id| server.sessions.lock().unwrap().contains(*id)) {
        let mut versioned = server.versioned.lock().unwrap();
        if version.is_some() {
            versioned.insert(id.clone());
        } else if versioned.contains(id) && f("version-required-500") {
            return respond(500, Some("text/plain"), b"internal error".to_vec());
        }
    }
    if !modern && !initialize {
        match &session {
            None if !f("sessions-optional") => return respond(400, Some("text/plain"), b"no session".to_vec()),
            Some(id) if !server.sessions.lock().unwrap().contains(id) && !f("unknown-session-served") => {
                return respond(404, Some("text/plain"), b"no such session".to_vec());
            }
            _ => {}
        }
    }
    let reply = server.answer(&bytes, revision, true);
    let mut response = match (&reply.body, reply.status) {
        (None, _) => respond(202, None, Vec::new()),
        (Some(body), status) if f("stream-despite-accept") => {
            let mut event = b"event: message\ndata: ".to_vec();
            event.extend_from_slice(body);
            event.extend_from_slice(b"\n\n");
            respond(status, Some("text/event-stream"), event)
        }
        (Some(body), status) => respond(status, Some("application/json"), body.clone()),
    };
    if let Some(session) = reply.session {
        response.headers_mut().insert("mcp-session-id", session.parse().unwrap());
    } else if modern && f("session-id-2026") {
        response.headers_mut().insert("mcp-session-id", "session-2026".parse().unwrap());
    }
    response
}

async fn serve(server: Arc<Server>, first: u16, count: u16) {
    let mut listeners = Vec::new();
    for n in 0..count {
        let port = if first == 0 { 0 } else { first + n };
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", port)).await.unwrap();
        println!("http://{}/mcp", listener.local_addr().unwrap());
        listeners.push(listener);
    }
    std::io::stdout().flush().unwrap();
    for listener in listeners {
        let server = Arc::clone(&server);
        tokio::spawn(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else { continue };
                let server = Arc::clone(&server);
                tokio::spawn(async move {
                    let service = service_fn(move |request| exchange(Arc::clone(&server), request));
                    let _ = http1::Builder::new().serve_connection(TokioIo::new(stream), service).await;
                });
            }
        });
    }
    std::future::pending::<()>().await;
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut faults = Faults::default();
    let mut rest = Vec::new();
    let mut i = 0;
    while i < args.len() {
        if args[i] == "--fault" {
            faults.0.insert(args[i + 1].clone());
            i += 2;
        } else {
            rest.push(args[i].clone());
            i += 1;
        }
    }
    let server = Server {
        faults,
        sessions: Mutex::new(HashSet::new()),
        versioned: Mutex::new(HashSet::new()),
        minted: AtomicUsize::new(0),
        in_flight: AtomicUsize::new(0),
    };
    match rest.first().map(String::as_str) {
        Some("stdio") => stdio(&server),
        Some("http") => {
            let first = rest.get(1).and_then(|p| p.parse().ok()).unwrap_or(0);
            let count = rest.get(2).and_then(|c| c.parse().ok()).unwrap_or(1);
            let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
            runtime.block_on(serve(Arc::new(server), first, count));
        }
        _ => {
            eprintln!("usage: probe_server [--fault NAME]... stdio | http PORT [COUNT]");
            std::process::exit(2);
        }
    }
}
