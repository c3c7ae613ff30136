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
    /// Open containers during the structural walk: (tape node, expanded).
    stack: Vec<(Option<usize>, bool)>,
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
fn walk_structurals(
    bytes: &[u8],
    structurals: &[u32],
    tape: &mut Tape,
    stack: &mut Vec<(Option<usize>, bool)>,
) -> Result<(), Declined> {
    stack.clear();
    let first = structurals.first().and_then(|&at| bytes.get(at as usize));
    let top_is_array = first == Some(&b'[');
    for (k, &at) in structurals.iter().enumerate() {
        let at = at as usize;
        let byte = *bytes.get(at).ok_or(Declined)?;
        match byte {
            b'{' | b'[' => {
                let on_tape = stack.last().is_none_or(|&(_, expanded)| expanded);
                let expanded = on_tape && expands(stack.len() + 1, top_is_array);
                let node = on_tape.then(|| tape.open(NodeKind::of_first_byte(byte), at, expanded));
                stack.push((node, expanded));
            }
            b'}' | b']' => {
                if let Some((Some(node), _)) = stack.pop() {
                    tape.close(node, at + 1);
                }
            }
            b':' | b',' => {}
            _ => {
                if stack.last().is_none_or(|&(_, expanded)| expanded) {
                    // A string, number or literal ends at the last
                    // non-whitespace byte before the next structural.
                    let limit = structurals.get(k + 1).map_or(bytes.len(), |&next| next as usize);
                    let head = bytes.get(..limit).ok_or(Declined)?;
                    let end = head.iter().rposition(|&b| !is_whitespace(b)).map_or(limit, |last| last + 1);
                    tape.leaf(NodeKind::of_first_byte(byte), at, end);
                }
            }
        }
    }
    if stack.is_empty() { Ok(()) } else { Err(Declined) }
}
