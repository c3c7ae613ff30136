//! `mcp-envelope probe`: asks a live MCP server the questions that matter
//! (bad JSON, invalid requests, notifications and stray responses,
//! batches, ids, size, and over HTTP the transport's own rules and
//! 2026-07-28's refusals) and grades each answer against RULES.md. Over
//! stdio it runs the server; over Streamable HTTP it reaches the endpoint
//! as `tap --http` does. One server, or a census of many.
//!
//! It never calls a tool and never sends what would change state if a
//! broken server ran it; it never waits a fixed time: the absence of an
//! answer is proven by a `ping` sent after the provocation and answered
//! first (stdio, in order) or by the HTTP status, and only a server that
//! stays silent meets the timeout. After each provocation the server must
//! still serve; a stdio server that dies is started again.

mod catalogue;
mod census;
mod http;
mod report;
mod stdio;
mod subject;
mod wire;

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use hyper::header::{HeaderName, HeaderValue};
use mcp_envelope::Revision;

use self::catalogue::{CHECKS, Over};
use self::report::{Card, Row};
use self::subject::{Peer, Subject};
use crate::net::Endpoint;

/// Which revisions to probe under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Revisions {
    /// The newest the server accepts.
    Newest,
    /// Every one it accepts.
    All,
    One(Revision),
}

/// Everything `probe` needs, from the command line.
pub struct ProbeArgs {
    pub url: Option<String>,
    pub command: Vec<String>,
    pub revisions: Revisions,
    pub headers: Vec<String>,
    pub json: bool,
    pub wait: Duration,
    pub oversize: usize,
    pub max_size: usize,
    pub ca: Option<PathBuf>,
    pub targets: Option<PathBuf>,
    pub jobs: usize,
    pub time_limit: Duration,
}

/// What to probe.
#[derive(Clone)]
pub enum Target {
    Stdio(Vec<String>),
    Http(Arc<Endpoint>),
}

impl Target {
    fn shown(&self) -> String {
        match self {
            Target::Stdio(command) => format!("stdio: {}", command.join(" ")),
            Target::Http(endpoint) => endpoint.to_string(),
        }
    }

    fn transport(&self) -> &'static str {
        match self {
            Target::Stdio(_) => "stdio",
            Target::Http(_) => "http",
        }
    }
}

/// How each server is probed.
#[derive(Clone)]
pub struct Options {
    pub revisions: Revisions,
    pub headers: Vec<(HeaderName, HeaderValue)>,
    pub wait: Duration,
    /// The oversized message's padding, made once for every probe.
    pub pad: bytes::Bytes,
    pub max_size: usize,
}

impl Options {
    fn peer(&self, target: &Target) -> Peer {
        match target {
            Target::Stdio(command) => {
                Peer::Stdio(Box::new(stdio::StdioServer::new(command.clone(), self.wait, self.max_size)))
            }
            Target::Http(endpoint) => {
                Peer::Http(http::HttpServer::new(Arc::clone(endpoint), self.headers.clone(), self.wait, self.max_size))
            }
        }
    }
}

/// `Name: value` from `--header`.
fn header(text: &str) -> Result<(HeaderName, HeaderValue), String> {
    let (name, value) =
        text.split_once(':').ok_or_else(|| format!("--header {:?}: give it as 'Name: value'", name_only(text)))?;
    let name =
        HeaderName::from_bytes(name.trim().as_bytes()).map_err(|e| format!("--header {:?}: {e}", name.trim()))?;
    let mut value = HeaderValue::from_str(value.trim()).map_err(|e| format!("--header {name}: {e}"))?;
    value.set_sensitive(true);
    Ok((name, value))
}

/// What may be printed of a header argument: its name.
fn name_only(text: &str) -> &str {
    text.split(':').next().unwrap_or_default()
}

/// Reads a target as the command line or a targets file gives it: a URL,
/// or `stdio: COMMAND ARGS` (split on whitespace).
pub fn target(text: &str, ca: Option<&std::path::Path>) -> Result<Target, String> {
    if let Some(command) = text.trim().strip_prefix("stdio:") {
        let command: Vec<String> = command.split_whitespace().map(str::to_owned).collect();
        return if command.is_empty() { Err("stdio: names no command".into()) } else { Ok(Target::Stdio(command)) };
    }
    let endpoint =
        Endpoint::parse(text.trim(), ca).map_err(|e| format!("{}: {e}", crate::net::redacted(text.trim())))?;
    Ok(Target::Http(Arc::new(endpoint)))
}

/// Probes one server under the revisions asked for: a scorecard each.
/// An error: it could not be probed at all (no connection, no handshake).
pub async fn probe(target: &Target, options: &Options) -> Result<Vec<Card>, String> {
    let mut cards = Vec::new();
    let mut reasons = Vec::new();
    let legacy: &[Revision] = match target {
        Target::Stdio(_) => {
            &[Revision::V2025_11_25, Revision::V2025_06_18, Revision::V2025_03_26, Revision::V2024_11_05]
        }
        Target::Http(_) => &[Revision::V2025_11_25, Revision::V2025_06_18, Revision::V2025_03_26],
    };
    let wanted: Vec<Revision> = match options.revisions {
        Revisions::One(revision) => vec![revision],
        Revisions::Newest | Revisions::All => [Revision::V2026_07_28].iter().chain(legacy).copied().collect(),
    };
    for revision in wanted {
        let mut subject = Subject::new(options.peer(target), revision, options.pad.clone());
        let opened = subject.open().await;
        let handshake = match opened {
            Ok(handshake) => handshake,
            Err(why) => {
                subject.end().await;
                reasons.push(format!("{revision}: {why}"));
                continue;
            }
        };
        // Asked for one revision with initialize, the server may offer
        // another: probing under that one is for Newest only.
        if handshake.revision != revision && options.revisions != Revisions::Newest {
            subject.end().await;
            reasons.push(format!("{revision}: the server offered {} instead", handshake.revision));
            continue;
        }
        let card =
            run(&mut subject, target, if revision.mirrors_headers() { "server/discover" } else { "initialize" }).await;
        subject.end().await;
        cards.push(card);
        if options.revisions == Revisions::Newest {
            break;
        }
    }
    if cards.is_empty() {
        return Err(format!("no handshake with {}: {}", target.shown(), reasons.join("; ")));
    }
    Ok(cards)
}

/// Runs every check of the catalogue that applies.
async fn run(subject: &mut Subject, target: &Target, handshake: &'static str) -> Card {
    let revision = subject.revision();
    let http = subject.is_http();
    let mut rows = Vec::new();
    for check in CHECKS {
        let over = match check.over {
            Over::Both => true,
            Over::Http => http,
            Over::Stdio => !http,
        };
        if !over || !(check.when)(revision) {
            continue;
        }
        subject.begin();
        let outcome = (check.run)(subject).await;
        rows.push(Row { check: check.name, rule: check.rule, outcome });
    }
    Card {
        target: target.shown(),
        transport: target.transport(),
        revision: revision.name().to_owned(),
        handshake,
        rows,
    }
}

pub fn run_command(args: &ProbeArgs) -> ExitCode {
    let headers = match args.headers.iter().map(|h| header(h)).collect::<Result<Vec<_>, _>>() {
        Ok(headers) => headers,
        Err(e) => {
            eprintln!("mcp-envelope probe: {e}");
            return ExitCode::from(2);
        }
    };
    let options = Options {
        revisions: args.revisions,
        headers,
        wait: args.wait,
        pad: bytes::Bytes::from(vec![b'a'; args.oversize]),
        max_size: args.max_size,
    };
    let runtime = match tokio::runtime::Builder::new_current_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("mcp-envelope probe: starting the runtime: {e}");
            return ExitCode::from(2);
        }
    };
    if let Some(file) = &args.targets {
        // The probes run on this thread, side by side.
        let local = tokio::task::LocalSet::new();
        return runtime.block_on(local.run_until(census::run(
            file,
            args.ca.as_deref(),
            &options,
            args.jobs.max(1),
            args.time_limit,
        )));
    }
    let target = match (&args.url, args.command.is_empty()) {
        (Some(url), true) => target(url, args.ca.as_deref()),
        (None, false) => Ok(Target::Stdio(args.command.clone())),
        _ => Err("give one URL, or a server command after --".into()),
    };
    let target = match target {
        Ok(target) => target,
        Err(e) => {
            eprintln!("mcp-envelope probe: {e}");
            return ExitCode::from(2);
        }
    };
    let cards = match runtime.block_on(probe(&target, &options)) {
        Ok(cards) => cards,
        Err(e) => {
            eprintln!("mcp-envelope probe: {e}");
            return ExitCode::from(2);
        }
    };
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut failed = false;
    for card in &cards {
        let written = if args.json { report::json(&mut out, card, false) } else { report::text(&mut out, card) };
        if let Err(e) = written.and_then(|()| out.flush()) {
            if e.kind() != io::ErrorKind::BrokenPipe {
                eprintln!("mcp-envelope probe: writing: {e}");
            }
            return ExitCode::from(2);
        }
        failed |= card.counts().fail > 0;
    }
    ExitCode::from(u8::from(failed))
}
