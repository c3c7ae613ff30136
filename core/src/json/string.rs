//! JSON strings: escape validation (with surrogate pairing), decoding, and
//! comparison without allocating.
//!
//! The rule on `\u` escapes is the project's own (see the rules, section 1):
//! a high surrogate must be followed at once by a `\u` low surrogate, and a
//! low surrogate may not stand alone. serde_json does not check this in
//! values it skips, so the core checks it for every backend.

use alloc::borrow::Cow;
use alloc::string::String;
use core::cmp::Ordering;

use crate::fault::{Fault, Reason};

/// Each byte's value as a hex digit, or [`NOT_HEX`].
#[allow(clippy::indexing_slicing, reason = "evaluated at compile time: an index out of range fails the build")]
const HEX: [u8; 256] = {
    let mut table = [NOT_HEX; 256];
    let mut byte = 0;
    while byte < 256 {
        table[byte] = match byte as u8 {
            digit @ b'0'..=b'9' => digit - b'0',
            letter @ b'a'..=b'f' => letter - b'a' + 10,
            letter @ b'A'..=b'F' => letter - b'A' + 10,
            _ => NOT_HEX,
        };
        byte += 1;
    }
    table
};

/// What [`HEX`] holds for a byte that is no hex digit: any of its high four
/// bits set marks it, whatever digits it is or-ed with.
const NOT_HEX: u8 = 0xFF;

/// The four hex digits at `at..at + 4` as the value they spell, when all
/// four are there and hex (the usual case), four at a time from a table;
/// else `None`, and [`hex4_fault`] says which fault it is.
#[inline(always)]
fn hex4_quick(bytes: &[u8], at: usize) -> Option<u32> {
    let &[a, b, c, d] = bytes.get(at..)?.first_chunk::<4>()?;
    let hex = |byte: u8| u32::from(HEX.get(usize::from(byte)).copied().unwrap_or(NOT_HEX));
    let (a, b, c, d) = (hex(a), hex(b), hex(c), hex(d));
    if (a | b | c | d) & 0xF0 != 0 {
        return None;
    }
    Some(a << 12 | b << 8 | c << 4 | d)
}

/// Why the four hex digits at `at..at + 4` are not there, where
/// [`hex4_quick`] found them not all there or not all hex:
/// `invalid-escape` (at `escape`) if one that is there is not hex, else
/// `unexpected-end` (the input stops first).
#[cold]
#[inline(never)]
fn hex4_fault(bytes: &[u8], at: usize, escape: usize) -> Fault {
    let digits = bytes.get(at..).unwrap_or_default().iter().take(4);
    if digits.copied().all(|byte| byte.is_ascii_hexdigit()) {
        Fault::new(Reason::UnexpectedEnd, bytes.len())
    } else {
        Fault::new(Reason::InvalidEscape, escape)
    }
}

/// Reads the escape sequence whose backslash is at `at`: the character it
/// stands for and how many bytes it takes (2, 6, or 12 for a surrogate pair).
/// Faults are placed at the backslash, or at the end of input if it stops
/// inside the sequence.
pub(crate) fn read_escape(bytes: &[u8], at: usize) -> Result<(char, usize), Fault> {
    let Some(&letter) = bytes.get(at + 1) else {
        return Err(Fault::new(Reason::UnexpectedEnd, bytes.len()));
    };
    match ONE_LETTER.get(usize::from(letter)).copied().unwrap_or(0) {
        0 if letter == b'u' => read_unicode_escape(bytes, at),
        0 => Err(Fault::new(Reason::InvalidEscape, at)),
        stands_for => Ok((char::from(stands_for), 2)),
    }
}

/// How many bytes the escape sequence whose backslash is at `at` takes,
/// checked as [`read_escape`] checks it. The one-letter escapes, most of
/// any escaped text, are told here without making the character they stand
/// for, `\u` by [`unicode_escape`] without making one either; faults go to
/// [`read_escape`].
#[inline(always)]
fn escape_len(bytes: &[u8], at: usize) -> Result<usize, Fault> {
    // A table look-up and one test, where a `match` on the letter compiled
    // to a jump table (an indirect jump per escape).
    let letter = bytes.get(at + 1).copied().unwrap_or(0);
    if ONE_LETTER.get(usize::from(letter)).copied().unwrap_or(0) != 0 {
        return Ok(2);
    }
    if letter == b'u' {
        return unicode_escape(bytes, at).map(|(_, len)| len);
    }
    read_escape(bytes, at).map(|(_, len)| len)
}

/// What each one-letter escape stands for (`\"`, `\\`, `\/`, `\b`, `\f`,
/// `\n`, `\r`, `\t`), by its letter; 0 for any other byte (no one-letter
/// escape stands for NUL). The one list both [`escape_len`] and
/// [`read_escape`] read.
#[allow(clippy::indexing_slicing, reason = "evaluated at compile time: an index out of range fails the build")]
const ONE_LETTER: [u8; 256] = {
    let mut table = [0; 256];
    table[b'"' as usize] = b'"';
    table[b'\\' as usize] = b'\\';
    table[b'/' as usize] = b'/';
    table[b'b' as usize] = 0x08;
    table[b'f' as usize] = 0x0C;
    table[b'n' as usize] = b'\n';
    table[b'r' as usize] = b'\r';
    table[b't' as usize] = b'\t';
    table
};

fn read_unicode_escape(bytes: &[u8], at: usize) -> Result<(char, usize), Fault> {
    // What `unicode_escape` checked is a Unicode scalar value: the
    // replacement character is never made.
    unicode_escape(bytes, at).map(|(scalar, len)| (char::from_u32(scalar).unwrap_or(char::REPLACEMENT_CHARACTER), len))
}

/// The `\u` escape whose backslash is at `at`, checked: the scalar value
/// it stands for (a surrogate pair's, whole) and how many bytes it takes
/// (6, or 12 for a pair). The usual escape, four hex digits that are no
/// surrogate, is two tests; faults and pairs are out of line.
#[inline(always)]
fn unicode_escape(bytes: &[u8], at: usize) -> Result<(u32, usize), Fault> {
    let Some(unit) = hex4_quick(bytes, at + 2) else {
        return Err(hex4_fault(bytes, at + 2, at));
    };
    if unit & 0xF800 != 0xD800 {
        return Ok((unit, 6));
    }
    // A high surrogate and its low one, whole, are a pair; anything else is
    // a fault, told out of line.
    if unit < 0xDC00
        && bytes.get(at + 6..at + 8) == Some(b"\\u")
        && let Some(low @ 0xDC00..=0xDFFF) = hex4_quick(bytes, at + 8)
    {
        return Ok((0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00), 12));
    }
    Err(surrogate_fault(bytes, at, unit))
}

/// Why the `\u` escape at `at`, whose unit is a surrogate, is no pair: a
/// low half (alone, whatever follows), a high half without `\uDC00` to
/// `\uDFFF` right after it, or the input's end inside that.
#[cold]
#[inline(never)]
fn surrogate_fault(bytes: &[u8], at: usize, unit: u32) -> Fault {
    let lone = Fault::new(Reason::LoneSurrogate, at);
    if unit >= 0xDC00 {
        return lone;
    }
    match (bytes.get(at + 6), bytes.get(at + 7)) {
        (None, _) | (Some(b'\\'), None) => Fault::new(Reason::UnexpectedEnd, bytes.len()),
        // Its next four bytes, if hex, are no low half ([`unicode_escape`]
        // read them): the first escape is lone. So it is when one is not
        // hex, unless the input ends first.
        (Some(b'\\'), Some(b'u')) if hex4_quick(bytes, at + 8).is_none() => {
            let fault = hex4_fault(bytes, at + 8, at);
            if fault.reason == Reason::UnexpectedEnd { fault } else { lone }
        }
        _ => lone,
    }
}

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
    // 16 blocks measured best: at 4 (64 bytes) memchr's set-up ran for many
    // runs of text, medium messages +7 %; at 24 or 32 the loop compiles
    // worse (+8 % on medium messages).
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
    let rest = bytes.get(i..).unwrap_or_default();
    i + rest.iter().position(|&b| b == b'"' || b == b'\\' || b < 0x20).unwrap_or(rest.len())
}

/// [`skip_plain`] for a long stretch, block by block: memchr finds the next
/// quote or backslash in the block, and the control-character test runs
/// over the bytes before it while they are still in L1 (the 2 MiB image
/// message parses in 0.86x the time two passes over the whole string took).
fn skip_plain_long(bytes: &[u8], i: usize) -> usize {
    const BLOCK: usize = 4096;
    let rest = bytes.get(i..).unwrap_or_default();
    let mut from = i;
    for block in rest.chunks(BLOCK) {
        let end = memchr::memchr2(b'"', b'\\', block);
        let stretch = block.get(..end.unwrap_or(block.len())).unwrap_or_default();
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
        // as Python's `json.dumps` does by default) is one run of escapes.
        // The test costs medium messages, whose escapes mostly stand alone,
        // 4.7 %; runs of escapes take 43 % less (the escapes class).
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
        // costs more to set up than it saves (callgrind: 34 instructions a
        // message on `batch-100`).
        #[allow(clippy::manual_contains, reason = "measured faster on short slices")]
        return bytes.iter().any(|&b| b == b'\\');
    };
    let (words, rest) = bytes.as_chunks::<8>();
    // The last eight bytes overlap the words when there is a remainder: no
    // byte loop for it.
    words.iter().any(|&word| has(word)) || (!rest.is_empty() && has(last))
}

/// True when no `\u` escape in `raw` is an unpaired surrogate. `raw` is
/// JSON text whose escapes a backend has already checked in every other
/// respect, so only `\u` needs looking at: found with one substring search,
/// and skipped where it is the tail of an escaped backslash (`\\u`).
#[cfg_attr(not(feature = "serde_json"), allow(dead_code))]
pub(crate) fn surrogates_are_paired(raw: &[u8]) -> bool {
    // Most messages have no escape at all: one memchr says so more cheaply
    // than setting up the substring search.
    if memchr::memchr(b'\\', raw).is_none() {
        return true;
    }
    let mut next = 0;
    for at in memchr::memmem::find_iter(raw, b"\\u") {
        if at < next {
            continue; // the low half of a pair just read
        }
        let before = raw.get(..at).unwrap_or_default();
        if before.iter().rev().take_while(|&&b| b == b'\\').count() % 2 == 1 {
            continue;
        }
        match read_escape(raw, at) {
            Ok((_, len)) => next = at + len,
            Err(_) => return false,
        }
    }
    true
}

/// The content of a JSON string that has been validated: the text between
/// its quotes, still escaped.
#[derive(Clone, Copy, Debug)]
pub(crate) struct JsonStr<'a> {
    inner: &'a str,
    escaped: bool,
}

impl<'a> JsonStr<'a> {
    /// `quoted` is a validated string token, quotes included.
    pub(crate) fn new(quoted: &'a str) -> JsonStr<'a> {
        let inner = quoted.strip_prefix('"').and_then(|s| s.strip_suffix('"')).unwrap_or(quoted);
        JsonStr { inner, escaped: has_backslash(inner.as_bytes()) }
    }

    /// The characters the string stands for.
    pub(crate) fn chars(self) -> Chars<'a> {
        Chars { bytes: self.inner.as_bytes(), text: self.inner, at: 0 }
    }

    /// The decoded string: borrowed when there are no escapes.
    // Inlined so that the common case, no escape, costs its callers a test
    // and no call: left to the compiler, a change elsewhere in the crate
    // once stopped inlining it (+0.8 % instructions on small messages).
    #[inline(always)]
    pub(crate) fn decode(self) -> Cow<'a, str> {
        if !self.escaped {
            return Cow::Borrowed(self.inner);
        }
        Cow::Owned(self.unescape())
    }

    /// The text with its escapes replaced by what they stand for.
    #[inline(never)]
    fn unescape(self) -> String {
        // Decoded text is never longer than its escapes (`\n` is one byte
        // for two, `\uXXXX` at most three for six): one allocation, no
        // growth. The text between escapes is copied a run at a time.
        let bytes = self.inner.as_bytes();
        let mut decoded = String::with_capacity(bytes.len());
        let mut at = 0;
        while let Some(found) = memchr::memchr(b'\\', bytes.get(at..).unwrap_or_default()) {
            let slash = at + found;
            decoded.push_str(self.inner.get(at..slash).unwrap_or_default());
            // Validated input: a bad escape here would be a bug upstream, and
            // ends the string rather than panicking (as `chars` does).
            let Ok((c, len)) = read_escape(bytes, slash) else {
                return decoded;
            };
            decoded.push(c);
            at = slash + len;
        }
        decoded.push_str(self.inner.get(at..).unwrap_or_default());
        decoded
    }

    /// The text between the quotes of a validated string, and whether it
    /// holds a backslash (when the caller knows already).
    #[inline]
    pub(crate) fn from_inner(inner: &'a str, escaped: bool) -> JsonStr<'a> {
        JsonStr { inner, escaped }
    }

    /// Whether both stand for the same text, however escaped.
    pub(crate) fn same_as(self, other: JsonStr<'_>) -> bool {
        if !self.escaped && !other.escaped {
            return self.inner == other.inner;
        }
        self.chars().eq(other.chars())
    }

    pub(crate) fn eq_str(self, other: &str) -> bool {
        if self.escaped {
            return self.chars().eq(other.chars());
        }
        // Most comparisons are misses against a short name: decide those on
        // length and first byte, without a call to memcmp.
        let (a, b) = (self.inner.as_bytes(), other.as_bytes());
        a.len() == b.len() && a.first() == b.first() && a == b
    }

    /// A hash of the decoded text (its UTF-8 bytes, mixed eight at a time):
    /// equal strings, however escaped, hash alike.
    pub(crate) fn hash(self) -> u64 {
        let mut hasher = WordHasher::default();
        if self.escaped {
            let mut utf8 = [0u8; 4];
            for c in self.chars() {
                hasher.write(c.encode_utf8(&mut utf8).as_bytes());
            }
        } else {
            hasher.write(self.inner.as_bytes());
        }
        hasher.finish()
    }

    pub(crate) fn cmp(self, other: JsonStr<'_>) -> Ordering {
        if !self.escaped && !other.escaped {
            // Byte order of UTF-8 is code point order, as for chars.
            return self.inner.cmp(other.inner);
        }
        self.chars().cmp(other.chars())
    }
}

/// Hashes a byte stream eight bytes at a time, whatever pieces it comes in:
/// the same bytes give the same hash however they are split.
#[derive(Debug, Default)]
struct WordHasher {
    hash: u64,
    /// Bytes waiting for a full word, little-endian.
    word: u64,
    filled: u32,
    len: u64,
}

impl WordHasher {
    #[inline]
    fn mix(&mut self, word: u64) {
        self.hash = (self.hash ^ word).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.hash ^= self.hash >> 29;
    }

    fn write(&mut self, bytes: &[u8]) {
        self.len += bytes.len() as u64;
        let mut rest = bytes;
        if self.filled == 0 {
            // Whole words straight from the input (the unescaped case).
            let mut words = rest.chunks_exact(8);
            for word in &mut words {
                if let Ok(word) = <[u8; 8]>::try_from(word) {
                    self.mix(u64::from_le_bytes(word));
                }
            }
            rest = words.remainder();
        }
        for &byte in rest {
            self.word |= u64::from(byte) << (8 * self.filled);
            self.filled += 1;
            if self.filled == 8 {
                let word = core::mem::take(&mut self.word);
                self.filled = 0;
                self.mix(word);
            }
        }
    }

    fn finish(mut self) -> u64 {
        // The length tells "a" from "a\\u0000", whose words are alike.
        let (word, len) = (self.word, self.len);
        self.mix(word);
        self.mix(len);
        self.hash
    }
}

/// Decoding iterator over a validated string's content.
#[derive(Debug)]
pub(crate) struct Chars<'a> {
    bytes: &'a [u8],
    text: &'a str,
    at: usize,
}

impl Iterator for Chars<'_> {
    type Item = char;

    fn next(&mut self) -> Option<char> {
        if self.bytes.get(self.at) == Some(&b'\\') {
            // Validated input: a bad escape here would be a bug upstream, and
            // ends the string rather than panicking.
            let (c, len) = read_escape(self.bytes, self.at).ok()?;
            self.at += len;
            return Some(c);
        }
        let c = self.text.get(self.at..)?.chars().next()?;
        self.at += c.len_utf8();
        Some(c)
    }
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
    fn escapes_decode_to_their_characters() {
        let s = JsonStr::new(r#""a\n\u0041\ud83d\ude00\/""#);
        assert_eq!(s.decode(), "a\nA\u{1F600}/");
    }

    #[test]
    fn each_one_letter_escape_stands_for_its_character_and_no_other_letter_is_one() {
        let escapes = [
            (b'"', '"'),
            (b'\\', '\\'),
            (b'/', '/'),
            (b'b', '\u{8}'),
            (b'f', '\u{c}'),
            (b'n', '\n'),
            (b'r', '\r'),
            (b't', '\t'),
        ];
        for letter in 0..=u8::MAX {
            let bytes = [b'\\', letter];
            let expected = match escapes.iter().find(|&&(l, _)| l == letter) {
                Some(&(_, c)) => Ok((c, 2)),
                None if letter == b'u' => Err(Fault::new(Reason::UnexpectedEnd, 2)),
                None => Err(Fault::new(Reason::InvalidEscape, 0)),
            };
            assert_eq!(read_escape(&bytes, 0), expected, "{letter:#x}");
            assert_eq!(escape_len(&bytes, 0), expected.map(|(_, len)| len), "{letter:#x}");
        }
    }

    #[test]
    fn decoding_copies_the_runs_between_escapes_whole() {
        // Runs of every length around escapes at the start, the middle and
        // the end, escaped backslashes next to text, UTF-8 in the runs.
        for raw in [
            r#""\\""#,
            r#""\\u0041""#,
            r#""é\n""#,
            r#""\n€""#,
            r#""ab\\\"cd\u00e9\ud83d\ude00xyz\t""#,
            r#""\/\/\/""#,
            r#""a long run of plain text before one escape at the very end \r""#,
        ] {
            let s = JsonStr::new(raw);
            let by_chars: String = s.chars().collect();
            assert_eq!(s.decode(), by_chars, "{raw}");
        }
        assert_eq!(JsonStr::new(r#""ab\\\"cd\u00e9\ud83d\ude00xyz\t""#).decode(), "ab\\\"cdé\u{1F600}xyz\t");
    }

    #[test]
    fn a_surrogate_pair_stands_for_one_character_past_the_basic_plane() {
        for (raw, c) in
            [(r"\ud800\udc00", '\u{10000}'), (r"\ud83d\ude00", '\u{1F600}'), (r"\udbff\udfff", '\u{10FFFF}')]
        {
            assert_eq!(read_escape(raw.as_bytes(), 0), Ok((c, 12)), "{raw}");
            assert_eq!(escape_len(raw.as_bytes(), 0), Ok(12), "{raw}");
        }
    }

    #[test]
    fn lone_surrogates_are_faults_at_the_backslash() {
        // A low half first is lone whatever follows it, a low half too.
        for (raw, at) in [
            (r#"\ud800""#, 0),
            (r"x\udc00", 1),
            (r"\ud800\u0041", 0),
            (r"\ud800\n", 0),
            (r"\udc00\udc00", 0),
            (r"\udfff\udc00", 0),
            (r"\udc01\ude00", 0),
            (r"\ud800\ud800", 0),
            (r"\udbff\ue000", 0),
            // Digits of a low half where no `\u` leads them, or past a
            // high half's real neighbour: not its pair.
            (r"\ud800xxdc00", 0),
            (r"xx\ud800\u0041xxdc00", 2),
        ] {
            let bytes = raw.as_bytes();
            let start = bytes.iter().position(|&b| b == b'\\').unwrap_or(0);
            assert_eq!(read_escape(bytes, start), Err(Fault::new(Reason::LoneSurrogate, at)), "{raw}");
        }
    }

    #[test]
    fn a_unicode_escape_with_a_digit_that_is_not_hex_is_an_invalid_escape_at_its_backslash() {
        // Whatever the digit's place, and however many are not hex; checked
        // four at a time when all four are there, one by one when the input
        // ends first (a non-hex digit before the end still decides).
        let two_at_once = [r#""\uzz00""#, r#""\u0zz0""#, r#""\u00zz""#, r#""\uz00z""#];
        for text in
            [r#""\u12x4""#, r#""\uG000""#, r#""\u000g""#, r#""a\u0x"#, r#""\u1x"#].into_iter().chain(two_at_once)
        {
            let bytes = text.as_bytes();
            let at = memchr::memchr(b'\\', bytes).unwrap_or(0);
            assert_eq!(scan(bytes, 0), Err(Fault::new(Reason::InvalidEscape, at)), "{text}");
            assert_eq!(
                read_escape(bytes, at).map(|(_, len)| len),
                Err(Fault::new(Reason::InvalidEscape, at)),
                "{text}"
            );
        }
        // A low half that is not hex leaves the high one lone.
        let text = r#""\uD83D\uDE0x""#.as_bytes();
        assert_eq!(scan(text, 0), Err(Fault::new(Reason::LoneSurrogate, 1)));
        // Every hex digit, either case, reads as its value.
        assert_eq!(read_escape(br#"\uaBcD"#, 0), Ok(('\u{abcd}', 6)));
        assert_eq!(read_escape(br#"\u09Af"#, 0), Ok(('\u{9af}', 6)));
    }

    #[test]
    fn truncated_escapes_are_unexpected_end() {
        for raw in [r"\", r"\u12", r"\ud800", r"\ud800\", r"\ud800\udc"] {
            let fault = read_escape(raw.as_bytes(), 0).err().map(|f| f.reason);
            assert_eq!(fault, Some(Reason::UnexpectedEnd), "{raw}");
        }
    }

    #[test]
    fn escaped_and_plain_spellings_hash_alike() {
        assert_eq!(JsonStr::new(r#""\u006aSON\ud83d\ude00""#).hash(), JsonStr::new("\"jSON\u{1F600}\"").hash());
        // Escapes that straddle the eight-byte words of the plain spelling.
        assert_eq!(
            JsonStr::new(r#""key-\u0031234567\u00e9\u0041bcdefgh""#).hash(),
            JsonStr::new("\"key-1234567\u{e9}Abcdefgh\"").hash()
        );
        assert_ne!(JsonStr::new(r#""a""#).hash(), JsonStr::new(r#""b""#).hash());
        assert_ne!(JsonStr::new(r#""a""#).hash(), JsonStr::new(r#""a\u0000""#).hash());
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

    #[test]
    fn comparison_sees_through_escapes() {
        assert!(JsonStr::new(r#""\u006aSONrpc""#).eq_str("jSONrpc"));
        assert_eq!(JsonStr::new(r#""\u0061""#).cmp(JsonStr::new(r#""a""#)), Ordering::Equal);
        assert_eq!(JsonStr::new(r#""\u00e9""#).cmp(JsonStr::new(r#""z""#)), Ordering::Greater);
        // Escaped on either side, or both: the characters decide, not the
        // bytes (`\` sorts between `Z` and `a`).
        let (a, escaped_a, escaped_z) =
            (JsonStr::new(r#""a""#), JsonStr::new(r#""\u0061""#), JsonStr::new(r#""\u007a""#));
        assert_eq!(a.cmp(escaped_z), Ordering::Less);
        assert_eq!(a.cmp(escaped_a), Ordering::Equal);
        assert_eq!(escaped_a.cmp(escaped_z), Ordering::Less);
        for (x, y, same) in
            [(a, escaped_a, true), (escaped_a, a, true), (escaped_a, escaped_a, true), (a, escaped_z, false)]
        {
            assert_eq!(x.same_as(y), same, "{x:?} {y:?}");
        }
        // Plain text: every byte counts, not just the length and the first.
        assert!(JsonStr::new(r#""name""#).eq_str("name"));
        assert!(!JsonStr::new(r#""nope""#).eq_str("name"));
        assert!(!JsonStr::new(r#""names""#).eq_str("name"));
    }

    #[test]
    fn only_a_backslash_that_is_not_itself_escaped_starts_an_escape() {
        // `\\ud800` is an escaped backslash, then the letters `ud800`.
        assert!(surrogates_are_paired(br#""\\ud800""#));
        assert!(surrogates_are_paired(br#""\\\\ud800 \ud83d\ude00""#));
        assert!(!surrogates_are_paired(br#""\\\ud800""#));
        assert!(!surrogates_are_paired(br#""\ud800""#));
    }

    #[test]
    fn distinct_names_hash_apart() {
        // 64-bit hashes of 100 000 names: a collision would be a 1 in 3
        // billion chance with a good mix.
        let mut hashes: alloc::vec::Vec<u64> = (0..100_000)
            .map(|i| {
                let name = alloc::format!("\"member-{i}\"");
                JsonStr::new(&name).hash()
            })
            .collect();
        hashes.sort_unstable();
        hashes.dedup();
        assert_eq!(hashes.len(), 100_000);
    }
}
