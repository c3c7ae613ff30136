//! `mcp-envelope check`: every message of files or standard input judged,
//! one verdict each (kind, id, method, or the JSON-RPC error to answer
//! with, where the fault is and how binding the broken rule is).
//!
//! Exit status: 0 all valid, 1 some invalid, 2 usage or I/O error, 3 the
//! backends disagreed (3 wins over 2, which wins over 1).

use std::io::{self, BufWriter, Write};
use std::ops::ControlFlow;
use std::process::ExitCode;

use mcp_envelope::Severity;
use mcp_envelope::{Limits, Revision};

use crate::input::{self, Framing, Piece};
use crate::parsers::{BackendChoice, Parsers};
use crate::render::check::{self as render, Source};
use crate::render::{Checked, Eventless, Format};
use crate::summary::{self, Invalid, Summary};

#[derive(clap::Args)]
pub struct CheckArgs {
    /// Protocol revision: 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25,
    /// 2026-07-28, or jsonrpc (plain JSON-RPC 2.0).
    #[arg(long, default_value = "2026-07-28", value_parser = crate::values::revision)]
    revision: Revision,
    /// JSON backend: `reference` (the reference backend, the fastest of
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
            let source = Source { file: origin.file, line: origin.line, bytes: None, event: origin.event };
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
                    return match render::eventless(&mut out, &source, what, args.format == Format::Json) {
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
            let checked = if agree { Checked::One(first) } else { Checked::Disagreement(&verdicts) };
            let source = Source { bytes, ..source };
            let written = match args.format {
                Format::Text => render::text(&mut out, &source, &checked),
                Format::Json => render::json_line(&mut out, &source, &checked),
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

/// Runs `check`: judges every message, prints the summary (for people:
/// not with `--quiet`, not in JSON, not when the reader went away) and
/// gives the exit status.
pub fn run(args: &CheckArgs) -> ExitCode {
    let tally = check(args);
    // The summary is for people: not with --quiet, not in JSON, and not
    // when the reader went away.
    if args.format == Format::Text && !args.quiet && !tally.output_closed {
        let backend = match args.backend {
            BackendChoice::Serde => "serde",
            BackendChoice::Simd => "simd",
            BackendChoice::Reference => "reference",
            BackendChoice::Both => "serde and simd",
        };
        let events = if args.framing == Framing::Sse {
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
