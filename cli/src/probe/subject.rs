//! One server under probe, over either transport, under one revision: the
//! handshake (2026-07-28's `server/discover`, or `initialize`), fresh ids,
//! a provocation and the proof that the server still serves after it.

use bytes::Bytes;
use hyper::Method;
use mcp_envelope::{Envelope, Id, Message, Notification, Parser, Revision};
use serde_json::{Value, json};

use super::http::{self, Extent, HttpServer};
use super::stdio::StdioServer;
use super::wire::Wire;
use mcp_envelope_grade::{Answer, id_json};

/// The transport.
pub enum Peer {
    Stdio(Box<StdioServer>),
    Http(HttpServer),
}

/// A server, the revision it is probed under, and what the probe keeps
/// between checks.
pub struct Subject {
    pub peer: Peer,
    /// The padding of the oversized message, shared by every session.
    pub pad: Bytes,
    pub wire: Wire,
    next_id: u64,
    /// Ids below this belong to earlier checks.
    spent: u64,
    /// Results the server sent (for the checks that read them: each holds
    /// `resultType` under 2026-07-28).
    pub results: Vec<Vec<u8>>,
    /// The `server/discover` result of the handshake (2026-07-28).
    pub discovered: Option<Value>,
}

/// What the handshake learned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Handshake {
    /// The revision the server took.
    pub revision: Revision,
    /// The versions a 2026-07-28 server says it supports.
    pub supported: Vec<String>,
    /// The name and version the server gave (`serverInfo`).
    pub server: Option<ServerInfo>,
}

/// What a server says it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerInfo {
    pub name: String,
    pub version: String,
}

impl ServerInfo {
    /// `{"name": .., "version": ..}` (either may be missing: then empty).
    fn of(value: Option<&Value>) -> Option<ServerInfo> {
        let value = value?;
        let text = |key: &str| value.get(key).and_then(Value::as_str).unwrap_or_default().to_owned();
        let info = ServerInfo { name: text("name"), version: text("version") };
        (!info.name.is_empty() || !info.version.is_empty()).then_some(info)
    }
}

impl Subject {
    pub fn new(peer: Peer, revision: Revision, pad: Bytes) -> Subject {
        Subject { peer, pad, wire: Wire { revision }, next_id: 0, spent: 0, results: Vec::new(), discovered: None }
    }

    pub fn revision(&self) -> Revision {
        self.wire.revision
    }

    pub fn is_http(&self) -> bool {
        matches!(self.peer, Peer::Http(_))
    }

    /// A check begins: the ids given so far are earlier checks'.
    pub fn begin(&mut self) {
        self.spent = self.next_id + 1;
    }

    /// A fresh integer id.
    pub fn id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    /// Starts the server (stdio) and shakes hands under the session's
    /// revision. An error says why the server cannot be probed under it.
    pub async fn open(&mut self) -> Result<Handshake, String> {
        if let Peer::Stdio(server) = &mut self.peer {
            server.start()?;
        }
        if self.revision().mirrors_headers() { self.discover().await } else { self.initialize().await }
    }

    /// `server/discover`: a 2026-07-28 server lists the versions it
    /// supports, and must list 2026-07-28 to be probed under it.
    async fn discover(&mut self) -> Result<Handshake, String> {
        let id = self.id();
        let message = self.wire.message(Some(json!(id)), "server/discover", None);
        let answer = self.call(&message, &Id::Int(id as i64)).await;
        let result = result_of(&answer, &Id::Int(id as i64), self.revision())
            .ok_or_else(|| format!("server/discover was not answered with a result: {}", answer.describe()))?;
        self.results.push(result.clone());
        let value: Value = serde_json::from_slice(&result).unwrap_or_default();
        self.discovered = value.get("result").cloned();
        let supported: Vec<String> = value
            .get("result")
            .and_then(|r| r.get("supportedVersions"))
            .and_then(Value::as_array)
            .map(|v| v.iter().filter_map(Value::as_str).map(str::to_owned).collect())
            .unwrap_or_default();
        if !supported.iter().any(|v| v == Revision::V2026_07_28.name()) {
            return Err(format!("server/discover lists {supported:?}, not 2026-07-28"));
        }
        if let Peer::Http(server) = &mut self.peer {
            server.protocol_version = None;
        }
        // 2026-07-28 puts it in `_meta`; some servers also, or only, in the
        // result itself, as `initialize` did.
        let result = value.get("result");
        let server = ServerInfo::of(result.and_then(|r| r.pointer("/_meta/io.modelcontextprotocol~1serverInfo")))
            .or_else(|| ServerInfo::of(result.and_then(|r| r.get("serverInfo"))));
        Ok(Handshake { revision: Revision::V2026_07_28, supported, server })
    }

    /// `initialize` under an earlier revision, then `notifications/initialized`.
    async fn initialize(&mut self) -> Result<Handshake, String> {
        let id = self.id();
        let message = self.wire.initialize(id);
        let answer = self.call(&message, &Id::Int(id as i64)).await;
        let result = result_of(&answer, &Id::Int(id as i64), self.revision())
            .ok_or_else(|| format!("initialize was not answered with a result: {}", answer.describe()))?;
        let value: Value = serde_json::from_slice(&result).unwrap_or_default();
        let named =
            value.get("result").and_then(|r| r.get("protocolVersion")).and_then(Value::as_str).unwrap_or_default();
        let revision: Revision = named.parse().map_err(|_| format!("initialize named no known revision: {named:?}"))?;
        if let Peer::Http(server) = &mut self.peer {
            server.session = answer.session_id.clone();
            if revision.has_protocol_version_header() {
                server.protocol_version = Some(revision.name().to_owned());
            }
        }
        self.wire = Wire { revision };
        let initialized = self.wire.message(None, "notifications/initialized", None);
        let done = self.send(&initialized).await;
        if let Some(failure) = done.failure {
            return Err(format!("notifications/initialized: {failure}"));
        }
        // A ping answered: whatever the server wrote before it (on stdio,
        // an answer to the notification, say) is the handshake's, not the
        // first check's.
        self.alive().await.map_err(|e| format!("a ping after initialize got {e}"))?;
        let server = ServerInfo::of(value.get("result").and_then(|r| r.get("serverInfo")));
        Ok(Handshake { revision, supported: Vec::new(), server })
    }

    /// Sends one request and waits for its answer (for the handshake and
    /// the liveness check).
    pub async fn call(&mut self, message: &super::wire::Message, id: &Id<'_>) -> Answer {
        let revision = self.revision();
        match &mut self.peer {
            Peer::Stdio(server) => {
                let waited = server.call(&message.body, id, revision).await;
                Answer { messages: waited.answer.into_iter().collect(), failure: waited.failure, ..Answer::default() }
            }
            Peer::Http(server) => {
                server.send(Method::POST, &[Bytes::from(message.body.clone())], &headers(message), Extent::Whole).await
            }
        }
    }

    /// Sends a notification (stdio: a line; HTTP: a POST, its answer read).
    async fn send(&mut self, message: &super::wire::Message) -> Answer {
        match &mut self.peer {
            Peer::Stdio(server) => match server.write(&message.body).await {
                Ok(()) => Answer::default(),
                Err(e) => Answer { failure: Some(e), ..Answer::default() },
            },
            Peer::Http(server) => {
                server.send(Method::POST, &[Bytes::from(message.body.clone())], &headers(message), Extent::Whole).await
            }
        }
    }

    /// A harmless request (`ping`, or `server/discover`) with a fresh
    /// string id, to prove the server still serves.
    fn alive_request(&mut self) -> (Id<'static>, super::wire::Message) {
        let id = format!("alive-{}", self.id());
        let message = self.wire.message(Some(json!(id)), self.wire.harmless(), None);
        (Id::Str(id.into()), message)
    }

    /// Sends what a check provokes with, and proves the server still
    /// serves after it: stdio, by two harmless requests written after it
    /// one at a time (see [`StdioServer::provoke`]), which also close what
    /// the provocation got; HTTP, by one after its answer. The first must
    /// be answered with a result: `failure` is set when the server stopped
    /// serving, and a stdio server is then started again (and shaken hands
    /// with) for the checks that follow. Answers to ids of earlier checks
    /// (a server that answered late) are left out.
    ///
    /// [`StdioServer::provoke`]: super::stdio::StdioServer::provoke
    pub async fn provoke(&mut self, sent: Sent) -> Answer {
        self.provoke_awaiting(sent, &[]).await
    }

    /// As [`Subject::provoke`], and on stdio waits past the harmless
    /// requests for the answers to `awaited`, ids among what was sent
    /// that the rules say the server answers, so that a server that runs
    /// requests at once and answers them out of order is not taken for
    /// silent.
    pub async fn provoke_awaiting(&mut self, sent: Sent, awaited: &[Id<'static>]) -> Answer {
        let revision = self.revision();
        let (alive_id, alive) = self.alive_request();
        let (fence_id, fence) = self.alive_request();
        let harmless = self.wire.harmless();
        let mut answer = match &mut self.peer {
            Peer::Stdio(server) => {
                let fences = [(alive_id.clone(), alive.body.clone()), (fence_id, fence.body)];
                let waited = server.provoke(&sent.body, &fences, awaited, revision).await;
                let spent = self.spent;
                let messages = waited.before.into_iter().filter(|m| !answers_earlier(m, spent, revision)).collect();
                let mut answer = Answer { messages, failure: waited.failure, ..Answer::default() };
                // Answered, but not served: a server that now refuses the
                // request it served before no longer serves the revision.
                if answer.failure.is_none() {
                    let check = Answer { messages: waited.answer.into_iter().collect(), ..Answer::default() };
                    if result_of(&check, &alive_id, revision).is_none() {
                        answer.failure = Some(stopped_serving(harmless, &check));
                    }
                }
                answer
            }
            Peer::Http(server) => {
                let answer = server.send(sent.method.clone(), &sent.body, &sent.headers, sent.extent).await;
                if answer.failure.is_none() {
                    let check = server
                        .send(Method::POST, &[Bytes::from(alive.body.clone())], &headers(&alive), Extent::Whole)
                        .await;
                    if result_of(&check, &alive_id, revision).is_none() {
                        let mut stopped = answer.clone();
                        stopped.failure = Some(stopped_serving(harmless, &check));
                        return stopped;
                    }
                }
                answer
            }
        };
        if answer.failure.is_some()
            && let Peer::Stdio(_) = self.peer
        {
            let reopened = self.reopen().await;
            if let Err(e) = reopened {
                answer.failure = Some(format!("{}; restarting it failed: {e}", answer.failure.unwrap_or_default()));
            }
        }
        answer
    }

    /// Two requests in flight at once, on two connections (HTTP).
    pub async fn concurrently(&mut self, a: Sent, b: Sent) -> (Answer, Answer) {
        let Peer::Http(server) = &mut self.peer else {
            return (Answer { failure: Some("not over HTTP".into()), ..Answer::default() }, Answer::default());
        };
        let mut other = server.sibling();
        tokio::join!(
            server.send(a.method.clone(), &a.body, &a.headers, Extent::Whole),
            other.send(b.method.clone(), &b.body, &b.headers, Extent::Whole)
        )
    }

    /// Whether the server is on this machine, over HTTP.
    pub fn is_local_http(&self) -> bool {
        matches!(&self.peer, Peer::Http(server) if server.is_local())
    }

    /// A capability the handshake's `server/discover` declared, by its
    /// path (`tools`, `tools/listChanged`).
    pub fn declares(&self, capability: &str) -> bool {
        let mut at = self.discovered.as_ref().and_then(|d| d.get("capabilities"));
        for part in capability.split('/') {
            at = at.and_then(|v| v.get(part));
        }
        at.is_some_and(|v| !v.is_null() && v != &Value::Bool(false))
    }

    /// Opens a `subscriptions/listen` stream with `message` (request `id`)
    /// and reads until what opens it came: the acknowledgement, or the
    /// request's own answer. Over HTTP the stream is closed once its first
    /// message came; over stdio the subscription is cancelled
    /// (`notifications/cancelled`, as the text says a client ends one).
    /// Then the server is proved still serving. The answer holds what came
    /// (stdio: what the server wrote up to it).
    pub async fn listen(&mut self, message: &super::wire::Message, id: &Id<'static>) -> Answer {
        let revision = self.revision();
        let mut answer = match &mut self.peer {
            Peer::Http(server) => {
                server
                    .send(Method::POST, &[Bytes::from(message.body.clone())], &headers(message), Extent::First(1))
                    .await
            }
            Peer::Stdio(server) => {
                if let Err(e) = server.write(&message.body).await {
                    return Answer { failure: Some(e), ..Answer::default() };
                }
                let tag = id_json(id);
                let waited = server
                    .until(revision, |m| match m {
                        Message::Notification(n) => {
                            n.method == "notifications/subscriptions/acknowledged"
                                || subscription_of(n).as_deref() == Some(&*tag)
                        }
                        Message::Result(r) => r.id == *id,
                        Message::Error(e) => e.id.as_ref() == Some(id),
                        Message::Request(_) => false,
                    })
                    .await;
                let mut messages = waited.before;
                messages.extend(waited.answer);
                Answer { messages, failure: waited.failure, ..Answer::default() }
            }
        };
        if answer.failure.is_none()
            && let Peer::Stdio(server) = &mut self.peer
        {
            let cancel = self.wire.message(None, "notifications/cancelled", Some(json!({"requestId": id_value(id)})));
            if let Err(e) = server.write(&cancel.body).await {
                answer.failure = Some(e);
            }
        }
        if answer.failure.is_none()
            && let Err(e) = self.alive().await
        {
            answer.failure = Some(format!("it stopped serving after it: {} got {e}", self.wire.harmless()));
        }
        answer
    }

    /// Whether the server assigned a session (HTTP).
    pub fn has_session(&self) -> bool {
        matches!(&self.peer, Peer::Http(server) if server.session.is_some())
    }

    /// One HTTP request as it is, with no ping after it.
    pub async fn send_plain(&mut self, sent: Sent) -> Answer {
        match &mut self.peer {
            Peer::Http(server) => server.send(sent.method.clone(), &sent.body, &sent.headers, sent.extent).await,
            Peer::Stdio(_) => Answer { failure: Some("not over HTTP".into()), ..Answer::default() },
        }
    }

    /// The lines a stdio server wrote that were no message.
    pub fn stray(&self) -> Vec<String> {
        match &self.peer {
            Peer::Stdio(server) => server.stray.clone(),
            Peer::Http(_) => Vec::new(),
        }
    }

    /// Closes a stdio server's input and waits for it to exit.
    pub async fn close(&mut self) -> Result<std::process::ExitStatus, String> {
        match &mut self.peer {
            Peer::Stdio(server) => server.close().await,
            Peer::Http(_) => Err("not over stdio".into()),
        }
    }

    /// Ends what the session holds: a stdio server killed if it still
    /// runs, an HTTP session deleted.
    pub async fn end(&mut self) {
        match &mut self.peer {
            Peer::Stdio(server) => server.kill().await,
            Peer::Http(server) if server.session.is_some() => {
                let _ = server.send(Method::DELETE, &[], &http::Headers::default(), Extent::Whole).await;
                server.session = None;
            }
            Peer::Http(_) => {}
        }
    }

    /// Starts a stdio server that stopped answering again, under the same
    /// revision.
    async fn reopen(&mut self) -> Result<(), String> {
        if let Peer::Stdio(server) = &mut self.peer {
            server.kill().await;
        }
        self.open().await.map(|_| ())
    }

    /// Proves the server serves: a `ping` answered with a result.
    pub async fn alive(&mut self) -> Result<(), String> {
        let (id, ping) = self.alive_request();
        let answer = self.call(&ping, &id).await;
        match result_of(&answer, &id, self.revision()) {
            Some(result) => {
                self.results.push(result);
                Ok(())
            }
            None => Err(answer.describe()),
        }
    }
}

/// What a check sends: lines (stdio) or one HTTP request.
#[derive(Clone, Debug)]
pub struct Sent {
    /// The message, in the chunks it was built of (stdio: written as one
    /// line; a `\n` inside makes two).
    pub body: Vec<Bytes>,
    pub method: Method,
    pub headers: http::Headers,
    pub extent: Extent,
}

impl Sent {
    /// A POST of `body` with the revision's headers.
    pub fn post(body: Vec<u8>, headers: Vec<(&'static str, String)>) -> Sent {
        let set = headers.into_iter().map(|(n, v)| (n.to_owned(), v)).collect();
        Sent {
            body: vec![Bytes::from(body)],
            method: Method::POST,
            headers: http::Headers { set, ..http::Headers::default() },
            extent: Extent::Whole,
        }
    }

    /// A request with no body.
    pub fn empty(method: Method, headers: http::Headers, extent: Extent) -> Sent {
        Sent { body: Vec::new(), method, headers, extent }
    }

    /// A short account, for the scorecard's `sent`.
    pub fn describe(&self, http: bool) -> String {
        // The start is enough to show (a padded message is shown by its size).
        let start: Vec<u8> = self.body.iter().flat_map(|c| c.iter().copied()).take(120).collect();
        let body = mcp_envelope_grade::clip(&String::from_utf8_lossy(&start), 100);
        if !http {
            return body;
        }
        let mut extra: Vec<String> =
            self.headers.set.iter().filter(|(n, _)| !is_default(n)).map(|(n, v)| format!("{n}: {v}")).collect();
        extra.extend(self.headers.omit.iter().map(|n| format!("no {n}")));
        let head = if extra.is_empty() { String::new() } else { format!(" [{}]", extra.join(", ")) };
        if self.body.is_empty() { format!("{}{head}", self.method) } else { format!("{} {body}{head}", self.method) }
    }
}

/// The headers every request of the revision carries anyway.
fn is_default(name: &str) -> bool {
    name.eq_ignore_ascii_case("mcp-protocol-version")
        || name.eq_ignore_ascii_case("mcp-method")
        || name.eq_ignore_ascii_case("mcp-name")
}

fn headers(message: &super::wire::Message) -> http::Headers {
    let set = message.headers.iter().map(|(n, v)| ((*n).to_owned(), v.clone())).collect();
    http::Headers { set, ..http::Headers::default() }
}

/// The subscription a notification says it belongs to
/// (`_meta["io.modelcontextprotocol/subscriptionId"]`), as JSON text.
fn subscription_of(notification: &Notification<'_>) -> Option<String> {
    let meta = notification.params.as_ref()?.member("_meta").ok().flatten()?;
    Some(meta.member("io.modelcontextprotocol/subscriptionId").ok().flatten()?.get().to_owned())
}

/// An id as JSON.
fn id_value(id: &Id<'_>) -> Value {
    match id {
        Id::Str(s) => json!(s.as_ref()),
        Id::Int(n) => json!(n),
        Id::Null => Value::Null,
    }
}

/// The result answering `id` among an answer's messages, as its text.
pub fn result_of(answer: &Answer, id: &Id<'_>, revision: Revision) -> Option<Vec<u8>> {
    let mut parser = Parser::new(revision);
    answer.messages.iter().find_map(|bytes| match parser.parse(bytes) {
        Ok(Envelope::Single(Message::Result(r))) if r.id == *id => Some(bytes.clone()),
        _ => None,
    })
}

/// Why a server that answered the liveness request (method `alive`) with `check`
/// (an error, say) is taken to have stopped serving.
fn stopped_serving(alive: &str, check: &Answer) -> String {
    format!("it stopped serving after it: {alive} got {}", check.describe())
}

/// Whether `bytes` is a response to an integer id below `spent` (or to an
/// `alive-N` ping below it).
fn answers_earlier(bytes: &[u8], spent: u64, revision: Revision) -> bool {
    let id = match Parser::new(revision).parse(bytes) {
        Ok(Envelope::Single(Message::Result(r))) => r.id.into_owned(),
        Ok(Envelope::Single(Message::Error(e))) => match e.id {
            Some(id) => id.into_owned(),
            None => return false,
        },
        _ => return false,
    };
    match id {
        Id::Int(n) => u64::try_from(n).is_ok_and(|n| n < spent),
        Id::Str(s) => s.strip_prefix("alive-").and_then(|n| n.parse::<u64>().ok()).is_some_and(|n| n < spent),
        Id::Null => false,
    }
}
