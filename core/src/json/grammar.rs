//! The JSON grammar, written once ([`walk`]) and shared by every stage:
//! whitespace, literals, member names, and the walk over a value, generic
//! over a [`Sink`] that records what it reads (the reference backend's
//! tape) or keeps nothing ([`Validate`]: [`skip_container`], [`validate`]).
//! Iterative, so depth costs heap (bounded by the depth limit), not stack.

use alloc::vec::Vec;

use super::NodeKind;
use crate::fault::{Fault, Reason};
use crate::json::{number, string};
use crate::limits::Limits;
use crate::span;

/// An open container during the scan.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Open {
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
    let found = span::within(bytes, at..end.min(bytes.len()));
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

/// What the walk tells about the values it reads: a tape that records
/// them, or nothing at all ([`Validate`]). The walk is the grammar; the
/// sink only decides whether a container's contents are told to it.
pub(crate) trait Sink {
    /// Whether the contents of a container at nesting `level` are told to
    /// the sink; the others are validated whole ([`skip_container`]), and
    /// the sink sees the container as one node.
    fn expands(&self, level: usize) -> bool;
    /// A container of `kind` opens at `at`; returns its node for
    /// [`Sink::close`].
    fn open(&mut self, kind: NodeKind, at: usize, expanded: bool) -> usize;
    /// The container `node` ends at `end`, one past its bracket.
    fn close(&mut self, node: usize, end: usize);
    /// A string (a member name too), number or literal spans `at..end`.
    fn leaf(&mut self, kind: NodeKind, at: usize, end: usize);
    /// Whether the numbers that follow one in an array are read in one
    /// loop: for the payloads validated whole, not for the few levels a
    /// tape records, whose walk compiles worse with it (docs/benchmarks.md,
    /// "Why the code is as it is", `NUMBER_RUNS`).
    const NUMBER_RUNS: bool = false;
}

/// The sink that keeps nothing: the walk only validates.
pub(crate) struct Validate;

impl Sink for Validate {
    const NUMBER_RUNS: bool = true;

    #[inline(always)]
    fn expands(&self, _level: usize) -> bool {
        true
    }

    #[inline(always)]
    fn open(&mut self, _kind: NodeKind, _at: usize, _expanded: bool) -> usize {
        usize::MAX
    }

    #[inline(always)]
    fn close(&mut self, _node: usize, _end: usize) {}

    #[inline(always)]
    fn leaf(&mut self, _kind: NodeKind, _at: usize, _end: usize) {}
}

/// The JSON grammar, once: validates the value starting at `i`, at nesting
/// `level` (the top value is level 1), tells `sink` what it reads, and
/// returns the offset one past it. Faults come first in document order.
/// Containers open go on `stack` above the caller's own, so depth costs
/// heap (bounded by the depth limit), not stack.
#[inline(always)]
pub(crate) fn walk<S: Sink>(
    bytes: &[u8],
    mut i: usize,
    level: usize,
    limits: &Limits,
    sink: &mut S,
    stack: &mut Vec<Open>,
) -> Result<usize, Fault> {
    let base = stack.len();
    'value: loop {
        // A value starts at `i` (whitespace skipped).
        match bytes.get(i) {
            None => return Err(Fault::new(Reason::UnexpectedEnd, bytes.len())),
            Some(&open @ (b'{' | b'[')) => {
                let depth = level + (stack.len() - base);
                if depth > limits.max_depth {
                    return Err(Fault::new(Reason::TooDeep, i));
                }
                let object = open == b'{';
                let kind = if object { NodeKind::Object } else { NodeKind::Array };
                if !sink.expands(depth) {
                    let node = sink.open(kind, i, false);
                    i = skip_container(bytes, i, depth, limits, stack)?;
                    sink.close(node, i);
                } else {
                    let node = sink.open(kind, i, true);
                    stack.push(Open { object, node });
                    i = skip_whitespace(bytes, i + 1);
                    let close = if object { b'}' } else { b']' };
                    if bytes.get(i) != Some(&close) {
                        if object {
                            i = told_member_name(bytes, i, sink)?;
                        }
                        continue 'value;
                    }
                    // Empty container: fall through to the closing loop below.
                }
            }
            Some(b'"') => {
                let end = string::scan(bytes, i)?;
                sink.leaf(NodeKind::String, i, end);
                i = end;
            }
            Some(b'-' | b'0'..=b'9') => {
                let mut end = number::scan(bytes, i)?;
                sink.leaf(NodeKind::Number, i, end);
                // The numbers that follow this one in an array (vectors,
                // coordinates, samples), read here rather than each through
                // the closing loop and the dispatch: the same scans, leaves
                // and faults, in the same order.
                if S::NUMBER_RUNS
                    && bytes.get(end) == Some(&b',')
                    && stack.len() > base
                    && stack.last().is_some_and(|frame| !frame.object)
                {
                    while matches!(bytes.get(end + 1), Some(b'-' | b'0'..=b'9')) {
                        let start = end + 1;
                        end = number::scan(bytes, start)?;
                        sink.leaf(NodeKind::Number, start, end);
                        if bytes.get(end) != Some(&b',') {
                            break;
                        }
                    }
                }
                i = end;
            }
            Some(b't' | b'f' | b'n') => {
                let (kind, end) = scan_literal(bytes, i)?;
                sink.leaf(kind, i, end);
                i = end;
            }
            Some(_) => return Err(Fault::new(Reason::ExpectedValue, i)),
        }

        // After a value, or at the closing bracket of an empty container:
        // close containers until one continues with a comma, or the value
        // the walk began with has ended.
        loop {
            let Some(frame) = stack.last().copied().filter(|_| stack.len() > base) else {
                return Ok(i);
            };
            i = skip_whitespace(bytes, i);
            let close = if frame.object { b'}' } else { b']' };
            match bytes.get(i) {
                Some(b',') => {
                    i = skip_whitespace(bytes, i + 1);
                    if frame.object {
                        i = told_member_name(bytes, i, sink)?;
                    }
                    continue 'value;
                }
                Some(&b) if b == close => {
                    stack.pop();
                    sink.close(frame.node, i + 1);
                    i += 1;
                }
                _ => return Err(at_end_or(bytes, i, Reason::ExpectedCommaOrEnd)),
            }
        }
    }
}

/// [`member_name`], with the name told to the sink; returns where the
/// value starts.
#[inline(always)]
fn told_member_name<S: Sink>(bytes: &[u8], i: usize, sink: &mut S) -> Result<usize, Fault> {
    let (end, value) = member_name(bytes, i)?;
    sink.leaf(NodeKind::String, i, end);
    Ok(value)
}

/// The container opening at `at`, at nesting `level`, validated whole and
/// told to no one: the grammar with the [`Validate`] sink. Returns the
/// offset one past the container. Its open containers go on `stack` above
/// the caller's own. One walk for the tape and for payloads, rather than a
/// loop of its own beside it, which measured worse (docs/benchmarks.md,
/// "Why the code is as it is", `skip_container`).
pub(crate) fn skip_container(
    bytes: &[u8],
    at: usize,
    level: usize,
    limits: &Limits,
    stack: &mut Vec<Open>,
) -> Result<usize, Fault> {
    walk(bytes, at, level, limits, &mut Validate, stack)
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
    let end = walk(bytes, skip_whitespace(bytes, 0), 1, limits, &mut Validate, &mut Vec::new())?;
    let after = skip_whitespace(bytes, end);
    if after < bytes.len() { Err(Fault::new(Reason::TrailingCharacters, after)) } else { Ok(()) }
}
