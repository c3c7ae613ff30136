//! `mcp-envelope tap --http` between a raw HTTP client and a scripted
//! upstream (both here, byte-exact): relay unchanged, an event stream
//! passed on event by event as it arrives, one log line per message and
//! per finding, and an upstream that is gone, dies mid-stream, or is sent
//! more than the size limit.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, reason = "tests fail loudly")]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::{Duration, Instant};

use serde_json::Value;

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

fn read_request(stream: &mut TcpStream) -> Vec<u8> {
    let mut request = Vec::new();
    let mut byte = [0u8; 1];
    while !request.ends_with(b"\r\n\r\n") {
        if stream.read(&mut byte).unwrap() == 0 {
            return request;
        }
        request.push(byte[0]);
    }
    let head = String::from_utf8_lossy(&request).to_ascii_lowercase();
    let length =
        head.lines().find_map(|l| l.strip_prefix("content-length:")).map_or(0, |v| v.trim().parse::<usize>().unwrap());
    let mut body = vec![0; length];
    stream.read_exact(&mut body).unwrap();
    request.extend(body);
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
        let dir = std::env::temp_dir().join(format!("mcp-envelope-tap-http-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let log = dir.join("log.jsonl");
        let mut child = Command::new(env!("CARGO_BIN_EXE_mcp-envelope"))
            .args(["tap", "--http", "--listen", "127.0.0.1:0"])
            .args(["--upstream", &format!("http://127.0.0.1:{upstream}")])
            .args(["--log", log.to_str().unwrap()])
            .args(extra)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = String::new();
        BufReader::new(child.stderr.take().unwrap()).read_line(&mut first).unwrap();
        let address = first.split("http://").nth(1).and_then(|a| a.split(',').next()).unwrap();
        let port = address.rsplit(':').next().unwrap().parse().unwrap();
        Tap { child, port, log }
    }

    fn connect(&self) -> TcpStream {
        let stream = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
        stream
    }

    /// Sends a POST and reads the whole response.
    fn post(&self, headers: &[(&str, &str)], body: &[u8]) -> Vec<u8> {
        let mut stream = self.connect();
        stream.write_all(&post(headers, body)).unwrap();
        let mut response = Vec::new();
        stream.read_to_end(&mut response).unwrap();
        response
    }

    /// The log's lines, once it has `count` of them.
    fn log(&self, count: usize) -> Vec<Value> {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let text = std::fs::read_to_string(&self.log).unwrap_or_default();
            let lines: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
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

fn post(headers: &[(&str, &str)], body: &[u8]) -> Vec<u8> {
    let mut request = b"POST /mcp?x=1 HTTP/1.1\r\nHost: example.test\r\nConnection: close\r\n".to_vec();
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
    // Upstream got the path, the query, the Host and the body unchanged.
    let request = up.requests.recv().unwrap();
    let text = String::from_utf8_lossy(&request);
    assert!(text.starts_with("POST /mcp?x=1 HTTP/1.1\r\n"), "{text}");
    assert!(text.to_ascii_lowercase().contains("host: example.test\r\n"), "{text}");
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
    stream.write_all(&post(&[ACCEPT, JSON, V1125], PING)).unwrap();
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
    let call = br#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"delete_repo","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#;
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
fn tap_http_wants_a_plain_http_upstream_without_a_path() {
    for (upstream, says) in
        [("https://example.test", "plain HTTP"), ("http://127.0.0.1:1/mcp", "relayed as the client sends")]
    {
        let out = Command::new(env!("CARGO_BIN_EXE_mcp-envelope"))
            .args(["tap", "--http", "--listen", "127.0.0.1:0", "--upstream", upstream])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stderr).contains(says), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let out = Command::new(env!("CARGO_BIN_EXE_mcp-envelope")).args(["tap", "--http"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "--listen and --upstream are required");
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
    stream.write_all(&post(&[ACCEPT, JSON, V1125], PING)).unwrap();
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
