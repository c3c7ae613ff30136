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

use crate::error::{Fault, Reason};

fn hex_digit(byte: u8) -> Option<u32> {
    char::from(byte).to_digit(16)
}

/// The four hex digits at `at..at + 4`, or the fault: `unexpected-end` if the
/// input stops first, `invalid-escape` (at `escape`) if one is not hex.
fn hex4(bytes: &[u8], at: usize, escape: usize) -> Result<u32, Fault> {
    let mut value = 0;
    for i in at..at + 4 {
        let Some(&byte) = bytes.get(i) else {
            return Err(Fault::new(Reason::UnexpectedEnd, bytes.len()));
        };
        let Some(digit) = hex_digit(byte) else {
            return Err(Fault::new(Reason::InvalidEscape, escape));
        };
        value = value * 16 + digit;
    }
    Ok(value)
}

/// Reads the escape sequence whose backslash is at `at`: the character it
/// stands for and how many bytes it takes (2, 6, or 12 for a surrogate pair).
/// Faults are placed at the backslash, or at the end of input if it stops
/// inside the sequence.
pub(crate) fn read_escape(bytes: &[u8], at: usize) -> Result<(char, usize), Fault> {
    let Some(&letter) = bytes.get(at + 1) else {
        return Err(Fault::new(Reason::UnexpectedEnd, bytes.len()));
    };
    let simple = match letter {
        b'"' => '"',
        b'\\' => '\\',
        b'/' => '/',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        b'u' => return read_unicode_escape(bytes, at),
        _ => return Err(Fault::new(Reason::InvalidEscape, at)),
    };
    Ok((simple, 2))
}

fn read_unicode_escape(bytes: &[u8], at: usize) -> Result<(char, usize), Fault> {
    let unit = hex4(bytes, at + 2, at)?;
    match unit {
        0xD800..=0xDBFF => {
            // A high surrogate needs `\uDC00`..`\uDFFF` right after it.
            let lone = Fault::new(Reason::LoneSurrogate, at);
            match (bytes.get(at + 6), bytes.get(at + 7)) {
                (None, _) | (Some(b'\\'), None) => Err(Fault::new(Reason::UnexpectedEnd, bytes.len())),
                (Some(b'\\'), Some(b'u')) => {
                    let low = match hex4(bytes, at + 8, at + 6) {
                        Ok(low) => low,
                        Err(fault) if fault.reason == Reason::UnexpectedEnd => return Err(fault),
                        Err(_) => return Err(lone),
                    };
                    if !(0xDC00..=0xDFFF).contains(&low) {
                        return Err(lone);
                    }
                    let scalar = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
                    char::from_u32(scalar).map(|c| (c, 12)).ok_or(lone)
                }
                _ => Err(lone),
            }
        }
        0xDC00..=0xDFFF => Err(Fault::new(Reason::LoneSurrogate, at)),
        _ => char::from_u32(unit).map(|c| (c, 6)).ok_or(Fault::new(Reason::InvalidEscape, at)),
    }
}

/// Scans the string whose opening quote is at `at`; returns the offset one
/// past its closing quote. Checks control characters and every escape.
/// The input is known to be UTF-8, so other bytes need no check.
pub(crate) fn scan(bytes: &[u8], at: usize) -> Result<usize, Fault> {
    let mut i = at + 1;
    loop {
        // Jump to the next quote or backslash; control characters are rare,
        // so they are looked for only in the stretch jumped over.
        let rest = bytes.get(i..).unwrap_or_default();
        let stop = memchr::memchr2(b'"', b'\\', rest).map(|n| i + n);
        let stretch = bytes.get(i..stop.unwrap_or(bytes.len())).unwrap_or_default();
        if let Some(n) = stretch.iter().position(|&b| b < 0x20) {
            return Err(Fault::new(Reason::ControlCharacter, i + n));
        }
        let Some(stop) = stop else {
            return Err(Fault::new(Reason::UnexpectedEnd, bytes.len()));
        };
        if bytes.get(stop) == Some(&b'"') {
            return Ok(stop + 1);
        }
        let (_, len) = read_escape(bytes, stop)?;
        i = stop + len;
    }
}

/// Whether `bytes` holds a backslash. Envelope strings are short, and below
/// a few dozen bytes a plain loop beats memchr's set-up.
#[inline]
fn has_backslash(bytes: &[u8]) -> bool {
    if bytes.len() < 32 { bytes.contains(&b'\\') } else { memchr::memchr(b'\\', bytes).is_some() }
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
    pub(crate) fn decode(self) -> Cow<'a, str> {
        if self.escaped { Cow::Owned(self.chars().collect::<String>()) } else { Cow::Borrowed(self.inner) }
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

    /// A hash of the decoded text (FNV-1a over its UTF-8): equal strings,
    /// however escaped, hash alike.
    pub(crate) fn hash(self) -> u64 {
        const PRIME: u64 = 0x0000_0100_0000_01B3;
        let step = |h: u64, b: u8| (h ^ u64::from(b)).wrapping_mul(PRIME);
        let mut h: u64 = 0xCBF2_9CE4_8422_2325;
        if self.escaped {
            let mut utf8 = [0u8; 4];
            for c in self.chars() {
                h = c.encode_utf8(&mut utf8).bytes().fold(h, step);
            }
        } else {
            h = self.inner.bytes().fold(h, step);
        }
        h
    }

    pub(crate) fn cmp(self, other: JsonStr<'_>) -> Ordering {
        if !self.escaped && !other.escaped {
            // Byte order of UTF-8 is code point order, as for chars.
            return self.inner.cmp(other.inner);
        }
        self.chars().cmp(other.chars())
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

    #[test]
    fn escapes_decode_to_their_characters() {
        let s = JsonStr::new(r#""a\n\u0041\ud83d\ude00\/""#);
        assert_eq!(s.decode(), "a\nA\u{1F600}/");
    }

    #[test]
    fn lone_surrogates_are_faults_at_the_backslash() {
        for (raw, at) in [(r#"\ud800""#, 0), (r"x\udc00", 1), (r"\ud800\u0041", 0), (r"\ud800\n", 0)] {
            let bytes = raw.as_bytes();
            let start = bytes.iter().position(|&b| b == b'\\').unwrap_or(0);
            assert_eq!(read_escape(bytes, start), Err(Fault::new(Reason::LoneSurrogate, at)), "{raw}");
        }
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
        assert_ne!(JsonStr::new(r#""a""#).hash(), JsonStr::new(r#""b""#).hash());
    }

    #[test]
    fn comparison_sees_through_escapes() {
        assert!(JsonStr::new(r#""\u006aSONrpc""#).eq_str("jSONrpc"));
        assert_eq!(JsonStr::new(r#""\u0061""#).cmp(JsonStr::new(r#""a""#)), Ordering::Equal);
        assert_eq!(JsonStr::new(r#""\u00e9""#).cmp(JsonStr::new(r#""z""#)), Ordering::Greater);
    }
}
