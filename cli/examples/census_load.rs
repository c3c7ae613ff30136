//! `probe --targets` under load: a census of many local HTTP servers (the
//! example server on as many ports, in one process), N at a time; the wall
//! time, the probe's peak memory, and whether every server was probed.
//!
//!   cargo build --release -p mcp-envelope-cli --examples
//!   target/release/examples/census_load [--servers 200] [--jobs 32]
//!
//! Figures are from one run: quote them with the machine's load in mind.

#![allow(clippy::unwrap_used, clippy::expect_used, reason = "a load driver")]

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn option(name: &str, default: usize) -> usize {
    let args: Vec<String> = std::env::args().collect();
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// The process's peak resident memory so far, in KiB.
fn peak_rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status.lines().find_map(|l| l.strip_prefix("VmHWM:"))?.split_whitespace().next()?.parse().ok()
}

fn main() {
    let servers = option("--servers", 200);
    let jobs = option("--jobs", 32);
    let examples = std::env::current_exe().unwrap().parent().unwrap().to_path_buf();
    let cli = examples.parent().unwrap().join("mcp-envelope");
    let mut server = Command::new(examples.join("probe_server"))
        .args(["http", "0", &servers.to_string()])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(server.stdout.take().unwrap()).lines();
    let urls: Vec<String> = (0..servers).map(|_| lines.next().unwrap().unwrap()).collect();
    let dir = std::env::temp_dir().join(format!("mcp-envelope-census-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let targets = dir.join("targets.txt");
    std::fs::write(&targets, urls.join("\n")).unwrap();

    let started = Instant::now();
    let mut probe = Command::new(&cli)
        .args(["probe", "--format", "json", "--targets", targets.to_str().unwrap(), "--jobs", &jobs.to_string()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = probe.id();
    let stdout = probe.stdout.take().unwrap();
    let reader =
        std::thread::spawn(move || BufReader::new(stdout).lines().map_while(Result::ok).collect::<Vec<String>>());
    let mut peak = 0;
    while probe.try_wait().unwrap().is_none() {
        peak = peak.max(peak_rss_kib(pid).unwrap_or(0));
        std::thread::sleep(Duration::from_millis(5));
    }
    let elapsed = started.elapsed();
    let status = probe.wait().unwrap();
    let lines = reader.join().unwrap();
    let mut table = String::new();
    let _ = std::io::Read::read_to_string(&mut probe.stderr.take().unwrap(), &mut table);
    let _ = server.kill();
    let _ = server.wait();
    let _ = std::fs::remove_dir_all(&dir);

    let summaries = lines.iter().filter(|l| l.contains("\"summary\"")).count();
    let failed = lines.iter().filter(|l| l.contains("\"verdict\":\"fail\"")).count();
    println!(
        "census of {servers} local HTTP servers, --jobs {jobs}: {summaries} of {servers} probed ({} check lines, {failed} \
         failed) in {:.1} s, exit {}; probe peak RSS {:.1} MiB",
        lines.len() - summaries,
        elapsed.as_secs_f64(),
        status.code().unwrap_or(-1),
        peak as f64 / 1024.0
    );
    if summaries != servers {
        eprintln!("{table}");
        std::process::exit(1);
    }
}
