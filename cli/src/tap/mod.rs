//! `mcp-envelope tap`: relay MCP traffic unchanged and log a verdict on
//! every message, over stdio ([`stdio`]) or Streamable HTTP ([`http`]).

pub mod http;
pub mod stdio;

use std::fs::File;
use std::io::{self, Write};

/// The log: the file asked for, or standard error.
pub fn open_log(path: Option<&str>) -> io::Result<Box<dyn Write + Send>> {
    Ok(match path {
        Some(path) => Box::new(io::BufWriter::new(File::create(path)?)),
        None => Box::new(io::stderr()),
    })
}
