//! `tap --http` under load, against an in-process upstream on loopback:
//! the latency it adds to an exchange (p50 and p99 of sequential POSTs,
//! direct, through a plain TCP relay and through the tap; the relay, this
//! program again in a process of its own, reads nothing and is the floor
//! of any proxy, a second loopback hop), how soon an event arrives after the
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

/// The `p` quantile of `sorted`; 0 for no figures (`--sessions 0`).
fn percentile(sorted: &[u64], p: f64) -> u64 {
    let last = sorted.len().saturating_sub(1);
    sorted.get((last as f64 * p).round() as usize).copied().unwrap_or(0)
}

/// Round trips of `n` sequential POSTs on one kept-alive connection, in µs,
/// in the order they ran.
async fn round_trips(client: &Client<HttpConnector, Full<Bytes>>, address: SocketAddr, n: usize) -> Vec<u64> {
    let mut times = Vec::with_capacity(n);
    for i in 0..n {
        let body = format!(r#"{{"jsonrpc":"2.0","id":{i},"method":"ping"}}"#);
        let start = Instant::now();
        let response = client.request(post(address, body)).await.unwrap();
        let _ = response.into_body().collect().await.unwrap();
        times.push(u64::try_from(start.elapsed().as_micros()).unwrap());
    }
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

/// Time the process has run on a CPU, in ns, and the times it gave the
/// CPU up or had it taken (`/proc/PID/schedstat`, `/proc/PID/status`).
fn cpu_and_switches(pid: u32) -> (u64, u64) {
    let cpu = std::fs::read_to_string(format!("/proc/{pid}/schedstat"))
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|n| n.parse().ok()))
        .unwrap_or(0);
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let switches = status
        .lines()
        .filter(|l| l.contains("ctxt_switches:"))
        .filter_map(|l| l.split_whitespace().nth(1).and_then(|n| n.parse::<u64>().ok()))
        .sum();
    (cpu, switches)
}

/// A child process killed when this program ends, whichever way.
struct Killed(std::process::Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
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

/// The floor of any proxy: this program again, as a process that relays
/// bytes both ways and reads none (one thread, `TCP_NODELAY` both ways,
/// as the tap). Prints its address on standard error, as the tap does.
fn relay(upstream: SocketAddr) {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        eprintln!("relay: listening on http://{}, relaying to {upstream}", listener.local_addr().unwrap());
        loop {
            let (mut client, _) = listener.accept().await.unwrap();
            tokio::spawn(async move {
                let Ok(mut server) = tokio::net::TcpStream::connect(upstream).await else { return };
                let _ = (client.set_nodelay(true), server.set_nodelay(true));
                let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
            });
        }
    });
}

/// Starts `command`, whose first line on standard error names the
/// address it listens on.
fn listening(command: &mut Command) -> (std::process::Child, SocketAddr) {
    let mut child = command
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{command:?}: {e} (build the tap: cargo build --release -p mcp-envelope-cli)"));
    let mut first = String::new();
    BufReader::new(child.stderr.take().unwrap()).read_line(&mut first).unwrap();
    let address =
        first.split("http://").nth(1).and_then(|a| a.split([',', '/']).next()).unwrap().trim().parse().unwrap();
    (child, address)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(upstream) = args.iter().position(|a| a == "--relay").and_then(|i| args.get(i + 1)) {
        return relay(upstream.parse().unwrap());
    }
    tokio::runtime::Builder::new_multi_thread().enable_all().build().unwrap().block_on(run());
}

async fn run() {
    let (sessions, events, posts) = (arg("--sessions", 200), arg("--events", 20), arg("--posts", 2000));
    epoch();
    let upstream = serve_upstream().await;
    let exe = std::env::current_exe().unwrap();
    let tap_bin = exe.parent().and_then(|examples| examples.parent()).unwrap().join("mcp-envelope");
    let log = std::env::temp_dir().join(format!("http-load-{}.jsonl", std::process::id()));
    let (tap, proxy) = listening(
        Command::new(&tap_bin)
            .args(["tap", "--http", "--listen", "127.0.0.1:0", "--upstream", &format!("http://{upstream}")])
            .args(["--revision", "2025-11-25", "--log", log.to_str().unwrap()]),
    );
    let mut tap = Killed(tap);
    let (relay, relayed) = listening(Command::new(&exe).args(["--relay", &upstream.to_string()]));
    let relay = Killed(relay);
    let client: Client<HttpConnector, Full<Bytes>> = Client::builder(TokioExecutor::new()).build({
        let mut connector = HttpConnector::new();
        connector.set_nodelay(true);
        connector
    });

    // Warm every path, then time them in turn, a block of POSTs each at a
    // time, so that a busy moment of the machine falls on all three alike.
    for address in [upstream, relayed, proxy] {
        let _ = round_trips(&client, address, 200).await;
    }
    let (mut direct, mut plain, mut through) = (Vec::new(), Vec::new(), Vec::new());
    let (relay_before, before) = (cpu_and_switches(relay.0.id()), cpu_and_switches(tap.0.id()));
    let (block, mut uncounted) = ((posts as usize).div_ceil(20), 0);
    while direct.len() < posts as usize {
        uncounted += 5;
        for (address, times) in [(upstream, &mut direct), (relayed, &mut plain), (proxy, &mut through)] {
            // The first few after the switch wake a path that sat idle
            // (caches, the scheduler): not counted, or the blocks' starts
            // would be the p99.
            let _ = round_trips(&client, address, 5).await;
            times.extend(round_trips(&client, address, block).await);
        }
    }
    let (relay_after, after) = (cpu_and_switches(relay.0.id()), cpu_and_switches(tap.0.id()));
    for times in [&mut direct, &mut plain, &mut through] {
        times.sort_unstable();
    }
    let posts = direct.len() as u64;
    // Each proxy's CPU time went to the uncounted requests too.
    let exchanges = (direct.len() + uncounted) as f64;
    drop(relay);
    let added = |over: &[u64], under: &[u64], p| percentile(over, p).saturating_sub(percentile(under, p));
    println!("| round trip of a POST (µs) | p50 | p99 |");
    println!("|---|---|---|");
    println!("| direct | {} | {} |", percentile(&direct, 0.5), percentile(&direct, 0.99));
    println!("| through a plain TCP relay | {} | {} |", percentile(&plain, 0.5), percentile(&plain, 0.99));
    println!("| through tap --http | {} | {} |", percentile(&through, 0.5), percentile(&through, 0.99));
    println!(
        "| added by the relay (a second hop) | {} | {} |",
        added(&plain, &direct, 0.5),
        added(&plain, &direct, 0.99)
    );
    println!("| added by the tap | {} | {} |", added(&through, &direct, 0.5), added(&through, &direct, 0.99));
    println!("| the tap over the relay | {} | {} |\n", added(&through, &plain, 0.5), added(&through, &plain, 0.99));
    let per_post = |(cpu0, switches0): (u64, u64), (cpu1, switches1): (u64, u64)| {
        ((cpu1 - cpu0) as f64 / 1000.0 / exchanges, (switches1 - switches0) as f64 / exchanges)
    };
    let (tap_cpu, tap_switches) = per_post(before, after);
    let (relay_cpu, relay_switches) = per_post(relay_before, relay_after);
    println!(
        "Time on a CPU an exchange: the tap {tap_cpu:.1} µs ({tap_switches:.1} context switches), \
         the relay {relay_cpu:.1} µs ({relay_switches:.1}).\n"
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
    let rss = peak_rss_kib(tap.0.id());
    // SIGINT, so that the tap writes its log out before it goes.
    let _ = Command::new("kill").args(["-INT", &tap.0.id().to_string()]).status();
    let _ = tap.0.wait();
    let lines = std::fs::read_to_string(&log).unwrap_or_default();
    let messages = lines.lines().filter(|l| l.contains("\"kind\"")).count() as u64;
    // Two messages per POST timed (and warmed), 52 for the single stream,
    // and each session's request, events and result.
    let expected = (200 + posts + uncounted as u64) * 2 + 52 + sessions * (events + 2);
    println!(
        "{sessions} concurrent sessions, {events} events each, in {:.1} s: {intact} of {sessions} streams intact \
         (every event once, in order, unaltered), {} events received of {}; event delay p50 {} µs, max {} µs; \
         tap peak RSS {:.1} MiB; log: {messages} message lines of {expected} messages",
        start.elapsed().as_secs_f64(),
        delays.len(),
        sessions * events,
        percentile(&delays, 0.5),
        delays.last().copied().unwrap_or(0),
        rss as f64 / 1024.0
    );
    let _ = std::fs::remove_file(&log);
}
