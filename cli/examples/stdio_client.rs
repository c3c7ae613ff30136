//! A scripted MCP stdio client, for showing `mcp-envelope tap` on a real
//! exchange in the docs (where `cargo test` runs it): it starts COMMAND,
//! sends each line of INPUT, waits for the answer when the line is
//! request-shaped (it has both `"id"` and `"method"`), and prints what went
//! each way (`->` sent, `<-` received). Each `{log}` in COMMAND becomes a
//! fresh temporary file, printed at the end. No dependency but std.
//!
//!     stdio_client INPUT -- COMMAND [ARGS...]

use std::io::{self, BufRead, BufReader, Write};
use std::process::{Command, ExitCode, Stdio};

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(e) => {
            eprintln!("stdio_client: {e}");
            ExitCode::from(2)
        }
    }
}

fn run() -> io::Result<ExitCode> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = || io::Error::other("usage: stdio_client INPUT -- COMMAND [ARGS...]");
    let (input, rest) = args.split_first().ok_or_else(usage)?;
    let command = rest.strip_prefix(&["--".to_owned()][..]).filter(|c| !c.is_empty()).ok_or_else(usage)?;
    let log = std::env::temp_dir().join(format!("stdio-client-{}.jsonl", std::process::id()));
    let command: Vec<String> = command.iter().map(|a| a.replace("{log}", &log.to_string_lossy())).collect();
    let (program, program_args) = command.split_first().ok_or_else(usage)?;
    let mut child = Command::new(program)
        .args(program_args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| io::Error::new(e.kind(), format!("starting {program}: {e}")))?;
    let mut to = child.stdin.take().ok_or_else(|| io::Error::other("no stdin"))?;
    let mut from = BufReader::new(child.stdout.take().ok_or_else(|| io::Error::other("no stdout"))?);
    let mut out = io::stdout().lock();
    for line in std::fs::read_to_string(input)?.lines().filter(|l| !l.trim().is_empty()) {
        writeln!(out, "-> {line}")?;
        writeln!(to, "{line}")?;
        to.flush()?;
        if line.contains("\"id\"") && line.contains("\"method\"") {
            let mut answer = String::new();
            if from.read_line(&mut answer)? == 0 {
                break;
            }
            write!(out, "<- {answer}")?;
        }
    }
    drop(to);
    for rest in from.lines() {
        writeln!(out, "<- {}", rest?)?;
    }
    let status = child.wait()?;
    if let Ok(text) = std::fs::read_to_string(&log) {
        writeln!(out, "\n{{log}}:")?;
        out.write_all(text.as_bytes())?;
        let _ = std::fs::remove_file(&log);
    }
    Ok(if status.success() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
