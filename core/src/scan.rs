//! The core's own JSON scanner: the authority on every rejected message.
//!
//! It validates RFC 8259 exactly (as restricted by the rules: lone
//! surrogates refused, numbers of any size allowed, one depth limit) and
//! builds the same shallow tape as the backends. When a backend rejects a
//! message, this scanner decides whether it is really invalid and, if so,
//! names the first fault in document order and its offset; that is how two
//! backends give the same reason and offset for every bad input. It is
//! iterative, so depth costs heap (bounded by the depth limit), not stack.

use alloc::vec::Vec;

use crate::error::{Fault, Reason};
use crate::limits::Limits;
use crate::tape::{NodeKind, Tape, expands};
use crate::{number, string};

/// An open container during the scan.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Frame {
    object: bool,
    /// Its tape node, if its parent put it on the tape.
    node: Option<usize>,
    /// Whether its children go on the tape.
    expanded: bool,
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

fn at_end_or(bytes: &[u8], i: usize, reason: Reason) -> Fault {
    if i >= bytes.len() { Fault::new(Reason::UnexpectedEnd, bytes.len()) } else { Fault::new(reason, i) }
}

/// Scans a `true`, `false` or `null` at `at`.
fn scan_literal(bytes: &[u8], at: usize) -> Result<(NodeKind, usize), Fault> {
    let (word, kind): (&[u8], _) = match bytes.get(at) {
        Some(b't') => (b"true", NodeKind::True),
        Some(b'f') => (b"false", NodeKind::False),
        _ => (b"null", NodeKind::Null),
    };
    let end = at + word.len();
    let found = bytes.get(at..end.min(bytes.len())).unwrap_or_default();
    if found != word {
        // A prefix cut short by the end of input is a truncation.
        return Err(if word.starts_with(found) && end > bytes.len() {
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

/// Validates `text` as one JSON value under `limits` and fills `tape`.
pub(crate) fn scan(text: &str, limits: &Limits, tape: &mut Tape, stack: &mut Vec<Frame>) -> Result<(), Fault> {
    tape.clear();
    stack.clear();
    let bytes = text.as_bytes();
    let mut i = skip_whitespace(bytes, 0);
    let top_is_array = bytes.get(i) == Some(&b'[');

    'value: loop {
        // A value starts at `i` (whitespace skipped).
        let parent_expanded = stack.last().is_none_or(|f| f.expanded);
        match bytes.get(i) {
            None => return Err(Fault::new(Reason::UnexpectedEnd, bytes.len())),
            Some(&open @ (b'{' | b'[')) => {
                let level = stack.len() + 1;
                if level > limits.max_depth {
                    return Err(Fault::new(Reason::TooDeep, i));
                }
                let object = open == b'{';
                let kind = if object { NodeKind::Object } else { NodeKind::Array };
                let expanded = parent_expanded && expands(level, top_is_array);
                let node = parent_expanded.then(|| tape.open(kind, i, expanded));
                stack.push(Frame { object, node, expanded });
                i = skip_whitespace(bytes, i + 1);
                let close = if object { b'}' } else { b']' };
                if bytes.get(i) != Some(&close) {
                    if object {
                        i = scan_member_name(bytes, i, expanded, tape)?;
                    }
                    continue 'value;
                }
                // Empty container: fall through to the closing loop below.
            }
            Some(b'"') => {
                let end = string::scan(bytes, i)?;
                if parent_expanded {
                    tape.leaf(NodeKind::String, i, end);
                }
                i = end;
            }
            Some(b'-' | b'0'..=b'9') => {
                let end = number::scan(bytes, i)?;
                if parent_expanded {
                    tape.leaf(NodeKind::Number, i, end);
                }
                i = end;
            }
            Some(b't' | b'f' | b'n') => {
                let (kind, end) = scan_literal(bytes, i)?;
                if parent_expanded {
                    tape.leaf(kind, i, end);
                }
                i = end;
            }
            Some(_) => return Err(Fault::new(Reason::ExpectedValue, i)),
        }

        // After a value, or at the closing bracket of an empty container:
        // close containers until one continues with a comma.
        loop {
            i = skip_whitespace(bytes, i);
            let Some(frame) = stack.last().copied() else {
                if i < bytes.len() {
                    return Err(Fault::new(Reason::TrailingCharacters, i));
                }
                return Ok(());
            };
            let close = if frame.object { b'}' } else { b']' };
            match bytes.get(i) {
                Some(b',') => {
                    i = skip_whitespace(bytes, i + 1);
                    if frame.object {
                        i = scan_member_name(bytes, i, frame.expanded, tape)?;
                    }
                    continue 'value;
                }
                Some(&b) if b == close => {
                    stack.pop();
                    if let Some(node) = frame.node {
                        tape.close(node, i + 1);
                    }
                    i += 1;
                }
                _ => return Err(at_end_or(bytes, i, Reason::ExpectedCommaOrEnd)),
            }
        }
    }
}

/// Scans `"name" :` at `i`; returns where the value starts.
#[inline(always)]
fn scan_member_name(bytes: &[u8], i: usize, expanded: bool, tape: &mut Tape) -> Result<usize, Fault> {
    if bytes.get(i) != Some(&b'"') {
        return Err(at_end_or(bytes, i, Reason::ExpectedMemberName));
    }
    let end = string::scan(bytes, i)?;
    if expanded {
        tape.leaf(NodeKind::String, i, end);
    }
    let colon = skip_whitespace(bytes, end);
    if bytes.get(colon) != Some(&b':') {
        return Err(at_end_or(bytes, colon, Reason::ExpectedColon));
    }
    Ok(skip_whitespace(bytes, colon + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fault(text: &str) -> Option<Fault> {
        scan(text, &Limits::new(), &mut Tape::default(), &mut Vec::new()).err()
    }

    #[test]
    fn first_fault_in_document_order_is_reported() {
        for (text, reason, at) in [
            ("{\"a\" 1}", Reason::ExpectedColon, 5),
            ("{\"a\":1,}", Reason::ExpectedMemberName, 7),
            ("[1,]", Reason::ExpectedValue, 3),
            ("[1 2]", Reason::ExpectedCommaOrEnd, 3),
            ("{} {}", Reason::TrailingCharacters, 3),
            ("{\"a\":tru", Reason::UnexpectedEnd, 8),
            ("[trux]", Reason::InvalidLiteral, 1),
            ("[truex]", Reason::InvalidLiteral, 1),
            ("[\"a\u{1}\"]", Reason::ControlCharacter, 3),
            ("[\"\\x\"]", Reason::InvalidEscape, 2),
            ("{\"a\":[", Reason::UnexpectedEnd, 6),
        ] {
            assert_eq!(fault(text), Some(Fault::new(reason, at)), "{text:?}");
        }
    }

    #[test]
    fn empty_containers_close() {
        assert_eq!(fault("{\"a\":[],\"b\":{},\"c\":[{}]}"), None);
    }
}
