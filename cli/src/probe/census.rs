//! `probe --targets FILE --jobs N`: every endpoint of a list, N at a time,
//! each within a time limit, so one slow or dead server never holds up the
//! rest. Each server's JSON lines go to standard output as it finishes,
//! tagged with its target; the table (per check, per server) ends on
//! standard error, under a progress line when that is a terminal.

use std::io::{self, IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::Semaphore;
use tokio::task::JoinSet;

use super::report::{self, Card};
use super::{Options, Target, probe, target};

/// The targets of a file: one a line, `#` for comments.
fn targets(text: &str, ca: Option<&Path>) -> Result<Vec<(String, Target)>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let parsed = target(line, ca).map_err(|e| format!("line {}: {e}", n + 1))?;
        out.push((parsed.shown(), parsed));
    }
    Ok(out)
}

pub async fn run(file: &Path, ca: Option<&Path>, options: &Options, jobs: usize, limit: Duration) -> ExitCode {
    let listed = match std::fs::read_to_string(file).map_err(|e| e.to_string()).and_then(|t| targets(&t, ca)) {
        Ok(listed) => listed,
        Err(e) => {
            eprintln!("mcp-envelope probe: {}: {e}", file.display());
            return ExitCode::from(2);
        }
    };
    let total = listed.len();
    let started = Instant::now();
    let slots = Arc::new(Semaphore::new(jobs));
    let mut running = JoinSet::new();
    for (shown, target) in listed {
        let slots = Arc::clone(&slots);
        let options = options.clone();
        running.spawn_local(async move {
            let _slot = slots.acquire_owned().await;
            let probed = match tokio::time::timeout(limit, probe(&target, &options)).await {
                Ok(probed) => probed,
                Err(_) => Err(format!("not done within {} s", limit.as_secs_f64())),
            };
            (shown, probed)
        });
    }
    let terminal = io::stderr().is_terminal();
    let (mut cards, mut unreachable): (Vec<Card>, Vec<(String, String)>) = (Vec::new(), Vec::new());
    let mut done = 0;
    let stdout = io::stdout();
    while let Some(joined) = running.join_next().await {
        done += 1;
        let Ok((shown, probed)) = joined else { continue };
        match probed {
            Ok(found) => {
                let mut out = stdout.lock();
                for card in &found {
                    let _ = report::json(&mut out, card, true);
                }
                let _ = out.flush();
                cards.extend(found);
            }
            Err(why) => unreachable.push((shown, why)),
        }
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
    let stderr = io::stderr();
    let _ = report::census(&mut stderr.lock(), &cards, &unreachable);
    eprintln!(
        "{total} servers in {:.1} s: {} probed, {} not",
        started.elapsed().as_secs_f64(),
        total - unreachable.len(),
        unreachable.len()
    );
    ExitCode::from(u8::from(cards.iter().any(|c| c.counts().fail > 0)))
}
