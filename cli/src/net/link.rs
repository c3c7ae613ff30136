//! One HTTP/1.1 connection to the endpoint, opened as soon as it is made
//! and opened again when the server has closed it.
//!
//! The tap gives each client connection a link of its own, opened when the
//! client connects, so a request never waits for a connection to open
//! while a request the client sent after it takes an idle one from a
//! shared pool and overtakes it (as a GET stream opened just before a
//! `tools/call` was overtaken, through a pool, by the POST).

use std::sync::Arc;

use hyper::Request;
use hyper::Response;
use hyper::body::Incoming;
use hyper::client::conn::http1::{self, SendRequest};
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;
use tokio::task::JoinHandle;

use super::{Body, Endpoint};

enum State {
    /// No connection (the last one closed, or failed to open).
    Closed,
    /// Opening, in the background.
    Opening(JoinHandle<Result<SendRequest<Body>, String>>),
    Open(SendRequest<Body>),
}

/// A connection to the endpoint that follows one client connection.
pub struct Link {
    endpoint: Arc<Endpoint>,
    state: State,
    /// Header names written in title case (`Mcp-Method`) rather than
    /// hyper's lower case: the probe's check that a server matches names
    /// whatever their case.
    title_case: bool,
}

impl Link {
    /// A link that starts connecting at once (in a task of the current
    /// tokio runtime), so the connection is ready or nearly when the first
    /// request comes.
    pub fn open(endpoint: Arc<Endpoint>) -> Link {
        let state = State::Opening(tokio::spawn(connect(Arc::clone(&endpoint), false)));
        Link { endpoint, state, title_case: false }
    }

    /// A link whose requests' header names go out in title case.
    pub fn open_title_case(endpoint: Arc<Endpoint>) -> Link {
        let state = State::Opening(tokio::spawn(connect(Arc::clone(&endpoint), true)));
        Link { endpoint, state, title_case: true }
    }

    /// Sends one request and waits for the response's head. A request the
    /// connection closed under before sending any of it goes once more on
    /// a new connection; any other failure is the caller's to report.
    pub async fn send(&mut self, request: Request<Body>) -> Result<Response<Incoming>, String> {
        let mut request = request;
        let mut retried = false;
        loop {
            let sender = self.ready().await?;
            match sender.try_send_request(request).await {
                Ok(response) => return Ok(response),
                Err(mut failed) => {
                    let error = failed.error().to_string();
                    self.state = State::Closed;
                    match failed.take_message() {
                        Some(unsent) if !retried => {
                            request = unsent;
                            retried = true;
                        }
                        _ => return Err(format!("{}: {error}", self.endpoint)),
                    }
                }
            }
        }
    }

    /// The open connection, ready for a request: the one opening, or the
    /// one open if the server has not closed it, or a new one.
    async fn ready(&mut self) -> Result<&mut SendRequest<Body>, String> {
        let mut fresh = false;
        loop {
            match &mut self.state {
                State::Open(sender) if !sender.is_closed() => {
                    if sender.ready().await.is_ok() {
                        break;
                    }
                    self.state = State::Closed;
                    if fresh {
                        return Err(format!("{}: the connection closed as it opened", self.endpoint));
                    }
                }
                State::Open(_) | State::Closed => {
                    self.state = State::Opening(tokio::spawn(connect(Arc::clone(&self.endpoint), self.title_case)));
                }
                State::Opening(opening) => {
                    let opened = opening.await.unwrap_or_else(|e| Err(format!("{}: {e}", self.endpoint)));
                    fresh = true;
                    match opened {
                        Ok(sender) => self.state = State::Open(sender),
                        Err(e) => {
                            self.state = State::Closed;
                            return Err(e);
                        }
                    }
                }
            }
        }
        match &mut self.state {
            State::Open(sender) => Ok(sender),
            State::Closed | State::Opening(_) => Err(format!("{}: no connection", self.endpoint)),
        }
    }
}

/// Opens a connection: TCP, then TLS for `https`, then HTTP/1.1, whose
/// connection task runs until the link drops its sender.
async fn connect(endpoint: Arc<Endpoint>, title_case: bool) -> Result<SendRequest<Body>, String> {
    let tcp = TcpStream::connect((endpoint.host.as_str(), endpoint.port))
        .await
        .map_err(|e| format!("{endpoint}: connecting: {e}"))?;
    // Each message is written whole: Nagle would only delay it.
    let _ = tcp.set_nodelay(true);
    match &endpoint.tls {
        None => handshake(tcp, title_case).await,
        Some((connector, name)) => {
            let tls = connector.connect(name.clone(), tcp).await.map_err(|e| format!("{endpoint}: TLS: {e}"))?;
            handshake(tls, title_case).await
        }
    }
    .map_err(|e| format!("{endpoint}: {e}"))
}

async fn handshake<T>(io: T, title_case: bool) -> Result<SendRequest<Body>, hyper::Error>
where
    T: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let (sender, connection) = http1::Builder::new().title_case_headers(title_case).handshake(TokioIo::new(io)).await?;
    tokio::spawn(async move {
        // An error here is the server closing: the next send sees it.
        let _ = connection.await;
    });
    Ok(sender)
}
