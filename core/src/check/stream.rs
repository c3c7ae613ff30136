//! Line framing under arbitrary chunking.

use alloc::vec::Vec;

use super::{assert_same, shown};
use crate::backend::{SerdeJson, SimdJson};
use crate::parser::Parser;
use crate::revision::Revision;
use crate::stream::{Frame, LineReader};

#[derive(Debug, PartialEq, Eq)]
enum Owned {
    Message { line: u64, offset: u64, bytes: Vec<u8> },
    Oversized { line: u64, offset: u64, len: u64 },
}

/// Feeds `chunks` to a fresh reader, handing each frame to `on_frame`, and
/// checks the reader's memory bound after every chunk.
fn feed_all<'c>(max: usize, chunks: impl Iterator<Item = &'c [u8]>, mut on_frame: impl FnMut(Frame<'_>)) {
    let mut reader = LineReader::new(max);
    for chunk in chunks {
        reader.feed(chunk, &mut on_frame);
        assert!(reader.buffered() <= max + 1, "buffered {} bytes with a limit of {max}", reader.buffered());
    }
    reader.finish(&mut on_frame);
}

fn frames<'c>(max: usize, chunks: impl Iterator<Item = &'c [u8]>) -> Vec<Owned> {
    let mut out = Vec::new();
    feed_all(max, chunks, |f| {
        out.push(match f {
            Frame::Message { line, offset, bytes } => Owned::Message { line, offset, bytes: bytes.to_vec() },
            Frame::Oversized { line, offset, len } => Owned::Oversized { line, offset, len },
        });
    });
    out
}

/// Whether feeding `chunks` gives exactly `expected`, compared frame by
/// frame as they come (no copy of each frame: copies were a fifth of a run).
fn gives<'c>(max: usize, chunks: impl Iterator<Item = &'c [u8]>, expected: &[Owned]) -> bool {
    let (mut seen, mut same) = (0, true);
    feed_all(max, chunks, |f| {
        let matches = match (f, expected.get(seen)) {
            (Frame::Message { line, offset, bytes }, Some(Owned::Message { line: l, offset: o, bytes: b })) => {
                line == *l && offset == *o && bytes == b.as_slice()
            }
            (Frame::Oversized { line, offset, len }, Some(Owned::Oversized { line: l, offset: o, len: n })) => {
                line == *l && offset == *o && len == *n
            }
            _ => false,
        };
        same &= matches;
        seen += 1;
    });
    same && seen == expected.len()
}

/// Frames checked with both backends, per input. Frames are at most 64
/// bytes here, and the `differential` target compares the backends on
/// every input anyway; what this property adds is that framed lines reach
/// them, which the first frames show as well as the last.
const PARSED_FRAMES: usize = 16;

/// Input: one byte for the size limit, one for the chunking, then the
/// stream. The frames are the same whether the stream arrives whole or in
/// chunks of pseudo-random sizes (empty ones included), and its beginning
/// the same a byte at a time; each frame is what the framing rules say; the
/// reader never holds more than the limit plus one byte; and the first
/// messages get the same verdict from both backends.
///
/// The byte-at-a-time feeding covers the first `4 * limit + 4` bytes (at
/// least four lines of the longest kind): over the whole input it cost a
/// call per byte, most of a run's time, and it adds nothing the pseudo-random
/// chunking (one-byte chunks included) does not also reach further on.
pub fn stream(input: &[u8]) {
    let [max, seed, bytes @ ..] = input else { return };
    let max = usize::from(*max % 64) + 1;
    let whole = frames(max, core::iter::once(bytes));

    let mut state = u32::from(*seed) | 1;
    let mut rest = bytes;
    let mut chunks = Vec::new();
    while !rest.is_empty() {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        let n = (state as usize % (2 * max + 3)).min(rest.len());
        let (chunk, after) = rest.split_at(n);
        chunks.push(chunk);
        rest = after;
    }
    assert!(
        gives(max, chunks.iter().copied(), &whole),
        "chunking changed the frames of {}: {:?}, whole {whole:?}",
        shown(bytes),
        frames(max, chunks.iter().copied())
    );
    let head = bytes.get(..4 * max + 4).unwrap_or(bytes);
    let head_whole;
    let expected = if head.len() == bytes.len() {
        &whole
    } else {
        head_whole = frames(max, core::iter::once(head));
        &head_whole
    };
    assert!(
        gives(max, head.chunks(1), expected),
        "bytewise on {}: {:?}, whole {expected:?}",
        shown(head),
        frames(max, head.chunks(1))
    );

    let mut serde = Parser::<SerdeJson>::with_backend(Revision::V2026_07_28);
    let mut simd = Parser::<SimdJson>::with_backend(Revision::V2026_07_28);
    let mut parsed = 0;
    for frame in &whole {
        match frame {
            Owned::Message { bytes, .. } => {
                assert!(bytes.len() <= max && !bytes.contains(&b'\n'), "{frame:?}");
                assert!(!bytes.iter().all(|&b| matches!(b, b' ' | b'\t' | b'\r' | b'\n')), "blank {frame:?}");
                if parsed < PARSED_FRAMES {
                    parsed += 1;
                    assert_same(bytes, &"a framed line", ("serde", &serde.parse(bytes)), ("simd", &simd.parse(bytes)));
                }
            }
            Owned::Oversized { len, .. } => assert!(*len as usize > max, "{frame:?}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_comparison_sees_every_difference() {
        let text = b"{\"a\":1}\n{\"b\":2}\n";
        let whole = frames(16, core::iter::once(&text[..]));
        assert_eq!(whole.len(), 2);
        assert!(gives(16, text.chunks(3), &whole));
        assert!(!gives(16, text.chunks(3), &whole[..1]), "a missing frame");
        assert!(!gives(16, b"{\"a\":1}\n{\"b\":3}\n".chunks(1), &whole), "other bytes");
        assert!(!gives(4, text.chunks(1), &whole), "oversized frames");
    }
}
