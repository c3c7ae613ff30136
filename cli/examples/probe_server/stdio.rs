//! Stdio: one message a line, answered in order. A message is judged under
//! the revision its `_meta` declares (2026-07-28); one that declares none
//! under 2026-07-28 too once the client opened in that era (its first
//! request declared it, basic/versioning), else under the revision
//! `initialize` agreed on.
//!
//! Two faults change that: `answers-out-of-order` answers what it runs
//! (results, method not found) a moment after what it refuses and after
//! requests with a string id, as a server that runs requests at once does;
//! `request-without-meta-pins-2025` serves only 2025 requests from the
//! first request without `_meta` after a modern opening, as the TypeScript
//! SDK v2's stdio entry does.

use std::io::{BufRead, Write};
use std::time::Duration;

use mcp_envelope::Revision;
use serde_json::Value;

use crate::Server;
use crate::answer::declared;

pub fn run(server: &Server) {
    let stdin = std::io::stdin();
    if server.faults.on("stdout-noise") {
        emit(b"probe_server starting");
    }
    let mut agreed = Revision::V2025_11_25;
    // The era the client opened in: the first request's.
    let mut modern: Option<bool> = None;
    let mut pinned_2025 = false;
    let mut line = Vec::new();
    loop {
        line.clear();
        if stdin.lock().read_until(b'\n', &mut line).unwrap_or(0) == 0 {
            break;
        }
        let message = line.strip_suffix(b"\n").unwrap_or(&line);
        let message = message.strip_suffix(b"\r").unwrap_or(message);
        if message.trim_ascii().is_empty() {
            continue;
        }
        // The revision a message declares is read as the server reads it.
        let read = match message.strip_prefix(b"\xef\xbb\xbf") {
            Some(rest) if server.faults.on("bom-tolerated") => rest,
            _ => message,
        };
        let declares = declared(read).filter(|r| *r == Revision::V2026_07_28);
        if modern.is_none() && is_request(read) {
            modern = Some(declares.is_some());
        }
        if server.faults.on("request-without-meta-pins-2025")
            && modern == Some(true)
            && declares.is_none()
            && is_request(read)
        {
            pinned_2025 = true;
        }
        let revision = match declares {
            _ if pinned_2025 => agreed,
            Some(revision) => revision,
            None if modern == Some(true) => Revision::V2026_07_28,
            None => agreed,
        };
        let reply = server.answer(message, revision, false);
        if reply.flood {
            // Notifications without end, until the reader goes.
            let mut out = std::io::stdout().lock();
            while out.write_all(b"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/flood\"}\n").is_ok() {}
            return;
        }
        if let Some(body) = reply.body {
            let value: Value = serde_json::from_slice(&body).unwrap_or_default();
            if let Some(version) = value.pointer("/result/protocolVersion").and_then(Value::as_str) {
                agreed = version.parse().unwrap_or(agreed);
            }
            if server.faults.on("answers-out-of-order") && run_at_once(&value) {
                std::thread::spawn(move || {
                    std::thread::sleep(Duration::from_millis(300));
                    emit(&body);
                });
            } else {
                emit(&body);
            }
        }
    }
    if server.faults.on("hang-at-eof") {
        std::thread::sleep(std::time::Duration::from_secs(3600));
    }
    if server.faults.on("exit-1-at-eof") {
        std::process::exit(1);
    }
}

/// Writes one message and its newline, whole, to standard output.
fn emit(body: &[u8]) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(body).and_then(|()| out.write_all(b"\n")).and_then(|()| out.flush());
}

/// What a server that runs requests at once answers late: what it ran
/// (a result, method not found) for a request with an integer id, not what
/// it refused on reading (-32700, -32600) or answered at once.
fn run_at_once(answer: &Value) -> bool {
    let refused = matches!(answer.pointer("/error/code").and_then(Value::as_i64), Some(-32700 | -32600));
    answer.get("id").is_some_and(Value::is_i64) && !refused
}

/// Whether a line is a request (an object with an id and a method).
fn is_request(bytes: &[u8]) -> bool {
    let value: Value = serde_json::from_slice(bytes).unwrap_or_default();
    value.get("method").is_some() && value.get("id").is_some()
}
