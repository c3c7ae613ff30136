//! An MCP server for the tests of `mcp-envelope probe`: conforming by
//! default (each message judged by the core, and every fault answered as
//! RULES.md says), with faults of real servers to switch on one at a time
//! (`--fault NAME`, repeatable), each failing the probe's checks it
//! touches and no other. Over stdio, or Streamable HTTP on one port or
//! many (a census in one process).
//!
//!   probe_server [--fault NAME]... stdio
//!   probe_server [--fault NAME]... http PORT [COUNT]
//!
//! Over HTTP it listens on 127.0.0.1, on COUNT ports from PORT (0: free
//! ones), and prints each endpoint URL on a line of its own.
//!
//! It speaks 2026-07-28 (`server/discover`, no sessions, per-request
//! `_meta`, SEP-2243's headers checked by the core's exchange rules, list
//! results with caching hints, `subscriptions/listen`) and 2024-11-05
//! (stdio) to 2025-11-25 (`initialize`; over HTTP a session each, batches
//! under 2025-03-26). Its methods change nothing: `ping` (up to
//! 2025-11-25), `server/discover`, the lists (one prompt, one resource,
//! no tools), `prompts/get` (of a prompt it does not have),
//! `subscriptions/listen` (nothing ever changes). Over
//! HTTP it refuses a foreign `Host` or `Origin` with 403, as a server on
//! loopback must.
//!
//! The modules: `answer.rs` what it answers to one message, `stdio.rs`
//! and `http.rs` the two transports.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, reason = "a test server")]

mod answer;
mod http;
mod stdio;

use std::collections::HashSet;
use std::sync::Mutex;
use std::sync::atomic::AtomicUsize;

/// The faults switched on.
#[derive(Default)]
struct Faults(HashSet<String>);

impl Faults {
    fn on(&self, name: &str) -> bool {
        self.0.contains(name)
    }
}

/// What the server answers to one message.
#[derive(Default)]
struct ServerReply {
    /// HTTP status (stdio: unused).
    status: u16,
    /// The answer, if any.
    body: Option<Vec<u8>>,
    /// A session minted.
    session: Option<String>,
    /// The body opens a `subscriptions/listen` stream: over HTTP an event
    /// stream that stays open after it, over stdio a line.
    stream: bool,
    /// The server floods instead of answering: lines (stdio) or events
    /// (HTTP) without end.
    flood: bool,
}

impl ServerReply {
    fn json(status: u16, body: Vec<u8>) -> ServerReply {
        ServerReply { status, body: Some(body), ..ServerReply::default() }
    }

    fn accepted() -> ServerReply {
        ServerReply { status: 202, ..ServerReply::default() }
    }
}

/// The server: its faults, the sessions it minted (HTTP), and those that
/// have sent `MCP-Protocol-Version`.
struct Server {
    faults: Faults,
    sessions: Mutex<HashSet<String>>,
    versioned: Mutex<HashSet<String>>,
    minted: AtomicUsize,
    in_flight: AtomicUsize,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut faults = Faults::default();
    let mut rest = Vec::new();
    let mut i = 0;
    while i < args.len() {
        if args[i] == "--fault" {
            faults.0.insert(args[i + 1].clone());
            i += 2;
        } else {
            rest.push(args[i].clone());
            i += 1;
        }
    }
    let server = Server {
        faults,
        sessions: Mutex::new(HashSet::new()),
        versioned: Mutex::new(HashSet::new()),
        minted: AtomicUsize::new(0),
        in_flight: AtomicUsize::new(0),
    };
    match rest.first().map(String::as_str) {
        Some("stdio") => stdio::run(&server),
        Some("http") => {
            let first = rest.get(1).and_then(|p| p.parse().ok()).unwrap_or(0);
            let count = rest.get(2).and_then(|c| c.parse().ok()).unwrap_or(1);
            let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
            runtime.block_on(http::serve(std::sync::Arc::new(server), first, count));
        }
        _ => {
            eprintln!("usage: probe_server [--fault NAME]... stdio | http PORT [COUNT]");
            std::process::exit(2);
        }
    }
}
