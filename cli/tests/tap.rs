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

fn dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mcp-envelope-tap-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

struct Tap {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    dir: PathBuf,
}

impl Tap {
    fn start(name: &str, extra: &[&str]) -> Tap {
        let dir = dir(name);
        let record = dir.join("received");
        let server = server();
        Tap::start_with(name, extra, &[server.to_str().unwrap(), "--record", record.to_str().unwrap()])
    }

    /// The tap in front of `command`, a real process.
    fn start_with(name: &str, extra: &[&str], command: &[&str]) -> Tap {
        let dir = dir(name);
        let mut child = Command::new(env!("CARGO_BIN_EXE_mcp-envelope"))
            .arg("tap")
            .args(["--log", dir.join("log.jsonl").to_str().unwrap()])
            .args(extra)
            .arg("--")
            .args(command)
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

    /// The log as it stands, once it has `lines` lines (or after 10 s).
    fn log_after(&self, lines: usize) -> Vec<Value> {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        loop {
            let log = std::fs::read_to_string(self.dir.join("log.jsonl")).unwrap_or_default();
            // Whole lines only: the tap may be writing the last one.
            let whole = log.rfind('\n').map_or("", |end| &log[..end]);
            if whole.lines().count() >= lines || std::time::Instant::now() > deadline {
                return whole.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    }

    fn signal(&self, signal: &str) {
        let kill = Command::new("kill").args(["-s", signal, &self.child.id().to_string()]).status().unwrap();
        assert!(kill.success());
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
        self.wait()
    }

    /// Reads what is left, and returns it with the exit code, the log, and
    /// what the server received.
    fn wait(mut self) -> (String, Option<i32>, Vec<Value>, Vec<u8>) {
        let mut rest = String::new();
        self.stdout.read_to_string(&mut rest).unwrap();
        let status = self.child.wait().unwrap();
        let log = std::fs::read_to_string(self.dir.join("log.jsonl")).unwrap();
        let log = log.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        let received = std::fs::read(self.dir.join("received")).unwrap_or_default();
        (rest, status.code(), log, received)
    }
}

/// The message lines `direction` sent (notes left out).
fn entries<'v>(log: &'v [Value], direction: &str) -> Vec<&'v Value> {
    log.iter().filter(|e| e["direction"] == direction && e.get("note").is_none()).collect()
}

fn notes<'v>(log: &'v [Value], note: &str) -> Vec<&'v Value> {
    log.iter().filter(|e| e["note"] == note).collect()
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

/// A request of about `size` bytes, its id written last as the Python SDK
/// writes it (`method` and `params` first).
fn big_request(id: &str, size: usize) -> String {
    format!("{{\"method\":\"ping\",\"params\":{{\"t\":\"{}\"}},\"jsonrpc\":\"2.0\",\"id\":{id}}}\n", "a".repeat(size))
}

#[test]
fn tap_reads_an_oversized_request_s_id_from_its_tail_and_takes_its_answer_for_no_stray() {
    let mut tap = Tap::start("oversized-id", &["--max-size", "100000"]);
    tap.send(&big_request("10", 900_000));
    assert_eq!(tap.read_line(), "{\"jsonrpc\":\"2.0\",\"id\":10,\"result\":{}}\n");
    let (_, status, log, _) = tap.finish();
    assert_eq!(status, Some(0));
    let client = entries(&log, "client");
    assert_eq!((client[0]["reason"].as_str(), &client[0]["glimpse"]["id"]), (Some("too-large"), &10.into()));
    assert_eq!(client[0]["glimpse"]["kind"], "request");
    let server = entries(&log, "server");
    assert!(server[0].get("id_rule").is_none(), "no false finding: {log:#?}");
    assert!(notes(&log, "never-answered").is_empty(), "{log:#?}");
}

#[test]
fn tap_takes_no_response_for_a_stray_when_the_oversized_line_showed_no_id() {
    let mut tap = Tap::start("unattributed", &["--max-size", "100000"]);
    // The id is neither in the head nor the last member: it cannot be read.
    let line = format!(
        "{{\"method\":\"ping\",\"params\":{{\"t\":\"{}\"}},\"id\":7,\"jsonrpc\":\"2.0\"}}\n",
        "a".repeat(200_000)
    );
    tap.send(&line);
    assert_eq!(tap.read_line(), "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}\n");
    // The next stray answer is flagged again.
    tap.send("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"stray\"}\n");
    tap.read_line();
    tap.read_line();
    let (_, _, log, _) = tap.finish();
    let server = entries(&log, "server");
    assert!(entries(&log, "client")[0]["glimpse"]["id"].is_null(), "{log:#?}");
    assert!(server[0].get("id_rule").is_none(), "{log:#?}");
    assert_eq!(server[2]["id_rule"][0], "response id 999 matches no request in flight");
}

#[test]
fn tap_gives_an_oversized_response_a_null_reply_and_takes_it_as_the_answer() {
    let mut tap = Tap::start("huge-answer", &["--max-size", "1048576"]);
    tap.send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"huge\"}\n");
    let (_, _, log, _) = tap.finish();
    let answer = entries(&log, "server")[0];
    assert_eq!((answer["reason"].as_str(), answer["reply"].is_null()), (Some("too-large"), true), "{answer}");
    assert_eq!((&answer["glimpse"]["kind"], &answer["glimpse"]["id"]), (&"result".into(), &2.into()));
    assert!(notes(&log, "never-answered").is_empty(), "{log:#?}");
}

#[test]
fn tap_logs_a_request_the_server_stopped_reading_as_cut() {
    // A real process that reads 100 000 bytes and exits, as the reference
    // server does past 10 MiB.
    let mut tap = Tap::start_with("cut", &[], &["sh", "-c", "head -c 100000 >/dev/null"]);
    let stdin = tap.stdin.as_mut().unwrap();
    let _ = stdin.write_all(big_request("3", 3 << 20).as_bytes());
    let (_, status, log, _) = tap.finish();
    assert_eq!(status, Some(0));
    let client = entries(&log, "client");
    assert_eq!(client.len(), 1, "{log:#?}");
    assert!(client[0]["cut"].as_str().unwrap().starts_with("the server"), "{log:#?}");
    assert_eq!(notes(&log, "server-exited")[0]["code"], 0);
    // It never reached the server whole: nothing awaits an answer.
    assert!(notes(&log, "never-answered").is_empty(), "{log:#?}");
}

#[test]
fn tap_passes_sigterm_to_the_server_reaps_it_exits_with_its_status_and_lists_what_went_unanswered() {
    let pid_file = dir("sigterm").join("pid");
    let server = server();
    let mut tap = Tap::start_with("sigterm", &[], &[server.to_str().unwrap(), "--pid", pid_file.to_str().unwrap()]);
    tap.send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"never\"}\n");
    tap.log_after(1);
    let pid = std::fs::read_to_string(&pid_file).unwrap();
    tap.signal("TERM");
    let (_, status, log, _) = tap.wait();
    assert_eq!(status, Some(128 + 15), "the server's death by SIGTERM, as a shell reports it");
    assert_eq!(notes(&log, "server-exited")[0]["signal"], "SIGTERM", "{log:#?}");
    let unanswered = notes(&log, "never-answered");
    assert_eq!((&unanswered[0]["direction"], &unanswered[0]["ids"]), (&"client".into(), &serde_json::json!([3])));
    assert!(!std::path::Path::new(&format!("/proc/{pid}")).exists(), "the server was reaped");
}

#[test]
fn tap_kills_a_server_that_ignores_the_signal_once_its_grace_is_over() {
    let server = server();
    let script = format!("trap '' TERM; exec {}", server.display());
    let mut tap = Tap::start_with("grace", &["--kill-after", "0.3"], &["sh", "-c", &script]);
    tap.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n");
    tap.read_line();
    let started = std::time::Instant::now();
    tap.signal("TERM");
    let (_, status, log, _) = tap.wait();
    assert_eq!(status, Some(128 + 9), "{log:#?}");
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    assert_eq!(notes(&log, "server-exited")[0]["signal"], "SIGKILL");
}
