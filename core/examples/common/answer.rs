//! The answers both example servers give: one function from a frame to the
//! bytes to send back (nothing for notifications and responses).

use mcp_envelope::transport::lines::Line;
use mcp_envelope::{ErrorObject, Message, Parser, write};

/// The method this server knows, with the result it gives.
const METHODS: &[(&str, &str)] =
    &[("ping", "{}"), ("tools/list", r#"{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]}"#)];

/// Appends to `out` the answer to `frame`, if one is due.
pub fn answer(parser: &mut Parser, frame: Line<'_>, out: &mut Vec<u8>) {
    let bytes = match frame {
        Line::Message { bytes, .. } => bytes,
        oversized @ Line::Oversized { .. } => {
            if let Some(error) = oversized.error(parser.limits().max_size) {
                write::error_for(out, &error);
            }
            return;
        }
    };
    match parser.parse(bytes) {
        // A broken response gets no answer: error_for writes nothing.
        Err(error) => {
            write::error_for(out, &error);
        }
        Ok(envelope) => {
            for item in envelope.items() {
                match item {
                    Ok(Message::Request(request)) => match METHODS.iter().find(|(name, _)| *name == request.method) {
                        Some((_, result)) => match mcp_envelope::check_json(result) {
                            Ok(result) => write::result(out, &request.id, &result),
                            Err(fault) => unreachable!("the examples' results are JSON: {fault}"),
                        },
                        None => {
                            let error = ErrorObject { code: -32601, message: "method not found".into(), data: None };
                            write::error(out, Some(&request.id), &error);
                        }
                    },
                    Err(error) => {
                        write::error_for(out, error);
                    }
                    Ok(_) => continue,
                }
                out.push(b'\n');
            }
        }
    }
    if !out.is_empty() && !out.ends_with(b"\n") {
        out.push(b'\n');
    }
}
