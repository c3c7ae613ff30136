//! The JSON string grammar: where a string ends, its plain content found
//! sixteen bytes at a time, every control character and escape checked
//! (escapes by [`escape`](crate::json::escape)).

use crate::fault::{Fault, Reason};
use crate::json::escape::escape_len;
use crate::span;

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The bytes of `word` (8 bytes, little-endian) that end a stretch of plain
/// string content: `"`, `\\` or a control character. The lowest set high
/// bit marks the first such byte exactly (the usual zero-byte test: a
/// borrow can only mark bytes above a real match, never below one).
#[inline]
fn stops(word: u64) -> u64 {
    let quote = word ^ (ONES * u64::from(b'"'));
    let backslash = word ^ (ONES * u64::from(b'\\'));
    let is_quote = quote.wrapping_sub(ONES) & !quote;
    let is_backslash = backslash.wrapping_sub(ONES) & !backslash;
    let is_control = word.wrapping_sub(ONES * 0x20) & !word;
    (is_quote | is_backslash | is_control) & HIGHS
}

/// The bytes of a 16-byte block that end a stretch of plain string
/// content, one bit each (bit `k` for byte `k`). Where the target has
/// 128-bit vectors, three compares and a movemask through `wide` (safe
/// SIMD; the core forbids `unsafe`): about 10 instructions for what two
/// word tests do in 30.
#[cfg(any(target_feature = "sse2", target_feature = "neon", target_feature = "simd128"))]
#[inline(always)]
fn stops16(block: [u8; 16]) -> u32 {
    use wide::u8x16;
    let v = u8x16::from(block);
    let quote = v.cmp_eq(u8x16::splat(b'"'));
    let backslash = v.cmp_eq(u8x16::splat(b'\\'));
    let control = v.min(u8x16::splat(0x1F)).cmp_eq(v);
    // The mask holds 16 bits: the cast neither truncates nor sign-extends.
    (quote | backslash | control).move_mask() as u32
}

/// [`stops16`] without vectors: two word tests, each word's marks packed
/// into eight bits. As with [`stops`], only the lowest mark is exact (a
/// borrow may mark bytes above a real stop), which is all a search needs.
#[cfg(any(test, not(any(target_feature = "sse2", target_feature = "neon", target_feature = "simd128"))))]
#[inline(always)]
fn stops16_words(block: [u8; 16]) -> u32 {
    let (low, high) = block.split_at(8);
    let marks = |half: &[u8]| {
        let word = u64::from_le_bytes(<[u8; 8]>::try_from(half).unwrap_or_default());
        // Each mark is a byte's high bit: the multiply gathers the eight of
        // them into the top byte, in order, with no carries between.
        ((stops(word) >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32
    };
    marks(low) | marks(high) << 8
}

#[cfg(not(any(target_feature = "sse2", target_feature = "neon", target_feature = "simd128")))]
use stops16_words as stops16;

/// Plain content from `i`, sixteen bytes at a time for up to 256 bytes
/// (names, methods, and the runs of text between escapes), then with memchr
/// once the string has proved long (long strings, such as base64 images, are
/// where its wider kernels pay): the offset of the first `"`, `\\` or control
/// character, or `bytes.len()`.
#[inline(always)]
fn skip_plain(bytes: &[u8], mut i: usize) -> usize {
    // How many blocks before memchr takes over: the count that measured
    // best (docs/benchmarks.md, "Why the code is as it is", `skip_plain`).
    for _ in 0..PLAIN_BLOCKS {
        let Some(block) = bytes.get(i..i + 16).and_then(|b| <[u8; 16]>::try_from(b).ok()) else {
            return skip_plain_tail(bytes, i);
        };
        let found = stops16(block);
        if found != 0 {
            return i + found.trailing_zeros() as usize;
        }
        i += 16;
    }
    skip_plain_long(bytes, i)
}

/// How many 16-byte blocks [`skip_plain`] searches before memchr takes over.
const PLAIN_BLOCKS: usize = 16;

/// [`skip_plain`] within the last 16 bytes: a word, then byte by byte.
#[inline(never)]
fn skip_plain_tail(bytes: &[u8], mut i: usize) -> usize {
    if let Some(word) = bytes.get(i..i + 8).and_then(|w| <[u8; 8]>::try_from(w).ok()) {
        let found = stops(u64::from_le_bytes(word));
        if found != 0 {
            return i + (found.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    let rest = span::from(bytes, i);
    i + rest.iter().position(|&b| b == b'"' || b == b'\\' || b < 0x20).unwrap_or(rest.len())
}

/// [`skip_plain`] for a long stretch, block by block: memchr finds the next
/// quote or backslash in the block, and the control-character test runs
/// over the bytes before it while they are still in L1, rather than a
/// second pass over the whole string.
fn skip_plain_long(bytes: &[u8], i: usize) -> usize {
    const BLOCK: usize = 4096;
    let rest = span::from(bytes, i);
    let mut from = i;
    for block in rest.chunks(BLOCK) {
        let end = memchr::memchr2(b'"', b'\\', block);
        let stretch = span::within(block, 0..end.unwrap_or(block.len()));
        if lowest(stretch) < 0x20 {
            return from + stretch.iter().position(|&b| b < 0x20).unwrap_or(stretch.len());
        }
        if let Some(end) = end {
            return from + end;
        }
        from += block.len();
    }
    from
}

/// Stretches from this length on keep many running minima (see [`lowest`]);
/// below it their setting up and final fold cost more than they save.
const MANY_MINIMA_FROM: usize = 2048;

/// The lowest byte of `bytes` (`u8::MAX` if empty). A single running
/// minimum is one chain of dependent instructions; 128 independent ones
/// (eight SSE2 registers) let the compiler issue a load and a minimum every
/// cycle, as fast as memchr finds a quote.
fn lowest(bytes: &[u8]) -> u8 {
    if bytes.len() < MANY_MINIMA_FROM {
        return bytes.iter().fold(u8::MAX, |low, &b| low.min(b));
    }
    let mut lows = [u8::MAX; 128];
    let mut blocks = bytes.chunks_exact(128);
    for block in &mut blocks {
        for (low, &b) in lows.iter_mut().zip(block) {
            *low = (*low).min(b);
        }
    }
    blocks.remainder().iter().chain(&lows).fold(u8::MAX, |low, &b| low.min(b))
}

/// Scans the string whose opening quote is at `at`; returns the offset one
/// past its closing quote. Checks control characters and every escape.
/// The input is known to be UTF-8, so other bytes need no check.
#[inline(always)]
pub(crate) fn scan(bytes: &[u8], at: usize) -> Result<usize, Fault> {
    // Most strings have no escape: one stretch of plain content, then the
    // quote. The rest is out of line, so the caller's loop stays small.
    let i = skip_plain(bytes, at + 1);
    if bytes.get(i) == Some(&b'"') {
        return Ok(i + 1);
    }
    scan_from_stop(bytes, i)
}

/// The rest of a string from a byte that is not its closing quote.
#[inline(never)]
fn scan_from_stop(bytes: &[u8], mut i: usize) -> Result<usize, Fault> {
    loop {
        match bytes.get(i) {
            Some(b'"') => return Ok(i + 1),
            Some(b'\\') => i += escape_len(bytes, i)?,
            Some(_) => return Err(Fault::new(Reason::ControlCharacter, i)),
            None => return Err(Fault::new(Reason::UnexpectedEnd, bytes.len())),
        }
        // An escape right after another is read at once, without the block
        // search: non-ASCII text written ASCII-only (each character as `\u`,
        // as Python's `json.dumps` does by default) is one run of escapes
        // (its cost and gain: docs/benchmarks.md, `scan_from_stop`).
        while bytes.get(i) == Some(&b'\\') {
            i += escape_len(bytes, i)?;
        }
        i = skip_plain(bytes, i);
    }
}

/// Whether `bytes` holds a backslash: eight bytes at a time for the short
/// strings of an envelope (names, methods, ids), memchr for long ones.
#[inline]
pub(crate) fn has_backslash(bytes: &[u8]) -> bool {
    if bytes.len() > 64 {
        return memchr::memchr(b'\\', bytes).is_some();
    }
    let has = |word: [u8; 8]| {
        let x = u64::from_le_bytes(word) ^ (ONES * u64::from(b'\\'));
        x.wrapping_sub(ONES) & !x & HIGHS != 0
    };
    let Some(&last) = bytes.last_chunk::<8>() else {
        // Under eight bytes a plain loop beats `contains`, whose memchr
        // costs more to set up than it saves.
        #[allow(clippy::manual_contains, reason = "measured faster on short slices")]
        return bytes.iter().any(|&b| b == b'\\');
    };
    let (words, rest) = bytes.as_chunks::<8>();
    // The last eight bytes overlap the words when there is a remainder: no
    // byte loop for it.
    words.iter().any(|&word| has(word)) || (!rest.is_empty() && has(last))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first `"`, `\\` or control character at or after `i`, one byte at a time.
    fn skip_plain_naive(bytes: &[u8], i: usize) -> usize {
        let rest = bytes.get(i..).unwrap_or_default();
        i + rest.iter().position(|&b| b == b'"' || b == b'\\' || b < 0x20).unwrap_or(rest.len())
    }

    #[test]
    fn plain_content_ends_at_the_first_quote_backslash_or_control_character() {
        // Every stop byte at every position of short and long stretches, with
        // UTF-8 and bytes next to the stops' values (a space, 0x20, is the
        // lowest byte that is not one) around it.
        let filler = "aé€\u{1F600}!#[]{}~ \u{7F}".as_bytes();
        for len in [0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 100, 300] {
            let base: alloc::vec::Vec<u8> = filler.iter().cycle().take(len).copied().collect();
            assert_eq!(skip_plain(&base, 0), skip_plain_naive(&base, 0), "len {len}");
            for at in 0..len {
                for stop in [b'"', b'\\', 0x00, 0x1F, b'\n'] {
                    let mut bytes = base.clone();
                    bytes[at] = stop;
                    for start in [0, 1, at.saturating_sub(3)] {
                        assert_eq!(
                            skip_plain(&bytes, start),
                            skip_plain_naive(&bytes, start),
                            "len {len}, stop {stop:#x} at {at}, from {start}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn a_space_the_lowest_byte_that_is_no_stop_never_ends_plain_content() {
        // Spaces at every place of every path: the blocks, the word and the
        // bytes after it in the last 16, the bytes alone in the last 8; a
        // stop put after them is found, and nothing before it.
        for len in 0..=48 {
            let spaces = alloc::vec![b' '; len];
            for start in 0..=len {
                assert_eq!(skip_plain(&spaces, start), len, "len {len}, from {start}");
                let mut closed = spaces.clone();
                closed.push(b'"');
                assert_eq!(skip_plain(&closed, start), len, "len {len} then a quote, from {start}");
            }
        }
    }

    #[test]
    fn a_block_marks_exactly_its_quotes_backslashes_and_control_characters() {
        // Every byte value at every place of a block, among bytes that are
        // no stop (so a mark can only come from the byte put there). The
        // word version's lowest mark is exact, not the ones above it.
        let plain: [u8; 16] = *b"a\xC3\xA9 ~!#\x7F\xFF]{}\x80az0";
        for at in 0..16 {
            for byte in 0..=u8::MAX {
                let mut block = plain;
                block[at] = byte;
                let stop = byte == b'"' || byte == b'\\' || byte < 0x20;
                let expected = u32::from(stop) << at;
                assert_eq!(stops16(block), expected, "{byte:#x} at {at}");
                assert_eq!(stops16_words(block).trailing_zeros(), expected.trailing_zeros(), "{byte:#x} at {at}");
            }
        }
        let all: [u8; 16] = *b"\"\\\x00\x1F\"\\\n\t\"\\\r\x01\"\\\x10\x19";
        assert_eq!(stops16(all), 0xFFFF);
        assert_eq!(stops16_words(all), 0xFFFF);
        // A stop in the high word only: its place counts from the block's start.
        let mut late = plain;
        late[11] = 0;
        assert_eq!(stops16_words(late).trailing_zeros(), 11);
    }

    #[test]
    fn long_stretches_end_at_the_first_stop_byte_in_any_lane_or_block() {
        // Past MANY_MINIMA_FROM the minimum is kept in 128 lanes, and long
        // stretches are searched in blocks: a stop byte in any lane, in the
        // tail after the last full lane block, or in a later block must
        // still end the plain content, and nothing else may.
        let filler = "aé€\u{1F600}!#[]{}~ \u{7F}".as_bytes();
        for len in [MANY_MINIMA_FROM - 1, MANY_MINIMA_FROM, MANY_MINIMA_FROM + 1, 2175, 2176, 4100, 9000] {
            let base: alloc::vec::Vec<u8> = filler.iter().cycle().take(len).copied().collect();
            assert_eq!(lowest(&base), base.iter().copied().min().unwrap_or(u8::MAX), "len {len}");
            assert_eq!(skip_plain(&base, 0), len, "len {len}");
            let lanes = (0..128).chain(len - 130..len).chain((128..len).step_by(61));
            for at in lanes {
                for stop in [0x00, 0x1F, b'"', b'\\'] {
                    let mut bytes = base.clone();
                    bytes[at] = stop;
                    if stop < 0x20 {
                        assert_eq!(lowest(&bytes), stop, "len {len}, {stop:#x} at {at}");
                    }
                    assert_eq!(skip_plain(&bytes, 0), at, "len {len}, {stop:#x} at {at}");
                }
            }
        }
    }

    #[test]
    fn backslashes_are_found_in_every_position() {
        for len in 1..80 {
            assert!(!has_backslash(&alloc::vec![b'a'; len]), "{len}");
            for at in 0..len {
                let mut bytes = alloc::vec![b'a'; len];
                bytes[at] = b'\\';
                assert!(has_backslash(&bytes), "{len} {at}");
            }
        }
    }
}
