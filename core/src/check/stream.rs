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

fn frames<'c>(max: usize, chunks: impl Iterator<Item = &'c [u8]>) -> Vec<Owned> {
    let mut reader = LineReader::new(max);
    let mut out = Vec::new();
    let mut emit = |f: Frame<'_>| {
        out.push(match f {
            Frame::Message { line, offset, bytes } => Owned::Message { line, offset, bytes: bytes.to_vec() },
            Frame::Oversized { line, offset, len } => Owned::Oversized { line, offset, len },
        });
    };
    for chunk in chunks {
        reader.feed(chunk, &mut emit);
        assert!(reader.buffered() <= max + 1, "buffered {} bytes with a limit of {max}", reader.buffered());
    }
    reader.finish(&mut emit);
    out
}

/// Input: one byte for the size limit, one for the chunking, then the
/// stream. The frames are the same whether the stream arrives whole, in
/// chunks of pseudo-random sizes, or a byte at a time; each frame is what
/// the framing rules say; the reader never holds more than the limit plus
/// one byte; and every message gets the same verdict from both backends.
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
    assert_eq!(frames(max, chunks.into_iter()), whole, "chunking changed the frames of {}", shown(bytes));
    assert_eq!(frames(max, bytes.chunks(1)), whole, "bytewise on {}", shown(bytes));

    let mut serde = Parser::<SerdeJson>::with_backend(Revision::V2026_07_28);
    let mut simd = Parser::<SimdJson>::with_backend(Revision::V2026_07_28);
    for frame in &whole {
        match frame {
            Owned::Message { bytes, .. } => {
                assert!(bytes.len() <= max && !bytes.contains(&b'\n'), "{frame:?}");
                assert!(!bytes.iter().all(|&b| matches!(b, b' ' | b'\t' | b'\r' | b'\n')), "blank {frame:?}");
                assert_same(bytes, "a framed line", ("serde", &serde.parse(bytes)), ("simd", &simd.parse(bytes)));
            }
            Owned::Oversized { len, .. } => assert!(*len as usize > max, "{frame:?}"),
        }
    }
}
