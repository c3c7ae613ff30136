//! The probe's side of a Streamable HTTP endpoint: one request at a time
//! over a kept-alive connection (the tap's [`Link`]), the headers a
//! client of the revision sends, the user's own (`--header`, never
//! printed), the session once one is assigned; the answer read whole,
//! within the wait and the size limit (an event stream message by message).
//! Whatever the server sends, memory stays bounded: the first messages of
//! an answer are kept, and a body past the flood limits ends the read,
//! reported flooding with its count.

use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use http_body::{Frame, SizeHint};
use http_body_util::BodyExt;
use hyper::header::{ACCEPT, CONTENT_TYPE, HOST, HeaderName, HeaderValue};
use hyper::{Method, Request, Uri};
use mcp_envelope::transport::sse::EventReader;
use tokio::time::{Instant, timeout_at};

use crate::net::{Endpoint, Link};
use mcp_envelope_grade::{Answer, clip};

/// Messages kept of one answer; the rest are counted.
const KEPT_MESSAGES: usize = 64;
/// Messages, or bytes, of one answer past which a server is flooding.
const FLOOD_MESSAGES: u64 = 10_000;
const FLOOD_BYTES: u64 = 64 << 20;

/// What a request sends beyond its body.
#[derive(Clone, Debug, Default)]
pub struct Headers {
    /// Headers to send (over the defaults, which they replace).
    pub set: Vec<(String, String)>,
    /// Default headers to leave out (`content-type`, `accept`,
    /// `mcp-session-id`, `mcp-protocol-version`...).
    pub omit: Vec<&'static str>,
    /// Names written in title case (`Mcp-Method`), on a connection of its
    /// own, rather than in lower case.
    pub title_case: bool,
}

/// How much of an answer a request reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Extent {
    /// The status and headers: a GET stream's, say.
    Head,
    /// The whole body.
    Whole,
    /// The body's first messages, and no more: a stream that stays open
    /// (`subscriptions/listen`) is closed once they came.
    First(usize),
}

/// An endpoint under probe.
pub struct HttpServer {
    endpoint: Arc<Endpoint>,
    link: Link,
    /// `--header` values, sent with every request.
    user: Vec<(HeaderName, HeaderValue)>,
    /// The session the server assigned, sent on every later request.
    pub session: Option<String>,
    /// The revision's `MCP-Protocol-Version`, once negotiated.
    pub protocol_version: Option<String>,
    wait: Duration,
    max_size: usize,
}

impl HttpServer {
    pub fn new(
        endpoint: Arc<Endpoint>,
        user: Vec<(HeaderName, HeaderValue)>,
        wait: Duration,
        max_size: usize,
    ) -> HttpServer {
        let link = Link::open(Arc::clone(&endpoint));
        HttpServer { endpoint, link, user, session: None, protocol_version: None, wait, max_size }
    }

    /// Whether the endpoint is on this machine (where DNS rebinding is the
    /// threat the `Origin` check answers).
    pub fn is_local(&self) -> bool {
        self.endpoint.is_loopback()
    }

    /// Another client of the same session, on a connection of its own.
    pub fn sibling(&self) -> HttpServer {
        let mut other = HttpServer::new(Arc::clone(&self.endpoint), self.user.clone(), self.wait, self.max_size);
        other.session.clone_from(&self.session);
        other.protocol_version.clone_from(&self.protocol_version);
        other
    }

    /// Sends one request and reads as much of its answer as `extent` says.
    pub async fn send(&mut self, method: Method, body: &[Bytes], headers: &Headers, extent: Extent) -> Answer {
        if headers.title_case {
            // A connection of its own, dropped after.
            let mut once = Link::open_title_case(Arc::clone(&self.endpoint));
            std::mem::swap(&mut self.link, &mut once);
            let answer = self.send_on_link(method, body, headers, extent).await;
            self.link = once;
            return answer;
        }
        self.send_on_link(method, body, headers, extent).await
    }

    async fn send_on_link(&mut self, method: Method, body: &[Bytes], headers: &Headers, extent: Extent) -> Answer {
        let deadline = Instant::now() + self.wait;
        // A server may answer a large body (413, say) before reading it
        // all, and the connection then still owes it the rest: the next
        // request goes on a new one.
        let large = body.iter().map(Bytes::len).sum::<usize>() > 64 * 1024;
        let mut request = Request::new(Chunks(body.iter().cloned().collect()).map_err(|never| match never {}).boxed());
        *request.method_mut() = method;
        *request.uri_mut() = Uri::from(self.endpoint.path_and_query());
        let map = request.headers_mut();
        map.insert(HOST, self.endpoint.host_header().clone());
        map.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
        map.insert(ACCEPT, HeaderValue::from_static("application/json, text/event-stream"));
        if let Some(version) = self.protocol_version.as_deref().and_then(|v| HeaderValue::from_str(v).ok()) {
            map.insert("mcp-protocol-version", version);
        }
        if let Some(session) = self.session.as_deref().and_then(|v| HeaderValue::from_str(v).ok()) {
            map.insert("mcp-session-id", session);
        }
        for (name, value) in &self.user {
            map.insert(name.clone(), value.clone());
        }
        for (name, value) in &headers.set {
            if let (Ok(name), Ok(value)) = (HeaderName::from_bytes(name.as_bytes()), HeaderValue::from_str(value)) {
                map.insert(name, value);
            }
        }
        // Last: a header a check leaves out is out, whoever set it (the
        // revision's own headers come in `set`).
        for name in &headers.omit {
            map.remove(*name);
        }
        let response = match timeout_at(deadline, self.link.send(request)).await {
            Ok(Ok(response)) => response,
            Ok(Err(e)) => return self.failed(Answer::default(), e),
            Err(_) => {
                let silent = self.silent();
                return self.failed(Answer::default(), silent);
            }
        };
        let (parts, mut body) = response.into_parts();
        let header = |name: &str| parts.headers.get(name).map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
        let mut answer = Answer {
            status: Some(parts.status.as_u16()),
            content_type: header("content-type"),
            allow: header("allow"),
            session_id: header("mcp-session-id"),
            ..Answer::default()
        };
        if extent == Extent::Head {
            // The stream is dropped unread: its connection goes with it.
            self.link = Link::open(Arc::clone(&self.endpoint));
            return answer;
        }
        let kind = answer.content_type.as_deref().unwrap_or_default().to_ascii_lowercase();
        let events = kind.starts_with("text/event-stream");
        let mut reader = EventReader::new(self.max_size);
        let mut held = Vec::new();
        let (mut messages, mut received) = (0u64, 0u64);
        loop {
            let frame = match timeout_at(deadline, body.frame()).await {
                Ok(Some(Ok(frame))) => frame,
                Ok(Some(Err(e))) => return self.failed(answer, format!("the body failed: {e}")),
                Ok(None) => break,
                Err(_) => {
                    let silent = self.silent();
                    return self.failed(answer, silent);
                }
            };
            let Ok(data) = frame.into_data() else { continue };
            received += data.len() as u64;
            if events {
                reader.feed(&data, |event| {
                    if let Some(message) = event.message().filter(|m| !m.is_empty()) {
                        messages += 1;
                        if answer.messages.len() < KEPT_MESSAGES {
                            answer.messages.push(message.to_vec());
                        }
                    }
                });
            } else if held.len() <= self.max_size {
                held.extend_from_slice(&data);
            }
            if let Extent::First(wanted) = extent
                && answer.messages.len() >= wanted
            {
                // The rest is not read: the connection goes with it.
                self.link = Link::open(Arc::clone(&self.endpoint));
                return answer;
            }
            if messages > FLOOD_MESSAGES || received > FLOOD_BYTES {
                let why = format!("flooded: {messages} messages ({received} bytes) in one answer, and more coming");
                return self.failed(answer, why);
            }
        }
        if large {
            self.link = Link::open(Arc::clone(&self.endpoint));
        }
        if events {
            reader.finish(|_| {});
        } else if kind.starts_with("application/json")
            || (!held.is_empty() && held.trim_ascii_start().starts_with(b"{"))
        {
            if !held.trim_ascii().is_empty() {
                answer.messages.push(held);
            }
        } else if !held.is_empty() {
            answer.text = Some(clip(&String::from_utf8_lossy(&held), 200));
        }
        answer
    }

    /// An answer that never came whole: the connection it was on may be
    /// mid-response, so the next request goes on a new one.
    fn failed(&mut self, mut answer: Answer, why: String) -> Answer {
        self.link = Link::open(Arc::clone(&self.endpoint));
        answer.failure = Some(why);
        answer
    }

    fn silent(&self) -> String {
        format!("no answer within {} s", self.wait.as_secs_f64())
    }
}

/// A request body sent as the chunks it was built of (a large padding
/// shared by every probe of a census is never copied into each body).
struct Chunks(std::collections::VecDeque<Bytes>);

impl http_body::Body for Chunks {
    type Data = Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        std::task::Poll::Ready(self.get_mut().0.pop_front().map(|chunk| Ok(Frame::data(chunk))))
    }

    fn is_end_stream(&self) -> bool {
        self.0.is_empty()
    }

    fn size_hint(&self) -> SizeHint {
        SizeHint::with_exact(self.0.iter().map(|c| c.len() as u64).sum())
    }
}
