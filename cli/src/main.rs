//! `mcp-envelope check`: validate MCP / JSON-RPC 2.0 messages.
//! `mcp-envelope tap`: relay an MCP stdio server's traffic and check it.
//! `mcp-envelope probe`: ask a live MCP server what it does with what the
//! rules forbid, and grade its answers.
//!
//! `check`'s exit status: 0 all valid, 1 some invalid, 2 usage or I/O
//! error, 3 the backends disagreed (3 wins over 2, which wins over 1).
//! `tap` exits with the server's status.

mod input;
mod net;
mod probe;
mod render;
mod summary;
mod tap;

use std::io::{self, BufWriter, Write};
use std::ops::ControlFlow;
use std::process::ExitCode;

use clap::{Parser as _, Subcommand, ValueEnum};
use mcp_envelope::backend::{Backend, Reference, SerdeJson, SimdJson};
use mcp_envelope::exchange::Severity;
use mcp_envelope::{Limits, Parser, Revision};

use input::{Framing, Piece};
use render::{Eventless, Format, Place, Verdict};
use summary::{Invalid, Summary};

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

#[derive(clap::Args)]
struct CheckArgs {
    /// Protocol revision: 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25,
    /// 2026-07-28, or jsonrpc (plain JSON-RPC 2.0).
    #[arg(long, default_value = "2026-07-28", value_parser = parse_revision)]
    revision: Revision,
    /// JSON backend: `reference` (the crate's own scanner, the fastest of
    /// the three in the project's benchmarks), `serde` or `simd`; `both`
    /// runs serde and simd and reports any disagreement.
    #[arg(long, value_enum, default_value = "reference")]
    backend: BackendChoice,
    /// `lines`: one message per line (MCP stdio); `sse`: an event stream
    /// (Streamable HTTP), one message per `message` event; `whole`: each
    /// file is one message.
    #[arg(long, value_enum, default_value = "lines")]
    framing: Framing,
    /// `text` for people, `json` for one JSON object per message.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Deepest nesting allowed, counting the envelope object as 1.
    #[arg(long, default_value_t = Limits::DEFAULT_MAX_DEPTH)]
    max_depth: usize,
    /// Largest message allowed, in bytes.
    #[arg(long, default_value_t = Limits::DEFAULT_MAX_SIZE)]
    max_size: usize,
    /// Most items allowed in a batch.
    #[arg(long, default_value_t = Limits::DEFAULT_MAX_BATCH_LEN)]
    max_batch_len: usize,
    /// Print only invalid messages and disagreements, and no summary.
    #[arg(long, short)]
    quiet: bool,
    /// Files to read; `-` or nothing for standard input.
    files: Vec<String>,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum BackendChoice {
    Serde,
    Simd,
    Reference,
    Both,
}

fn parse_revision(s: &str) -> Result<Revision, String> {
    s.parse().map_err(|e: mcp_envelope::UnknownRevision| e.to_string())
}

/// One backend's reading of a message.
type Outcome<'a> = Result<mcp_envelope::Envelope<'a>, mcp_envelope::Error<'a>>;

/// The backend whose verdict is reported (and, with `both`, compared).
enum First {
    Serde(Parser<SerdeJson>),
    Simd(Parser<SimdJson>),
    Reference(Parser<Reference>),
}

/// The chosen parsers, built once and reused for every message.
struct Parsers {
    first: First,
    /// With `both`: simd, held to serde's verdict.
    second: Option<Parser<SimdJson>>,
}

/// One backend's verdict, and what `judge` makes of its reading.
fn read<B: Backend, T>(parser: &mut Parser<B>, bytes: &[u8], judge: impl FnOnce(&Outcome<'_>) -> T) -> (Summary, T) {
    let outcome = parser.parse(bytes);
    let judged = judge(&outcome);
    (Summary::of(bytes, &outcome), judged)
}

impl Parsers {
    fn new(choice: BackendChoice, revision: Revision, limits: Limits) -> Parsers {
        fn parser<B: Backend>(revision: Revision, limits: Limits) -> Parser<B> {
            Parser::with_backend(revision).with_limits(limits)
        }
        let first = match choice {
            BackendChoice::Serde | BackendChoice::Both => First::Serde(parser(revision, limits)),
            BackendChoice::Simd => First::Simd(parser(revision, limits)),
            BackendChoice::Reference => First::Reference(parser(revision, limits)),
        };
        let second = (choice == BackendChoice::Both).then(|| parser(revision, limits));
        Parsers { first, second }
    }

    /// Each backend's verdict on `bytes`, in order serde, simd.
    fn verdicts(&mut self, bytes: &[u8]) -> Vec<(&'static str, Summary)> {
        self.verdicts_and(bytes, |_| ()).0
    }

    /// Each backend's verdict on `bytes`, and what `judge` makes of the
    /// first backend's reading (the exchange rules need the envelope, not
    /// its summary).
    fn verdicts_and<T>(
        &mut self,
        bytes: &[u8],
        judge: impl FnOnce(&Outcome<'_>) -> T,
    ) -> (Vec<(&'static str, Summary)>, T) {
        let (name, (summary, judged)) = match &mut self.first {
            First::Serde(p) => (SerdeJson::NAME, read(p, bytes, judge)),
            First::Simd(p) => (SimdJson::NAME, read(p, bytes, judge)),
            First::Reference(p) => (Reference::NAME, read(p, bytes, judge)),
        };
        let mut out = Vec::with_capacity(2);
        out.push((name, summary));
        if let Some(p) = &mut self.second {
            out.push((SimdJson::NAME, read(p, bytes, |_| ()).0));
        }
        (out, judged)
    }
}

#[derive(Default)]
struct Tally {
    messages: u64,
    /// Events that carried no message (priming events, other types).
    without_message: u64,
    invalid: u64,
    /// Invalid messages whose gravest fault is a warning (no MUST broken).
    warnings: u64,
    disagreements: u64,
    io_errors: u64,
    /// Standard output was closed by its reader; the rest was not checked.
    output_closed: bool,
}

/// The limits asked for, brought into range, with a warning for each one
/// that had to be changed.
fn limits(args: &CheckArgs) -> Limits {
    let limits = Limits::new()
        .with_max_depth(args.max_depth)
        .with_max_size(args.max_size)
        .with_max_batch_len(args.max_batch_len);
    if limits.max_depth != args.max_depth {
        eprintln!("mcp-envelope: --max-depth {} is below 1; using {}", args.max_depth, limits.max_depth);
    }
    if limits.max_size != args.max_size {
        eprintln!(
            "mcp-envelope: --max-size {} is above the largest message the parser accepts; using {}",
            args.max_size, limits.max_size
        );
    }
    if limits.max_batch_len != args.max_batch_len {
        eprintln!("mcp-envelope: --max-batch-len {} is below 1; using {}", args.max_batch_len, limits.max_batch_len);
    }
    limits
}

fn check(args: &CheckArgs) -> Tally {
    let limits = limits(args);
    let mut parsers = Parsers::new(args.backend, args.revision, limits);
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut tally = Tally::default();
    let files = if args.files.is_empty() { vec!["-".to_owned()] } else { args.files.clone() };

    for file in &files {
        let mut write_failed = None;
        let read = input::read(file, args.framing, limits.max_size, |origin, piece| {
            let place = Place { file: origin.file, line: origin.line, bytes: None, event: origin.event };
            let (bytes, verdicts) = match piece {
                Piece::Message(bytes) => (Some(bytes), parsers.verdicts(bytes)),
                Piece::Oversized => {
                    let invalid =
                        Summary::Invalid(Invalid::from_error(&mcp_envelope::Error::too_large(limits.max_size)));
                    (None, vec![("all", invalid)])
                }
                Piece::NoMessage(_) | Piece::Cut => {
                    let what = match piece {
                        Piece::NoMessage(data) => Eventless::NoMessage(data),
                        _ => Eventless::Cut,
                    };
                    let cut = what == Eventless::Cut;
                    tally.messages += u64::from(cut);
                    tally.invalid += u64::from(cut);
                    // A message lost to the end of the input breaks no rule
                    // of what was sent.
                    tally.warnings += u64::from(cut);
                    tally.without_message += u64::from(!cut);
                    if args.quiet && !cut {
                        return ControlFlow::Continue(());
                    }
                    return match render::eventless(&mut out, &place, what, args.format == Format::Json) {
                        Ok(()) => ControlFlow::Continue(()),
                        Err(e) => {
                            write_failed = Some(e);
                            ControlFlow::Break(())
                        }
                    };
                }
            };
            tally.messages += 1;
            let agree = summary::all_agree(&verdicts);
            let Some((_, first)) = verdicts.first() else { return ControlFlow::Continue(()) };
            let invalid = first.has_invalid();
            tally.invalid += u64::from(invalid);
            tally.warnings += u64::from(first.severity() == Some(Severity::Warning));
            tally.disagreements += u64::from(!agree);
            if args.quiet && agree && !invalid {
                return ControlFlow::Continue(());
            }
            let verdict = if agree { Verdict::One(first) } else { Verdict::Disagreement(&verdicts) };
            let place = Place { bytes, ..place };
            let written = match args.format {
                Format::Text => render::text(&mut out, &place, &verdict),
                Format::Json => render::json_line(&mut out, &place, &verdict),
            };
            match written {
                Ok(()) => ControlFlow::Continue(()),
                Err(e) => {
                    // Nobody reads any more (or cannot): stop reading too.
                    write_failed = Some(e);
                    ControlFlow::Break(())
                }
            }
        });
        if let Err(e) = read {
            let _ = out.flush();
            eprintln!("mcp-envelope: {file}: {e}");
            tally.io_errors += 1;
        }
        if let Some(e) = write_failed {
            // Output closed (a pipe to `head`, say): stop quietly, with the
            // status of what was checked, as `head` expects of a writer.
            if e.kind() == io::ErrorKind::BrokenPipe {
                tally.output_closed = true;
            } else {
                eprintln!("mcp-envelope: writing output: {e}");
                tally.io_errors += 1;
            }
            return tally;
        }
    }
    if let Err(e) = out.flush()
        && e.kind() != io::ErrorKind::BrokenPipe
    {
        eprintln!("mcp-envelope: writing output: {e}");
        tally.io_errors += 1;
    }
    tally
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
    let tally = check(&args);
    // The summary is for people: not with --quiet, not in JSON, and not
    // when the reader went away.
    if args.format == Format::Text && !args.quiet && !tally.output_closed {
        let backend = match args.backend {
            BackendChoice::Serde => "serde",
            BackendChoice::Simd => "simd",
            BackendChoice::Reference => "reference",
            BackendChoice::Both => "serde and simd",
        };
        let events = if args.framing == input::Framing::Sse {
            format!(", {} events without a message", tally.without_message)
        } else {
            String::new()
        };
        eprintln!(
            "{} messages, {} invalid ({} violations, {} warnings), {} disagreements{events} ({backend}, revision {})",
            tally.messages,
            tally.invalid,
            tally.invalid - tally.warnings,
            tally.warnings,
            tally.disagreements,
            args.revision
        );
    }
    ExitCode::from(exit_status(&tally))
}

/// 3 if the backends disagreed, else 2 on an I/O error, else 1 if some
/// message was invalid, else 0. (Usage errors exit with 2 from clap.)
fn exit_status(tally: &Tally) -> u8 {
    if tally.disagreements > 0 {
        3
    } else if tally.io_errors > 0 {
        2
    } else {
        u8::from(tally.invalid > 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_status_ranks_disagreement_over_io_errors_over_invalid_messages() {
        let t = |invalid, disagreements, io_errors| Tally {
            messages: 9,
            without_message: 0,
            invalid,
            warnings: 0,
            disagreements,
            io_errors,
            output_closed: false,
        };
        assert_eq!(exit_status(&t(0, 0, 0)), 0);
        assert_eq!(exit_status(&t(4, 0, 0)), 1);
        assert_eq!(exit_status(&t(4, 0, 1)), 2);
        assert_eq!(exit_status(&t(4, 1, 1)), 3);
    }
}
