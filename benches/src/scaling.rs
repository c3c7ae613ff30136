//! Messages of any size for the scaling benchmarks, one per shape that
//! grows: a text result (size), members of the envelope itself (each name
//! goes through the repeated-member check), a string of escapes, and a
//! batch of requests. Each says what it must parse to.

use mcp_envelope::{Limits, Revision};

/// A family of messages that grow with one thing.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// The benchmark group's suffix: `scaling-{name}`.
    pub name: &'static str,
    pub revision: Revision,
    pub limits: Limits,
    /// The kind every size parses to.
    pub expect: &'static str,
    /// The message of at least `len` bytes (and less than `len` plus one
    /// unit of the shape).
    pub build: fn(usize) -> Vec<u8>,
}

/// The shapes beyond plain size (which `message_of_size` builds).
pub fn shapes() -> Vec<Shape> {
    vec![
        Shape {
            name: "members",
            revision: Revision::V2026_07_28,
            limits: Limits::new(),
            expect: "notification",
            build: envelope_members,
        },
        Shape {
            name: "escapes",
            revision: Revision::V2026_07_28,
            limits: Limits::new(),
            expect: "request",
            build: escapes,
        },
        Shape {
            name: "batch",
            revision: Revision::V2025_03_26,
            // Length is what grows: no item limit, so every item is read.
            limits: Limits::new().with_max_batch_len(usize::MAX),
            expect: "batch",
            build: batch,
        },
    ]
}

/// Repeats `unit(i)` for i = 0, 1, ... between `head` and `tail` until the
/// message has at least `len` bytes.
fn grown(len: usize, head: &str, separator: &str, tail: &str, unit: impl Fn(usize) -> String) -> Vec<u8> {
    let mut out = head.as_bytes().to_vec();
    let mut i = 0;
    while out.len() + tail.len() < len {
        if i > 0 {
            out.extend_from_slice(separator.as_bytes());
        }
        out.extend_from_slice(unit(i).as_bytes());
        i += 1;
    }
    out.extend_from_slice(tail.as_bytes());
    out
}

/// A notification with `len` bytes of extra envelope members.
pub fn envelope_members(len: usize) -> Vec<u8> {
    grown(len, r#"{"jsonrpc":"2.0","method":"notifications/message""#, "", "}", |i| format!(r#","key{i}":{i}"#))
}

/// A request whose one parameter is a string of escapes of every kind.
pub fn escapes(len: usize) -> Vec<u8> {
    let unit = r#"\n\t\"\\\/\u00e9\ud83d\ude00\u0000"#;
    grown(len, r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"text":""#, "", r#""}}"#, |_| unit.to_owned())
}

/// A batch of realistic tool calls, each with its own id.
pub fn batch(len: usize) -> Vec<u8> {
    grown(len, "[", ",", "]", |i| {
        format!(
            r#"{{"jsonrpc":"2.0","id":{i},"method":"tools/call","params":{{"name":"search_code","arguments":{{"q":"fn main","page":{}}}}}}}"#,
            i % 10
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shape_reaches_its_length_and_parses_to_what_it_says() {
        for shape in shapes() {
            for len in [1000, 70_000] {
                let bytes = (shape.build)(len);
                assert!(
                    bytes.len() >= len && bytes.len() < len + 200,
                    "{}: {} bytes for {len}",
                    shape.name,
                    bytes.len()
                );
                let mut parser = mcp_envelope::Parser::new(shape.revision).with_limits(shape.limits);
                let kind = parser.parse(&bytes).map(|e| e.kind().name());
                assert_eq!(kind, Ok(shape.expect), "{} of {len} bytes", shape.name);
            }
        }
    }
}
