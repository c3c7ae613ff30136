//! `mcp-envelope tap --http`: a reverse proxy in front of a Streamable
//! HTTP server that relays every request and response unchanged and logs
//! one JSON line per message either way, and one per exchange finding.
//!
//! A request body is read (up to the size limit) and judged before it is
//! relayed, so its ids and headers are known when the response starts.
//! A response is relayed frame by frame as it arrives; each frame is read
//! on its way (event by event for an event stream), so a stream is never
//! held whole and its events are logged as they pass.

mod checked;
mod forward;
mod sink;

use std::collections::HashMap;
use std::convert::Infallible;
use std::io::{self, Write};
use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use http_body_util::BodyExt;
use hyper::body::Incoming;
use hyper::header::{CONTENT_TYPE, HeaderMap};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::{TokioExecutor, TokioIo};
use mcp_envelope::exchange::{Conversation, Exchange, Headers};
use mcp_envelope::{Error, Limits, Revision};
use tokio::net::TcpListener;

use self::checked::{Checked, Judge};
use self::forward::{Collected, Prefixed, ProxyBody, Upstream};
use self::sink::{From, Sink};
use super::open_log;
use crate::{BackendChoice, Parsers};

/// Everything `tap --http` needs, from the command line.
pub struct HttpArgs {
    pub revision: Revision,
    pub backend: BackendChoice,
    pub limits: Limits,
    pub log: Option<String>,
    pub listen: SocketAddr,
    pub upstream: String,
}

/// What every exchange shares.
pub struct State {
    upstream: Upstream,
    client: Client<HttpConnector, ProxyBody>,
    backend: BackendChoice,
    pub limits: Limits,
    revision: Revision,
    log: Mutex<Box<dyn Write + Send>>,
    log_failed: AtomicBool,
    /// Each session's conversation, by `Mcp-Session-Id`.
    sessions: Mutex<HashMap<Vec<u8>, Conversation>>,
    /// The conversation of requests without a session (before
    /// `initialize`, or with a server that keeps none).
    sessionless: Mutex<Conversation>,
    exchanges: AtomicU64,
    messages: AtomicU64,
    invalid: AtomicU64,
    disagreements: AtomicU64,
    findings: AtomicU64,
}

impl State {
    /// Writes one log line whole (lines from concurrent exchanges never
    /// interleave), and says once if the log fails; relaying goes on.
    fn write(&self, line: io::Result<Vec<u8>>) {
        let written = line.and_then(|line| {
            let mut log = self.log.lock().unwrap_or_else(PoisonError::into_inner);
            log.write_all(&line)?;
            log.flush()
        });
        if let Err(e) = written
            && !self.log_failed.swap(true, Ordering::Relaxed)
        {
            eprintln!("mcp-envelope tap: writing the log: {e}; relaying goes on");
        }
    }

    fn count_message(&self, invalid: bool, disagreement: bool) {
        self.messages.fetch_add(1, Ordering::Relaxed);
        self.invalid.fetch_add(u64::from(invalid), Ordering::Relaxed);
        self.disagreements.fetch_add(u64::from(disagreement), Ordering::Relaxed);
    }

    fn count_finding(&self) {
        self.findings.fetch_add(1, Ordering::Relaxed);
    }

    fn conversation(&self, session: Option<&[u8]>) -> Conversation {
        let known =
            session.and_then(|id| self.sessions.lock().unwrap_or_else(PoisonError::into_inner).get(id).copied());
        known.unwrap_or_else(|| *self.sessionless.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// An `initialize` negotiated `revision` for `session` (or for the
    /// requests without one).
    fn learn(&self, session: Option<&[u8]>, revision: Revision) {
        let conversation = Conversation { revision: self.revision, negotiated: Some(revision) };
        match session {
            Some(id) => {
                self.sessions.lock().unwrap_or_else(PoisonError::into_inner).insert(id.to_vec(), conversation);
            }
            None => *self.sessionless.lock().unwrap_or_else(PoisonError::into_inner) = conversation,
        }
    }

    fn forget(&self, session: &[u8]) {
        self.sessions.lock().unwrap_or_else(PoisonError::into_inner).remove(session);
    }
}

fn headers(map: &HeaderMap) -> Headers<'_> {
    Headers::from_pairs(map.iter().map(|(name, value)| (name.as_str(), value.as_bytes())))
}

fn content_type(map: &HeaderMap) -> Option<String> {
    map.get(CONTENT_TYPE).map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
}

fn session_of(map: &HeaderMap) -> Option<Vec<u8>> {
    map.get("mcp-session-id").map(|v| v.as_bytes().to_vec())
}

/// Logs the exchange if the client leaves before the response head.
struct Waiting<'s> {
    state: &'s State,
    number: u64,
    method: hyper::Method,
    armed: bool,
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        if self.armed {
            let detail = Some("the client went away before the response");
            self.state.write(crate::render::note_line(self.number, self.method.as_str(), "client-gone", detail));
        }
    }
}

/// Relays one request and its response, judging both.
async fn exchange(state: Arc<State>, request: Request<Incoming>) -> Result<Response<ProxyBody>, Infallible> {
    let number = state.exchanges.fetch_add(1, Ordering::Relaxed) + 1;
    let mut waiting = Waiting { state: &state, number, method: request.method().clone(), armed: true };
    let (mut parts, body) = request.into_parts();
    let session = session_of(&parts.headers);
    let conversation = state.conversation(session.as_deref());
    let request_headers = headers(&parts.headers);
    let revision = conversation.rules_for(&request_headers);
    let mut parsers = Parsers::new(state.backend, revision, state.limits);
    let max = state.limits.max_size;
    let sink_of = |exchange, parsers| Sink {
        state: Arc::clone(&state),
        number,
        method: parts.method.as_str().to_owned(),
        exchange,
        parsers,
        content_type: content_type(&parts.headers),
        status: None,
        session: session.clone(),
    };

    let (sink, body) = if parts.method == Method::POST {
        match forward::collect(body, max).await {
            Collected::Whole(bytes) => {
                let (verdicts, exchange) = parsers
                    .verdicts_and(&bytes, |parsed| Exchange::post(&conversation, &request_headers, &bytes, parsed));
                let sink = sink_of(exchange, parsers);
                sink.verdicts(From::Client, None, None, &verdicts);
                (sink, forward::full(bytes))
            }
            Collected::Over { head, rest } => {
                let parsed = Err(Error::too_large(max));
                let exchange = Exchange::post(&conversation, &request_headers, &[], &parsed);
                let sink = sink_of(exchange, parsers);
                sink.oversized(From::Client, None, None);
                (sink, Prefixed::new(head, rest).boxed())
            }
            Collected::Failed(e) => {
                waiting.armed = false;
                let sink = sink_of(Exchange::other(&conversation, "POST", &request_headers), parsers);
                sink.note("request-failed", Some(&e.to_string()));
                return Ok(refusal(StatusCode::BAD_REQUEST, "the request body could not be read"));
            }
        }
    } else {
        let exchange = Exchange::other(&conversation, parts.method.as_str(), &request_headers);
        (sink_of(exchange, parsers), body.boxed())
    };
    let mut sink = sink;
    sink.findings();
    if parts.method == Method::DELETE
        && let Some(id) = &session
    {
        state.forget(id);
    }

    let uri = match state.upstream.uri(&parts.uri) {
        Ok(uri) => uri,
        Err(e) => {
            waiting.armed = false;
            sink.note("upstream-unreachable", Some(&e.to_string()));
            return Ok(refusal(StatusCode::BAD_GATEWAY, "the request's path cannot be relayed"));
        }
    };
    parts.uri = uri;
    forward::strip_hop_by_hop(&mut parts.headers);
    let response = match state.client.request(Request::from_parts(parts, body)).await {
        Ok(response) => response,
        Err(e) => {
            waiting.armed = false;
            let detail = format!("{}: {e}", state.upstream);
            sink.note("upstream-unreachable", Some(&detail));
            return Ok(refusal(StatusCode::BAD_GATEWAY, &format!("mcp-envelope tap: {detail}")));
        }
    };
    waiting.armed = false;

    let (mut parts, body) = response.into_parts();
    let response_headers = headers(&parts.headers);
    let (events, json) = (response_headers.is_event_stream(), response_headers.is_json());
    sink.exchange.response(parts.status.as_u16(), &response_headers);
    sink.status = Some(parts.status.as_u16());
    sink.content_type = content_type(&parts.headers);
    if let Some(id) = session_of(&parts.headers) {
        sink.session = Some(id);
    }
    sink.findings();
    forward::strip_hop_by_hop(&mut parts.headers);
    let body = Checked::new(body, Judge::new(sink, events, json));
    Ok(Response::from_parts(parts, body.boxed()))
}

/// A response the proxy writes itself, when it cannot relay.
fn refusal(status: StatusCode, text: &str) -> Response<ProxyBody> {
    let mut response = Response::new(forward::full(format!("{text}\n")));
    *response.status_mut() = status;
    response.headers_mut().insert(CONTENT_TYPE, hyper::header::HeaderValue::from_static("text/plain; charset=utf-8"));
    response
}

/// Resolves on SIGINT or SIGTERM.
async fn stopped() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

async fn serve(listener: TcpListener, state: Arc<State>) {
    let stop = stopped();
    tokio::pin!(stop);
    loop {
        let (stream, _) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Out of descriptors, say: wait, and go on accepting.
                    eprintln!("mcp-envelope tap: accepting a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut stop => return,
        };
        let _ = stream.set_nodelay(true);
        let state = Arc::clone(&state);
        tokio::spawn(async move {
            let service = service_fn(move |request| exchange(Arc::clone(&state), request));
            // A connection's error (the client hung up) is the client's
            // business; its exchanges have logged what they saw.
            let _ = http1::Builder::new().serve_connection(TokioIo::new(stream), service).await;
        });
    }
}

pub fn run(args: &HttpArgs) -> ExitCode {
    let upstream = match Upstream::parse(&args.upstream) {
        Ok(upstream) => upstream,
        Err(e) => {
            eprintln!("mcp-envelope tap: {e}");
            return ExitCode::from(2);
        }
    };
    let log = match open_log(args.log.as_deref()) {
        Ok(log) => log,
        Err(e) => {
            eprintln!("mcp-envelope tap: {}: {e}", args.log.as_deref().unwrap_or("-"));
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("mcp-envelope tap: starting the runtime: {e}");
            return ExitCode::from(2);
        }
    };
    let state = {
        let _entered = runtime.enter();
        Arc::new(State {
            client: Client::builder(TokioExecutor::new()).build({
                // Each message is written whole: Nagle would only delay it.
                let mut connector = HttpConnector::new();
                connector.set_nodelay(true);
                connector
            }),
            upstream,
            backend: args.backend,
            limits: args.limits,
            revision: args.revision,
            log: Mutex::new(log),
            log_failed: AtomicBool::new(false),
            sessions: Mutex::new(HashMap::new()),
            sessionless: Mutex::new(Conversation::new(args.revision)),
            exchanges: AtomicU64::new(0),
            messages: AtomicU64::new(0),
            invalid: AtomicU64::new(0),
            disagreements: AtomicU64::new(0),
            findings: AtomicU64::new(0),
        })
    };
    let listener = match runtime.block_on(TcpListener::bind(args.listen)) {
        Ok(listener) => listener,
        Err(e) => {
            eprintln!("mcp-envelope tap: listening on {}: {e}", args.listen);
            return ExitCode::from(2);
        }
    };
    let address = listener.local_addr().map_or_else(|_| args.listen.to_string(), |a| a.to_string());
    // The address is the first line on standard error, so a script that
    // asked for port 0 can read the port it got.
    eprintln!("mcp-envelope tap: listening on http://{address}, relaying to {}", state.upstream);
    runtime.block_on(serve(listener, Arc::clone(&state)));
    // Open streams are dropped with the runtime; each logs that it ended.
    runtime.shutdown_timeout(Duration::from_millis(500));
    let load = |n: &AtomicU64| n.load(Ordering::Relaxed);
    eprintln!(
        "mcp-envelope tap: {} exchanges, {} messages, {} invalid, {} disagreements, {} findings",
        load(&state.exchanges),
        load(&state.messages),
        load(&state.invalid),
        load(&state.disagreements),
        load(&state.findings)
    );
    let mut log = state.log.lock().unwrap_or_else(PoisonError::into_inner);
    let _ = log.flush();
    ExitCode::SUCCESS
}
