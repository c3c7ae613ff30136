//! `mcp-envelope tap` against a scripted server (cli/examples/scripted_server.rs):
//! byte-for-byte relay both ways, one log line per message with its
//! direction and id-rule findings, the server's exit status, and a server
//! that floods, sends huge lines, or dies mid-message.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, reason = "tests fail loudly")]

use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use serde_json::Value;

/// The scripted server, which `cargo test` builds with the examples.
fn server() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let path = exe.parent().and_then(|deps| deps.parent()).unwrap().join("examples/scripted_server");
    assert!(path.exists(), "{} not built", path.display());
    path
}

struct Tap {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    dir: PathBuf,
}

impl Tap {
    fn start(name: &str, extra: &[&str]) -> Tap {
        let dir = std::env::temp_dir().join(format!("mcp-envelope-tap-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_mcp-envelope"))
            .arg("tap")
            .args(["--log", dir.join("log.jsonl").to_str().unwrap()])
            .args(extra)
            .arg("--")
            .arg(server())
            .args(["--record", dir.join("received").to_str().unwrap()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Tap { child, stdin, stdout, dir }
    }

    fn send(&mut self, bytes: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(bytes.as_bytes()).unwrap();
        stdin.flush().unwrap();
    }

    fn read_line(&mut self) -> String {
        let mut line = String::new();
        self.stdout.read_line(&mut line).unwrap();
        line
    }

    /// Closes the client side, reads what is left, and returns it with the
    /// exit code, the log, and what the server received.
    fn finish(mut self) -> (String, Option<i32>, Vec<Value>, Vec<u8>) {
        drop(self.stdin.take());
        let mut rest = String::new();
        self.stdout.read_to_string(&mut rest).unwrap();
        let status = self.child.wait().unwrap();
        let log = std::fs::read_to_string(self.dir.join("log.jsonl")).unwrap();
        let log = log.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        let received = std::fs::read(self.dir.join("received")).unwrap_or_default();
        (rest, status.code(), log, received)
    }
}

fn entries<'v>(log: &'v [Value], direction: &str) -> Vec<&'v Value> {
    log.iter().filter(|e| e["direction"] == direction).collect()
}

#[test]
fn tap_relays_both_ways_byte_for_byte_and_logs_each_message_with_its_direction() {
    let mut tap = Tap::start("exchange", &[]);
    let mut sent = String::new();
    let mut send = |tap: &mut Tap, line: &str| {
        sent.push_str(line);
        tap.send(line);
    };
    send(&mut tap, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r\n");
    assert_eq!(tap.read_line(), "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n");
    send(&mut tap, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ask\"}\n");
    assert_eq!(tap.read_line(), "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}\n");
    assert_eq!(tap.read_line(), "{\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"method\":\"roots/list\"}\n");
    send(&mut tap, "{\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"result\":{\"roots\":[]}}\n");
    send(&mut tap, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"stray\"}\n");
    assert_eq!(tap.read_line(), "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{}}\n");
    assert_eq!(tap.read_line(), "{\"jsonrpc\":\"2.0\",\"id\":999,\"result\":{}}\n");
    // Two requests with one id in one write: the second is checked while
    // the first is still in flight.
    send(
        &mut tap,
        "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\"}\n{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\"}\n",
    );
    tap.read_line();
    tap.read_line();
    send(&mut tap, "{\"jsonrpc\":\"2.0\",\"id\":5,\"id\":6,\"method\":\"ping\"}\n");
    let (_, status, log, received) = tap.finish();
    assert_eq!(status, Some(0), "the server's status");
    assert_eq!(String::from_utf8(received).unwrap(), sent, "the server got exactly the client's bytes");

    let client = entries(&log, "client");
    let server = entries(&log, "server");
    assert_eq!((client.len(), server.len()), (7, 8), "{log:#?}");
    assert_eq!(
        (client[0]["kind"].as_str(), client[0]["id"].as_i64(), client[0]["line"].as_u64()),
        (Some("request"), Some(1), Some(1))
    );
    assert_eq!(client[2]["kind"], "result");
    assert!(client[2].get("id_rule").is_none(), "a response to the server's own request is fine: {}", client[2]);
    assert_eq!(client[5]["id_rule"][0], "request id 4 was already used");
    assert_eq!((client[6]["reason"].as_str(), client[6]["reply"]["id"].is_null()), (Some("duplicate-member"), true));
    assert_eq!(server[2]["method"], "roots/list");
    assert_eq!(server[4]["id_rule"][0], "response id 999 matches no request in flight");
    // The scripted server answers even the invalid request, whose id was
    // never in flight.
    assert_eq!(server[7]["id_rule"][0], "response id 5 matches no request in flight");
    let flagged = |e: &&Value| [4, 5, 999].iter().any(|id| e["id"] == *id);
    assert!(log.iter().filter(|e| !flagged(e)).all(|e| e.get("id_rule").is_none()), "{log:#?}");
}

#[test]
fn tap_exits_with_the_server_s_status_and_logs_a_message_cut_short() {
    let mut tap = Tap::start("die", &[]);
    tap.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"die\"}\n");
    let (rest, status, log, _) = tap.finish();
    assert_eq!((rest.as_str(), status), ("{\"jsonrpc\":\"2.0\",\"id\":", Some(3)));
    let server = entries(&log, "server");
    assert_eq!((server.len(), server[0]["reason"].as_str()), (1, Some("unexpected-end")));
}

#[test]
fn tap_relays_a_flood_and_a_line_past_the_size_limit_whole_and_logs_it_as_too_large() {
    let mut tap = Tap::start("flood", &["--max-size", "1048576"]);
    tap.send(
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"flood\"}\n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"huge\"}\n",
    );
    let (rest, status, log, _) = tap.finish();
    assert_eq!(status, Some(0));
    let lines: Vec<&str> = rest.lines().collect();
    assert_eq!(lines.len(), 20_002, "every notification, the answer and the huge result");
    assert_eq!(
        lines[20_001].len(),
        (3 << 20) + r#"{"jsonrpc":"2.0","id":2,"result":{"blob":""}}"#.len(),
        "the 3 MiB line arrives whole"
    );
    let server = entries(&log, "server");
    assert_eq!(server.len(), 20_002);
    let last = server[20_001];
    assert_eq!((last["reason"].as_str(), last["code"].as_i64()), (Some("too-large"), Some(-32700)));
}

#[test]
fn tap_without_a_server_command_is_a_usage_error_and_an_unknown_one_says_so() {
    let out = Command::new(env!("CARGO_BIN_EXE_mcp-envelope")).arg("tap").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = Command::new(env!("CARGO_BIN_EXE_mcp-envelope"))
        .args(["tap", "--", "/nonexistent/server"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("starting /nonexistent/server"));
}
