//! The probe's side of a stdio server: it runs the server, writes lines to
//! its standard input and reads its standard output line by line (with the
//! core's framing, so a line past the size limit is counted, not held). It
//! never waits a fixed time: what a provocation got is what the server
//! wrote before it answered the request the probe sent right after it.
//!
//! Whatever the server writes, the probe's memory and time stay bounded:
//! the reader holds a few lines ahead (the server then waits on its
//! pipe), the first lines before an answer are kept and the rest counted,
//! and a server that writes past the flood limits, or never stops
//! writing without answering, is reported flooding, with the count.

use std::collections::VecDeque;
use std::process::Stdio as Piped;
use std::time::Duration;

use mcp_envelope::transport::lines::{Line, LineReader};
use mcp_envelope::{Envelope, Id, Message, Parser, Revision};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::process::{Child, ChildStdin, Command};
use tokio::sync::mpsc;
use tokio::time::{Instant, timeout, timeout_at};

/// Lines the reader holds ahead of the probe: past them it stops reading,
/// and a server that writes on waits on its pipe.
const LINES_AHEAD: usize = 8;
/// Messages kept of what came before an answer; the rest are counted.
const KEPT_BEFORE: usize = 64;
/// Lines, or bytes, before an answer past which a server is flooding.
const FLOOD_LINES: u64 = 10_000;
const FLOOD_BYTES: u64 = 64 << 20;
/// How many times the wait an answer may take in all, however busy the
/// server is writing other things meanwhile.
const ANSWER_WAITS: u32 = 4;

/// A line the server wrote.
enum ServerLine {
    Message(Vec<u8>),
    /// Longer than the size limit: its length.
    Oversized(u64),
    /// Its standard output ended.
    End,
}

struct Running {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<ServerLine>,
    /// Lines read and not yet taken.
    pending: VecDeque<ServerLine>,
    ended: bool,
}

/// A stdio server under probe.
pub struct StdioServer {
    command: Vec<String>,
    /// Variables added to its environment.
    env: Vec<(String, String)>,
    running: Option<Running>,
    wait: Duration,
    max_size: usize,
    /// Every line the server wrote that was no JSON-RPC message (the
    /// first few): stdout is for messages only.
    pub stray: Vec<String>,
    /// How many times the server was started.
    pub starts: u32,
}

impl StdioServer {
    pub fn new(command: Vec<String>, env: Vec<(String, String)>, wait: Duration, max_size: usize) -> StdioServer {
        StdioServer { command, env, running: None, wait, max_size, stray: Vec::new(), starts: 0 }
    }

    /// Starts the server (again, if it ended).
    pub fn start(&mut self) -> Result<(), String> {
        let (program, args) = self.command.split_first().ok_or("no server command")?;
        let mut child = Command::new(program)
            .args(args)
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .stdin(Piped::piped())
            .stdout(Piped::piped())
            .stderr(Piped::null())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| format!("{program}: {e}"))?;
        let stdin = child.stdin.take();
        let mut stdout = child.stdout.take().ok_or("no standard output")?;
        let (send, lines) = mpsc::channel(LINES_AHEAD);
        let max = self.max_size;
        tokio::spawn(async move {
            let mut reader = LineReader::new(max);
            let mut buf = vec![0u8; 64 * 1024];
            let mut read = Vec::new();
            loop {
                let n = match stdout.read(&mut buf).await {
                    Ok(0) | Err(_) => break,
                    Ok(n) => n,
                };
                reader.feed(buf.get(..n).unwrap_or_default(), |line| read.push(line_of(line)));
                // Each line waits for room: the probe reads no faster than
                // it takes lines, so a flood stays in the server's pipe.
                for line in read.drain(..) {
                    if send.send(line).await.is_err() {
                        return;
                    }
                }
            }
            reader.finish(|line| read.push(line_of(line)));
            for line in read.drain(..).chain([ServerLine::End]) {
                if send.send(line).await.is_err() {
                    return;
                }
            }
        });
        self.running = Some(Running { child, stdin, lines, pending: VecDeque::new(), ended: false });
        self.starts += 1;
        Ok(())
    }

    /// Writes `bytes` and a newline.
    pub async fn write(&mut self, bytes: &[u8]) -> Result<(), String> {
        let running = self.running.as_mut().ok_or("the server is not running")?;
        let stdin = running.stdin.as_mut().ok_or("the server's input is closed")?;
        let mut line = Vec::with_capacity(bytes.len() + 1);
        line.extend_from_slice(bytes);
        line.push(b'\n');
        stdin.write_all(&line).await.map_err(|e| format!("writing to the server: {e}"))?;
        stdin.flush().await.map_err(|e| format!("writing to the server: {e}"))
    }

    /// Writes `chunks` as one line (a newline after the last).
    async fn write_chunks(&mut self, chunks: &[bytes::Bytes]) -> Result<(), String> {
        let running = self.running.as_mut().ok_or("the server is not running")?;
        let stdin = running.stdin.as_mut().ok_or("the server's input is closed")?;
        for chunk in chunks {
            stdin.write_all(chunk).await.map_err(|e| format!("writing to the server: {e}"))?;
        }
        stdin.write_all(b"\n").await.map_err(|e| format!("writing to the server: {e}"))?;
        stdin.flush().await.map_err(|e| format!("writing to the server: {e}"))
    }

    /// The next line, within the wait (and by `deadline`).
    async fn next(&mut self, deadline: Instant) -> Result<ServerLine, String> {
        let wait = self.wait;
        let running = self.running.as_mut().ok_or("the server is not running")?;
        if let Some(line) = running.pending.pop_front() {
            return Ok(line);
        }
        if running.ended {
            return Ok(ServerLine::End);
        }
        let silence = Instant::now() + wait;
        match timeout_at(silence.min(deadline), running.lines.recv()).await {
            Ok(Some(line)) => Ok(line),
            Ok(None) => Ok(ServerLine::End),
            Err(_) if silence <= deadline => Err(format!("no answer within {} s", wait.as_secs_f64())),
            Err(_) => {
                Err(format!("no answer within {} s, though it kept writing", (wait * ANSWER_WAITS).as_secs_f64()))
            }
        }
    }

    /// Reads lines until one answers `id` (a response with that id): the
    /// lines before it (the first [`KEPT_BEFORE`]), that line, or why it
    /// never came (the server ended, went silent, took more than
    /// [`ANSWER_WAITS`] waits in all, or flooded). A line that is no
    /// message at all is noted as a stray.
    pub async fn until_answered(&mut self, id: &Id<'_>, revision: Revision) -> Waited {
        self.until(revision, |message| response_id(message) == Some(id)).await
    }

    /// Reads lines until a message `awaited` picks: as
    /// [`StdioServer::until_answered`], for any message.
    pub async fn until(&mut self, revision: Revision, mut awaited: impl FnMut(&Message<'_>) -> bool) -> Waited {
        let mut waited = Waited::default();
        let mut parser = Parser::new(revision);
        let deadline = Instant::now() + self.wait * ANSWER_WAITS;
        let (mut lines, mut written) = (0u64, 0u64);
        loop {
            let line = match self.next(deadline).await {
                Ok(line) => line,
                Err(silent) => {
                    let flood = flooded(lines, written);
                    waited.silent = flood.is_none() && Instant::now() < deadline;
                    waited.failure = Some(flood.unwrap_or(silent));
                    return waited;
                }
            };
            lines += 1;
            written += match &line {
                ServerLine::Message(message) => message.len() as u64 + 1,
                ServerLine::Oversized(len) => len + 1,
                ServerLine::End => 0,
            };
            if lines > FLOOD_LINES || written > FLOOD_BYTES {
                waited.failure = flooded(lines, written);
                return waited;
            }
            match line {
                ServerLine::End => {
                    if let Some(running) = self.running.as_mut() {
                        running.ended = true;
                    }
                    let status = self.exit_status().await;
                    waited.failure = Some(format!("the server exited ({status})"));
                    return waited;
                }
                ServerLine::Oversized(len) => {
                    self.note_stray(&format!("a line of {len} bytes, past the size limit"));
                }
                ServerLine::Message(bytes) => {
                    let answered = match parser.parse(&bytes) {
                        Ok(Envelope::Single(message)) => awaited(&message),
                        Ok(_) => false,
                        Err(e) if e.reason().code() == -32700 && !looks_like_json(&bytes) => {
                            self.note_stray(&String::from_utf8_lossy(&bytes));
                            continue;
                        }
                        Err(_) => false,
                    };
                    if answered {
                        waited.answer = Some(bytes);
                        return waited;
                    }
                    if waited.before.len() < KEPT_BEFORE {
                        waited.before.push(bytes);
                    }
                }
            }
        }
    }

    fn note_stray(&mut self, line: &str) {
        if self.stray.len() < 5 {
            self.stray.push(mcp_envelope_grade::clip(line, 120));
        }
    }

    async fn exit_status(&mut self) -> String {
        let Some(running) = self.running.as_mut() else { return "not running".into() };
        match timeout(self.wait, running.child.wait()).await {
            Ok(Ok(status)) => status.to_string(),
            Ok(Err(e)) => e.to_string(),
            Err(_) => "its output closed, it still runs".into(),
        }
    }

    /// Closes the server's input and waits for it to exit: its status, or
    /// `None` if it did not exit within the wait (then it is killed).
    pub async fn close(&mut self) -> Result<std::process::ExitStatus, String> {
        let Some(mut running) = self.running.take() else { return Err("not running".into()) };
        drop(running.stdin.take());
        match timeout(self.wait, running.child.wait()).await {
            Ok(Ok(status)) => Ok(status),
            Ok(Err(e)) => Err(e.to_string()),
            Err(_) => {
                let _ = running.child.kill().await;
                Err(format!("it did not exit within {} s of the end of its input", self.wait.as_secs_f64()))
            }
        }
    }

    /// Stops the server, whatever it is doing.
    pub async fn kill(&mut self) {
        if let Some(mut running) = self.running.take() {
            let _ = running.child.kill().await;
        }
    }

    /// What came back for `sent` (lines written together): everything the
    /// server wrote before it answered the `fences`, requests written one
    /// after another once the one before was answered (a server that
    /// answers in order has answered `sent` by the first; one that runs
    /// requests at once has had a round trip more), then what answers
    /// `awaited` ids still unanswered, within the wait; and `failure` when
    /// a fence was never answered, or the server exited or flooded while
    /// an awaited id was. `answer` is the first fence's answer.
    pub async fn provoke(
        &mut self,
        sent: &[bytes::Bytes],
        fences: &[(Id<'static>, Vec<u8>)],
        awaited: &[Id<'static>],
        revision: Revision,
    ) -> Waited {
        if let Err(e) = self.write_chunks(sent).await {
            return Waited { failure: Some(e), ..Waited::default() };
        }
        let mut all = Waited::default();
        for (id, body) in fences {
            if let Err(e) = self.write(body).await {
                return Waited { failure: Some(e), ..all };
            }
            let waited = self.until_answered(id, revision).await;
            all.before.extend(waited.before);
            all.answer = all.answer.or(waited.answer);
            if waited.failure.is_some() {
                all.failure = waited.failure;
                return all;
            }
        }
        let mut parser = Parser::new(revision);
        let mut open: Vec<&Id<'static>> =
            awaited.iter().filter(|id| !all.before.iter().any(|m| answers(&mut parser, m, id))).collect();
        while !open.is_empty() {
            let waited = self.until(revision, |m| open.iter().any(|id| response_id(m) == Some(id))).await;
            all.before.extend(waited.before);
            match waited.answer {
                Some(bytes) => {
                    open.retain(|id| !answers(&mut parser, &bytes, id));
                    all.before.push(bytes);
                }
                // Silence past the fences is the check's to judge (an id
                // answered as another, say); an exit or a flood is not.
                None => {
                    all.failure = waited.failure.filter(|_| !waited.silent);
                    return all;
                }
            }
        }
        all
    }

    /// Sends one request and waits for its answer.
    pub async fn call(&mut self, bytes: &[u8], id: &Id<'_>, revision: Revision) -> Waited {
        if let Err(e) = self.write(bytes).await {
            return Waited { failure: Some(e), ..Waited::default() };
        }
        self.until_answered(id, revision).await
    }
}

/// What a server that wrote `lines` lines (`bytes` bytes) without
/// answering is, when that is a flood: the fault, with its count.
fn flooded(lines: u64, bytes: u64) -> Option<String> {
    (lines > FLOOD_LINES / 10 || bytes > FLOOD_BYTES / 10)
        .then(|| format!("flooded: {lines} lines ({bytes} bytes) written, and no answer"))
}

/// What came while waiting for an answer.
#[derive(Debug, Default)]
pub struct Waited {
    /// Lines before it.
    pub before: Vec<Vec<u8>>,
    /// The answer.
    pub answer: Option<Vec<u8>>,
    /// Why it never came.
    pub failure: Option<String>,
    /// It never came because the server wrote nothing more within the
    /// wait (it did not exit, flood, or write on past it).
    pub silent: bool,
}

/// The id a response answers.
fn response_id<'m>(message: &'m Message<'_>) -> Option<&'m Id<'m>> {
    match message {
        Message::Result(r) => Some(&r.id),
        Message::Error(e) => e.id.as_ref(),
        Message::Request(_) | Message::Notification(_) => None,
    }
}

/// Whether `bytes` is a response to `id`.
fn answers(parser: &mut Parser, bytes: &[u8], id: &Id<'_>) -> bool {
    matches!(parser.parse(bytes), Ok(Envelope::Single(m)) if response_id(&m) == Some(id))
}

fn line_of(frame: Line<'_>) -> ServerLine {
    match frame {
        Line::Message { bytes, .. } => ServerLine::Message(bytes.to_vec()),
        Line::Oversized { len, .. } => ServerLine::Oversized(len),
    }
}

/// A line that starts as JSON would (an object, an array): a broken
/// message, not a log line printed on the wrong stream.
fn looks_like_json(bytes: &[u8]) -> bool {
    matches!(bytes.trim_ascii_start().first(), Some(b'{' | b'['))
}
