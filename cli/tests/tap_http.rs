//! `mcp-envelope tap --http` between a raw HTTP client and a scripted
//! upstream (both here, byte-exact): relay unchanged, an event stream
//! passed on event by event as it arrives, one log line per message and
//! per finding, and an upstream that is gone, dies mid-stream, or is sent
//! more than the size limit; the endpoint URL as users give it (a path,
//! https with a private CA) and one upstream connection per client
//! connection.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, reason = "tests fail loudly")]

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread;
use std::time::{Duration, Instant};

use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};
use serde_json::Value;
use tokio_rustls::rustls::{ServerConfig, ServerConnection, StreamOwned, crypto};

use common::certs;

/// What the scripted upstream does on one connection, after reading the
/// request.
enum Step {
    Send(Vec<u8>),
    /// Waits for the test's go-ahead.
    WaitFor(Receiver<()>),
}

/// A scripted upstream: each connection gets the next script, and the raw
/// request it read goes to `requests`.
struct Upstream {
    port: u16,
    requests: Receiver<Vec<u8>>,
}

/// One request, head and body; what came before the end (or a failure:
/// a TLS client that gave up) when the stream ends first.
fn read_request(stream: &mut impl Read) -> Vec<u8> {
    let mut request = Vec::new();
    let mut byte = [0u8; 1];
    while !request.ends_with(b"\r\n\r\n") {
        if stream.read(&mut byte).unwrap_or(0) == 0 {
            return request;
        }
        request.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&request).to_ascii_lowercase();
    let length =
        head.lines().find_map(|l| l.strip_prefix("content-length:")).map_or(0, |v| v.trim().parse::<usize>().unwrap());
    let mut body = vec![0; length];
    if stream.read_exact(&mut body).is_ok() {
        request.extend(body);
    }
    request
}

fn upstream(scripts: Vec<Vec<Step>>) -> Upstream {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let (sent, requests) = mpsc::channel();
    thread::spawn(move || {
        for script in scripts {
            let (mut stream, _) = listener.accept().unwrap();
            sent.send(read_request(&mut stream)).unwrap();
            for step in script {
                match step {
                    // The proxy may have closed its side (a client gone).
                    Step::Send(bytes) => {
                        let _ = stream.write_all(&bytes).and_then(|()| stream.flush());
                    }
                    Step::WaitFor(go) => go.recv().unwrap(),
                }
            }
            // Closing ends a response without a length, and says the
            // connection is not reused.
        }
    });
    Upstream { port, requests }
}

struct Tap {
    child: Child,
    port: u16,
    log: PathBuf,
}

impl Tap {
    fn start(name: &str, upstream: u16, extra: &[&str]) -> Tap {
        Tap::start_at(name, &format!("http://127.0.0.1:{upstream}"), extra).0
    }

    /// A tap in front of `url`, and the first line it printed.
    fn start_at(name: &str, url: &str, extra: &[&str]) -> (Tap, String) {
        let dir = std::env::temp_dir().join(format!("mcp-envelope-tap-http-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let log = dir.join("log.jsonl");
        let mut child = Command::new(env!("CARGO_BIN_EXE_mcp-envelope"))
            .args(["tap", "--http", "--listen", "127.0.0.1:0", "--upstream", url])
            .args(["--log", log.to_str().unwrap()])
            .args(extra)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = String::new();
        BufReader::new(child.stderr.take().unwrap()).read_line(&mut first).unwrap();
        let address = first.split("http://").nth(1).and_then(|a| a.split([',', '/']).next()).unwrap();
        let port = address.rsplit(':').next().unwrap().parse().unwrap();
        (Tap { child, port, log }, first)
    }

    fn connect(&self) -> TcpStream {
        let stream = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        stream
    }

    /// Sends a POST and reads the whole response.
    fn post(&self, headers: &[(&str, &str)], body: &[u8]) -> Vec<u8> {
        let mut stream = self.connect();
        stream.write_all(&post(self.port, headers, body)).unwrap();
        let mut response = Vec::new();
        stream.read_to_end(&mut response).unwrap();
        response
    }

    /// The log's lines, once it has `count` of them.
    fn log(&self, count: usize) -> Vec<Value> {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let text = std::fs::read_to_string(&self.log).unwrap_or_default();
            // Whole lines only: the tap may be writing the last one.
            let whole = text.rfind('\n').map_or("", |end| &text[..end]);
            let lines: Vec<Value> = whole.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
            if lines.len() >= count || Instant::now() > deadline {
                return lines;
            }
            thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Tap {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A POST to the tap on `port`, naming it in `Host` as a client does.
fn post(port: u16, headers: &[(&str, &str)], body: &[u8]) -> Vec<u8> {
    let mut request = format!("POST /mcp?x=1 HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n").into_bytes();
    for (name, value) in headers {
        request.extend(format!("{name}: {value}\r\n").bytes());
    }
    request.extend(format!("Content-Length: {}\r\n\r\n", body.len()).bytes());
    request.extend(body);
    request
}

/// The body of an HTTP/1.1 response, chunked or not.
fn body_of(response: &[u8]) -> (String, Vec<u8>) {
    let split = response.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    let head = String::from_utf8_lossy(&response[..split]).into_owned();
    let mut rest = &response[split + 4..];
    if !head.to_ascii_lowercase().contains("transfer-encoding: chunked") {
        return (head, rest.to_vec());
    }
    let mut body = Vec::new();
    loop {
        let end = rest.windows(2).position(|w| w == b"\r\n").unwrap();
        let size = usize::from_str_radix(std::str::from_utf8(&rest[..end]).unwrap().trim(), 16).unwrap();
        if size == 0 {
            return (head, body);
        }
        body.extend(&rest[end + 2..end + 2 + size]);
        rest = &rest[end + 4 + size..];
    }
}

const JSON: (&str, &str) = ("Content-Type", "application/json");
const ACCEPT: (&str, &str) = ("Accept", "application/json, text/event-stream");
const V1125: (&str, &str) = ("MCP-Protocol-Version", "2025-11-25");
const PING: &[u8] = br#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#;

fn json_response(body: &str) -> Vec<u8> {
    format!(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Server: scripted\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

const SSE_HEAD: &[u8] = b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n\r\n";

#[test]
fn tap_http_relays_a_json_exchange_unchanged_and_logs_each_message_once() {
    let answer = r#"{"jsonrpc":"2.0","id":7,"result":{}}"#;
    let up = upstream(vec![vec![Step::Send(json_response(answer))]]);
    let tap = Tap::start("json", up.port, &["--revision", "2025-11-25"]);
    let response = tap.post(&[ACCEPT, JSON, V1125, ("X-Trace", "abc")], PING);
    let (head, body) = body_of(&response);
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(head.to_ascii_lowercase().contains("x-server: scripted"), "{head}");
    assert_eq!(body, answer.as_bytes());
    // Upstream got the path, the query and the body unchanged, and its own
    // name as the Host (a server behind a name serves by it).
    let request = up.requests.recv().unwrap();
    let text = String::from_utf8_lossy(&request);
    assert!(text.starts_with("POST /mcp?x=1 HTTP/1.1\r\n"), "{text}");
    assert!(text.to_ascii_lowercase().contains(&format!("host: 127.0.0.1:{}\r\n", up.port)), "{text}");
    assert!(!text.to_ascii_lowercase().contains(&format!("host: 127.0.0.1:{}\r\n", tap.port)), "{text}");
    assert!(text.contains("X-Trace: abc\r\n") || text.contains("x-trace: abc\r\n"), "{text}");
    assert!(request.ends_with(PING));
    let log = tap.log(2);
    assert_eq!(log.len(), 2, "{log:?}");
    assert_eq!(
        (&log[0]["exchange"], &log[0]["direction"], &log[0]["http_method"], &log[0]["kind"], &log[0]["id"]),
        (&Value::from(1), &Value::from("client"), &Value::from("POST"), &Value::from("request"), &Value::from(7))
    );
    assert_eq!(
        (&log[1]["direction"], &log[1]["status"], &log[1]["kind"]),
        (&"server".into(), &200.into(), &"result".into())
    );
    assert_eq!(log[1]["content_type"], "application/json");
}

#[test]
fn tap_http_passes_an_event_stream_on_event_by_event_as_it_arrives() {
    let (go, wait) = mpsc::channel::<()>();
    let first = b"id: a1\r\ndata:\r\n\r\n: keep-alive\r\nevent: message\r\nid: a2\r\ndata: {\"jsonrpc\":\"2.0\",\r\ndata: \"method\":\"notifications/progress\",\"params\":{\"progressToken\":1,\"progress\":1}}\r\n\r\n";
    let second = b"id: a3\r\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}\r\n\r\n";
    let up = upstream(vec![vec![
        Step::Send(SSE_HEAD.to_vec()),
        Step::Send(first.to_vec()),
        Step::WaitFor(wait),
        Step::Send(second.to_vec()),
    ]]);
    let tap = Tap::start("sse", up.port, &["--revision", "2025-11-25"]);
    let mut stream = tap.connect();
    stream.write_all(&post(tap.port, &[ACCEPT, JSON, V1125], PING)).unwrap();
    // The first events reach the client and the log while the upstream
    // still holds the response back.
    let mut seen = Vec::new();
    let mut buf = [0u8; 4096];
    while !seen.windows(10).any(|w| w == b"progress\":") {
        let n = stream.read(&mut buf).unwrap();
        assert!(n > 0, "the stream ended before its first event");
        seen.extend(&buf[..n]);
    }
    let log = tap.log(2);
    assert_eq!(log.len(), 2, "{log:?}");
    assert_eq!(
        (&log[1]["kind"], &log[1]["event_id"], &log[1]["line"]),
        (&"notification".into(), &"a2".into(), &5.into())
    );
    go.send(()).unwrap();
    stream.read_to_end(&mut seen).unwrap();
    let (_, body) = body_of(&seen);
    assert_eq!(body, [&first[..], &second[..]].concat(), "relayed unchanged, CRLF and comments included");
    let log = tap.log(3);
    assert_eq!(log.len(), 3, "one line per message, none for the priming event: {log:?}");
    assert_eq!((&log[2]["kind"], &log[2]["id"], &log[2]["event_id"]), (&"result".into(), &7.into(), &"a3".into()));
}

#[test]
fn tap_http_logs_a_2026_07_28_header_mismatch_with_its_32020_reply() {
    let call = br#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"delete_repo","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
    let refusal = r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32020,"message":"header mismatch"}}"#;
    let up = upstream(vec![vec![Step::Send(
        format!(
            "HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{refusal}",
            refusal.len()
        )
        .into_bytes(),
    )]]);
    let tap = Tap::start("mirror", up.port, &[]);
    let headers =
        [ACCEPT, JSON, ("MCP-Protocol-Version", "2026-07-28"), ("Mcp-Method", "tools/call"), ("Mcp-Name", "get_me")];
    let (head, _) = body_of(&tap.post(&headers, call));
    assert!(head.starts_with("HTTP/1.1 400"), "the server's answer is relayed: {head}");
    let log = tap.log(3);
    let findings: Vec<&Value> = log.iter().filter(|l| l.get("finding").is_some()).collect();
    assert_eq!(findings.len(), 1, "{log:?}");
    assert_eq!((&findings[0]["finding"], &findings[0]["header"]), (&"mcp-name-mismatch".into(), &"Mcp-Name".into()));
    assert_eq!(findings[0]["reply"]["error"]["code"], -32020);
    assert_eq!(findings[0]["reply"]["id"], 3);
    assert_eq!(log.iter().filter(|l| l.get("kind").is_some()).count(), 2, "{log:?}");
}

#[test]
fn tap_http_holds_a_2026_07_28_server_s_refusal_of_an_unsupported_version_to_32022() {
    let meta = |version: &str| {
        format!(
            r#"{{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{{"_meta":{{"io.modelcontextprotocol/protocolVersion":"{version}","io.modelcontextprotocol/clientCapabilities":{{}}}}}}}}"#
        )
    };
    let listed =
        r#"{"jsonrpc":"2.0","id":5,"result":{"resultType":"complete","tools":[],"ttlMs":0,"cacheScope":"public"}}"#;
    let refusal =
        r#"{"jsonrpc":"2.0","id":5,"error":{"code":-32000,"message":"Bad Request: Unsupported protocol version"}}"#;
    let refused = format!(
        "HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{refusal}",
        refusal.len()
    );
    let up = upstream(vec![vec![Step::Send(json_response(listed))], vec![Step::Send(refused.into_bytes())]]);
    let tap = Tap::start("unsupported", up.port, &[]);
    let headers = |version| [ACCEPT, JSON, ("MCP-Protocol-Version", version), ("Mcp-Method", "tools/list")];
    // A success to a 2026-07-28 request: the server speaks it.
    let (head, _) = body_of(&tap.post(&headers("2026-07-28"), meta("2026-07-28").as_bytes()));
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    let (head, _) = body_of(&tap.post(&headers("1900-01-01"), meta("1900-01-01").as_bytes()));
    assert!(head.starts_with("HTTP/1.1 400"), "{head}");
    let log = tap.log(5);
    let findings: Vec<&Value> = log.iter().filter(|l| l.get("finding").is_some()).collect();
    assert_eq!(findings.len(), 1, "{log:?}");
    assert_eq!((&findings[0]["finding"], &findings[0]["exchange"]), (&"unsupported-version-refusal".into(), &2.into()));
}

#[test]
fn tap_http_logs_an_event_cut_by_an_upstream_that_dies_and_goes_on_serving() {
    let cut = b"event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,";
    let answer = r#"{"jsonrpc":"2.0","id":7,"result":{}}"#;
    let up = upstream(vec![
        // No length and no chunking: the closed connection ends the body,
        // mid-event.
        vec![Step::Send(SSE_HEAD.to_vec()), Step::Send(cut.to_vec())],
        vec![Step::Send(json_response(answer))],
    ]);
    let tap = Tap::start("dies", up.port, &["--revision", "2025-11-25"]);
    let (_, body) = body_of(&tap.post(&[ACCEPT, JSON, V1125], PING));
    assert_eq!(body, cut, "what came was relayed");
    let log = tap.log(2);
    assert_eq!(log[1]["kind"], "cut", "{log:?}");
    // The next exchange is served as if nothing happened.
    let (_, body) = body_of(&tap.post(&[ACCEPT, JSON, V1125], PING));
    assert_eq!(body, answer.as_bytes());
    let log = tap.log(4);
    assert_eq!((&log[3]["exchange"], &log[3]["kind"]), (&2.into(), &"result".into()), "{log:?}");
    assert!(log.iter().all(|l| l.get("finding").is_none()), "a cut event may have been the response: {log:?}");
}

#[test]
fn tap_http_answers_502_and_logs_it_when_the_upstream_is_unreachable() {
    let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let tap = Tap::start("unreachable", port, &[]);
    let (head, body) = body_of(&tap.post(&[ACCEPT, JSON, V1125], PING));
    assert!(head.starts_with("HTTP/1.1 502"), "{head}");
    assert!(String::from_utf8_lossy(&body).contains(&format!("127.0.0.1:{port}")));
    let log = tap.log(2);
    let note = (&log[1]["exchange"], &log[1]["http_method"], &log[1]["note"]);
    assert_eq!(note, (&1.into(), &"POST".into(), &"upstream-unreachable".into()), "{log:?}");
}

#[test]
fn tap_http_relays_a_request_past_the_size_limit_whole_and_logs_it_as_too_large() {
    let answer = r#"{"jsonrpc":"2.0","id":7,"result":{}}"#;
    let up = upstream(vec![vec![Step::Send(json_response(answer))]]);
    let tap = Tap::start("large", up.port, &["--revision", "2025-11-25", "--max-size", "1000"]);
    let big = format!(
        r#"{{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{{"name":"x","arguments":{{"t":"{}"}}}}}}"#,
        "a".repeat(5000)
    );
    let (_, body) = body_of(&tap.post(&[ACCEPT, JSON, V1125], big.as_bytes()));
    assert_eq!(body, answer.as_bytes());
    assert!(up.requests.recv().unwrap().ends_with(big.as_bytes()), "relayed whole");
    let log = tap.log(2);
    assert_eq!((&log[0]["direction"], &log[0]["reason"]), (&"client".into(), &"too-large".into()), "{log:?}");
}

#[test]
fn tap_http_refuses_an_upstream_url_it_cannot_reach_and_says_why() {
    for (upstream, extra, says) in [
        ("ftp://example.test/mcp", None, "http or https"),
        ("127.0.0.1:3001", None, "scheme"),
        ("https://user:secret@example.test/mcp", None, "password"),
        ("http://127.0.0.1:1/mcp", Some("ca.pem"), "https"),
        ("https://127.0.0.1:1/mcp", Some("/nonexistent/ca.pem"), "--upstream-ca /nonexistent/ca.pem"),
    ] {
        let mut command = Command::new(env!("CARGO_BIN_EXE_mcp-envelope"));
        command.args(["tap", "--http", "--listen", "127.0.0.1:0", "--upstream", upstream]);
        if let Some(ca) = extra {
            command.args(["--upstream-ca", ca]);
        }
        let out = command.output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{upstream}: {stderr}");
        assert!(stderr.contains(says) && !stderr.contains("secret@"), "{upstream}: {stderr}");
    }
    let out = Command::new(env!("CARGO_BIN_EXE_mcp-envelope")).args(["tap", "--http"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "--listen and --upstream are required");
}

/// An upstream that keeps its connections open and answers each request
/// with a JSON result; it says when it accepts a connection (`accept N`)
/// and on which connection each request came (`N: request line`).
fn keep_alive_upstream() -> (u16, Receiver<String>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let (said, heard) = mpsc::channel();
    thread::spawn(move || {
        for (n, stream) in listener.incoming().enumerate() {
            let Ok(mut stream) = stream else { return };
            let said: Sender<String> = said.clone();
            let _ = said.send(format!("accept {}", n + 1));
            thread::spawn(move || {
                loop {
                    let request = read_request(&mut stream);
                    if request.is_empty() {
                        return;
                    }
                    let line = String::from_utf8_lossy(&request).lines().next().unwrap_or_default().to_owned();
                    let _ = said.send(format!("{}: {line}", n + 1));
                    if stream.write_all(&json_response(r#"{"jsonrpc":"2.0","id":7,"result":{}}"#)).is_err() {
                        return;
                    }
                }
            });
        }
    });
    (port, heard)
}

/// Sends a POST on a kept-alive connection and reads its one response.
fn post_kept_alive(stream: &mut TcpStream, body: &[u8]) -> String {
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n\
         MCP-Protocol-Version: 2025-11-25\r\nContent-Length: {}\r\n\r\n",
        stream.peer_addr().unwrap(),
        body.len()
    );
    stream.write_all(&[head.as_bytes(), body].concat()).unwrap();
    let response = read_request(stream);
    String::from_utf8_lossy(&response).into_owned()
}

#[test]
fn tap_http_gives_each_client_connection_its_own_upstream_connection_opened_when_the_client_connects() {
    let (port, heard) = keep_alive_upstream();
    let tap = Tap::start("links", port, &["--revision", "2025-11-25"]);
    let next = || heard.recv_timeout(Duration::from_secs(20)).unwrap();
    // Connected, nothing sent yet: the upstream connection is opening.
    let mut a = tap.connect();
    assert_eq!(next(), "accept 1");
    let mut b = tap.connect();
    assert_eq!(next(), "accept 2");
    // Each client connection's requests go on its own upstream connection,
    // in order, whatever the other connections do.
    assert!(post_kept_alive(&mut b, PING).starts_with("HTTP/1.1 200"));
    assert_eq!(next(), "2: POST /mcp HTTP/1.1");
    assert!(post_kept_alive(&mut a, PING).starts_with("HTTP/1.1 200"));
    assert_eq!(next(), "1: POST /mcp HTTP/1.1");
    assert!(post_kept_alive(&mut a, PING).starts_with("HTTP/1.1 200"));
    assert_eq!(next(), "1: POST /mcp HTTP/1.1");
    drop((a, b));
    assert!(heard.recv_timeout(Duration::from_millis(200)).is_err(), "no other connection, no other request");
}

/// A keep-alive upstream on one thread, so that it takes requests in the
/// order they reach its sockets, as a server's event loop does; it says
/// `accept N` for each connection and `N: request line` for each request.
fn event_loop_upstream() -> (u16, Receiver<String>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    listener.set_nonblocking(true).unwrap();
    let (said, heard) = mpsc::channel();
    thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async move {
            use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt};
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            for n in 1.. {
                let Ok((stream, _)) = listener.accept().await else { return };
                let said: Sender<String> = said.clone();
                tokio::spawn(async move {
                    // Said in the task's first poll, which goes on to wait
                    // for the socket: from then on it is woken in the order
                    // its socket is read to.
                    let _ = said.send(format!("accept {n}"));
                    let mut stream = tokio::io::BufReader::new(stream);
                    loop {
                        let (mut first, mut line, mut length) = (String::new(), String::new(), 0);
                        if stream.read_line(&mut first).await.unwrap_or(0) == 0 {
                            return;
                        }
                        while stream.read_line(&mut line).await.unwrap_or(0) > 2 {
                            if let Some(value) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                                length = value.trim().parse().unwrap();
                            }
                            line.clear();
                        }
                        let mut body = vec![0; length];
                        stream.read_exact(&mut body).await.unwrap();
                        let _ = said.send(format!("{n}: {}", first.trim_end()));
                        let answer = json_response(r#"{"jsonrpc":"2.0","id":7,"result":{}}"#);
                        if stream.get_mut().write_all(&answer).await.is_err() {
                            return;
                        }
                    }
                });
            }
        });
    });
    (port, heard)
}

#[test]
fn tap_http_relays_requests_written_a_moment_apart_on_two_connections_in_the_order_they_came() {
    let (port, heard) = event_loop_upstream();
    let tap = Tap::start("order", port, &["--revision", "2025-11-25"]);
    let next = || heard.recv_timeout(Duration::from_secs(20)).unwrap();
    let (mut a, mut b) = (tap.connect(), tap.connect());
    assert_eq!((next(), next()), ("accept 1".to_owned(), "accept 2".to_owned()));
    let request = |path: &str| {
        format!(
            "POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\nAccept: application/json, \
             text/event-stream\r\nMCP-Protocol-Version: 2025-11-25\r\nContent-Length: {}\r\n\r\n{}",
            tap.port,
            PING.len(),
            String::from_utf8_lossy(PING)
        )
    };
    let (first, second) = (request("/first"), request("/second"));
    // One exchange on each connection first, one after the other: the
    // tap's task for a connection then waits on its socket, as it does
    // for the rest of a session (a request that lands before that task
    // first runs is read when it runs, a race of any server's own).
    for (stream, path, n) in [(&mut a, &first, 1), (&mut b, &second, 2)] {
        stream.write_all(path.as_bytes()).unwrap();
        assert!(next().starts_with(&format!("{n}: POST")));
        assert!(String::from_utf8_lossy(&read_request(stream)).starts_with("HTTP/1.1 200"));
    }
    // A client that opens its GET stream as it posts a tools/call writes
    // two requests on two connections microseconds apart; the server must
    // see them in that order, as it does without the tap.
    for round in 0..200 {
        a.write_all(first.as_bytes()).unwrap();
        b.write_all(second.as_bytes()).unwrap();
        let order = (next(), next());
        assert_eq!(
            order,
            ("1: POST /first HTTP/1.1".to_owned(), "2: POST /second HTTP/1.1".to_owned()),
            "round {round}"
        );
        for stream in [&mut a, &mut b] {
            assert!(String::from_utf8_lossy(&read_request(stream)).starts_with("HTTP/1.1 200"));
        }
    }
}

#[test]
fn tap_http_serves_the_endpoint_s_path_with_its_query_and_relays_other_paths_unjudged() {
    let answer = r#"{"jsonrpc":"2.0","id":7,"result":{}}"#;
    let metadata = r#"{"resource":"http://127.0.0.1/mcp"}"#;
    let up = upstream(vec![vec![Step::Send(json_response(answer))], vec![Step::Send(json_response(metadata))]]);
    let url = format!("http://127.0.0.1:{}/mcp?key=secret", up.port);
    let (tap, first) = Tap::start_at("endpoint", &url, &["--revision", "2025-11-25"]);
    assert!(first.contains(&format!("/mcp, relaying to http://127.0.0.1:{}/mcp?…", up.port)), "{first}");
    assert!(!first.contains("secret"), "{first}");
    // The endpoint: relayed with the URL's query, judged.
    let (head, body) = body_of(&tap.post(&[ACCEPT, JSON, V1125], PING));
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert_eq!(body, answer.as_bytes());
    let request = String::from_utf8_lossy(&up.requests.recv().unwrap()).into_owned();
    assert!(request.starts_with("POST /mcp?key=secret&x=1 HTTP/1.1\r\n"), "{request}");
    // Another path: relayed as sent, not judged, noted.
    let mut stream = tap.connect();
    stream
        .write_all(
            format!("GET /.well-known/oauth-protected-resource/mcp HTTP/1.1\r\nHost: localhost:{}\r\nConnection: close\r\n\r\n", tap.port)
                .as_bytes(),
        )
        .unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).unwrap();
    assert_eq!(body_of(&response).1, metadata.as_bytes());
    let request = String::from_utf8_lossy(&up.requests.recv().unwrap()).into_owned();
    assert!(request.starts_with("GET /.well-known/oauth-protected-resource/mcp HTTP/1.1\r\n"), "{request}");
    let log = tap.log(3);
    assert_eq!(log.len(), 3, "two messages of the endpoint, one note: {log:?}");
    assert_eq!((&log[2]["exchange"], &log[2]["note"]), (&2.into(), &"off-endpoint".into()), "{log:?}");
    assert!(log.iter().all(|l| !l.to_string().contains("secret")), "{log:?}");
}

/// An https upstream with the tests' own certificate: each connection gets
/// `answer` to its one request, or nothing if the client refuses the
/// certificate.
fn tls_upstream(certs: &certs::Certs, answer: &'static str) -> (u16, Receiver<Vec<u8>>) {
    let chain = vec![CertificateDer::from_pem_slice(certs.cert.as_bytes()).unwrap()];
    let key = PrivateKeyDer::from_pem_slice(certs.key.as_bytes()).unwrap();
    let config = ServerConfig::builder_with_provider(Arc::new(crypto::aws_lc_rs::default_provider()))
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(chain, key)
        .unwrap();
    let config = Arc::new(config);
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let (sent, requests) = mpsc::channel();
    thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(tcp) = stream else { return };
            let mut tls = StreamOwned::new(ServerConnection::new(Arc::clone(&config)).unwrap(), tcp);
            let request = read_request(&mut tls);
            if request.is_empty() {
                continue;
            }
            let _ = sent.send(request);
            let _ = tls.write_all(&json_response(answer)).and_then(|()| tls.flush());
            tls.conn.send_close_notify();
            let _ = tls.flush();
        }
    });
    (port, requests)
}

#[test]
fn tap_http_reaches_an_https_upstream_it_trusts_through_upstream_ca_and_no_other() {
    let certs = certs::make().unwrap();
    let dir = std::env::temp_dir().join(format!("mcp-envelope-tap-http-tls-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ca = dir.join("ca.pem");
    std::fs::write(&ca, &certs.ca).unwrap();
    let answer = r#"{"jsonrpc":"2.0","id":7,"result":{}}"#;
    let (port, requests) = tls_upstream(&certs, answer);
    for host in ["127.0.0.1", "localhost"] {
        let url = format!("https://{host}:{port}/mcp");
        let (tap, _) = Tap::start_at("tls", &url, &["--revision", "2025-11-25", "--upstream-ca", ca.to_str().unwrap()]);
        let (head, body) = body_of(&tap.post(&[ACCEPT, JSON, V1125], PING));
        assert!(head.starts_with("HTTP/1.1 200"), "{host}: {head}");
        assert_eq!(body, answer.as_bytes());
        let request = String::from_utf8_lossy(&requests.recv().unwrap()).into_owned();
        assert!(request.starts_with("POST /mcp?x=1 HTTP/1.1\r\n"), "{request}");
        assert!(request.to_ascii_lowercase().contains(&format!("host: {host}:{port}\r\n")), "{request}");
        let log = tap.log(2);
        assert_eq!((&log[1]["kind"], &log[1]["status"]), (&"result".into(), &200.into()), "{log:?}");
    }
    // Without the CA, the certificate is refused: 502, and the log says why.
    let (tap, _) = Tap::start_at("untrusted", &format!("https://127.0.0.1:{port}/mcp"), &["--revision", "2025-11-25"]);
    let (head, body) = body_of(&tap.post(&[ACCEPT, JSON, V1125], PING));
    assert!(head.starts_with("HTTP/1.1 502"), "{head}");
    assert!(String::from_utf8_lossy(&body).contains("certificate"), "{}", String::from_utf8_lossy(&body));
    let log = tap.log(2);
    assert_eq!(log[1]["note"], "upstream-unreachable", "{log:?}");
    assert!(requests.try_recv().is_err(), "nothing was sent to a server the tap does not trust");
}

/// The tap, given `pem` as `--upstream-ca`, in front of an https server
/// that presents `certs`: the status the client gets, and its body.
fn through_tls(name: &str, certs: &certs::Certs, pem: &str) -> (String, String) {
    let dir = std::env::temp_dir().join(format!("mcp-envelope-tap-http-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ca = dir.join("upstream.pem");
    std::fs::write(&ca, pem).unwrap();
    let (port, _) = tls_upstream(certs, r#"{"jsonrpc":"2.0","id":7,"result":{}}"#);
    let url = format!("https://127.0.0.1:{port}/mcp");
    let (tap, _) = Tap::start_at(name, &url, &["--revision", "2025-11-25", "--upstream-ca", ca.to_str().unwrap()]);
    let (head, body) = body_of(&tap.post(&[ACCEPT, JSON, V1125], PING));
    (head.lines().next().unwrap_or_default().to_owned(), String::from_utf8_lossy(&body).into_owned())
}

#[test]
fn tap_http_trusts_the_self_signed_certificate_it_is_given_and_checks_the_rest() {
    // Made as `openssl req -x509` makes one: its own issuer, and a CA.
    let usual = certs::self_signed(&["localhost"], true, false).unwrap();
    let (status, body) = through_tls("pinned", &usual, &usual.ca);
    assert!(status.starts_with("HTTP/1.1 200"), "{status} {body}");
    assert_eq!(body, r#"{"jsonrpc":"2.0","id":7,"result":{}}"#);
    // Another certificate of the same names, another key: refused.
    let other = certs::self_signed(&["localhost"], true, false).unwrap();
    let (status, body) = through_tls("pinned-other", &usual, &other.ca);
    assert!(status.starts_with("HTTP/1.1 502") && body.contains("certificate"), "{status} {body}");
    // The very certificate, but expired, or for another name: refused.
    let expired = certs::self_signed(&["localhost"], true, true).unwrap();
    let (status, body) = through_tls("pinned-expired", &expired, &expired.ca);
    assert!(status.starts_with("HTTP/1.1 502") && body.contains("Expired"), "{status} {body}");
    let elsewhere = certs::self_signed(&["mcp.example.com"], false, false).unwrap();
    let (status, body) = through_tls("pinned-name", &elsewhere, &elsewhere.ca);
    assert!(status.starts_with("HTTP/1.1 502") && body.contains("NotValidForName"), "{status} {body}");
}

#[test]
fn probe_ca_trusts_the_self_signed_certificate_it_is_given_as_the_tap_does() {
    let usual = certs::self_signed(&["localhost"], true, false).unwrap();
    let other = certs::self_signed(&["localhost"], true, false).unwrap();
    let dir = std::env::temp_dir().join(format!("mcp-envelope-probe-ca-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (port, _) = tls_upstream(&usual, r#"{"jsonrpc":"2.0","id":7,"result":{}}"#);
    let url = format!("https://127.0.0.1:{port}/mcp");
    let mut said = Vec::new();
    for (name, pem) in [("same", &usual.ca), ("other", &other.ca)] {
        let ca = dir.join(format!("{name}.pem"));
        std::fs::write(&ca, pem).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_mcp-envelope"))
            .args(["probe", "--wait", "2", "--revision", "2025-11-25", "--ca", ca.to_str().unwrap(), &url])
            .output()
            .unwrap();
        said.push(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    // Trusted, the probe reaches the server (which answers the handshake
    // with another id); not trusted, it never gets past the certificate.
    assert!(!said[0].contains("certificate") && said[0].contains("initialize"), "{}", said[0]);
    assert!(said[1].contains("invalid peer certificate"), "{}", said[1]);
}

/// What the upstream was sent, connection by connection, until it has
/// been quiet a moment (an empty one: a connection closed unused).
fn relayed(up: &Upstream) -> impl Iterator<Item = Vec<u8>> + '_ {
    std::iter::from_fn(|| up.requests.recv_timeout(Duration::from_millis(300)).ok())
}

/// A POST to the tap with `Host` and `Origin` as given: its response.
fn post_as(tap: &Tap, host: &str, origin: Option<&str>) -> String {
    let origin = origin.map_or_else(String::new, |o| format!("Origin: {o}\r\n"));
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {host}\r\n{origin}Content-Type: application/json\r\nAccept: application/json, \
         text/event-stream\r\nMCP-Protocol-Version: 2025-11-25\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{}",
        PING.len(),
        String::from_utf8_lossy(PING)
    );
    let mut stream = tap.connect();
    stream.write_all(request.as_bytes()).unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).unwrap();
    String::from_utf8_lossy(&response).into_owned()
}

#[test]
fn tap_http_refuses_a_rebinding_request_on_its_listener_and_serves_its_own_names() {
    // The upstream checks nothing: the tap alone stands between a page
    // that rebinds a name to 127.0.0.1 and the server.
    let answer = r#"{"jsonrpc":"2.0","id":7,"result":{}}"#;
    let served = |n| (0..n).map(|_| vec![Step::Send(json_response(answer))]).collect::<Vec<_>>();
    // Each client connection opens one to the upstream, refused or not.
    let up = upstream(served(5));
    let tap = Tap::start("guard", up.port, &["--revision", "2025-11-25"]);
    for (host, origin) in [
        ("evil.example.com".to_owned(), Some("http://evil.example.com")),
        (format!("evil.example.com:{}", tap.port), None),
        (format!("127.0.0.1:{}", tap.port), Some("http://evil.example.com")),
    ] {
        let response = post_as(&tap, &host, origin);
        assert!(response.starts_with("HTTP/1.1 403"), "{host} {origin:?}: {response}");
        let (_, body) = body_of(response.as_bytes());
        let error: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!((&error["jsonrpc"], &error["error"]["code"]), (&"2.0".into(), &(-32000).into()), "{error}");
        assert!(error.get("id").is_none(), "{error}");
    }
    let notes: Vec<Value> = tap.log(3);
    let kinds: Vec<&str> = notes.iter().map(|l| l["note"].as_str().unwrap_or_default()).collect();
    assert_eq!(kinds, ["foreign-host", "foreign-host", "foreign-origin"], "{notes:?}");
    // The upstream saw connections open and close, and no request.
    assert!(relayed(&up).take(3).all(|r| r.is_empty()), "a refused request never reaches the server");
    // Its own names, with a page on this machine as the origin: served,
    // the Origin relayed as it came.
    for (host, origin) in
        [(format!("127.0.0.1:{}", tap.port), None), (format!("localhost:{}", tap.port), Some("http://localhost:6274"))]
    {
        let response = post_as(&tap, &host, origin);
        assert!(response.starts_with("HTTP/1.1 200"), "{host}: {response}");
        let request = relayed(&up).find(|r| !r.is_empty()).unwrap();
        let request = String::from_utf8_lossy(&request).to_ascii_lowercase();
        assert_eq!(request.contains("origin: http://localhost:6274\r\n"), origin.is_some(), "{request}");
    }
    // --allow-host and --allow-origin widen it.
    let up = upstream(served(1));
    let tap = Tap::start(
        "guard-allow",
        up.port,
        &["--revision", "2025-11-25", "--allow-host", "dev.internal", "--allow-origin", "https://app.example.com"],
    );
    let response = post_as(&tap, &format!("dev.internal:{}", tap.port), Some("https://app.example.com"));
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
}

#[test]
fn tap_http_logs_a_client_that_leaves_mid_stream_and_goes_on_serving() {
    let (go, wait) = mpsc::channel::<()>();
    let event = b"data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":1}}\n\n";
    let answer = r#"{"jsonrpc":"2.0","id":7,"result":{}}"#;
    let up = upstream(vec![
        vec![
            Step::Send(SSE_HEAD.to_vec()),
            Step::Send(event.to_vec()),
            Step::WaitFor(wait),
            Step::Send(event.to_vec()),
            Step::Send(event.to_vec()),
        ],
        vec![Step::Send(json_response(answer))],
    ]);
    let tap = Tap::start("gone", up.port, &["--revision", "2025-11-25"]);
    let mut stream = tap.connect();
    stream.write_all(&post(tap.port, &[ACCEPT, JSON, V1125], PING)).unwrap();
    let mut seen: Vec<u8> = Vec::new();
    let mut buf = [0u8; 4096];
    while !seen.windows(6).any(|w| w == b"level\"") {
        let n = stream.read(&mut buf).unwrap();
        assert!(n > 0);
        seen.extend(&buf[..n]);
    }
    drop(stream);
    go.send(()).unwrap();
    let notes = |log: &[Value]| log.iter().filter(|l| l["note"] == "client-gone").count();
    let deadline = Instant::now() + Duration::from_secs(20);
    while notes(&tap.log(0)) == 0 && Instant::now() < deadline {
        thread::sleep(Duration::from_millis(20));
    }
    let log = tap.log(0);
    assert_eq!(notes(&log), 1, "{log:?}");
    assert!(log.iter().all(|l| l.get("finding").is_none()), "{log:?}");
    let (_, body) = body_of(&tap.post(&[ACCEPT, JSON, V1125], PING));
    assert_eq!(body, answer.as_bytes());
}

/// A response read whole from a kept-alive connection: by its length, or
/// to its last chunk.
fn read_response(stream: &mut TcpStream) -> String {
    let mut response = Vec::new();
    let mut byte = [0u8; 1];
    while !response.ends_with(b"\r\n\r\n") {
        assert_eq!(stream.read(&mut byte).unwrap(), 1, "the tap closed mid-head");
        response.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&response).to_ascii_lowercase();
    if head.contains("transfer-encoding: chunked") {
        while !response.ends_with(b"\r\n0\r\n\r\n") {
            assert_eq!(stream.read(&mut byte).unwrap(), 1, "the tap closed mid-body");
            response.push(byte[0]);
        }
    } else {
        let length =
            head.lines().find_map(|l| l.strip_prefix("content-length:")).map_or(0, |v| v.trim().parse().unwrap());
        let mut body = vec![0; length];
        stream.read_exact(&mut body).unwrap();
        response.extend(body);
    }
    String::from_utf8_lossy(&response).into_owned()
}

/// A 2026-07-28 `tools/call` with id 1, posted on a kept-alive connection.
fn modern_call(stream: &mut TcpStream) -> String {
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n\
         MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: a\r\nContent-Length: {}\r\n\r\n{body}",
        stream.peer_addr().unwrap(),
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    read_response(stream)
}

#[test]
fn tap_http_follows_request_ids_across_the_exchanges_of_a_client_connection() {
    let progress = b"data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":1,\"progress\":1}}\n\n";
    let done = r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[]}}"#;
    let up = upstream(vec![
        // A stream that ends with no response: id 1 is still in flight.
        vec![Step::Send(SSE_HEAD.to_vec()), Step::Send(progress.to_vec())],
        vec![Step::Send(json_response(done))],
        // Refused by its status alone: taken back, free to send again.
        vec![Step::Send(b"HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n".to_vec())],
        vec![Step::Send(json_response(done))],
    ]);
    let tap = Tap::start("flights", up.port, &[]);
    let mut first = tap.connect();
    assert!(modern_call(&mut first).starts_with("HTTP/1.1 200"));
    assert!(modern_call(&mut first).starts_with("HTTP/1.1 200"));
    let log = tap.log(6);
    // Each exchange's lines come in order; two exchanges' may interleave.
    let mut findings: Vec<(&Value, &Value, &Value)> = log
        .iter()
        .filter(|l| l.get("finding").is_some())
        .map(|l| (&l["exchange"], &l["finding"], &l["severity"]))
        .collect();
    findings.sort_by_key(|f| f.0.as_u64());
    assert_eq!(
        findings,
        [
            (&1.into(), &"no-response".into(), &"warning".into()),
            (&2.into(), &"request-id-reused".into(), &"violation".into())
        ],
        "{log:?}"
    );
    // Another connection is another client: its id 1 is its own.
    let mut second = tap.connect();
    assert!(modern_call(&mut second).starts_with("HTTP/1.1 401"));
    assert!(modern_call(&mut second).starts_with("HTTP/1.1 200"));
    let log = tap.log(9);
    assert_eq!(log.iter().filter(|l| l.get("finding").is_some()).count(), 2, "{log:?}");
}
