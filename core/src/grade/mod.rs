//! Grading what a server answered to what a prober sent it: pure functions
//! over the answer (an HTTP status and headers, the messages that came),
//! with no I/O. `mcp-envelope probe` sends and reads; this says whether
//! what came is what the rules want (RULES.md, section 9), and its fuzz
//! target holds it to never passing what the rules do not.

mod answer;
mod shape;
mod verdict;

pub use answer::{Answer, Read, clip, id_json};
pub use verdict::{Outcome, Verdict, Want, error, nothing, results};
