//! Line framing under arbitrary chunking, by all three framers: the push
//! [`LineReader`], the pull [`Lines`] and the tokio [`LineCodec`].

use std::vec::Vec;

use crate::chunks::{Sizes, split};
use crate::harness::{self, Expect};
use crate::{assert_same, shown};
use mcp_envelope::Parser;
use mcp_envelope::Revision;
use mcp_envelope::backend::{SerdeJson, SimdJson};
use mcp_envelope::transport::lines::{Line, LineCodec, LineReader, Lines};

#[derive(Clone, Debug, PartialEq, Eq)]
enum Owned {
    Message { line: u64, offset: u64, bytes: Vec<u8> },
    Oversized { line: u64, offset: u64, len: u64 },
}

/// Feeds `chunks` to a fresh reader, handing each frame to `on_frame`, and
/// checks the reader's memory bound after every chunk.
fn feed_all<'c>(max: usize, chunks: impl Iterator<Item = &'c [u8]>, mut on_frame: impl FnMut(Line<'_>)) {
    let mut reader = LineReader::new(max);
    for chunk in chunks {
        reader.feed(chunk, &mut on_frame);
        assert!(reader.buffered() <= max + 1, "buffered {} bytes with a limit of {max}", reader.buffered());
    }
    reader.finish(&mut on_frame);
}

fn frames<'c>(max: usize, chunks: impl Iterator<Item = &'c [u8]>) -> Vec<Owned> {
    let mut out = Vec::new();
    feed_all(max, chunks, |f| out.push(Owned::from(f)));
    out
}

impl From<Line<'_>> for Owned {
    fn from(f: Line<'_>) -> Owned {
        match f {
            Line::Message { line, offset, bytes } => Owned::Message { line, offset, bytes: bytes.to_vec() },
            Line::Oversized { line, offset, len } => Owned::Oversized { line, offset, len },
        }
    }
}

impl Owned {
    /// Whether `line` is this one.
    fn is(&self, line: &Line<'_>) -> bool {
        match (line, self) {
            (Line::Message { line, offset, bytes }, Owned::Message { line: l, offset: o, bytes: b }) => {
                line == l && offset == o && *bytes == b.as_slice()
            }
            (Line::Oversized { line, offset, len }, Owned::Oversized { line: l, offset: o, len: n }) => {
                line == l && offset == o && len == n
            }
            _ => false,
        }
    }
}

/// Whether feeding `chunks` gives exactly `expected`.
fn gives<'c>(max: usize, chunks: impl Iterator<Item = &'c [u8]>, expected: &[Owned]) -> bool {
    let mut expect = Expect::new(expected);
    feed_all(max, chunks, |f| expect.next(|x| x.is(&f)));
    expect.all_met()
}

/// The lines of [`Lines`] over `bytes`, pulled as [`harness::pulled`]
/// pulls them, compared with `expected`.
fn pulled_gives(max: usize, bytes: &[u8], sizes: &mut Sizes, expected: &[Owned]) -> bool {
    harness::pulled(
        bytes,
        max,
        sizes,
        expected,
        |reader| Lines::new(reader, max),
        |lines, expect| {
            let line = lines.next_line()?;
            Ok(line.map(|f| expect.next(|x| x.is(&f))).is_some())
        },
    )
}

/// The lines of [`LineCodec`] fed `chunks`, compared with `expected`; the
/// codec's buffer never holds more than the limit plus one byte once it
/// has taken what it can.
fn decoded_gives<'c>(max: usize, chunks: impl Iterator<Item = &'c [u8]>, expected: &[Owned]) -> bool {
    harness::decoded(
        LineCodec::new(max),
        chunks,
        expected,
        |line, x| x.is(&line.as_line()),
        |_, buf| assert!(buf.len() <= max + 1, "the codec holds {} bytes with a limit of {max}", buf.len()),
    )
}

/// Lines checked with both backends, per input. Lines are at most 64
/// bytes here, and the `differential` target compares the backends on
/// every input anyway; what this property adds is that framed lines reach
/// them, which the first frames show as well as the last.
const PARSED_FRAMES: usize = 16;

/// Input: one byte for the size limit, one for the chunking, then the
/// stream. The frames are the same whether the stream arrives whole or in
/// chunks of pseudo-random sizes (empty ones included), and its beginning
/// the same a byte at a time; the pull reader (through a buffer of
/// pseudo-random size over reads of pseudo-random size, some interrupted)
/// and the tokio codec (fed the same chunks) give the same frames as the
/// push reader; each frame is what the framing rules say; the push reader
/// and the codec never hold more than the limit plus one byte; and the
/// first messages get the same verdict from both backends.
///
/// The byte-at-a-time feeding covers the first `4 * limit + 4` bytes (at
/// least four lines of the longest kind): over the whole input it cost a
/// call per byte, most of a run's time, and it adds nothing the pseudo-random
/// chunking (one-byte chunks included) does not also reach further on.
pub fn stream(input: &[u8]) {
    let [max, seed, bytes @ ..] = input else { return };
    let max = usize::from(*max % 64) + 1;
    let whole = frames(max, core::iter::once(bytes));

    let mut sizes = Sizes::new(u32::from(*seed));
    let chunks = split(bytes, &mut sizes, 2 * max + 3);
    assert!(
        gives(max, chunks.iter().copied(), &whole),
        "chunking changed the frames of {}: {:?}, whole {whole:?}",
        shown(bytes),
        frames(max, chunks.iter().copied())
    );
    assert!(
        pulled_gives(max, bytes, &mut sizes, &whole),
        "the pull reader's frames differ on {} (limit {max}); the push reader's: {whole:?}",
        shown(bytes)
    );
    assert!(
        decoded_gives(max, chunks.iter().copied(), &whole),
        "the codec's frames differ on {} (limit {max}); the push reader's: {whole:?}",
        shown(bytes)
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

    #[test]
    fn the_pull_reader_and_the_codec_are_held_to_the_push_readers_frames() {
        let text = b"{\"a\":1}\r\n\n   \n{\"bb\":22}\n0123456789abcdef\n{}";
        for max in [4, 8, 16] {
            let whole = frames(max, core::iter::once(&text[..]));
            let mut wrong = whole.clone();
            match wrong.first_mut() {
                Some(Owned::Message { line, .. } | Owned::Oversized { line, .. }) => *line += 1,
                None => unreachable!("the text has frames"),
            }
            for seed in 1..50 {
                let mut sizes = Sizes::new(seed);
                assert!(pulled_gives(max, text, &mut sizes, &whole), "pull, limit {max}, seed {seed}");
                assert!(!pulled_gives(max, text, &mut Sizes::new(seed), &wrong), "pull sees a wrong line number");
                let chunks: Vec<&[u8]> = text.chunks(1 + seed as usize % 5).collect();
                assert!(decoded_gives(max, chunks.iter().copied(), &whole), "codec, limit {max}, seed {seed}");
                assert!(!decoded_gives(max, chunks.iter().copied(), &whole[1..]), "codec sees an extra frame");
            }
        }
    }
}
