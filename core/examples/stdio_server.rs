//! A synchronous MCP stdio server loop on mcp-envelope: reads lines from
//! standard input, answers `ping` and `tools/list`, answers bad messages
//! with the error the parser names (or not at all for a broken response),
//! and stops at the end of its input.
//!
//! ```sh
//! printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"ping"}' | cargo run -p mcp-envelope --example stdio_server
//! ```

use std::io::{self, Write};

use mcp_envelope::transport::lines::Lines;
use mcp_envelope::{Parser, Revision};

#[path = "common/answer.rs"]
mod common;

fn main() -> io::Result<()> {
    let mut parser = Parser::new(Revision::V2026_07_28);
    let mut frames = Lines::new(io::stdin().lock(), parser.limits().max_size);
    let mut stdout = io::stdout().lock();
    let mut out = Vec::new();
    while let Some(frame) = frames.next_line()? {
        out.clear();
        common::answer(&mut parser, frame, &mut out);
        if !out.is_empty() {
            stdout.write_all(&out)?;
            stdout.flush()?;
        }
    }
    Ok(())
}
