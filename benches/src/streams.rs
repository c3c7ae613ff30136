//! Event streams built to hurt a Streamable HTTP reader: one 64 MiB event
//! (past the default size limit, so skipped without being held), a million
//! empty events, a flood of CRs (each one a line ending), a line that never
//! ends, and an id holding NUL on every event. Each says how many messages
//! and events without one the reader must report, and how many of them
//! must be too large or cut. Too big to commit: built in memory by the
//! benchmarks and the tests (the small versions are in corpus/sse/).

/// An adversarial event stream and what reading it must give.
#[derive(Clone, Debug)]
pub struct Stream {
    pub name: &'static str,
    pub bytes: Vec<u8>,
    /// `message` events with data within the limit.
    pub messages: usize,
    /// Events too large (data past the limit, or a field past its own).
    pub oversized: usize,
    /// Whether the stream ends inside an event.
    pub cut: bool,
}

const NOTE: &str = r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}"#;

pub fn adversarial() -> Vec<Stream> {
    let mib64 = 64 * 1024 * 1024;
    let mut huge = b"event: message\nid: 1\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"n\",\"params\":{\"t\":\"".to_vec();
    // 64 MiB of data past its prefix: over the default limit (64 MiB).
    huge.resize(huge.len() + mib64, b'a');
    huge.extend_from_slice(b"\"}}\n\n");
    huge.extend_from_slice(format!("data: {NOTE}\n\n").as_bytes());

    let empty = b"data:\n\n".repeat(1_000_000);

    let mut crs = format!("data: {NOTE}\r").into_bytes();
    crs.extend(std::iter::repeat_n(b'\r', 16 * 1024 * 1024));
    crs.extend_from_slice(format!("data: {NOTE}\r\r").as_bytes());

    let mut endless = b"data: ".to_vec();
    endless.resize(mib64, b'b');

    let nul_ids = format!("id: 7\0x\ndata: {NOTE}\n\n").repeat(100_000).into_bytes();

    vec![
        Stream { name: "event-64mib", bytes: huge, messages: 1, oversized: 1, cut: false },
        Stream { name: "empty-events-1000000", bytes: empty, messages: 0, oversized: 0, cut: false },
        Stream { name: "cr-flood-16mib", bytes: crs, messages: 2, oversized: 0, cut: false },
        Stream { name: "line-never-ends-64mib", bytes: endless, messages: 0, oversized: 0, cut: true },
        Stream { name: "nul-in-id-100000", bytes: nul_ids, messages: 100_000, oversized: 0, cut: false },
    ]
}
