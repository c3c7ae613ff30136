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

mod baseline;
mod catalogue;
mod census;
mod http;
mod report;
mod stdio;
mod subject;
mod target;
mod wire;

use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use hyper::header::{HeaderName, HeaderValue};
use mcp_envelope::{Limits, Revision};

use self::baseline::Baseline;
use self::catalogue::{CHECKS, Over};
use self::report::{Card, Row};
use self::subject::{Peer, Subject};
use self::target::Target;
use crate::values;

/// Which revisions to probe under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Revisions {
    /// The newest the server accepts.
    Newest,
    /// Every one it accepts.
    All,
    One(Revision),
}

#[derive(clap::Args)]
pub struct ProbeArgs {
    /// The Streamable HTTP endpoint, as clients are given it
    /// (https://mcp.example.com/mcp); or a stdio server after `--`.
    pub url: Option<String>,
    /// The revision to probe under: `newest` (the newest the server
    /// accepts: 2026-07-28 by server/discover, else initialize), `all`
    /// (every one it accepts), or one such as 2025-11-25.
    #[arg(long, default_value = "newest", value_parser = revisions)]
    pub revision: Revisions,
    /// A header for every HTTP request, 'Name: value' (a token the server
    /// wants); never printed. Repeatable.
    #[arg(long = "header", value_name = "NAME: VALUE")]
    pub headers: Vec<String>,
    /// `text` for people, `json` for one JSON object per check and a
    /// summary per scorecard (and, in a census, a line per server that
    /// could not be probed), `junit` for a CI's test report.
    #[arg(long, value_enum, default_value = "text")]
    pub format: CardFormat,
    /// The checks the server is known to fail: a file of check names, one
    /// a line, each optionally after a revision and a transport
    /// (`2025-11-25 stdio id-null`), `#` for comments. Exits 0 when no
    /// other check fails, and notes each listed one that now passes.
    #[arg(long, value_name = "FILE")]
    pub expected_failures: Option<std::path::PathBuf>,
    /// Seconds to wait for a server that stays silent (nothing else waits).
    #[arg(long, default_value_t = 5.0, value_parser = values::seconds)]
    pub wait: f64,
    /// Size in bytes of the oversized message.
    #[arg(long, default_value_t = 4 * 1024 * 1024)]
    pub oversize: usize,
    /// Largest answer read, in bytes.
    #[arg(long, default_value_t = Limits::DEFAULT_MAX_SIZE)]
    pub max_size: usize,
    /// A PEM file of certificates to trust besides the platform's roots,
    /// for https (a private CA).
    #[arg(long, value_name = "FILE")]
    pub ca: Option<std::path::PathBuf>,
    /// A census: probe every server FILE lists, one a line: a URL,
    /// `stdio: COMMAND`, or a JSON object with `url` or `stdio` (the
    /// command's words), `env` and tags (`package`, `family`...) that go
    /// on each of its lines.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["url", "command"])]
    pub targets: Option<std::path::PathBuf>,
    /// With --targets: how many servers at once.
    #[arg(long, default_value_t = 8, requires = "targets")]
    pub jobs: usize,
    /// With --targets: seconds one server may take.
    #[arg(long, default_value_t = 60.0, value_parser = values::seconds, requires = "targets")]
    pub time_limit: f64,
    /// The stdio server and its arguments, after `--`.
    #[arg(last = true, value_name = "SERVER COMMAND")]
    pub command: Vec<String>,
}

/// How the scorecards are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum CardFormat {
    Text,
    Json,
    Junit,
}

fn revisions(s: &str) -> Result<Revisions, String> {
    match s {
        "newest" => Ok(Revisions::Newest),
        "all" => Ok(Revisions::All),
        _ => match values::revision(s)? {
            Revision::JsonRpc => Err("jsonrpc is no MCP revision to probe under".into()),
            revision => Ok(Revisions::One(revision)),
        },
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
            Target::Stdio { command, env } => {
                Peer::Stdio(Box::new(stdio::StdioServer::new(command.clone(), env.clone(), self.wait, self.max_size)))
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

/// Probes one server under the revisions asked for: a scorecard each.
/// An error: it could not be probed at all (no connection, no handshake).
pub async fn probe(target: &Target, options: &Options) -> Result<Vec<Card>, String> {
    let mut cards = Vec::new();
    let mut reasons = Vec::new();
    let legacy: &[Revision] = match target {
        Target::Stdio { .. } => {
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
        let mut card = run_catalogue(
            &mut subject,
            target,
            if revision.mirrors_headers() { "server/discover" } else { "initialize" },
        )
        .await;
        card.server = handshake.server;
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
async fn run_catalogue(subject: &mut Subject, target: &Target, handshake: &'static str) -> Card {
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
        server: None,
        tags: Vec::new(),
        rows,
    }
}

pub fn run(args: &ProbeArgs) -> ExitCode {
    let headers = match args.headers.iter().map(|h| header(h)).collect::<Result<Vec<_>, _>>() {
        Ok(headers) => headers,
        Err(e) => {
            eprintln!("mcp-envelope probe: {e}");
            return ExitCode::from(2);
        }
    };
    let options = Options {
        revisions: args.revision,
        headers,
        wait: Duration::from_secs_f64(args.wait),
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
    let baseline = match args.expected_failures.as_deref().map(|file| {
        let text = std::fs::read_to_string(file).map_err(|e| e.to_string());
        text.and_then(|text| Baseline::parse(&text)).map_err(|e| format!("{}: {e}", file.display()))
    }) {
        None => None,
        Some(Ok(baseline)) => Some(baseline),
        Some(Err(e)) => {
            eprintln!("mcp-envelope probe: --expected-failures {e}");
            return ExitCode::from(2);
        }
    };
    if let Some(file) = &args.targets {
        // The probes run on this thread, side by side.
        let local = tokio::task::LocalSet::new();
        let census = census::Census {
            file,
            ca: args.ca.as_deref(),
            jobs: args.jobs.max(1),
            limit: Duration::from_secs_f64(args.time_limit),
            format: args.format,
            baseline: baseline.as_ref(),
        };
        return runtime.block_on(local.run_until(census::run(&census, &options)));
    }
    let target = match (&args.url, args.command.is_empty()) {
        (Some(url), true) => target::parse(url, args.ca.as_deref()),
        (None, false) => Ok(Target::Stdio { command: args.command.clone(), env: Vec::new() }),
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
    let written = match args.format {
        CardFormat::Json => cards.iter().try_for_each(|card| report::json(&mut out, card)),
        CardFormat::Text => cards.iter().try_for_each(|card| report::text(&mut out, card)),
        CardFormat::Junit => report::junit(&mut out, &cards, &[]),
    };
    if let Err(e) = written.and_then(|()| out.flush()) {
        if e.kind() != io::ErrorKind::BrokenPipe {
            eprintln!("mcp-envelope probe: writing: {e}");
        }
        return ExitCode::from(2);
    }
    exit_status(&cards, baseline.as_ref())
}

/// 1 when a check failed (that the baseline does not list), else 0; each
/// listed check that now passes is noted.
fn exit_status(cards: &[Card], baseline: Option<&Baseline>) -> ExitCode {
    let Some(baseline) = baseline else {
        return ExitCode::from(u8::from(cards.iter().any(|c| c.counts().fail > 0)));
    };
    let against = baseline.against(cards);
    for passing in &against.now_passing {
        eprintln!("mcp-envelope probe: expected to fail, now passes: {passing}");
    }
    for failing in &against.unexpected {
        eprintln!("mcp-envelope probe: fails, and is not among the expected failures: {failing}");
    }
    ExitCode::from(u8::from(!against.unexpected.is_empty()))
}
