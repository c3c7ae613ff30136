//! `probe --targets FILE --jobs N`: every server of a list, N at a time,
//! each within a time limit, so one slow, dead or flooding server never
//! holds up the rest. With `--format json` each server's lines go to
//! standard output as it finishes (a server that could not be probed has
//! a line of its own, saying why); with `--format junit` one document at
//! the end. The table (per check, per server) ends on standard error,
//! under a progress line when that is a terminal, with the run's time and
//! the probe's peak memory.

use std::io::{self, IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::Semaphore;
use tokio::task::JoinSet;

use super::baseline::Baseline;
use super::report::{self, Card};
use super::target::{self, Listed};
use super::{CardFormat, Options, exit_status, probe};

/// How a census runs.
pub struct Census<'a> {
    pub file: &'a Path,
    pub ca: Option<&'a Path>,
    pub jobs: usize,
    pub limit: Duration,
    pub format: CardFormat,
    pub baseline: Option<&'a Baseline>,
}

pub async fn run(census: &Census<'_>, options: &Options) -> ExitCode {
    let read = std::fs::read_to_string(census.file).map_err(|e| e.to_string());
    let listed = match read.and_then(|text| target::file(&text, census.ca)) {
        Ok(listed) => listed,
        Err(e) => {
            eprintln!("mcp-envelope probe: {}: {e}", census.file.display());
            return ExitCode::from(2);
        }
    };
    let total = listed.len();
    let started = Instant::now();
    let slots = Arc::new(Semaphore::new(census.jobs));
    let mut running = JoinSet::new();
    for Listed { target, tags } in listed {
        let slots = Arc::clone(&slots);
        let options = options.clone();
        let limit = census.limit;
        running.spawn_local(async move {
            let _slot = slots.acquire_owned().await;
            let probed = match tokio::time::timeout(limit, probe(&target, &options)).await {
                Ok(probed) => probed,
                Err(_) => Err(format!("not done within {} s", limit.as_secs_f64())),
            };
            (target.shown(), tags, probed)
        });
    }
    let terminal = io::stderr().is_terminal();
    let (mut cards, mut unreachable): (Vec<Card>, Vec<(String, String)>) = (Vec::new(), Vec::new());
    let mut done = 0;
    let stdout = io::stdout();
    while let Some(joined) = running.join_next().await {
        done += 1;
        let Ok((shown, tags, probed)) = joined else { continue };
        let mut out = stdout.lock();
        match probed {
            Ok(found) => {
                for mut card in found {
                    card.tags.clone_from(&tags);
                    if census.format == CardFormat::Json {
                        let _ = report::json(&mut out, &card);
                    }
                    cards.push(card);
                }
            }
            Err(why) => {
                if census.format == CardFormat::Json {
                    let _ = report::unreachable_json(&mut out, &shown, &tags, &why);
                }
                unreachable.push((shown, why));
            }
        }
        let _ = out.flush();
        if terminal {
            eprint!(
                "\rprobed {done} of {total} ({} unreachable), {:.1} s",
                unreachable.len(),
                started.elapsed().as_secs_f64()
            );
        }
    }
    if terminal {
        eprintln!();
    }
    cards.sort_by(|a, b| (&a.target, &a.revision).cmp(&(&b.target, &b.revision)));
    unreachable.sort();
    if census.format != CardFormat::Json {
        let mut out = stdout.lock();
        let _ = match census.format {
            CardFormat::Junit => report::junit(&mut out, &cards, &unreachable),
            _ => cards.iter().try_for_each(|card| report::text(&mut out, card)),
        };
        let _ = out.flush();
    }
    let stderr = io::stderr();
    let _ = report::census(&mut stderr.lock(), &cards, &unreachable);
    let peak = peak_memory().map_or_else(String::new, |kib| format!("; peak memory {} MiB", kib / 1024));
    eprintln!(
        "{total} servers in {:.1} s: {} probed, {} not{peak}",
        started.elapsed().as_secs_f64(),
        total - unreachable.len(),
        unreachable.len()
    );
    exit_status(&cards, census.baseline)
}

/// The process's peak resident memory in KiB (Linux's `VmHWM`).
fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
