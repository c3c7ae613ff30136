//! The same server as `stdio_server`, on tokio: `LineCodec` frames standard
//! input and output.
//!
//! ```sh
//! printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"ping"}' | cargo run -p mcp-envelope --features tokio --example tokio_server
//! ```

use futures_util::{SinkExt, StreamExt};
use mcp_envelope::transport::lines::LineCodec;
use mcp_envelope::{Parser, Revision};
use tokio_util::codec::{FramedRead, FramedWrite};

#[path = "common/answer.rs"]
mod common;

#[tokio::main(flavor = "current_thread")]
async fn main() -> std::io::Result<()> {
    let mut parser = Parser::new(Revision::V2026_07_28);
    let max_size = parser.limits().max_size;
    let mut input = FramedRead::new(tokio::io::stdin(), LineCodec::new(max_size));
    let mut output = FramedWrite::new(tokio::io::stdout(), LineCodec::new(max_size));
    let mut out = Vec::new();
    while let Some(frame) = input.next().await {
        let frame = frame?;
        out.clear();
        common::answer(&mut parser, frame.as_line(), &mut out);
        // One line per answer: the codec adds each newline back.
        for line in out.split(|&b| b == b'\n').filter(|line| !line.is_empty()) {
            output.send(line).await?;
        }
    }
    Ok(())
}
