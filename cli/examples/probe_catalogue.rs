//! The probe's whole catalogue against the example server, timed: over
//! stdio and over HTTP, every revision the server speaks (`--revision
//! all`), conforming and with faults that make the probe prove silences
//! (requests it drops, answered by nothing) and start a dead server again.
//! The median wall time of `--runs` runs of each; over stdio it includes
//! the server's start-up (and its restarts), over HTTP the server is up
//! before the clock starts.
//!
//!   cargo build --release -p mcp-envelope-cli --examples
//!   target/release/examples/probe_catalogue [--runs 5]
//!
//! Figures are from one run: quote them with the machine's load in mind.

#![allow(clippy::unwrap_used, clippy::expect_used, reason = "a load driver")]

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const FAULTY: [&str; 4] = ["--fault", "bad-id-as-notification", "--fault", "crash-on-large"];

fn runs() -> usize {
    let args: Vec<String> = std::env::args().collect();
    args.iter().position(|a| a == "--runs").and_then(|i| args.get(i + 1)).and_then(|v| v.parse().ok()).unwrap_or(5)
}

/// The median wall time of `runs` probes with `args`, and the last run's summary line.
fn time(cli: &Path, args: &[String], runs: usize) -> (Duration, String) {
    let mut times = Vec::new();
    let mut summary = String::new();
    for _ in 0..runs {
        let started = Instant::now();
        let out = Command::new(cli).arg("probe").args(["--revision", "all"]).args(args).output().unwrap();
        times.push(started.elapsed());
        assert!(matches!(out.status.code(), Some(0 | 1)), "{}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8_lossy(&out.stdout);
        summary = text.lines().filter(|l| l.contains(" checks: ")).collect::<Vec<_>>().join("; ");
    }
    times.sort();
    (times.get(times.len() / 2).copied().unwrap_or_default(), summary)
}

fn main() {
    let runs = runs();
    let examples = std::env::current_exe().unwrap().parent().unwrap().to_path_buf();
    let cli = examples.parent().unwrap().join("mcp-envelope");
    let server = examples.join("probe_server").to_string_lossy().into_owned();

    for (name, faults) in [("conforming", &[][..]), ("faulty", &FAULTY[..])] {
        let mut args = vec!["--".to_owned(), server.clone()];
        args.extend(faults.iter().map(|f| (*f).to_owned()));
        args.push("stdio".into());
        let (median, summary) = time(&cli, &args, runs);
        println!("stdio, {name}: median {:.2} s of {runs} runs ({summary})", median.as_secs_f64());

        let mut http = Command::new(&server).args(faults).args(["http", "0"]).stdout(Stdio::piped()).spawn().unwrap();
        let url = BufReader::new(http.stdout.take().unwrap()).lines().next().unwrap().unwrap();
        let (median, summary) = time(&cli, &[url], runs);
        println!("http, {name}: median {:.2} s of {runs} runs ({summary})", median.as_secs_f64());
        let _ = http.kill();
        let _ = http.wait();
    }
}
