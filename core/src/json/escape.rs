//! JSON escapes: what each stands for, how many bytes it takes, and the
//! project's rule on `\u` escapes (see the rules, section 1): a high
//! surrogate must be followed at once by a `\u` low surrogate, and a low
//! surrogate may not stand alone. serde_json does not check this in values
//! it skips, so the core checks it for every backend.

use crate::fault::{Fault, Reason};
use crate::span;

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
    Some(((a * 16 + b) * 16 + c) * 16 + d)
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
pub(crate) fn escape_len(bytes: &[u8], at: usize) -> Result<usize, Fault> {
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
        let before = span::within(raw, 0..at);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::string::scan;
    use crate::json::text::JsonStr;

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
    fn only_a_backslash_that_is_not_itself_escaped_starts_an_escape() {
        // `\\ud800` is an escaped backslash, then the letters `ud800`.
        assert!(surrogates_are_paired(br#""\\ud800""#));
        assert!(surrogates_are_paired(br#""\\\\ud800 \ud83d\ude00""#));
        assert!(!surrogates_are_paired(br#""\\\ud800""#));
        assert!(!surrogates_are_paired(br#""\ud800""#));
    }
}
