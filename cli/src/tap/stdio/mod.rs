//! `mcp-envelope tap`: runs an MCP stdio server, relays both directions
//! byte for byte, and logs a verdict on every message.
//!
//! Each direction is one thread: it reads a chunk, checks the lines the
//! chunk completes, then forwards the chunk unchanged. Checking before
//! forwarding records a request's id before the peer can see it, so its
//! response is never taken for one to an unknown id. Memory stays bounded:
//! a line longer than the size limit is counted, not buffered, but its
//! head and tail are kept to read its kind and id from. A line cut short
//! (a peer that stopped reading or writing) is logged as such; signals go
//! on to the server; at the end the log says how the server exited and
//! which requests were never answered.

mod ids;
mod line;
mod signals;

use std::io::{self, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitCode, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::Duration;

use mcp_envelope::transport::lines::{Line, LineReader};
use mcp_envelope::{Kind, Limits};

use self::ids::Ids;
use self::line::Glance;
use super::{TapArgs, open_log};
use crate::parsers::Parsers;
use crate::render::tap::{self as render, Glimpsed, LineNotes, StdioNote};
use crate::render::{Checked, Context};
use crate::summary::{IdValue, Invalid, Summary, all_agree};

/// Chunks are relayed as they arrive, up to this size.
const CHUNK: usize = 64 * 1024;

/// Who sent a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// What the client sent (the tap's standard input).
    Client,
    /// What the server sent (its standard output).
    Server,
}

impl Direction {
    pub fn name(self) -> &'static str {
        match self {
            Direction::Client => "client",
            Direction::Server => "server",
        }
    }

    /// Who reads what this side sends.
    fn reader(self) -> &'static str {
        match self {
            Direction::Client => "the server",
            Direction::Server => "the client",
        }
    }
}

/// What both relay threads share.
struct Shared {
    ids: Mutex<Ids>,
    log: Mutex<Box<dyn Write + Send>>,
    limits: Limits,
    /// The log failed: say so once, keep relaying.
    log_failed: AtomicBool,
}

impl Shared {
    fn write(&self, entry: Vec<u8>) {
        let mut log = self.log.lock().unwrap_or_else(PoisonError::into_inner);
        let written = log.write_all(&entry).and_then(|()| log.flush());
        if let Err(e) = written
            && !self.log_failed.swap(true, Ordering::Relaxed)
        {
            eprintln!("mcp-envelope tap: writing the log: {e}; relaying goes on");
        }
    }
}

/// Checks one direction's lines and writes their log entries.
struct Checker {
    from: Direction,
    parsers: Parsers,
    shared: Arc<Shared>,
}

impl Checker {
    /// Logs `frame`; `glance` holds what of its line came in earlier
    /// chunks and `piece` the rest, `cut` says why it ended without its
    /// newline. A line too large to hold, or cut, shows
    /// what its head and tail say of it; a cut one never reached its peer
    /// whole, so the id rules do not follow it.
    fn frame(&mut self, frame: Line<'_>, glance: &Glance, piece: &[u8], cut: Option<&'static str>) {
        let (line, verdicts) = match frame {
            Line::Message { line, bytes, .. } => (line, self.parsers.verdicts(bytes)),
            Line::Oversized { line, .. } => {
                let error = mcp_envelope::Error::too_large(self.shared.limits.max_size);
                (line, vec![("all", Summary::Invalid(Invalid::from_error(&error)))])
            }
        };
        let oversized = matches!(frame, Line::Oversized { .. });
        // Only such a line needs its head and tail, so only it pays for them.
        let whole = (oversized || cut.is_some()).then(|| glance.with(piece));
        let seen = whole.as_ref().map(Glance::glimpse);
        let mut verdicts = verdicts;
        if oversized && seen.as_ref().is_some_and(|seen| matches!(seen.kind, Some(Kind::Result | Kind::Error))) {
            // A response is never answered, however large.
            if let Some((_, Summary::Invalid(invalid))) = verdicts.first_mut() {
                invalid.reply = None;
            }
        }
        let Some((_, first)) = verdicts.first() else { return };
        let findings: Vec<String> = match (&seen, cut) {
            (_, Some(_)) => Vec::new(),
            (Some(seen), None) => {
                let mut ids = self.shared.ids.lock().unwrap_or_else(PoisonError::into_inner);
                ids.oversized(self.from, seen).into_iter().collect()
            }
            (None, None) => self.id_findings(first),
        };
        let glimpsed =
            seen.map(|seen| Glimpsed { kind: seen.kind.map(Kind::name), id: seen.id.as_ref().map(IdValue::from) });
        let checked = if all_agree(&verdicts) { Checked::One(first) } else { Checked::Disagreement(&verdicts) };
        let context = Context { direction: Some(self.from.name()), line: Some(line), ..Context::default() };
        let notes = LineNotes { id_rule: &findings, glimpse: glimpsed.as_ref(), cut };
        self.shared.write(render::message_line(&context, &checked, &notes));
    }

    fn id_findings(&self, verdict: &Summary) -> Vec<String> {
        let mut ids = self.shared.ids.lock().unwrap_or_else(PoisonError::into_inner);
        match verdict {
            Summary::Valid { kind, id, .. } => ids.observe(self.from, *kind, id.as_ref()).into_iter().collect(),
            Summary::Batch(items) => items
                .iter()
                .filter_map(|item| match item {
                    Summary::Valid { kind, id, .. } => ids.observe(self.from, *kind, id.as_ref()),
                    _ => None,
                })
                .collect(),
            Summary::Invalid(_) => Vec::new(),
        }
    }
}

/// One direction's relay: where its bytes go, and the line in progress.
struct Relay<W> {
    /// Dropped when the direction ends: for the server's input, that is
    /// its end of file.
    to: Option<W>,
    framing: LineReader,
    glance: Glance,
    checker: Checker,
    /// Nothing more goes this way; the line in progress was logged.
    ended: bool,
}

impl<W: Write> Relay<W> {
    fn new(to: W, checker: Checker) -> Relay<W> {
        let framing = LineReader::new(checker.shared.limits.max_size);
        Relay { to: Some(to), framing, glance: Glance::default(), checker, ended: false }
    }

    /// Checks the lines `bytes` completes, then forwards them. False once
    /// nothing more can go this way.
    fn chunk(&mut self, bytes: &[u8]) -> bool {
        if self.ended {
            return false;
        }
        let Relay { framing, glance, checker, .. } = self;
        // Line by line, so that a line judged here is its glance (what came
        // in earlier chunks) and its piece of this chunk; only the piece a
        // chunk ends with is kept.
        let mut rest = bytes;
        while let Some(newline) = memchr::memchr(b'\n', rest) {
            let (line, after) = rest.split_at(newline + 1);
            let piece = line.get(..newline).unwrap_or_default();
            framing.feed(line, |frame| checker.frame(frame, glance, piece, None));
            glance.clear();
            rest = after;
        }
        glance.take(rest);
        framing.feed(rest, |frame| checker.frame(frame, glance, &[], None));
        let Some(to) = &mut self.to else { return false };
        if let Err(e) = to.write_all(bytes).and_then(|()| to.flush()) {
            // The reader went away (the server died, or the client closed
            // its end): nothing more can be relayed this way.
            let from = self.checker.from;
            let detail = format!("{} stopped reading: {e}", from.reader());
            let note = StdioNote::RelayStopped { direction: from.name(), detail: &detail };
            self.checker.shared.write(render::stdio_note_line(&note));
            self.end(match from {
                Direction::Client => "the server stopped reading inside the line",
                Direction::Server => "the client stopped reading inside the line",
            });
            return false;
        }
        true
    }

    /// This direction is over: a line left unfinished is logged as `cut`.
    fn end(&mut self, cut: &'static str) {
        self.to = None;
        if !self.ended {
            self.ended = true;
            let Relay { framing, glance, checker, .. } = self;
            framing.finish(|frame| checker.frame(frame, glance, &[], Some(cut)));
        }
    }
}

/// Relays `from` through `relay` chunk by chunk until `from` ends or
/// fails, or the other end stops taking bytes.
fn relay<W: Write>(mut from: impl Read, relay: &Mutex<Relay<W>>) {
    let lock = || relay.lock().unwrap_or_else(PoisonError::into_inner);
    let (direction, mut chunk) = (lock().checker.from, vec![0; CHUNK]);
    loop {
        let n = match from.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                eprintln!("mcp-envelope tap: reading from the {}: {e}", direction.name());
                break;
            }
        };
        if !lock().chunk(chunk.get(..n).unwrap_or_default()) {
            return;
        }
    }
    lock().end(match direction {
        Direction::Client => "the client's output ended inside the line",
        Direction::Server => "the server's output ended inside the line",
    });
}

fn spawn(command: &[String]) -> io::Result<(Child, ChildStdin, ChildStdout)> {
    let (program, args) = command.split_first().ok_or_else(|| io::Error::other("no server command"))?;
    let mut server = Command::new(program);
    server.args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::inherit());
    // Signals reach the server through the tap only (see signals.rs).
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut server, 0);
    let mut child = server.spawn().map_err(|e| io::Error::new(e.kind(), format!("starting {program}: {e}")))?;
    let stdin = child.stdin.take().ok_or_else(|| io::Error::other("the server has no standard input"))?;
    let stdout = child.stdout.take().ok_or_else(|| io::Error::other("the server has no standard output"))?;
    Ok((child, stdin, stdout))
}

/// The signal that ended the server, if one did.
fn signal_of(status: ExitStatus) -> Option<i32> {
    #[cfg(unix)]
    return std::os::unix::process::ExitStatusExt::signal(&status);
    #[cfg(not(unix))]
    None
}

/// The server's exit status as this process's: its code, or 128 plus the
/// signal that ended it, as shells report it.
fn status_of(status: ExitStatus) -> u8 {
    if let Some(signal) = signal_of(status) {
        return u8::try_from(128 + signal).unwrap_or(255);
    }
    status.code().map_or(255, |code| u8::try_from(code).unwrap_or(255))
}

/// The log's last lines: how the server ended, and what it left unanswered.
fn log_the_end(shared: &Shared, status: ExitStatus) {
    let signal = signal_of(status)
        .map(|n| nix::sys::signal::Signal::try_from(n).map_or_else(|_| n.to_string(), |s| s.as_str().to_owned()));
    shared.write(render::stdio_note_line(&StdioNote::ServerExited { code: status.code(), signal: signal.as_deref() }));
    let ids = shared.ids.lock().unwrap_or_else(PoisonError::into_inner);
    for direction in [Direction::Client, Direction::Server] {
        let (pending, unread) = ids.unanswered(direction);
        if pending.is_empty() {
            continue;
        }
        let detail = (unread > 0).then(|| format!("{unread} responses too large to read may answer some of these"));
        let note = StdioNote::NeverAnswered { direction: direction.name(), ids: &pending, detail: detail.as_deref() };
        shared.write(render::stdio_note_line(&note));
    }
}

pub fn run(args: &TapArgs, limits: Limits) -> ExitCode {
    let log = match open_log(args.log.as_deref()) {
        Ok(log) => log,
        Err(e) => {
            eprintln!("mcp-envelope tap: {}: {e}", args.log.as_deref().unwrap_or("-"));
            return ExitCode::from(2);
        }
    };
    let (mut child, server_in, server_out) = match spawn(&args.command) {
        Ok(spawned) => spawned,
        Err(e) => {
            eprintln!("mcp-envelope tap: {e}");
            return ExitCode::from(2);
        }
    };
    let exited = Arc::new(AtomicBool::new(false));
    if let Err(e) = signals::forward(child.id(), Arc::clone(&exited), Duration::from_secs_f64(args.kill_after)) {
        eprintln!("mcp-envelope tap: signals will not reach the server: {e}");
    }
    let shared = Arc::new(Shared {
        ids: Mutex::new(Ids::new(args.revision)),
        log: Mutex::new(log),
        limits,
        log_failed: AtomicBool::new(false),
    });
    let checker = |from| Checker {
        from,
        parsers: Parsers::new(args.backend, args.revision, limits),
        shared: Arc::clone(&shared),
    };
    let to_server = Arc::new(Mutex::new(Relay::new(server_in, checker(Direction::Client))));
    // Not joined: it may sit in a read of standard input after the server
    // is gone, and ends with the process.
    let client = Arc::clone(&to_server);
    thread::spawn(move || relay(io::stdin(), &client));
    let to_client = Mutex::new(Relay::new(io::stdout(), checker(Direction::Server)));
    thread::scope(|scope| scope.spawn(|| relay(server_out, &to_client)).join().ok());
    let status = child.wait();
    exited.store(true, Ordering::SeqCst);
    // Whatever the client had begun to send cannot reach the server now.
    to_server.lock().unwrap_or_else(PoisonError::into_inner).end("the server exited inside the line");
    match status {
        Ok(status) => {
            log_the_end(&shared, status);
            ExitCode::from(status_of(status))
        }
        Err(e) => {
            eprintln!("mcp-envelope tap: waiting for the server: {e}");
            ExitCode::from(2)
        }
    }
}
