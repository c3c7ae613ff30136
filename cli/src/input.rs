//! Reading inputs: files or standard input, one message per line (MCP
//! stdio framing) or one message per file.

use std::fs::File;
use std::io::{self, Read};
use std::ops::ControlFlow;

use mcp_envelope::stream::{Frame, LineReader};

/// Where a message came from.
pub struct Origin<'a> {
    pub file: &'a str,
    /// 1-based line where the message starts.
    pub line: u64,
}

/// One message read from an input.
pub enum Piece<'b> {
    Message(&'b [u8]),
    /// Longer than the size limit; skipped, not stored.
    Oversized,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Framing {
    /// One message per line (MCP stdio).
    Lines,
    /// Each file is exactly one message.
    Whole,
}

fn open(name: &str) -> io::Result<Box<dyn Read>> {
    if name == "-" { Ok(Box::new(io::stdin().lock())) } else { Ok(Box::new(File::open(name)?)) }
}

/// Calls `each` for every message of `name` ("-" for standard input), until
/// `each` says to stop: then nothing more is read.
pub fn read(
    name: &str,
    framing: Framing,
    max_size: usize,
    mut each: impl FnMut(Origin<'_>, Piece<'_>) -> ControlFlow<()>,
) -> io::Result<()> {
    let mut reader = open(name)?;
    match framing {
        Framing::Lines => {
            let mut lines = LineReader::new(max_size);
            let stopped = std::cell::Cell::new(false);
            let mut emit = |frame: Frame<'_>| {
                if stopped.get() {
                    return;
                }
                let flow = match frame {
                    Frame::Message { line, bytes, .. } => each(Origin { file: name, line }, Piece::Message(bytes)),
                    Frame::Oversized { line, .. } => each(Origin { file: name, line }, Piece::Oversized),
                };
                stopped.set(flow.is_break());
            };
            let mut chunk = vec![0; 64 * 1024];
            loop {
                let n = match reader.read(&mut chunk) {
                    Ok(0) => break,
                    Ok(n) => n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => return Err(e),
                };
                lines.feed(chunk.get(..n).unwrap_or_default(), &mut emit);
                if stopped.get() {
                    return Ok(());
                }
            }
            lines.finish(&mut emit);
        }
        Framing::Whole => {
            // Read one byte past the limit to know whether it was exceeded,
            // without reading a huge file into memory.
            let mut bytes = Vec::new();
            reader.by_ref().take(max_size as u64 + 1).read_to_end(&mut bytes)?;
            let origin = Origin { file: name, line: 1 };
            let _ = if bytes.len() > max_size {
                each(origin, Piece::Oversized)
            } else {
                each(origin, Piece::Message(&bytes))
            };
        }
    }
    Ok(())
}
