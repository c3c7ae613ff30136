//! `mcp-envelope check`: validate MCP / JSON-RPC 2.0 messages (`check`).
//! `mcp-envelope tap`: relay an MCP server's traffic and check it (`tap`).
//! `mcp-envelope probe`: ask a live MCP server what it does with what the
//! rules forbid, and grade its answers (`probe`).
//!
//! `tap` exits with the stdio server's status; `check` and `probe` say
//! what theirs mean.

mod check;
mod input;
mod net;
mod parsers;
mod probe;
mod render;
mod summary;
mod tap;

use std::process::ExitCode;

use clap::{Parser as _, Subcommand};
use mcp_envelope::{Limits, Revision};

use check::CheckArgs;
use parsers::BackendChoice;
use render::Format;

#[derive(clap::Parser)]
#[command(name = "mcp-envelope", version, about = "Validate MCP and JSON-RPC 2.0 messages")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check messages from files or standard input: kind, id, method, or
    /// the JSON-RPC error to answer with and where the fault is.
    Check(CheckArgs),
    /// Run an MCP stdio server (or, with `--http`, proxy a Streamable HTTP
    /// one), relay both directions byte for byte, and log a verdict on
    /// every message (one JSON line each, as `check --format json`, with
    /// `direction` and any id-rule or exchange finding). Exits with the
    /// stdio server's status.
    Tap(TapCliArgs),
    /// Ask a live MCP server (a stdio command after `--`, or a Streamable
    /// HTTP endpoint URL) what it answers to bad JSON, invalid requests,
    /// notifications, batches, odd ids, a message too large, and over HTTP
    /// to the transport's own rules: a scorecard, one line per check.
    /// Exits 0 when no check fails, 1 when one does, 2 when the server
    /// cannot be probed.
    Probe(ProbeCliArgs),
}

#[derive(clap::Args)]
struct ProbeCliArgs {
    /// The Streamable HTTP endpoint, as clients are given it
    /// (https://mcp.example.com/mcp); or a stdio server after `--`.
    url: Option<String>,
    /// The revision to probe under: `newest` (the newest the server
    /// accepts: 2026-07-28 by server/discover, else initialize), `all`
    /// (every one it accepts), or one such as 2025-11-25.
    #[arg(long, default_value = "newest", value_parser = parse_revisions)]
    revision: probe::Revisions,
    /// A header for every HTTP request, 'Name: value' (a token the server
    /// wants); never printed. Repeatable.
    #[arg(long = "header", value_name = "NAME: VALUE")]
    headers: Vec<String>,
    /// `text` for people, `json` for one JSON object per check and a
    /// summary.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Seconds to wait for a server that stays silent (nothing else waits).
    #[arg(long, default_value_t = 5.0, value_parser = parse_seconds)]
    wait: f64,
    /// Size in bytes of the oversized message.
    #[arg(long, default_value_t = 4 * 1024 * 1024)]
    oversize: usize,
    /// Largest answer read, in bytes.
    #[arg(long, default_value_t = Limits::DEFAULT_MAX_SIZE)]
    max_size: usize,
    /// A PEM file of certificates to trust besides the platform's roots,
    /// for https (a private CA).
    #[arg(long, value_name = "FILE")]
    ca: Option<std::path::PathBuf>,
    /// A census: probe every server FILE lists (a URL, or `stdio: COMMAND`,
    /// one a line).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["url", "command"])]
    targets: Option<std::path::PathBuf>,
    /// With --targets: how many servers at once.
    #[arg(long, default_value_t = 8, requires = "targets")]
    jobs: usize,
    /// With --targets: seconds one server may take.
    #[arg(long, default_value_t = 60.0, value_parser = parse_seconds, requires = "targets")]
    time_limit: f64,
    /// The stdio server and its arguments, after `--`.
    #[arg(last = true, value_name = "SERVER COMMAND")]
    command: Vec<String>,
}

fn parse_revisions(s: &str) -> Result<probe::Revisions, String> {
    match s {
        "newest" => Ok(probe::Revisions::Newest),
        "all" => Ok(probe::Revisions::All),
        _ => match parse_revision(s)? {
            Revision::JsonRpc => Err("jsonrpc is no MCP revision to probe under".into()),
            revision => Ok(probe::Revisions::One(revision)),
        },
    }
}

#[derive(clap::Args)]
struct TapCliArgs {
    /// Protocol revision, as for `check`.
    #[arg(long, default_value = "2026-07-28", value_parser = parse_revision)]
    revision: Revision,
    /// JSON backend, as for `check`.
    #[arg(long, value_enum, default_value = "reference")]
    backend: BackendChoice,
    /// Where to write the log; standard error when absent.
    #[arg(long)]
    log: Option<String>,
    /// Largest message allowed, in bytes; longer lines are relayed, logged
    /// as too large, and never held in memory.
    #[arg(long, default_value_t = Limits::DEFAULT_MAX_SIZE)]
    max_size: usize,
    /// Streamable HTTP: be a reverse proxy on `--listen` in front of the
    /// server at `--upstream`, instead of running a stdio server.
    #[arg(long, requires_all = ["listen", "upstream"], conflicts_with = "command")]
    http: bool,
    /// With `--http`: the address to listen on, such as 127.0.0.1:3000
    /// (port 0 picks a free one; the first line on standard error names it).
    #[arg(long, requires = "http")]
    listen: Option<std::net::SocketAddr>,
    /// With `--http`: the server's endpoint URL, as clients are given it
    /// (https://mcp.example.com/mcp, http://127.0.0.1:3001/mcp). The tap
    /// serves the same path; requests to other paths are relayed as they
    /// are, unjudged.
    #[arg(long, requires = "http", value_name = "URL")]
    upstream: Option<String>,
    /// With `--http` and an https upstream: a PEM file of certificates to
    /// trust besides the platform's roots (a private CA).
    #[arg(long, requires = "upstream", value_name = "FILE")]
    upstream_ca: Option<std::path::PathBuf>,
    /// After a signal to the tap (passed on to the stdio server), how many
    /// seconds the server has to exit before it is killed.
    #[arg(long, default_value_t = 5.0, value_parser = parse_seconds, conflicts_with = "http")]
    kill_after: f64,
    /// The stdio server and its arguments, after `--`.
    #[arg(last = true, required_unless_present = "http", value_name = "SERVER COMMAND")]
    command: Vec<String>,
}

fn parse_revision(s: &str) -> Result<Revision, String> {
    s.parse().map_err(|e: mcp_envelope::UnknownRevision| e.to_string())
}

fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(seconds) if seconds.is_finite() && (0.0..=86_400.0).contains(&seconds) => Ok(seconds),
        _ => Err(format!("{text:?} is not a number of seconds from 0 to 86400")),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let args = match cli.command {
        Command::Check(args) => args,
        Command::Probe(args) => {
            return probe::run_command(&probe::ProbeArgs {
                url: args.url,
                command: args.command,
                revisions: args.revision,
                headers: args.headers,
                json: args.format == Format::Json,
                wait: std::time::Duration::from_secs_f64(args.wait),
                oversize: args.oversize,
                max_size: args.max_size,
                ca: args.ca,
                targets: args.targets,
                jobs: args.jobs,
                time_limit: std::time::Duration::from_secs_f64(args.time_limit),
            });
        }
        Command::Tap(args) => {
            let limits = Limits::new().with_max_size(args.max_size);
            if limits.max_size != args.max_size {
                eprintln!(
                    "mcp-envelope: --max-size {} is above the largest message the parser accepts; using {}",
                    args.max_size, limits.max_size
                );
            }
            if let (true, Some(listen), Some(upstream)) = (args.http, args.listen, args.upstream.clone()) {
                return tap::http::run(&tap::http::HttpArgs {
                    revision: args.revision,
                    backend: args.backend,
                    limits,
                    log: args.log,
                    listen,
                    upstream,
                    upstream_ca: args.upstream_ca,
                });
            }
            return tap::stdio::run(&tap::stdio::TapArgs {
                revision: args.revision,
                backend: args.backend,
                limits,
                log: args.log,
                grace: std::time::Duration::from_secs_f64(args.kill_after),
                command: args.command,
            });
        }
    };
    check::run(&args)
}
