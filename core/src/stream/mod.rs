//! Framing: how messages travel on MCP's two standard transports.
//!
//! - [`lines`]: stdio, one message per line. Its items are re-exported
//!   here ([`LineReader`], [`Frame`], [`Frames`], `LineCodec`).
//! - [`sse`]: Streamable HTTP's event streams (`text/event-stream`), one
//!   message per dispatched `message` event.
//!
//! Each framing has a push reader (fed chunks of any size), a pull reader
//! over a `BufRead` (feature `std`) and a `tokio_util` decoder (feature
//! `tokio`); all three give the same items for every split of the stream
//! into chunks, and hold at most one message's bytes plus a small constant.

pub mod lines;
pub mod sse;

#[cfg(feature = "std")]
pub use lines::Frames;
#[cfg(feature = "tokio")]
pub use lines::LineCodec;
pub use lines::{Frame, FrameBuf, LineReader};
