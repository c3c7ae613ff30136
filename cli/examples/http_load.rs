//! `tap --http` under load, against an in-process upstream on loopback:
//! the latency it adds to an exchange (p50 and p99 of sequential POSTs,
//! direct and through the tap), how soon an event arrives after the
//! upstream wrote it (direct and through the tap), and many concurrent
//! event streams held open at once, each event counted and compared, with
//! the tap's peak memory and its log's line count.
//!
//!   cargo run --release -p mcp-envelope-cli --example http_load -- [--sessions N] [--events N] [--posts N]
//!
//! It runs the tap from the same target folder (build it with `cargo
//! build --release -p mcp-envelope-cli` first). Figures are from one run;
//! quote medians and ratios, on a machine doing nothing else.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, reason = "a load driver")]

use std::convert::Infallible;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::pin::Pin;
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body::{Body, Frame};
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::{Request, Response};
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::{TokioExecutor, TokioIo};
use tokio::sync::mpsc;

/// The moment both the upstream and the client measure from.
fn epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

fn micros_now() -> u64 {
    u64::try_from(epoch().elapsed().as_micros()).unwrap()
}

/// A response body fed from a channel, frame by frame as the upstream
/// writes.
struct Channel(mpsc::Receiver<Bytes>);

impl Body for Channel {
    type Data = Bytes;
    type Error = Infallible;
    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        self.0.poll_recv(cx).map(|b| b.map(|b| Ok(Frame::data(b))))
    }
}

type Out = BoxBody<Bytes, Infallible>;

/// The upstream: a POST whose method is `stream` gets an event stream of
/// `params.events` notifications, `params.gap_ms` apart, then the result;
/// anything else gets the result as JSON at once. Each event carries the
/// session, its number and the microsecond it was written.
async fn upstream(request: Request<Incoming>) -> Result<Response<Out>, Infallible> {
    let body = request.into_body().collect().await.unwrap().to_bytes();
    let message: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
    let id = message["id"].clone();
    let result = serde_json::json!({"jsonrpc": "2.0", "id": id, "result": {}}).to_string();
    if message["method"] != "stream" {
        let response = Response::builder()
            .header("content-type", "application/json")
            .body(Full::new(Bytes::from(result)).boxed())
            .unwrap();
        return Ok(response);
    }
    let (events, gap) = (message["params"]["events"].as_u64().unwrap(), message["params"]["gap_ms"].as_u64().unwrap());
    let session = message["params"]["session"].as_u64().unwrap();
    let (tx, rx) = mpsc::channel(4);
    tokio::spawn(async move {
        let _ = tx.send(Bytes::from_static(b"id: 0\ndata: \n\n")).await;
        for n in 0..events {
            tokio::time::sleep(Duration::from_millis(gap)).await;
            let note = serde_json::json!({"jsonrpc": "2.0", "method": "notifications/progress",
                "params": {"progressToken": session, "progress": n, "sent": micros_now()}});
            let event = format!("event: message\nid: {session}-{n}\ndata: {note}\n\n");
            if tx.send(Bytes::from(event)).await.is_err() {
                return;
            }
        }
        let _ = tx.send(Bytes::from(format!("event: message\ndata: {result}\n\n"))).await;
    });
    Ok(Response::builder().header("content-type", "text/event-stream").body(Channel(rx).boxed()).unwrap())
}

async fn serve_upstream() -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move {
        loop {
            let (stream, _) = listener.accept().await.unwrap();
            let _ = stream.set_nodelay(true);
            tokio::spawn(async move {
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), hyper::service::service_fn(upstream))
                    .await;
            });
        }
    });
    address
}

fn post(address: SocketAddr, body: String) -> Request<Full<Bytes>> {
    Request::post(format!("http://{address}/mcp"))
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2025-11-25")
        .body(Full::new(Bytes::from(body)))
        .unwrap()
}

fn percentile(sorted: &[u64], p: f64) -> u64 {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// Round trips of `n` sequential POSTs on one kept-alive connection, in µs.
async fn round_trips(client: &Client<HttpConnector, Full<Bytes>>, address: SocketAddr, n: usize) -> Vec<u64> {
    let mut times = Vec::with_capacity(n);
    for i in 0..n {
        let body = format!(r#"{{"jsonrpc":"2.0","id":{i},"method":"ping"}}"#);
        let start = Instant::now();
        let response = client.request(post(address, body)).await.unwrap();
        let _ = response.into_body().collect().await.unwrap();
        times.push(u64::try_from(start.elapsed().as_micros()).unwrap());
    }
    times.sort_unstable();
    times
}

/// One stream: the delay of each event (µs from the upstream's write to
/// its arrival here), and whether every event came once, in order, intact.
async fn stream(
    client: &Client<HttpConnector, Full<Bytes>>,
    address: SocketAddr,
    session: u64,
    events: u64,
    gap_ms: u64,
) -> (Vec<u64>, bool) {
    let body = format!(
        r#"{{"jsonrpc":"2.0","id":{session},"method":"stream","params":{{"session":{session},"events":{events},"gap_ms":{gap_ms}}}}}"#
    );
    let response = client.request(post(address, body)).await.unwrap();
    let mut body = response.into_body();
    let (mut pending, mut delays, mut seen) = (Vec::new(), Vec::new(), 0u64);
    let mut intact = true;
    while let Some(frame) = body.frame().await {
        let Ok(data) = frame.unwrap().into_data() else { continue };
        pending.extend_from_slice(&data);
        while let Some(end) = pending.windows(2).position(|w| w == b"\n\n") {
            let event: Vec<u8> = pending.drain(..end + 2).collect();
            let text = String::from_utf8(event).unwrap();
            let Some(data) = text.lines().find_map(|l| l.strip_prefix("data: ")).filter(|d| !d.is_empty()) else {
                continue;
            };
            let message: serde_json::Value = serde_json::from_str(data).unwrap();
            if message["method"] == "notifications/progress" {
                delays.push(micros_now().saturating_sub(message["params"]["sent"].as_u64().unwrap()));
                intact &= message["params"]["progress"] == seen && message["params"]["progressToken"] == session;
                intact &= text.contains(&format!("id: {session}-{seen}\n"));
                seen += 1;
            } else {
                intact &= message["id"] == session && seen == events;
            }
        }
    }
    (delays, intact && seen == events)
}

fn peak_rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

fn arg(name: &str, default: u64) -> u64 {
    let args: Vec<String> = std::env::args().collect();
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).map_or(default, |v| v.parse().unwrap())
}

#[tokio::main]
async fn main() {
    let (sessions, events, posts) = (arg("--sessions", 200), arg("--events", 20), arg("--posts", 2000));
    epoch();
    let upstream = serve_upstream().await;
    let exe = std::env::current_exe().unwrap();
    let tap_bin = exe.parent().and_then(|examples| examples.parent()).unwrap().join("mcp-envelope");
    let log = std::env::temp_dir().join(format!("http-load-{}.jsonl", std::process::id()));
    let mut tap = Command::new(&tap_bin)
        .args(["tap", "--http", "--listen", "127.0.0.1:0", "--upstream", &format!("http://{upstream}")])
        .args(["--revision", "2025-11-25", "--log", log.to_str().unwrap()])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{}: {e} (build it: cargo build --release -p mcp-envelope-cli)", tap_bin.display()));
    let mut first = String::new();
    BufReader::new(tap.stderr.take().unwrap()).read_line(&mut first).unwrap();
    let proxy: SocketAddr = first.split("http://").nth(1).and_then(|a| a.split(',').next()).unwrap().parse().unwrap();
    let client: Client<HttpConnector, Full<Bytes>> = Client::builder(TokioExecutor::new()).build({
        let mut connector = HttpConnector::new();
        connector.set_nodelay(true);
        connector
    });

    // Warm both paths, then time them alternately.
    let _ = round_trips(&client, upstream, 200).await;
    let _ = round_trips(&client, proxy, 200).await;
    let direct = round_trips(&client, upstream, posts as usize).await;
    let through = round_trips(&client, proxy, posts as usize).await;
    println!("| round trip of a POST (µs) | p50 | p99 |");
    println!("|---|---|---|");
    println!("| direct | {} | {} |", percentile(&direct, 0.5), percentile(&direct, 0.99));
    println!("| through tap --http | {} | {} |", percentile(&through, 0.5), percentile(&through, 0.99));
    println!(
        "| added | {} | {} |\n",
        percentile(&through, 0.5).saturating_sub(percentile(&direct, 0.5)),
        percentile(&through, 0.99).saturating_sub(percentile(&direct, 0.99))
    );

    let mut delays_direct = stream(&client, upstream, 0, 50, 10).await.0;
    let mut delays_tap = stream(&client, proxy, 0, 50, 10).await.0;
    delays_direct.sort_unstable();
    delays_tap.sort_unstable();
    println!("| event written upstream to read by the client (µs) | p50 | max |");
    println!("|---|---|---|");
    println!("| direct | {} | {} |", percentile(&delays_direct, 0.5), delays_direct.last().unwrap());
    println!("| through tap --http | {} | {} |\n", percentile(&delays_tap, 0.5), delays_tap.last().unwrap());

    // Every session's stream open at once: events 100 ms apart.
    let start = Instant::now();
    let mut tasks = Vec::new();
    for session in 1..=sessions {
        let client = client.clone();
        tasks.push(tokio::spawn(async move { stream(&client, proxy, session, events, 100).await }));
    }
    let (mut intact, mut delays) = (0, Vec::new());
    for task in tasks {
        let (d, ok) = task.await.unwrap();
        intact += u64::from(ok);
        delays.extend(d);
    }
    delays.sort_unstable();
    let rss = peak_rss_kib(tap.id());
    let _ = Command::new("kill").args(["-INT", &tap.id().to_string()]).status();
    let _ = tap.wait();
    let lines = std::fs::read_to_string(&log).unwrap_or_default();
    let messages = lines.lines().filter(|l| l.contains("\"kind\"")).count() as u64;
    // Two messages per POST timed (and warmed), 52 for the single stream,
    // and each session's request, events and result.
    let expected = (200 + posts) * 2 + 52 + sessions * (events + 2);
    println!(
        "{sessions} concurrent sessions, {events} events each, in {:.1} s: {intact} of {sessions} streams intact \
         (every event once, in order, unaltered), {} events received of {}; event delay p50 {} µs, max {} µs; \
         tap peak RSS {:.1} MiB; log: {messages} message lines of {expected} messages",
        start.elapsed().as_secs_f64(),
        delays.len(),
        sessions * events,
        percentile(&delays, 0.5),
        delays.last().unwrap(),
        rss as f64 / 1024.0
    );
    let _ = std::fs::remove_file(&log);
}
