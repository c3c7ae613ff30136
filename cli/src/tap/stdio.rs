//! `mcp-envelope tap`: runs an MCP stdio server, relays both directions
//! byte for byte, and logs a verdict on every message.
//!
//! Each direction is one thread: it reads a chunk, checks the lines the
//! chunk completes, then forwards the chunk unchanged. Checking before
//! forwarding records a request's id before the peer can see it, so its
//! response is never taken for one to an unknown id. Memory stays bounded:
//! a line longer than the size limit is counted, not buffered.

use std::io::{self, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitCode, Stdio};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;

use mcp_envelope::ids::InFlight;
use mcp_envelope::stream::{Frame, LineReader};
use mcp_envelope::{Id, Kind, Limits, Revision};

use super::open_log;
use crate::render::{self, Verdict};
use crate::summary::{IdValue, Invalid, Summary, all_agree};
use crate::{BackendChoice, Parsers};

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
}

/// The id rules across both directions: requests each side sent, and the
/// responses the other side gave.
struct Ids {
    client_requests: InFlight,
    server_requests: InFlight,
}

impl Ids {
    /// What the id rules say of a valid message sent by `from`.
    fn observe(&mut self, from: Direction, kind: Kind, id: Option<&IdValue>) -> Option<String> {
        let id = match id {
            Some(IdValue::Str(s)) => Id::from(s.as_str()),
            Some(IdValue::Int(n)) => Id::Int(*n),
            Some(IdValue::Null) | None => return None,
        };
        let (own, peer) = match from {
            Direction::Client => (&mut self.client_requests, &mut self.server_requests),
            Direction::Server => (&mut self.server_requests, &mut self.client_requests),
        };
        let found = match kind {
            Kind::Request => own.sent(&id),
            Kind::Result | Kind::Error => peer.received(&id),
            Kind::Notification | Kind::Batch => Ok(()),
        };
        found.err().map(|fault| fault.to_string())
    }
}

/// What both relay threads share.
struct Shared {
    ids: Mutex<Ids>,
    log: Mutex<Box<dyn Write + Send>>,
    limits: Limits,
}

/// Checks one direction's lines and writes their log entries.
struct Checker {
    from: Direction,
    parsers: Parsers,
    shared: Arc<Shared>,
    /// The log failed: say so once, keep relaying.
    log_failed: bool,
}

impl Checker {
    fn frame(&mut self, frame: Frame<'_>) {
        let (line, verdicts) = match frame {
            Frame::Message { line, bytes, .. } => (line, self.parsers.verdicts(bytes)),
            Frame::Oversized { line, .. } => {
                // The error the library gives a line over the limit.
                let invalid =
                    frame.error(self.shared.limits.max_size).map(|e| Summary::Invalid(Invalid::from_error(&e)));
                (line, invalid.map(|i| vec![("all", i)]).unwrap_or_default())
            }
        };
        let Some((_, first)) = verdicts.first() else { return };
        let agree = all_agree(&verdicts);
        let findings = {
            let mut ids = self.shared.ids.lock().unwrap_or_else(PoisonError::into_inner);
            match first {
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
        };
        let verdict = if agree { Verdict::One(first) } else { Verdict::Disagreement(&verdicts) };
        let entry = render::tap_line(self.from.name(), line, &verdict, &findings);
        let mut log = self.shared.log.lock().unwrap_or_else(PoisonError::into_inner);
        let written = entry.and_then(|entry| {
            log.write_all(&entry)?;
            log.flush()
        });
        if let Err(e) = written
            && !self.log_failed
        {
            self.log_failed = true;
            eprintln!("mcp-envelope tap: writing the log: {e}; relaying goes on");
        }
    }
}

/// Relays `from` to `to` chunk by chunk, checking each line first. Returns
/// when `from` ends or fails, or `to` stops taking bytes.
fn relay(mut from: impl Read, mut to: impl Write, mut checker: Checker) {
    let mut framing = LineReader::new(checker.shared.limits.max_size);
    let mut chunk = vec![0; CHUNK];
    loop {
        let n = match from.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                eprintln!("mcp-envelope tap: reading from the {}: {e}", checker.from.name());
                break;
            }
        };
        let bytes = chunk.get(..n).unwrap_or_default();
        framing.feed(bytes, |frame| checker.frame(frame));
        if to.write_all(bytes).and_then(|()| to.flush()).is_err() {
            // The reader went away (the server died, or the client closed
            // its end): nothing more can be relayed this way.
            return;
        }
    }
    // A last line without its newline (a peer that died mid-message).
    framing.finish(|frame| checker.frame(frame));
}

/// Everything `tap` needs, from the command line.
pub struct TapArgs {
    pub revision: Revision,
    pub backend: BackendChoice,
    pub limits: Limits,
    pub log: Option<String>,
    pub command: Vec<String>,
}

fn spawn(command: &[String]) -> io::Result<(Child, ChildStdin, ChildStdout)> {
    let (program, args) = command.split_first().ok_or_else(|| io::Error::other("no server command"))?;
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| io::Error::new(e.kind(), format!("starting {program}: {e}")))?;
    let stdin = child.stdin.take().ok_or_else(|| io::Error::other("the server has no standard input"))?;
    let stdout = child.stdout.take().ok_or_else(|| io::Error::other("the server has no standard output"))?;
    Ok((child, stdin, stdout))
}

/// The server's exit status as this process's: its code, or 128 plus the
/// signal that ended it, as shells report it.
fn status_of(status: std::process::ExitStatus) -> u8 {
    #[cfg(unix)]
    if let Some(signal) = std::os::unix::process::ExitStatusExt::signal(&status) {
        return u8::try_from(128 + signal).unwrap_or(255);
    }
    status.code().map_or(255, |code| u8::try_from(code).unwrap_or(255))
}

pub fn run(args: &TapArgs) -> ExitCode {
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
    let shared = Arc::new(Shared {
        ids: Mutex::new(Ids {
            client_requests: InFlight::new(args.revision),
            server_requests: InFlight::new(args.revision),
        }),
        log: Mutex::new(log),
        limits: args.limits,
    });
    let checker = |from| Checker {
        from,
        parsers: Parsers::new(args.backend, args.revision, args.limits),
        shared: Arc::clone(&shared),
        log_failed: false,
    };
    let client = checker(Direction::Client);
    // Not joined: it may sit in a read of standard input after the server
    // is gone, and ends with the process. Dropping `server_in` at its end
    // closes the server's input.
    thread::spawn(move || relay(io::stdin(), server_in, client));
    let server = checker(Direction::Server);
    let from_server = thread::spawn(move || relay(server_out, io::stdout(), server));
    let _ = from_server.join();
    let status = child.wait();
    let mut log = shared.log.lock().unwrap_or_else(PoisonError::into_inner);
    let _ = log.flush();
    match status {
        Ok(status) => ExitCode::from(status_of(status)),
        Err(e) => {
            eprintln!("mcp-envelope tap: waiting for the server: {e}");
            ExitCode::from(2)
        }
    }
}
