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

use crate::fault::{Fault, Reason};
use crate::json::{number, string};
use crate::limits::Limits;
use crate::tape::{NodeKind, Tape, expands};

/// An open container during the scan.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Frame {
    object: bool,
    /// Its tape node ([`scan`]'s containers; unused by [`skip_container`]).
    node: usize,
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

/// Validates `text` as one JSON value under `limits` and fills `tape`.
///
/// Every value this loop reaches goes on the tape. A container whose
/// contents do not (a payload below the levels the rules read) gets its
/// node and is then validated whole by [`skip_container`], so only the
/// expanded levels, at most three, are ever open here.
pub(crate) fn scan(text: &str, limits: &Limits, tape: &mut Tape, stack: &mut Vec<Frame>) -> Result<(), Fault> {
    tape.clear();
    stack.clear();
    let bytes = text.as_bytes();
    let i = skip_whitespace(bytes, 0);
    // One loop for batches, one for the rest: a single message's loop
    // carries none of the batch's bookkeeping.
    if bytes.get(i) == Some(&b'[') {
        scan_from::<true>(bytes, i, limits, tape, stack)
    } else {
        scan_from::<false>(bytes, i, limits, tape, stack)
    }
}

/// [`scan`] from the first value at `i`; `BATCH` says whether it is an
/// array.
fn scan_from<const BATCH: bool>(
    bytes: &[u8],
    mut i: usize,
    limits: &Limits,
    tape: &mut Tape,
    stack: &mut Vec<Frame>,
) -> Result<(), Fault> {
    let top_is_array = BATCH;

    'value: loop {
        // A value starts at `i` (whitespace skipped).
        match bytes.get(i) {
            None => return Err(Fault::new(Reason::UnexpectedEnd, bytes.len())),
            Some(&open @ (b'{' | b'[')) => {
                let level = stack.len() + 1;
                if level > limits.max_depth {
                    return Err(Fault::new(Reason::TooDeep, i));
                }
                let object = open == b'{';
                let kind = if object { NodeKind::Object } else { NodeKind::Array };
                let expanded = expands(level, top_is_array);
                let node = tape.open_in::<BATCH>(kind, i, expanded);
                if !expanded {
                    i = skip_container(bytes, i, level, limits, stack)?;
                    tape.close_in::<BATCH>(node, i);
                } else {
                    stack.push(Frame { object, node });
                    i = skip_whitespace(bytes, i + 1);
                    let close = if object { b'}' } else { b']' };
                    if bytes.get(i) != Some(&close) {
                        if object {
                            i = member_name_on_tape::<BATCH>(bytes, i, tape)?;
                        }
                        continue 'value;
                    }
                    // Empty container: fall through to the closing loop below.
                }
            }
            Some(b'"') => {
                let end = string::scan(bytes, i)?;
                tape.leaf_in::<BATCH>(NodeKind::String, i, end);
                i = end;
            }
            Some(b'-' | b'0'..=b'9') => {
                let end = number::scan(bytes, i)?;
                tape.leaf_in::<BATCH>(NodeKind::Number, i, end);
                i = end;
            }
            Some(b't' | b'f' | b'n') => {
                let (kind, end) = scan_literal(bytes, i)?;
                tape.leaf_in::<BATCH>(kind, i, end);
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
                        i = member_name_on_tape::<BATCH>(bytes, i, tape)?;
                    }
                    continue 'value;
                }
                Some(&b) if b == close => {
                    stack.pop();
                    tape.close_in::<BATCH>(frame.node, i + 1);
                    i += 1;
                }
                _ => return Err(at_end_or(bytes, i, Reason::ExpectedCommaOrEnd)),
            }
        }
    }
}

/// The container opening at `at`, at nesting `level`, none of whose
/// contents go on the tape: [`scan`]'s grammar without the tape, giving
/// every fault [`scan`]'s own loop would give, at the same offset (a test
/// holds the two loops to it). Returns the offset one past the container.
/// Its open containers go on `stack` above [`scan`]'s own.
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
fn member_name(bytes: &[u8], i: usize) -> Result<(usize, usize), Fault> {
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

/// [`member_name`], with the name put on the tape.
#[inline(always)]
fn member_name_on_tape<const BATCH: bool>(bytes: &[u8], i: usize, tape: &mut Tape) -> Result<usize, Fault> {
    let (end, value) = member_name(bytes, i)?;
    tape.leaf_in::<BATCH>(NodeKind::String, i, end);
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fault(text: &str) -> Option<Fault> {
        scan(text, &Limits::new(), &mut Tape::default(), &mut Vec::new()).err()
    }

    /// Seeds and every one-byte edit of them: deletions, truncations, and
    /// each position replaced by a byte that matters to the grammar.
    fn edited_documents() -> Vec<Vec<u8>> {
        let seeds: [&[u8]; 4] = [
            br#"{"a":{"b":[1,-2.5e3,true,false,null,"x\u0041y"],"c":{}},"d":[[],[{}]]}"#,
            br#"[{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"hi"}],"x":{"y":[0]}}}, 7]"#,
            br#" { "p" : [ { "q" : [ 1 , 2 ] } , "r" ] , "s" : { "t" : { "u" : null } } } "#,
            br#"[[[[[["deep"]]]]],{"k":{"l":{"m":{"n":1}}}}]"#,
        ];
        let alphabet = b"{}[]\",: -0.eatfnu\\\n\x01";
        let mut out = Vec::new();
        for seed in seeds {
            out.push(seed.to_vec());
            for at in 0..seed.len() {
                out.push(seed[..at].to_vec());
                out.push([&seed[..at], &seed[at + 1..]].concat());
                for &b in alphabet {
                    let mut edited = seed.to_vec();
                    edited[at] = b;
                    out.push(edited);
                }
            }
        }
        out
    }

    #[test]
    fn skipping_a_payload_gives_the_faults_the_tape_building_loop_gives() {
        // `scan` builds the tape for the first levels and hands deeper
        // containers to `skip_container`; running `skip_container` over the
        // whole document must agree with it on every verdict, fault and
        // offset (trailing text aside, which only `scan` looks at).
        let mut compared = 0;
        for text in edited_documents() {
            let Ok(text) = core::str::from_utf8(&text) else { continue };
            let bytes = text.as_bytes();
            let first = skip_whitespace(bytes, 0);
            if !matches!(bytes.get(first), Some(b'{' | b'[')) {
                continue;
            }
            for max_depth in [1, 2, 3, 4, 128] {
                let limits = Limits::new().with_max_depth(max_depth);
                let scanned = scan(text, &limits, &mut Tape::default(), &mut Vec::new());
                let skipped = skip_container(bytes, first, 1, &limits, &mut Vec::new());
                let expected = match skipped {
                    Err(fault) => Err(fault),
                    Ok(end) => {
                        let after = skip_whitespace(bytes, end);
                        if after < bytes.len() { Err(Fault::new(Reason::TrailingCharacters, after)) } else { Ok(()) }
                    }
                };
                assert_eq!(scanned, expected, "{text:?} under depth {max_depth}");
                compared += 1;
            }
        }
        assert!(compared > 10_000, "{compared}");
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
    fn payloads_below_the_levels_the_rules_read_are_one_node_each() {
        let nodes = |text: &str| {
            let mut tape = Tape::default();
            scan(text, &Limits::new(), &mut tape, &mut Vec::new()).map(|()| tape.nodes().len())
        };
        // The message, its three members (a name and a value each), the
        // members of params, and params.a and params.c as one node each.
        assert_eq!(nodes(r#"{"jsonrpc":"2.0","method":"m","params":{"a":{"b":[1,2]},"c":[3]}}"#), Ok(11));
        // In a batch one level more: each item's result is read, its
        // content is one node.
        assert_eq!(nodes(r#"[{"jsonrpc":"2.0","id":1,"result":{"content":[{"x":1}]}}]"#), Ok(10));
    }

    #[test]
    fn empty_containers_close() {
        assert_eq!(fault("{\"a\":[],\"b\":{},\"c\":[{}]}"), None);
    }
}
