//! RULES.md section 5: newline framing on stdio.

use mcp_envelope::stream::{Frame, LineReader};

#[derive(Debug, PartialEq, Eq)]
enum Owned {
    Message(u64, u64, Vec<u8>),
    Oversized(u64, u64, u64),
}

fn frames(max: usize, chunks: &[&[u8]]) -> Vec<Owned> {
    let mut reader = LineReader::new(max);
    let mut out = Vec::new();
    let mut emit = |frame: Frame<'_>| {
        out.push(match frame {
            Frame::Message { line, offset, bytes } => Owned::Message(line, offset, bytes.to_vec()),
            Frame::Oversized { line, offset, len } => Owned::Oversized(line, offset, len),
        });
    };
    for chunk in chunks {
        reader.feed(chunk, &mut emit);
        assert!(reader.buffered() <= max + 1, "buffered {} > {}", reader.buffered(), max + 1);
    }
    reader.finish(&mut emit);
    out
}

const STREAM: &[u8] =
    b"{\"a\":1}\r\n\n   \r\n{\"b\":[1,2,3]}\n0123456789abcdefghij0123456789\n\t\n{\"c\":\"\\n\"}\r\n{\"d\":4}";

#[test]
fn lines_lose_their_carriage_return_and_blank_lines_are_skipped() {
    assert_eq!(
        frames(16, &[STREAM]),
        [
            Owned::Message(1, 0, b"{\"a\":1}".to_vec()),
            Owned::Message(4, 15, b"{\"b\":[1,2,3]}".to_vec()),
            Owned::Oversized(5, 29, 30),
            Owned::Message(7, 62, b"{\"c\":\"\\n\"}".to_vec()),
            Owned::Message(8, 74, b"{\"d\":4}".to_vec()),
        ]
    );
}

#[test]
fn frames_do_not_depend_on_how_the_bytes_are_chunked() {
    let whole = frames(16, &[STREAM]);
    for split in 0..=STREAM.len() {
        let (a, b) = STREAM.split_at(split);
        assert_eq!(frames(16, &[a, b]), whole, "split at {split}");
        for second in split..=STREAM.len() {
            let (b, c) = STREAM[split..].split_at(second - split);
            assert_eq!(frames(16, &[a, b, c]), whole, "splits at {split}, {second}");
        }
    }
    let bytes: Vec<&[u8]> = STREAM.chunks(1).collect();
    assert_eq!(frames(16, &bytes), whole);
}

#[test]
fn an_oversized_line_is_skipped_with_bounded_memory_and_reading_goes_on() {
    let big = vec![b'x'; 1 << 20];
    let mut chunks: Vec<&[u8]> = vec![b"{\"before\":1}\n"];
    chunks.extend(big.chunks(4096));
    chunks.push(b"\n{\"after\":2}\n");
    let got = frames(1024, &chunks);
    assert_eq!(
        got,
        [
            Owned::Message(1, 0, b"{\"before\":1}".to_vec()),
            Owned::Oversized(2, 13, 1 << 20),
            Owned::Message(3, 13 + (1 << 20) + 1, b"{\"after\":2}".to_vec()),
        ]
    );
}

#[test]
fn a_line_exactly_at_the_limit_passes_and_its_carriage_return_does_not_count() {
    assert_eq!(frames(4, &[b"1234\r\n12345\n"]), [Owned::Message(1, 0, b"1234".to_vec()), Owned::Oversized(2, 6, 5)]);
}
