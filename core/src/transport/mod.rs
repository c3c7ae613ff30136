//! What a program on one of MCP's transports needs, built on the parser:
//! the framing that cuts a byte stream into messages, the rules of a
//! Streamable HTTP exchange, ids in flight, and what a message too large
//! to hold still says.
//!
//! - [`lines`]: stdio framing, one message per line.
//! - [`sse`]: Streamable HTTP's event streams (`text/event-stream`), one
//!   message per dispatched `message` event.
//! - [`exchange`]: the rules of one Streamable HTTP request and its
//!   response, and of the conversation the exchanges make.
//! - [`ids`]: request ids across a conversation, by the reuse rule of
//!   each revision.
//! - [`oversized`]: the kind and id of a message too large to hold, read
//!   from its first and last bytes.
//!
//! Each framing has a push reader (fed chunks of any size), a pull reader
//! over a `BufRead` (feature `std`) and a `tokio_util` decoder (feature
//! `tokio`); all three give the same items for every split of the stream
//! into chunks, and hold at most one message's bytes plus a small constant.

pub mod exchange;
pub mod ids;
pub mod lines;
pub mod oversized;
pub mod sse;
