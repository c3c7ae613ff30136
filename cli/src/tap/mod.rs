//! `mcp-envelope tap`: relay MCP traffic unchanged and log a verdict on
//! every message, over stdio ([`stdio`]) or Streamable HTTP ([`http`]).

pub mod http;
pub mod stdio;

use std::fs::File;
use std::io::{self, Write};
use std::process::ExitCode;

use mcp_envelope::{Limits, Revision};

use crate::parsers::BackendChoice;
use crate::values;

#[derive(clap::Args)]
pub struct TapArgs {
    /// Protocol revision, as for `check`.
    #[arg(long, default_value = "2026-07-28", value_parser = values::revision)]
    pub revision: Revision,
    /// JSON backend, as for `check`.
    #[arg(long, value_enum, default_value = "reference")]
    pub backend: BackendChoice,
    /// Where to write the log; standard error when absent.
    #[arg(long)]
    pub log: Option<String>,
    /// Largest message allowed, in bytes; longer lines are relayed, logged
    /// as too large, and never held in memory.
    #[arg(long, default_value_t = Limits::DEFAULT_MAX_SIZE)]
    pub max_size: usize,
    /// Streamable HTTP: be a reverse proxy on `--listen` in front of the
    /// server at `--upstream`, instead of running a stdio server.
    #[arg(long, requires_all = ["listen", "upstream"], conflicts_with = "command")]
    pub http: bool,
    /// With `--http`: the address to listen on, such as 127.0.0.1:3000
    /// (port 0 picks a free one; the first line on standard error names it).
    #[arg(long, requires = "http")]
    pub listen: Option<std::net::SocketAddr>,
    /// With `--http`: the server's endpoint URL, as clients are given it
    /// (https://mcp.example.com/mcp, http://127.0.0.1:3001/mcp). The tap
    /// serves the same path; requests to other paths are relayed as they
    /// are, unjudged.
    #[arg(long, requires = "http", value_name = "URL")]
    pub upstream: Option<String>,
    /// With `--http` and an https upstream: a PEM file of certificates to
    /// trust besides the platform's roots: a private CA, or the server's
    /// own certificate (a self-signed one), trusted for that server.
    #[arg(long, requires = "upstream", value_name = "FILE")]
    pub upstream_ca: Option<std::path::PathBuf>,
    /// With `--http`: a `Host` the tap accepts besides its own loopback
    /// address and `localhost` (NAME, any port; or NAME:PORT). Repeatable.
    #[arg(long, requires = "http", value_name = "NAME")]
    pub allow_host: Vec<String>,
    /// With `--http`: an `Origin` the tap accepts besides loopback ones
    /// (https://app.example.com). Repeatable.
    #[arg(long, requires = "http", value_name = "ORIGIN")]
    pub allow_origin: Vec<String>,
    /// After a signal to the tap (passed on to the stdio server), how many
    /// seconds the server has to exit before it is killed.
    #[arg(long, default_value_t = 5.0, value_parser = values::seconds, conflicts_with = "http")]
    pub kill_after: f64,
    /// The stdio server and its arguments, after `--`.
    #[arg(last = true, required_unless_present = "http", value_name = "SERVER COMMAND")]
    pub command: Vec<String>,
}

/// Runs the tap the arguments ask for, its limits brought into range.
pub fn run(args: &TapArgs) -> ExitCode {
    let limits = Limits::new().with_max_size(args.max_size);
    if limits.max_size != args.max_size {
        eprintln!(
            "mcp-envelope: --max-size {} is above the largest message the parser accepts; using {}",
            args.max_size, limits.max_size
        );
    }
    match (args.http, args.listen, args.upstream.as_deref()) {
        (true, Some(listen), Some(upstream)) => http::run(args, limits, listen, upstream),
        _ => stdio::run(args, limits),
    }
}

/// The log: the file asked for, or standard error.
pub fn open_log(path: Option<&str>) -> io::Result<Box<dyn Write + Send>> {
    Ok(match path {
        Some(path) => Box::new(io::BufWriter::new(File::create(path)?)),
        None => Box::new(io::stderr()),
    })
}
