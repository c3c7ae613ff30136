//! `mcp-envelope tap --http`: a reverse proxy in front of a Streamable
//! HTTP server that relays every request and response unchanged and logs
//! one JSON line per message either way, and one per exchange finding.
//!
//! `--upstream` is the endpoint URL as users have it (`http` or `https`,
//! with its path). The tap never changes the order in which requests
//! reach the server: it runs on one thread, so it reads requests in the
//! order they arrive, and each client connection gets its own upstream
//! connection ([`Link`]), opened when the client connects, so no request
//! waits for a connection while a later one takes an idle one. Requests
//! to the endpoint's path are judged; others (OAuth discovery under
//! `/.well-known`, say) are relayed as they are and noted.
//!
//! A request body is read (up to the size limit) and judged before it is
//! relayed, so its ids and headers are known when the response starts.
//! A response is relayed frame by frame as it arrives; each frame is read
//! on its way (event by event for an event stream), so a stream is never
//! held whole and its events are logged as they pass.

mod checked;
mod conversations;
mod forward;
mod guard;
mod sink;

use std::convert::Infallible;
use std::io::Write;
use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use http_body_util::BodyExt;
use hyper::body::Incoming;
use hyper::header::{CONTENT_TYPE, HOST, HeaderMap};
use hyper::http::request::Parts;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request, Response, StatusCode, Uri, Version};
use hyper_util::rt::TokioIo;
use mcp_envelope::Severity;
use mcp_envelope::transport::exchange::{Exchange, Finding, Flights, Headers};
use mcp_envelope::{Error, Limits};
use tokio::net::TcpListener;

use self::checked::{Checked, Judge};
use self::conversations::{Conversations, SharedFlights};
use self::forward::{Collected, Prefixed, ProxyBody};
use self::guard::Guard;
use self::sink::{From, Sink};
use super::{TapArgs, open_log};
use crate::net::{Endpoint, Link, RequestTarget};
use crate::parsers::{BackendChoice, Parsers};

/// What every exchange shares.
pub struct State {
    endpoint: Arc<Endpoint>,
    guard: Guard,
    backend: BackendChoice,
    pub limits: Limits,
    log: Mutex<Box<dyn Write + Send>>,
    log_failed: AtomicBool,
    conversations: Conversations,
    exchanges: AtomicU64,
    messages: AtomicU64,
    invalid: AtomicU64,
    disagreements: AtomicU64,
    violations: AtomicU64,
    warnings: AtomicU64,
}

impl State {
    /// Writes one log line whole (lines from concurrent exchanges never
    /// interleave), and says once if the log fails; relaying goes on.
    fn write(&self, line: Vec<u8>) {
        let mut log = self.log.lock().unwrap_or_else(PoisonError::into_inner);
        let written = log.write_all(&line).and_then(|()| log.flush());
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

    fn count_finding(&self, finding: &Finding) {
        let counter = match finding.severity() {
            Severity::Violation => &self.violations,
            Severity::Warning => &self.warnings,
        };
        counter.fetch_add(1, Ordering::Relaxed);
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
            self.state.write(crate::render::tap::note_line(self.number, self.method.as_str(), "client-gone", detail));
        }
    }
}

/// Readies a request for the upstream: its target in origin form, its
/// `Host` the endpoint's, HTTP/1.1, the hop-by-hop headers gone.
fn upstream_head(parts: &mut Parts, target: RequestTarget, endpoint: &Endpoint) {
    parts.uri = Uri::from(target.path_and_query);
    parts.version = Version::HTTP_11;
    forward::strip_hop_by_hop(&mut parts.headers);
    parts.headers.insert(HOST, endpoint.host_header().clone());
}

/// Relays a request to a path other than the endpoint's (OAuth discovery,
/// say) as it is, unjudged, with a note.
async fn off_endpoint(
    state: &State,
    link: &tokio::sync::Mutex<Link>,
    number: u64,
    request: Request<Incoming>,
    target: RequestTarget,
) -> Response<ProxyBody> {
    let (mut parts, body) = request.into_parts();
    let detail = format!(
        "{} is not the endpoint's path {}: relayed unjudged",
        target.path_and_query.path(),
        state.endpoint.path()
    );
    state.write(crate::render::tap::note_line(number, parts.method.as_str(), "off-endpoint", Some(&detail)));
    let method = parts.method.clone();
    upstream_head(&mut parts, target, &state.endpoint);
    match link.lock().await.send(Request::from_parts(parts, body.boxed())).await {
        Ok(response) => {
            let (mut parts, body) = response.into_parts();
            forward::strip_hop_by_hop(&mut parts.headers);
            Response::from_parts(parts, body.boxed())
        }
        Err(e) => {
            state.write(crate::render::tap::note_line(number, method.as_str(), "upstream-unreachable", Some(&e)));
            refusal(StatusCode::BAD_GATEWAY, &format!("mcp-envelope tap: {e}"))
        }
    }
}

/// What one client connection has of its own: its upstream connection,
/// and the request ids of its requests without a session.
struct Connection {
    link: tokio::sync::Mutex<Link>,
    flights: SharedFlights,
}

/// Relays one request and its response, judging both.
async fn exchange(
    state: Arc<State>,
    connection: Arc<Connection>,
    request: Request<Incoming>,
) -> Result<Response<ProxyBody>, Infallible> {
    let link = &connection.link;
    let number = state.exchanges.fetch_add(1, Ordering::Relaxed) + 1;
    if let Some(refused) = state.guard.refuses(request.headers()) {
        state.write(crate::render::tap::note_line(
            number,
            request.method().as_str(),
            refused.note,
            Some(&refused.detail),
        ));
        return Ok(forbidden(&refused.detail));
    }
    let target = state.endpoint.target(request.uri());
    if !target.endpoint {
        return Ok(off_endpoint(&state, link, number, request, target).await);
    }
    let mut waiting = Waiting { state: &state, number, method: request.method().clone(), armed: true };
    let (mut parts, body) = request.into_parts();
    let session = session_of(&parts.headers);
    let conversation = state.conversations.conversation(session.as_deref());
    let flights = state.conversations.flights(session.as_deref(), &connection.flights);
    let request_headers = headers(&parts.headers);
    let revision = conversation.in_force_for(&request_headers);
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
        flights: Arc::clone(&flights),
    };

    let (sink, body) = if parts.method == Method::POST {
        match forward::collect(body, max).await {
            Collected::Whole(bytes) => {
                let mut ids = flights.lock().unwrap_or_else(PoisonError::into_inner);
                let (verdicts, (exchange, found)) = parsers.verdicts_and(&bytes, |parsed| {
                    let exchange = Exchange::post(&conversation, &request_headers, &bytes, parsed);
                    let found: Vec<Finding> = match parsed {
                        Ok(envelope) => envelope
                            .items()
                            .filter_map(Result::ok)
                            .filter_map(|message| ids.posted(message, &bytes))
                            .collect(),
                        Err(_) => Vec::new(),
                    };
                    (exchange, found)
                });
                drop(ids);
                let sink = sink_of(exchange, parsers);
                sink.verdicts(From::Client, None, None, &verdicts);
                for finding in &found {
                    sink.finding(finding);
                }
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
        state.conversations.forget(id);
    }

    upstream_head(&mut parts, target, &state.endpoint);
    let sent = link.lock().await.send(Request::from_parts(parts, body)).await;
    let response = match sent {
        Ok(response) => response,
        Err(e) => {
            waiting.armed = false;
            sink.note("upstream-unreachable", Some(&e));
            return Ok(refusal(StatusCode::BAD_GATEWAY, &format!("mcp-envelope tap: {e}")));
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
    written(status, "text/plain; charset=utf-8", format!("{text}\n").into_bytes())
}

/// The 403 for a request the listener does not accept: a JSON-RPC error
/// with no id (none was read), as a client library expects a body.
fn forbidden(why: &str) -> Response<ProxyBody> {
    written(StatusCode::FORBIDDEN, "application/json", crate::render::tap::refusal_body(-32000, why))
}

/// A response of the tap's own: `status`, `body` of `content_type`.
fn written(status: StatusCode, content_type: &'static str, body: Vec<u8>) -> Response<ProxyBody> {
    let mut response = Response::new(forward::full(body));
    *response.status_mut() = status;
    response.headers_mut().insert(CONTENT_TYPE, hyper::header::HeaderValue::from_static(content_type));
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
        // The link opens now, while the client writes its first request.
        let connection = Arc::new(Connection {
            link: tokio::sync::Mutex::new(Link::open(Arc::clone(&state.endpoint))),
            flights: Arc::new(Mutex::new(Flights::default())),
        });
        tokio::spawn(async move {
            let service = service_fn(move |request| exchange(Arc::clone(&state), Arc::clone(&connection), request));
            // A connection's error (the client hung up) is the client's
            // business; its exchanges have logged what they saw.
            let _ = http1::Builder::new().serve_connection(TokioIo::new(stream), service).await;
        });
    }
}

pub fn run(args: &TapArgs, limits: Limits, listen: SocketAddr, upstream: &str) -> ExitCode {
    let endpoint = match Endpoint::parse(upstream, args.upstream_ca.as_deref()) {
        Ok(endpoint) => Arc::new(endpoint),
        Err(e) => {
            eprintln!("mcp-envelope tap: --upstream {}: {e}", crate::net::redacted(upstream));
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
    // One thread: readiness is handled in the order the kernel reports it,
    // so requests a client writes a moment apart on two connections are
    // relayed in that order, as a server's own event loop would take them
    // directly. On two threads either could go first, and a POST that
    // overtook the GET stream opened just before it ran its tool before
    // the server had a stream for the tool's request to the client.
    let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("mcp-envelope tap: starting the runtime: {e}");
            return ExitCode::from(2);
        }
    };
    let listener = match runtime.block_on(TcpListener::bind(listen)) {
        Ok(listener) => listener,
        Err(e) => {
            eprintln!("mcp-envelope tap: listening on {}: {e}", listen);
            return ExitCode::from(2);
        }
    };
    let bound = listener.local_addr().unwrap_or(listen);
    let state = Arc::new(State {
        endpoint,
        guard: Guard::new(bound, &args.allow_host, &args.allow_origin),
        backend: args.backend,
        limits,
        log: Mutex::new(log),
        log_failed: AtomicBool::new(false),
        conversations: Conversations::new(args.revision),
        exchanges: AtomicU64::new(0),
        messages: AtomicU64::new(0),
        invalid: AtomicU64::new(0),
        disagreements: AtomicU64::new(0),
        violations: AtomicU64::new(0),
        warnings: AtomicU64::new(0),
    });
    let address = listener.local_addr().map_or_else(|_| listen.to_string(), |a| a.to_string());
    // The address is the first line on standard error, so a script that
    // asked for port 0 can read the port it got.
    let path = Some(state.endpoint.path()).filter(|p| *p != "/").unwrap_or_default();
    eprintln!("mcp-envelope tap: listening on http://{address}{path}, relaying to {}", state.endpoint);
    if !state.guard.is_loopback() {
        eprintln!(
            "mcp-envelope tap: {address} is reachable from the network: anyone who can reach it reaches {} through \
             it (any Host is accepted; an Origin must still be a loopback one or --allow-origin)",
            state.endpoint
        );
    }
    runtime.block_on(serve(listener, Arc::clone(&state)));
    // Open streams are dropped with the runtime; each logs that it ended.
    runtime.shutdown_timeout(Duration::from_millis(500));
    let load = |n: &AtomicU64| n.load(Ordering::Relaxed);
    eprintln!(
        "mcp-envelope tap: {} exchanges, {} messages, {} invalid, {} disagreements, {} violations, {} warnings",
        load(&state.exchanges),
        load(&state.messages),
        load(&state.invalid),
        load(&state.disagreements),
        load(&state.violations),
        load(&state.warnings)
    );
    let mut log = state.log.lock().unwrap_or_else(PoisonError::into_inner);
    let _ = log.flush();
    ExitCode::SUCCESS
}
