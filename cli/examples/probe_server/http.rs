//! Streamable HTTP: one endpoint a port, on 127.0.0.1. What a POST goes
//! through before its message is answered: the `Host` and `Origin` a
//! server on loopback must check, the method, the body's type and what
//! the client accepts, the version header, 2026-07-28's headers and
//! `_meta` (the core's exchange rules), sessions up to 2025-11-25.

use std::collections::HashSet;
use std::convert::Infallible;
use std::io::Write;
use std::pin::Pin;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use bytes::Bytes;
use http_body::Frame;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::http::request::Parts;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use mcp_envelope::transport::exchange::{Conversation, Exchange, Headers};
use mcp_envelope::{Envelope, Message, Parser, Revision, write};
use serde_json::{Value, json};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use crate::Server;
use crate::answer::error_body;

type Body = BoxBody<Bytes, Infallible>;

fn respond(status: u16, content_type: Option<&str>, body: Vec<u8>) -> Response<Body> {
    streamed(status, content_type, Full::new(Bytes::from(body)).boxed())
}

fn streamed(status: u16, content_type: Option<&str>, body: Body) -> Response<Body> {
    let mut response = Response::new(body);
    *response.status_mut() = StatusCode::from_u16(status).unwrap();
    if let Some(kind) = content_type {
        response.headers_mut().insert("content-type", kind.parse().unwrap());
    }
    response
}

/// One event of a stream.
fn event(data: &[u8]) -> Bytes {
    Bytes::from([b"event: message\ndata: ".as_slice(), data, b"\n\n"].concat())
}

/// An event stream without end (the flood fault).
struct Endless;

impl http_body::Body for Endless {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        Poll::Ready(Some(Ok(Frame::data(event(br#"{"jsonrpc":"2.0","method":"notifications/flood"}"#)))))
    }
}

/// A stream that sends its first event and then stays open, silent (a
/// subscription on which nothing ever changes), until the client goes.
struct Open(Option<Bytes>);

impl http_body::Body for Open {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        match self.get_mut().0.take() {
            Some(first) => Poll::Ready(Some(Ok(Frame::data(first)))),
            None => Poll::Pending,
        }
    }
}

/// The bytes a connection read, kept for the faults that read headers as
/// they were written (their names' case, their values' spaces), which
/// hyper's parsed headers no longer show.
#[derive(Clone, Default)]
struct Written(Arc<Mutex<Vec<u8>>>);

impl Written {
    /// The last request head read, as written, and forget it.
    fn take_head(&self) -> Vec<u8> {
        let mut all = self.0.lock().unwrap();
        let text = std::mem::take(&mut *all);
        let start = text.windows(5).rposition(|w| w == b"POST ").unwrap_or(0);
        text[start..].to_vec()
    }

    /// The value of header `name` in `head` as written, when its name is
    /// spelled in lower case (`None`: absent, or spelled otherwise).
    fn raw_value(head: &[u8], name: &str) -> Option<Vec<u8>> {
        head.split(|&b| b == b'\n').find_map(|line| {
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            let (written, value) = line.split_at(line.iter().position(|&b| b == b':')?);
            (written == name.as_bytes()).then(|| value[1..].to_vec())
        })
    }
}

/// A connection's stream, its reads recorded.
struct Recorded<T> {
    inner: T,
    written: Written,
}

impl<T: AsyncRead + Unpin> AsyncRead for Recorded<T> {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let polled = Pin::new(&mut this.inner).poll_read(cx, buf);
        let mut all = this.written.0.lock().unwrap();
        all.extend_from_slice(&buf.filled()[before..]);
        polled
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Recorded<T> {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, data: &[u8]) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.get_mut().inner).poll_write(cx, data)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}

/// One HTTP request.
async fn exchange(
    server: Arc<Server>,
    written: Written,
    request: Request<Incoming>,
) -> Result<Response<Body>, Infallible> {
    let busy = server.in_flight.fetch_add(1, Ordering::SeqCst) > 0;
    if server.faults.on("busy") {
        // Each request is held a moment, so that two sent at once meet.
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let head = written.take_head();
    let answer = http(&server, request, &head, busy).await;
    server.in_flight.fetch_sub(1, Ordering::SeqCst);
    Ok(answer)
}

/// Whether a `Host` (or an origin's host and port) names this machine.
fn loopback(authority: &str) -> bool {
    let host = match authority.rsplit_once(':') {
        Some((host, port)) if port.bytes().all(|b| b.is_ascii_digit()) && !host.ends_with(':') => host,
        _ => authority,
    };
    matches!(host, "localhost" | "127.0.0.1" | "[::1]")
}

/// DNS rebinding: a foreign `Host` (checked first), or an `Origin` that is
/// not this machine's, is refused 403, unless a fault says otherwise.
fn rebinding(server: &Server, parts: &Parts) -> Option<Response<Body>> {
    let f = |name: &str| server.faults.on(name);
    if f("rebinding-unprotected") {
        return None;
    }
    let header = |name: &str| parts.headers.get(name).and_then(|v| v.to_str().ok());
    let refusal = |status: u16| {
        respond(status, Some("application/json"), error_body(None, -32000, "this server serves only this machine"))
    };
    if !header("host").is_some_and(loopback) {
        return Some(refusal(if f("host-refused-421") { 421 } else { 403 }));
    }
    let origin = header("origin")?;
    let local = origin.strip_prefix("http://").or_else(|| origin.strip_prefix("https://")).is_some_and(loopback);
    if local || f("origin-unchecked") {
        return None;
    }
    Some(refusal(if f("origin-refused-400") { 400 } else { 403 }))
}

/// The header faults that read the request as written: names matched in
/// lower case only, values not trimmed. A request they break gets the
/// -32020 a server that reads headers so would give.
fn as_written(server: &Server, head: &[u8], bytes: &[u8]) -> Option<Response<Body>> {
    let lower_only = server.faults.on("header-names-lowercase-only");
    let untrimmed = server.faults.on("header-values-untrimmed");
    let method = Written::raw_value(head, "mcp-method");
    // Sent, in a case other than lower.
    let other_case = head.to_ascii_lowercase().windows(12).any(|w| w == b"\nmcp-method:") && method.is_none();
    let spaced = method.is_some_and(|v| v.trim_ascii() != v.get(1..).unwrap_or_default());
    let broken = (lower_only && other_case) || (untrimmed && spaced);
    if !broken {
        return None;
    }
    let id = serde_json::from_slice::<Value>(bytes).ok().and_then(|v| v.get("id").cloned());
    Some(respond(400, Some("application/json"), error_body(id.as_ref(), -32020, "Mcp-Method is missing or disagrees")))
}

/// 2026-07-28's headers and `_meta`, by the core's exchange rules; the
/// faults that leave some unchecked drop their findings.
fn modern_checks(server: &Server, parts: &Parts, bytes: &[u8]) -> Option<Response<Body>> {
    let f = |name: &str| server.faults.on(name);
    if f("no-header-check") {
        return None;
    }
    let pairs: Vec<(&str, &[u8])> = parts.headers.iter().map(|(n, v)| (n.as_str(), v.as_bytes())).collect();
    let headers = Headers::from_pairs(pairs.iter().copied());
    let parsed = Parser::new(Revision::V2026_07_28).parse(bytes);
    let exchange = Exchange::post(&Conversation::new(Revision::V2026_07_28), &headers, bytes, &parsed);
    let dropped: HashSet<&str> = [
        ("mcp-method-optional", "mcp-method-missing"),
        ("mcp-name-optional", "mcp-name-missing"),
        ("protocol-version-optional", "meta-protocol-version-missing"),
        ("capabilities-optional", "meta-client-capabilities-missing"),
    ]
    .into_iter()
    .filter(|(fault, _)| f(fault))
    .map(|(_, rule)| rule)
    .collect();
    let meta_free = f("meta-optional") && !String::from_utf8_lossy(bytes).contains("\"_meta\"");
    // A server that compares Mcp-Method with the body's method whatever
    // their case.
    let method_header = parts.headers.get("mcp-method").and_then(|v| v.to_str().ok()).unwrap_or_default().trim();
    let body_method =
        serde_json::from_slice::<Value>(bytes).ok().and_then(|v| v.get("method")?.as_str().map(str::to_owned));
    let case_blind = f("mcp-method-case-insensitive")
        && body_method.is_some_and(|m| m.eq_ignore_ascii_case(method_header) && m != method_header);
    let findings: Vec<_> = exchange
        .findings()
        .iter()
        .filter(|found| !dropped.contains(found.rule.name()))
        .filter(|found| !(meta_free && found.rule.name().starts_with("meta-")))
        .filter(|found| !(case_blind && found.rule.name() == "mcp-method-mismatch"))
        .collect();
    if let Some(reply) = findings.iter().find_map(|found| found.reply()) {
        let mut out = Vec::new();
        write::error_for(&mut out, reply);
        return Some(respond(400, Some("application/json"), out));
    }
    let meta = findings.iter().any(|found| found.rule.name().starts_with("meta-"));
    if meta && let Ok(Envelope::Single(Message::Request(r))) = &parsed {
        let id = server.echo(&r.id);
        return Some(respond(
            400,
            Some("application/json"),
            error_body(Some(&id), -32602, "required _meta is missing"),
        ));
    }
    None
}

async fn http(server: &Server, request: Request<Incoming>, head: &[u8], busy: bool) -> Response<Body> {
    let f = |name: &str| server.faults.on(name);
    let (parts, body) = request.into_parts();
    if let Some(refused) = rebinding(server, &parts) {
        return refused;
    }
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
                let kind = if method == "GET" { "text/event-stream" } else { "text/plain" };
                return respond(200, Some(kind), Vec::new());
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
        return unsupported(text, &bytes, f("unsupported-without-data"));
    }
    // A version it does not know, taken (the fault), is read as the
    // transport's default.
    let revision = if modern || (declared.is_none() && version.is_some() && !f("any-version")) {
        Revision::V2026_07_28
    } else {
        declared.unwrap_or(Revision::V2025_03_26)
    };
    if modern && let Some(refused) = as_written(server, head, &bytes).or_else(|| modern_checks(server, &parts, &bytes))
    {
        return refused;
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
        _ if reply.flood => streamed(200, Some("text/event-stream"), Endless.boxed()),
        (Some(body), status) if reply.stream => {
            streamed(status, Some("text/event-stream"), Open(Some(event(body))).boxed())
        }
        (None, _) => respond(202, None, Vec::new()),
        (Some(body), status) if f("stream-despite-accept") => {
            respond(status, Some("text/event-stream"), event(body).to_vec())
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

/// 400 with -32022 and the versions this server supports.
fn unsupported(requested: &str, bytes: &[u8], without_data: bool) -> Response<Body> {
    let id: Value =
        serde_json::from_slice::<Value>(bytes).ok().and_then(|v| v.get("id").cloned()).unwrap_or(Value::Null);
    let mut error = json!({"code": -32022, "message": "unsupported protocol version"});
    if !without_data {
        error["data"] =
            json!({"supported": ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"], "requested": requested});
    }
    respond(
        400,
        Some("application/json"),
        serde_json::to_vec(&json!({"jsonrpc": "2.0", "id": id, "error": error})).unwrap(),
    )
}

pub async fn serve(server: Arc<Server>, first: u16, count: u16) {
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
                    let written = Written::default();
                    let io = Recorded { inner: stream, written: written.clone() };
                    let service = service_fn(move |request| exchange(Arc::clone(&server), written.clone(), request));
                    let _ = http1::Builder::new().serve_connection(TokioIo::new(io), service).await;
                });
            }
        });
    }
    std::future::pending::<()>().await;
}
