//! JSON numbers: RFC 8259's grammar, and the exact integer a number stands for.
//!
//! Numbers in payloads are only checked against the grammar, never
//! converted, so `1e400` and 40-digit integers pass through untouched. Only
//! `id` and `error.code` are read as integers, exactly (no floating point):
//! `1.0`, `1e2` and `-0` are integers, `1.5` and `1e19` are not.

use crate::fault::{Fault, Reason};
use crate::span;

/// The offset of the first byte from `i` that is no digit (or the end):
/// eight bytes at a time, for long digit strings, where a byte loop spends
/// four or five instructions a digit. The byte at `i` is looked at alone
/// first: most numbers end there (`1e400`, a one-digit id), and a word's
/// load, test and bit count would lie on the path to the next value
/// (docs/benchmarks.md, "Why the code is as it is").
#[inline]
fn skip_digits(bytes: &[u8], mut i: usize) -> usize {
    if !bytes.get(i).is_some_and(u8::is_ascii_digit) {
        return i;
    }
    while let Some(word) = bytes.get(i..i + 8).and_then(|w| <[u8; 8]>::try_from(w).ok()) {
        let not_digits = not_digits(u64::from_le_bytes(word));
        if not_digits != 0 {
            return i + (not_digits.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    let rest = span::from(bytes, i);
    i + rest.iter().position(|b| !b.is_ascii_digit()).unwrap_or(rest.len())
}

/// The high bit of each byte of `word` (little-endian) that is no ASCII
/// digit; the lowest one set marks the first such byte exactly. Each byte
/// less `0` is a digit when under 10: adding 118 sets its high bit past 9,
/// and the byte's own high bit marks one that was under `0` or past 127. A
/// carry only runs upward, past a byte already marked, so the bytes below
/// the first mark are read as they are.
#[inline(always)]
fn not_digits(word: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let offset = word.wrapping_sub(ONES * u64::from(b'0'));
    (offset | offset.wrapping_add(ONES * 118)) & HIGHS
}

/// The digits of a fraction or an exponent, a byte at a time: these runs
/// are short, and a predicted byte loop puts one addition a digit on the
/// path to the next value where a word test puts a load, its test and a
/// bit count (docs/benchmarks.md, "Why the code is as it is"). Not
/// `skip_digits` itself: called from here too, that one is no longer
/// inlined into the walk.
#[inline(always)]
fn skip_short_digits(bytes: &[u8], mut i: usize) -> usize {
    while bytes.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    i
}

/// A digit must be at `i`: the fault if not.
#[inline]
fn need_digit(bytes: &[u8], i: usize) -> Result<(), Fault> {
    match bytes.get(i) {
        Some(b) if b.is_ascii_digit() => Ok(()),
        Some(_) => Err(Fault::new(Reason::InvalidNumber, i)),
        None => Err(Fault::new(Reason::UnexpectedEnd, bytes.len())),
    }
}

/// Scans the number starting at `at` (a `-` or a digit); returns the offset
/// one past it. A byte that would continue a number but breaks the grammar
/// (`01`, `1.`, `1e`, `1.2.3`) is an `invalid-number` fault at that byte.
#[inline]
pub(crate) fn scan(bytes: &[u8], at: usize) -> Result<usize, Fault> {
    let mut i = at;
    if bytes.get(i) == Some(&b'-') {
        i += 1;
    }
    need_digit(bytes, i)?;
    i = if bytes.get(i) == Some(&b'0') { i + 1 } else { skip_digits(bytes, i + 1) };
    // The usual number is an integer: one look at the byte after it.
    match bytes.get(i) {
        Some(b'.' | b'e' | b'E') => scan_fraction_and_exponent(bytes, i),
        Some(b'0'..=b'9' | b'+' | b'-') => Err(Fault::new(Reason::InvalidNumber, i)),
        _ => Ok(i),
    }
}

/// The rest of a number from its `.` or exponent. Never inlined: kept out
/// of the walk, where most numbers are integers.
#[inline(never)]
fn scan_fraction_and_exponent(bytes: &[u8], mut i: usize) -> Result<usize, Fault> {
    if bytes.get(i) == Some(&b'.') {
        need_digit(bytes, i + 1)?;
        i = skip_short_digits(bytes, i + 1);
    }
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(bytes.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        need_digit(bytes, i)?;
        i = skip_short_digits(bytes, i);
    }
    match bytes.get(i) {
        Some(b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-') => Err(Fault::new(Reason::InvalidNumber, i)),
        _ => Ok(i),
    }
}

/// The integer a valid JSON number stands for, if it is one and fits in
/// `i64`. Linear in the length of the text, whatever its exponent.
pub(crate) fn integer(bytes: &[u8]) -> Option<i64> {
    // Fast path: plain digits, short enough not to overflow (the usual id),
    // read in one loop that gives up at the first other byte.
    let digits = bytes.strip_prefix(b"-").unwrap_or(bytes);
    if (1..=18).contains(&digits.len()) {
        let plain = digits.iter().try_fold(0i64, |n, &d| {
            let digit = d.wrapping_sub(b'0');
            d.is_ascii_digit().then(|| n * 10 + i64::from(digit))
        });
        if let Some(magnitude) = plain {
            return Some(if digits.len() < bytes.len() { -magnitude } else { magnitude });
        }
    }
    integer_in_full(bytes)
}

/// [`integer`] for what the short path does not read: fractions,
/// exponents, long digit strings. Out of line, so the short path saves no
/// registers for it.
#[cold]
#[inline(never)]
fn integer_in_full(bytes: &[u8]) -> Option<i64> {
    let (negative, unsigned) = match bytes.split_first() {
        Some((b'-', rest)) => (true, rest),
        _ => (false, bytes),
    };
    let mantissa_end = unsigned.iter().position(|&b| b == b'e' || b == b'E').unwrap_or(unsigned.len());
    let (mantissa, exponent) = unsigned.split_at(mantissa_end);
    let (int_digits, frac_digits) = match mantissa.iter().position(|&b| b == b'.') {
        Some(dot) => (mantissa.get(..dot)?, mantissa.get(dot + 1..)?),
        None => (mantissa, &[][..]),
    };
    let exponent = parse_exponent(exponent.get(1..).unwrap_or_default());

    // value = digits * 10^scale, with digits = int_digits ++ frac_digits.
    let digits = int_digits.iter().chain(frac_digits).copied();
    let first_nonzero = digits.clone().position(|d| d != b'0');
    let Some(first_nonzero) = first_nonzero else {
        return Some(0); // 0, -0, 0.000, 0e999
    };
    let total = int_digits.len() + frac_digits.len();
    let trailing_zeros = digits.clone().rev().take_while(|&d| d == b'0').count();
    let significant = total - first_nonzero - trailing_zeros;
    // Exponent of the last significant digit: saturating, since an exponent
    // of any length is valid JSON.
    let scale = exponent
        .saturating_sub(i64::try_from(frac_digits.len()).unwrap_or(i64::MAX))
        .saturating_add(i64::try_from(trailing_zeros).unwrap_or(i64::MAX));
    if scale < 0 {
        return None; // a nonzero digit after the point
    }
    // i64 has at most 19 decimal digits.
    let width = i64::try_from(significant).ok()?.checked_add(scale)?;
    if width > 19 {
        return None;
    }
    let mut magnitude: i128 = 0;
    for d in digits.skip(first_nonzero).take(significant) {
        magnitude = magnitude * 10 + i128::from(d - b'0');
    }
    for _ in 0..scale {
        magnitude *= 10;
    }
    i64::try_from(if negative { -magnitude } else { magnitude }).ok()
}

/// A decimal exponent with optional sign, saturated to a range no JSON
/// number can escape from.
fn parse_exponent(bytes: &[u8]) -> i64 {
    const CAP: i64 = 1 << 40;
    let (negative, digits) = match bytes.split_first() {
        Some((b'-', rest)) => (true, rest),
        Some((b'+', rest)) => (false, rest),
        _ => (false, bytes),
    };
    let mut value: i64 = 0;
    for &d in digits {
        value = (value * 10 + i64::from(d - b'0')).min(CAP);
    }
    if negative { -value } else { value }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    #[test]
    fn digits_end_at_the_first_byte_that_is_no_digit_whatever_it_is_and_wherever() {
        // Every byte value at every place of runs long and short, with
        // digits before it (and after it, which must not matter): the word
        // at a time gives what a byte at a time gives, for an integer part
        // and for a fraction's or exponent's digits.
        for len in [0, 1, 7, 8, 9, 15, 16, 17, 40] {
            for at in 0..=len {
                for byte in 0..=u8::MAX {
                    let mut text: Vec<u8> = (0..len + 9).map(|i| b'0' + (i % 10) as u8).collect();
                    if let Some(b) = text.get_mut(at) {
                        *b = byte;
                    }
                    text.truncate(len + 1);
                    let expected = text.iter().position(|b| !b.is_ascii_digit()).unwrap_or(text.len());
                    assert_eq!(skip_digits(&text, 0), expected, "{byte:#x} at {at} of {len}");
                    assert_eq!(skip_short_digits(&text, 0), expected, "short: {byte:#x} at {at} of {len}");
                }
            }
        }
    }

    #[test]
    fn integral_forms_are_integers() {
        for (text, value) in [
            ("1", 1),
            ("-5", -5),
            ("1.0", 1),
            ("1e2", 100),
            ("-0", 0),
            ("0e999999999999999999999", 0),
            ("12.50e1", 125),
            ("1000e-3", 1),
            ("9223372036854775807", i64::MAX),
            ("-9223372036854775808", i64::MIN),
            ("92233720368547758.07e2", i64::MAX),
            // The short path reads up to 18 digits; any other byte hands the
            // text to the long one.
            ("123456789012345678", 123_456_789_012_345_678),
            ("-999999999999999999", -999_999_999_999_999_999),
            ("9999999999999.5e1", 99_999_999_999_995),
            // An exponent's sign may be written out.
            ("1e+2", 100),
            ("-15E+1", -150),
            // Zeros before the first significant digit take no width: this
            // is 19 significant digits, the most an i64 holds.
            ("0.1234567890123456789e19", 1_234_567_890_123_456_789),
            ("0.00000000000000000001e20", 1),
        ] {
            assert_eq!(integer(text.as_bytes()), Some(value), "{text}");
        }
    }

    #[test]
    fn fractions_and_overflows_are_not_integers() {
        for text in [
            "1.5",
            "1e19",
            "9223372036854775808",
            "-9223372036854775809",
            "1e-1",
            "1e400",
            "0.1e1000000000000000000000000",
        ] {
            assert_eq!(integer(text.as_bytes()), None, "{text}");
        }
    }

    #[test]
    fn grammar_faults_point_at_the_offending_byte() {
        for (text, reason, at) in [
            ("01", Reason::InvalidNumber, 1),
            ("1.", Reason::UnexpectedEnd, 2),
            ("1.x", Reason::InvalidNumber, 2),
            ("-", Reason::UnexpectedEnd, 1),
            ("-a", Reason::InvalidNumber, 1),
            ("1e+", Reason::UnexpectedEnd, 3),
            ("1.2.3", Reason::InvalidNumber, 3),
        ] {
            assert_eq!(scan(text.as_bytes(), 0), Err(Fault::new(reason, at)), "{text}");
        }
        assert_eq!(scan(b"-12.5e+3]", 0), Ok(8));
    }
}
