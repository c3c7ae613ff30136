//! The simd-json backend: simd-json validates, its structural index gives
//! the positions.
//!
//! simd-json parses a padded copy of the message (it unescapes strings in
//! place, so it needs bytes it may write); the copy, its buffers and its tape
//! are kept between messages, so a warm parser does not allocate. After a
//! successful parse, the offsets of the structural characters (`{}[]:,`
//! and the first byte of every string, number and literal) are walked to
//! build the shallow tape with spans in the original message.
//!
//! What simd-json refuses and the rules allow (integers beyond 64 bits,
//! `1e400`) is declined, and the core's scanner builds the tape instead.

use alloc::vec::Vec;

use super::{Backend, Declined, sealed};
use crate::limits::Limits;
use crate::scan::is_whitespace;
use crate::tape::{NodeKind, Tape, expands};

/// The simd-json backend (needs `std`).
#[derive(Default)]
pub struct SimdJson {
    /// The padded, writable copy of the message.
    copy: Vec<u8>,
    /// simd-json's buffers, and the depth limit they were made for.
    buffers: Option<(usize, simd_json::Buffers)>,
    /// simd-json's tape, kept for its allocation.
    tape: Option<simd_json::Tape<'static>>,
    /// The expanded containers open during the structural walk, by tape
    /// node.
    stack: Vec<usize>,
}

impl core::fmt::Debug for SimdJson {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SimdJson").field("copy_capacity", &self.copy.capacity()).finish_non_exhaustive()
    }
}

impl Backend for SimdJson {
    const NAME: &'static str = "simd";
}

impl sealed::Sealed for SimdJson {
    fn tokenise(&mut self, text: &str, limits: &Limits, tape: &mut Tape) -> Result<(), Declined> {
        let len = text.len();
        self.copy.clear();
        // Room for the padding first: growing past the text afterwards
        // would double the copy's capacity.
        self.copy.reserve(len + simd_json::INPUT_PADDING);
        self.copy.extend_from_slice(text.as_bytes());
        self.copy.extend_from_slice(&[b' '; simd_json::INPUT_PADDING]);

        let depth = limits.max_depth;
        let buffers = match &mut self.buffers {
            Some((made_for, buffers)) if *made_for == depth => buffers,
            // Sized for no input: `fill_tape_padded` grows what it uses, and
            // a size here would also allocate the input buffer it never
            // uses (the parse is in `copy`), a second copy of the message.
            slot => &mut slot.insert((depth, simd_json::Buffers::with_max_depth(0, depth))).1,
        };
        let mut simd_tape = self.tape.take().unwrap_or_else(simd_json::Tape::null).reset();
        let parsed = simd_json::fill_tape_padded(&mut self.copy, len, buffers, &mut simd_tape);
        self.tape = Some(simd_tape.reset());
        parsed.map_err(|_| Declined)?;
        walk_structurals(text.as_bytes(), buffers.structural_indexes(), tape, &mut self.stack)
    }
}

/// Builds the shallow tape from the structural index of a valid document.
/// The structurals of a payload (a container the rules do not look into)
/// are passed over by counting brackets alone.
fn walk_structurals(
    bytes: &[u8],
    structurals: &[u32],
    tape: &mut Tape,
    stack: &mut Vec<usize>,
) -> Result<(), Declined> {
    stack.clear();
    let first = structurals.first().and_then(|&at| bytes.get(at as usize));
    let top_is_array = first == Some(&b'[');
    let mut k = 0;
    while let Some(&at) = structurals.get(k) {
        let at = at as usize;
        let byte = *bytes.get(at).ok_or(Declined)?;
        match byte {
            b'{' | b'[' => {
                let kind = NodeKind::of_first_byte(byte);
                if expands(stack.len() + 1, top_is_array) {
                    stack.push(tape.open(kind, at, true));
                } else {
                    let node = tape.open(kind, at, false);
                    let (last, end) = skip_payload(bytes, structurals, k)?;
                    tape.close(node, end);
                    k = last;
                }
            }
            b'}' | b']' => {
                let node = stack.pop().ok_or(Declined)?;
                tape.close(node, at + 1);
            }
            b':' | b',' => {}
            _ => {
                // A string, number or literal ends at the last
                // non-whitespace byte before the next structural.
                let limit = structurals.get(k + 1).map_or(bytes.len(), |&next| next as usize);
                let head = bytes.get(..limit).ok_or(Declined)?;
                let end = head.iter().rposition(|&b| !is_whitespace(b)).map_or(limit, |last| last + 1);
                tape.leaf(NodeKind::of_first_byte(byte), at, end);
            }
        }
        k += 1;
    }
    if stack.is_empty() { Ok(()) } else { Err(Declined) }
}

/// The container whose opening bracket is structural `open`: the index of
/// its closing bracket's structural, and the offset one past it.
fn skip_payload(bytes: &[u8], structurals: &[u32], open: usize) -> Result<(usize, usize), Declined> {
    let mut depth = 0usize;
    for (k, &at) in structurals.iter().enumerate().skip(open) {
        match bytes.get(at as usize) {
            Some(b'{' | b'[') => depth += 1,
            Some(b'}' | b']') => {
                depth -= 1;
                if depth == 0 {
                    return Ok((k, at as usize + 1));
                }
            }
            _ => {}
        }
    }
    Err(Declined)
}
