//! `mcp-envelope check`: validate MCP / JSON-RPC 2.0 messages (`check`).
//! `mcp-envelope tap`: relay an MCP server's traffic and check it (`tap`).
//! `mcp-envelope probe`: ask a live MCP server what it does with what the
//! rules forbid, and grade its answers (`probe`).
//!
//! Each subcommand owns its arguments and its `run`; this file only
//! dispatches. `tap` exits with the stdio server's status; `check` and
//! `probe` say what theirs mean.

mod check;
mod input;
mod net;
mod parsers;
mod probe;
mod render;
mod summary;
mod tap;
mod values;

use std::process::ExitCode;

use clap::{Parser as _, Subcommand};

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
    Check(check::CheckArgs),
    /// Run an MCP stdio server (or, with `--http`, proxy a Streamable HTTP
    /// one), relay both directions byte for byte, and log a verdict on
    /// every message (one JSON line each, as `check --format json`, with
    /// `direction` and any id-rule or exchange finding). Exits with the
    /// stdio server's status.
    Tap(tap::TapArgs),
    /// Ask a live MCP server (a stdio command after `--`, or a Streamable
    /// HTTP endpoint URL) what it answers to bad JSON, invalid requests,
    /// notifications, batches, odd ids, a message too large, and over HTTP
    /// to the transport's own rules: a scorecard, one line per check.
    /// Exits 0 when no check fails, 1 when one does, 2 when the server
    /// cannot be probed.
    Probe(probe::ProbeArgs),
}

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Check(args) => check::run(&args),
        Command::Tap(args) => tap::run(&args),
        Command::Probe(args) => probe::run(&args),
    }
}
