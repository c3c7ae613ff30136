//! An MCP stdio server for the tests of `mcp-envelope tap`, driven by the
//! method names it receives (no dependency but std):
//!
//! - `ping`: answers `{}`;
//! - `ask`: answers, then sends its own request `{"id":"s1","method":"roots/list"}`;
//! - `stray`: answers, then sends a result for id 999, which nobody asked for;
//! - `flood`: sends 20 000 notifications, then answers;
//! - `huge`: answers with a result of 3 MiB on one line;
//! - `die`: writes half a message and exits with status 3;
//! - any other method: no answer.
//!
//! With `--record FILE`, it also writes every byte it received to FILE;
//! with `--pid FILE`, its process id. Ids are echoed as the text between
//! `"id":` and the next `,` or `}`.

use std::fs::File;
use std::io::{self, BufRead, Write};

fn id_of(line: &str) -> &str {
    line.split_once("\"id\":").and_then(|(_, rest)| rest.split([',', '}']).next()).unwrap_or("null")
}

fn method_of(line: &str) -> &str {
    line.split_once("\"method\":\"").and_then(|(_, rest)| rest.split('"').next()).unwrap_or("")
}

fn main() -> io::Result<()> {
    let args: Vec<String> = std::env::args().collect();
    let mut record = match args.iter().skip_while(|a| *a != "--record").nth(1) {
        Some(path) => Some(File::create(path)?),
        None => None,
    };
    if let Some(path) = args.iter().skip_while(|a| *a != "--pid").nth(1) {
        std::fs::write(path, std::process::id().to_string())?;
    }
    let stdin = io::stdin();
    let mut out = io::stdout().lock();
    let mut line = String::new();
    loop {
        line.clear();
        if stdin.lock().read_line(&mut line)? == 0 {
            return Ok(());
        }
        if let Some(record) = &mut record {
            record.write_all(line.as_bytes())?;
            record.flush()?;
        }
        let id = id_of(&line);
        let answer = format!("{{\"jsonrpc\":\"2.0\",\"id\":{id},\"result\":{{}}}}\n");
        match method_of(&line) {
            "ping" => out.write_all(answer.as_bytes())?,
            "ask" => {
                out.write_all(answer.as_bytes())?;
                out.write_all(b"{\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"method\":\"roots/list\"}\n")?;
            }
            "stray" => {
                out.write_all(answer.as_bytes())?;
                out.write_all(b"{\"jsonrpc\":\"2.0\",\"id\":999,\"result\":{}}\n")?;
            }
            "flood" => {
                for i in 0..20_000 {
                    writeln!(
                        out,
                        "{{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{{\"progress\":{i}}}}}"
                    )?;
                }
                out.write_all(answer.as_bytes())?;
            }
            "huge" => {
                let text = "A".repeat(3 << 20);
                writeln!(out, "{{\"jsonrpc\":\"2.0\",\"id\":{id},\"result\":{{\"blob\":\"{text}\"}}}}")?;
            }
            "die" => {
                out.write_all(b"{\"jsonrpc\":\"2.0\",\"id\":")?;
                out.flush()?;
                std::process::exit(3);
            }
            _ => {}
        }
        out.flush()?;
    }
}
