//! The JSON grammar every stage shares: whitespace, literals, member
//! names, and the validating walk over a container ([`skip_container`]),
//! which gives every fault the reference backend's tape-building loop
//! ([`crate::backend::Reference`]) would give, at the same offset (a test
//! there holds the two loops to it). Iterative, so depth costs heap
//! (bounded by the depth limit), not stack.

use alloc::vec::Vec;

use super::NodeKind;
use crate::fault::{Fault, Reason};
use crate::json::{number, string};
use crate::limits::Limits;

/// An open container during the scan.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Frame {
    pub(crate) object: bool,
    /// Its tape node (the reference backend's containers; unused by
    /// [`skip_container`]).
    pub(crate) node: usize,
}

#[inline]
pub(crate) fn is_whitespace(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r')
}

#[inline]
pub(crate) fn skip_whitespace(bytes: &[u8], mut i: usize) -> usize {
    while bytes.get(i).copied().is_some_and(is_whitespace) {
        i += 1;
    }
    i
}

pub(crate) fn at_end_or(bytes: &[u8], i: usize, reason: Reason) -> Fault {
    if i >= bytes.len() { Fault::new(Reason::UnexpectedEnd, bytes.len()) } else { Fault::new(reason, i) }
}

/// Scans a `true`, `false` or `null` at `at`.
pub(crate) fn scan_literal(bytes: &[u8], at: usize) -> Result<(NodeKind, usize), Fault> {
    let (word, kind): (&[u8], _) = match bytes.get(at) {
        Some(b't') => (b"true", NodeKind::True),
        Some(b'f') => (b"false", NodeKind::False),
        _ => (b"null", NodeKind::Null),
    };
    let end = at + word.len();
    let found = bytes.get(at..end.min(bytes.len())).unwrap_or_default();
    if found != word {
        // A prefix cut short by the end of input is a truncation (shorter
        // than the word, so the input ended inside it).
        return Err(if word.starts_with(found) {
            Fault::new(Reason::UnexpectedEnd, bytes.len())
        } else {
            Fault::new(Reason::InvalidLiteral, at)
        });
    }
    if bytes.get(end).is_some_and(u8::is_ascii_alphanumeric) {
        return Err(Fault::new(Reason::InvalidLiteral, at));
    }
    Ok((kind, end))
}

/// The container opening at `at`, at nesting `level`, none of whose
/// contents go on the tape: the reference backend's grammar without the
/// tape, giving every fault its loop would give, at the same offset.
/// Returns the offset one past the container. Its open containers go on
/// `stack` above the caller's own.
pub(crate) fn skip_container(
    bytes: &[u8],
    at: usize,
    level: usize,
    limits: &Limits,
    stack: &mut Vec<Frame>,
) -> Result<usize, Fault> {
    let base = stack.len();
    let mut i = at;
    'value: loop {
        match bytes.get(i) {
            None => return Err(Fault::new(Reason::UnexpectedEnd, bytes.len())),
            Some(&open @ (b'{' | b'[')) => {
                if level + (stack.len() - base) > limits.max_depth {
                    return Err(Fault::new(Reason::TooDeep, i));
                }
                let object = open == b'{';
                stack.push(Frame { object, node: usize::MAX });
                i = skip_whitespace(bytes, i + 1);
                let close = if object { b'}' } else { b']' };
                if bytes.get(i) != Some(&close) {
                    if object {
                        i = member_name(bytes, i)?.1;
                    }
                    continue 'value;
                }
            }
            Some(b'"') => i = string::scan(bytes, i)?,
            Some(b'-' | b'0'..=b'9') => i = number::scan(bytes, i)?,
            Some(b't' | b'f' | b'n') => i = scan_literal(bytes, i)?.1,
            Some(_) => return Err(Fault::new(Reason::ExpectedValue, i)),
        }
        loop {
            i = skip_whitespace(bytes, i);
            let object = stack.last().is_some_and(|f| f.object);
            let close = if object { b'}' } else { b']' };
            match bytes.get(i) {
                Some(b',') => {
                    i = skip_whitespace(bytes, i + 1);
                    if object {
                        i = member_name(bytes, i)?.1;
                    }
                    continue 'value;
                }
                Some(&b) if b == close => {
                    stack.pop();
                    i += 1;
                    if stack.len() <= base {
                        return Ok(i);
                    }
                }
                _ => return Err(at_end_or(bytes, i, Reason::ExpectedCommaOrEnd)),
            }
        }
    }
}

/// Scans `"name" :` at `i`; returns where the name ends and where the value
/// starts.
#[inline(always)]
pub(crate) fn member_name(bytes: &[u8], i: usize) -> Result<(usize, usize), Fault> {
    if bytes.get(i) != Some(&b'"') {
        return Err(at_end_or(bytes, i, Reason::ExpectedMemberName));
    }
    let end = string::scan(bytes, i)?;
    let colon = skip_whitespace(bytes, end);
    if bytes.get(colon) != Some(&b':') {
        return Err(at_end_or(bytes, colon, Reason::ExpectedColon));
    }
    Ok((end, skip_whitespace(bytes, colon + 1)))
}

/// Validates `text` as one JSON value under `limits`, building nothing:
/// the faults and offsets the reference backend gives (a test holds the
/// two to it), for [`check_json`](crate::check_json).
pub(crate) fn validate(text: &str, limits: &Limits) -> Result<(), Fault> {
    let bytes = text.as_bytes();
    let i = skip_whitespace(bytes, 0);
    let end = match bytes.get(i) {
        None => return Err(Fault::new(Reason::UnexpectedEnd, bytes.len())),
        Some(b'{' | b'[') => skip_container(bytes, i, 1, limits, &mut Vec::new())?,
        Some(b'"') => string::scan(bytes, i)?,
        Some(b'-' | b'0'..=b'9') => number::scan(bytes, i)?,
        Some(b't' | b'f' | b'n') => scan_literal(bytes, i)?.1,
        Some(_) => return Err(Fault::new(Reason::ExpectedValue, i)),
    };
    let after = skip_whitespace(bytes, end);
    if after < bytes.len() { Err(Fault::new(Reason::TrailingCharacters, after)) } else { Ok(()) }
}
