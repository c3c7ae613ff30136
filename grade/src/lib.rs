//! Grading what a server answered to what a prober sent it: pure functions
//! over the answer (an HTTP status and headers, the messages that came),
//! with no I/O. `mcp-envelope probe` sends and reads; this says whether
//! what came is what the rules want (RULES.md, section 9), and its fuzz
//! target holds it to never passing what the rules do not.
//!
//! A crate of its own, beside the parser rather than in it: only the probe
//! grades servers, and a program that parses MCP messages has no use for
//! it. It reads answers with the parser's public API, and with the
//! parser's one skim (through its hidden hooks) where a message the rules
//! reject must still be read.

mod answer;
mod shape;
mod verdict;

pub use answer::{Answer, Read, clip, id_json};
pub use verdict::{Outcome, Verdict, Want, error, nothing, results};
