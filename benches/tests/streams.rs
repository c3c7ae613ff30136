//! The adversarial event streams read as they say, with the reader's
//! memory bounded by the size limit whatever the stream's size.

use mcp_envelope::Limits;
use mcp_envelope::transport::sse::{Body, EventReader, MAX_FIELD_LEN};
use mcp_envelope_benches::streams;

#[test]
fn adversarial_streams_give_their_events_within_the_memory_bound() {
    let max = Limits::DEFAULT_MAX_SIZE;
    for stream in streams::adversarial() {
        let mut reader = EventReader::new(max);
        let (mut messages, mut oversized, mut cut, mut ids) = (0, 0, false, 0);
        let mut peak = 0;
        let mut tally = |event: mcp_envelope::transport::sse::Event<'_>| {
            match event.body {
                Body::Data(_) if event.message().is_some() => messages += 1,
                Body::Oversized { .. } => oversized += 1,
                Body::Cut => cut = true,
                Body::Data(_) => {}
            }
            ids += usize::from(!event.id.is_empty());
        };
        for chunk in stream.bytes.chunks(64 * 1024) {
            reader.feed(chunk, &mut tally);
            peak = peak.max(reader.buffered());
        }
        reader.finish(&mut tally);
        assert_eq!((messages, oversized, cut), (stream.messages, stream.oversized, stream.cut), "{}", stream.name);
        assert!(peak <= max + 1 + 3 * MAX_FIELD_LEN, "{}: held {peak} bytes", stream.name);
        if stream.name.starts_with("nul-in-id") {
            assert_eq!(ids, 0, "an id holding NUL is ignored");
        }
    }
}
