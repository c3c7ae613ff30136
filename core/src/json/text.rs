//! Validated JSON string text: compared, decoded and hashed without
//! allocating where no escape needs it.

use alloc::borrow::Cow;
use alloc::string::String;
use core::cmp::Ordering;

use crate::json::escape::read_escape;
use crate::json::string::has_backslash;
use crate::span;

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
    // once stopped inlining it.
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
        while let Some(found) = memchr::memchr(b'\\', span::from(bytes, at)) {
            let slash = at + found;
            decoded.push_str(span::text(self.inner, at..slash));
            // Validated input: a bad escape here would be a bug upstream, and
            // ends the string rather than panicking (as `chars` does).
            let Ok((c, len)) = read_escape(bytes, slash) else {
                return decoded;
            };
            decoded.push(c);
            at = slash + len;
        }
        decoded.push_str(span::text(self.inner, at..self.inner.len()));
        decoded
    }

    /// The text between the quotes of a validated string, and whether it
    /// holds a backslash (when the caller knows already).
    #[inline]
    pub(crate) fn from_inner(inner: &'a str, escaped: bool) -> JsonStr<'a> {
        JsonStr { inner, escaped }
    }

    /// The place in `wanted` (names without backslashes) of the one this
    /// escaped name stands for; `None` for a name without escapes, which
    /// its bytes have already told apart.
    pub(crate) fn escaped_slot(self, wanted: &[&str]) -> Option<usize> {
        if !self.escaped {
            return None;
        }
        wanted.iter().position(|w| self.eq_str(w))
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
