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
//! A long batch is parsed in chunks of whole items: simd-json's buffers
//! and tape cost about fourteen times the text they parse, so a batch read
//! whole would cost fourteen times the batch; read in chunks, the cost is
//! that of the largest chunk. A chunk's end is guessed (before the next
//! item that opens with `{"jsonrpc"`), and where simd-json refuses the
//! guess, found item by item by this backend's own pass (strings skipped
//! with memchr, brackets counted). Each chunk is given to simd-json as an
//! array of its items: if every chunk is valid and only whitespace and
//! single commas lie between them, the batch is valid JSON, so a wrong
//! split can only make simd-json refuse, never accept what is invalid.
//!
//! What simd-json refuses and the rules allow (integers beyond 64 bits,
//! `1e400`) is declined, and the reference backend builds the tape instead.

use alloc::vec::Vec;

use super::{Backend, Declined, sealed};
use crate::json::grammar::{is_whitespace, skip_whitespace};
use crate::json::skim::value_end;
use crate::limits::Limits;
use crate::tape::{NodeKind, Tape};

/// The simd-json backend (needs `std`).
pub struct SimdJson {
    /// [`SimdJson::CHUNK_LEN`], but for the fuzzing properties.
    chunk_len: usize,
    /// The padded, writable copy of the message or chunk.
    copy: Vec<u8>,
    /// simd-json's buffers, and the depth limit they were made for.
    buffers: Option<(usize, simd_json::Buffers)>,
    /// simd-json's tape, kept for its allocation.
    tape: Option<simd_json::Tape<'static>>,
    /// The expanded containers open during the structural walk, by tape
    /// node.
    stack: Vec<usize>,
}

impl Default for SimdJson {
    fn default() -> Self {
        SimdJson::with_chunk_len(SimdJson::CHUNK_LEN)
    }
}

impl SimdJson {
    /// A batch longer than this many bytes is parsed in chunks of whole
    /// items, each from this long to at most twice this plus one item.
    /// The length that measured best, and bounds simd-json's memory on a
    /// large batch (docs/benchmarks.md, "Why the code is as it is",
    /// `CHUNK_LEN`).
    pub const CHUNK_LEN: usize = 4096;

    /// Chunks batches longer than `chunk_len` bytes: the fuzzing
    /// properties use a tiny length, so that short inputs take the chunked
    /// path too.
    pub(crate) fn with_chunk_len(chunk_len: usize) -> SimdJson {
        SimdJson { chunk_len, copy: Vec::new(), buffers: None, tape: None, stack: Vec::new() }
    }
}

impl core::fmt::Debug for SimdJson {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SimdJson")
            .field("chunk_len", &self.chunk_len)
            .field("copy_capacity", &self.copy.capacity())
            .finish_non_exhaustive()
    }
}

impl Backend for SimdJson {
    const NAME: &'static str = "simd";
}

impl sealed::Sealed for SimdJson {
    fn tokenise(&mut self, text: &str, limits: &Limits, tape: &mut Tape) -> Result<(), Declined> {
        let bytes = text.as_bytes();
        if bytes.len() > self.chunk_len {
            let first = skip_whitespace(bytes, 0);
            if bytes.get(first) == Some(&b'[') {
                return self.tokenise_in_chunks(bytes, first, limits, tape);
            }
        }
        padded_copy(&mut self.copy, &[bytes]);
        let structurals = validate(&mut self.copy, bytes.len(), &mut self.tape, &mut self.buffers, limits.max_depth)?;
        self.stack.clear();
        let index = Index { bytes, base: 0, end: bytes.len(), structurals };
        walk_structurals(index, tape, &mut self.stack)?;
        if self.stack.is_empty() { Ok(()) } else { Err(Declined) }
    }
}

/// Fills `copy` with `parts` and simd-json's padding after them.
fn padded_copy(copy: &mut Vec<u8>, parts: &[&[u8]]) {
    let len: usize = parts.iter().map(|part| part.len()).sum();
    copy.clear();
    // Room for the padding first: growing past the text afterwards would
    // double the copy's capacity.
    copy.reserve(len + simd_json::INPUT_PADDING);
    for part in parts {
        copy.extend_from_slice(part);
    }
    copy.extend_from_slice(&[b' '; simd_json::INPUT_PADDING]);
}

/// Runs simd-json over the first `len` bytes of `copy` with the buffers in
/// `slot` (made anew if they were for another depth limit); gives its
/// structural index.
#[inline(always)]
fn validate<'b>(
    copy: &mut [u8],
    len: usize,
    simd_tape: &mut Option<simd_json::Tape<'static>>,
    slot: &'b mut Option<(usize, simd_json::Buffers)>,
    depth: usize,
) -> Result<&'b [u32], Declined> {
    if !matches!(slot, Some((made_for, _)) if *made_for == depth) {
        // Sized for no input: `fill_tape_padded` grows what it uses, and a
        // size here would also allocate the input buffer it never uses (the
        // parse is in `copy`), a second copy of the message.
        *slot = Some((depth, simd_json::Buffers::with_max_depth(0, depth)));
    }
    let Some((_, buffers)) = slot else { return Err(Declined) };
    let mut tape = simd_tape.take().unwrap_or_else(simd_json::Tape::null).reset();
    let parsed = simd_json::fill_tape_padded(copy, len, buffers, &mut tape);
    *simd_tape = Some(tape.reset());
    parsed.map_err(|_| Declined)?;
    Ok(buffers.structural_indexes())
}

impl SimdJson {
    /// A batch (`bytes[first]` is its `[`) in chunks of whole items, each
    /// given to simd-json as an array: as deep as the batch, so the same
    /// depth limit holds.
    #[inline(never)]
    fn tokenise_in_chunks(
        &mut self,
        bytes: &[u8],
        first: usize,
        limits: &Limits,
        tape: &mut Tape,
    ) -> Result<(), Declined> {
        // The batch's closing bracket: the last byte that is not whitespace.
        let close = bytes.iter().rposition(|&b| !is_whitespace(b)).ok_or(Declined)?;
        if close <= first || bytes.get(close) != Some(&b']') {
            return Err(Declined);
        }
        self.stack.clear();
        self.stack.push(tape.open(NodeKind::Array, first, true));
        let mut at = skip_whitespace(bytes, first + 1);
        while at < close {
            // A guess first, checked by simd-json; where it fails, the
            // items are found one by one.
            let guess = guess_chunk(bytes, at, close, self.chunk_len);
            let (end, next) = match guess {
                Some((end, next)) if self.validate_chunk(bytes, at, end, limits).is_ok() => (end, next),
                _ => {
                    let (end, next) = exact_chunk(bytes, at, close, self.chunk_len).ok_or(Declined)?;
                    self.validate_chunk(bytes, at, end, limits)?;
                    (end, next)
                }
            };
            // Past the batch limit the tape takes nothing more: the rest is
            // only validated.
            if tape.overflow().is_none() {
                let structurals = self.buffers.as_ref().map_or(&[][..], |(_, buffers)| buffers.structural_indexes());
                // Without the chunk's own brackets; its offsets count from
                // the `[` put before `at`.
                let inner = structurals.get(1..structurals.len().saturating_sub(1)).ok_or(Declined)?;
                walk_chunk(Index { bytes, base: at - 1, end, structurals: inner }, tape, &mut self.stack)?;
                if self.stack.len() != 1 {
                    return Err(Declined);
                }
            }
            at = next;
        }
        let batch = self.stack.pop().ok_or(Declined)?;
        tape.close(batch, close + 1);
        Ok(())
    }

    /// simd-json's verdict on the items `bytes[start..end]` as an array.
    fn validate_chunk(&mut self, bytes: &[u8], start: usize, end: usize, limits: &Limits) -> Result<(), Declined> {
        let items = bytes.get(start..end).filter(|items| !items.is_empty()).ok_or(Declined)?;
        padded_copy(&mut self.copy, &[b"[", items, b"]"]);
        validate(&mut self.copy, items.len() + 2, &mut self.tape, &mut self.buffers, limits.max_depth).map(|_| ())
    }
}

/// Where a chunk starting at `start` might end: the end of its last item,
/// and where the next chunk starts (`close` when none does). Past
/// `chunk_len` bytes, before the next item that opens with `{"jsonrpc"`
/// (as nearly every message does; no guess if none does within another
/// `chunk_len` bytes). A guess is safe:
/// simd-json accepts `[` + the chunk + `]` only if the chunk ends between
/// two items of the batch, as the cut follows the same bytes the batch has.
fn guess_chunk(bytes: &[u8], start: usize, close: usize, chunk_len: usize) -> Option<(usize, usize)> {
    if close - start <= chunk_len {
        return Some((last_non_whitespace(bytes, start, close), close));
    }
    // Looked for in the next `chunk_len` bytes only, so that a chunk stays
    // under twice that.
    let from = start + chunk_len;
    let window = bytes.get(from..close.min(from + chunk_len))?;
    let next = from + memchr::memmem::find(window, br#"{"jsonrpc""#)?;
    let comma = last_non_whitespace(bytes, start, next).checked_sub(1)?;
    (bytes.get(comma) == Some(&b',')).then(|| (last_non_whitespace(bytes, start, comma), next))
}

/// The chunk starting at `start`, item by item: at least `chunk_len`
/// bytes, unless the batch ends first. As [`guess_chunk`].
fn exact_chunk(bytes: &[u8], start: usize, close: usize, chunk_len: usize) -> Option<(usize, usize)> {
    let mut at = start;
    loop {
        let end = value_end(bytes, at)?;
        at = skip_whitespace(bytes, end);
        if at == close {
            return Some((end, close));
        }
        if bytes.get(at) != Some(&b',') {
            return None;
        }
        at = skip_whitespace(bytes, at + 1);
        if at >= close {
            return None;
        }
        if end - start >= chunk_len {
            return Some((end, at));
        }
    }
}

/// One past the last byte before `end` (and from `start`) that is not
/// whitespace; `start` if there is none.
fn last_non_whitespace(bytes: &[u8], start: usize, end: usize) -> usize {
    bytes
        .get(start..end)
        .and_then(|part| part.iter().rposition(|&b| !is_whitespace(b)))
        .map_or(start, |k| start + k + 1)
}

/// The structural index of a valid value that lies at `base..end` of
/// `bytes` (the index counts from `base`).
#[derive(Clone, Copy)]
struct Index<'a> {
    bytes: &'a [u8],
    base: usize,
    end: usize,
    structurals: &'a [u32],
}

/// Builds the shallow tape from `index`, under the containers already on
/// `stack`. The structurals of a payload (a container the rules do not
/// look into) are passed over by counting brackets alone.
#[inline(always)]
fn walk_structurals(index: Index<'_>, tape: &mut Tape, stack: &mut Vec<usize>) -> Result<(), Declined> {
    let Index { bytes, base, end, structurals } = index;
    let mut k = 0;
    while let Some(&at) = structurals.get(k) {
        let at = base + at as usize;
        let byte = *bytes.get(at).ok_or(Declined)?;
        match byte {
            b'{' | b'[' => {
                let kind = NodeKind::of_first_byte(byte);
                if tape.expands(stack.len() + 1) {
                    stack.push(tape.open(kind, at, true));
                } else {
                    let node = tape.open(kind, at, false);
                    let (last, close) = skip_payload(bytes, base, structurals, k)?;
                    tape.close(node, close);
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
                let limit = structurals.get(k + 1).map_or(end, |&next| base + next as usize);
                let head = bytes.get(..limit).ok_or(Declined)?;
                let end = head.iter().rposition(|&b| !is_whitespace(b)).map_or(limit, |last| last + 1);
                tape.leaf(NodeKind::of_first_byte(byte), at, end);
            }
        }
        k += 1;
    }
    Ok(())
}

/// [`walk_structurals`] for a chunk of a batch, out of line: inlined
/// there, the walk measured slower on a maximal batch (while inlined for
/// whole messages it is faster).
#[inline(never)]
fn walk_chunk(index: Index<'_>, tape: &mut Tape, stack: &mut Vec<usize>) -> Result<(), Declined> {
    walk_structurals(index, tape, stack)
}

/// The container whose opening bracket is structural `open`: the index of
/// its closing bracket's structural, and the offset one past it.
fn skip_payload(bytes: &[u8], base: usize, structurals: &[u32], open: usize) -> Result<(usize, usize), Declined> {
    let mut depth = 0usize;
    for (k, &at) in structurals.iter().enumerate().skip(open) {
        let at = base + at as usize;
        match bytes.get(at) {
            Some(b'{' | b'[') => depth += 1,
            Some(b'}' | b']') => {
                depth -= 1;
                if depth == 0 {
                    return Ok((k, at + 1));
                }
            }
            _ => {}
        }
    }
    Err(Declined)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::Reference;
    use crate::backend::sealed::Sealed;
    use crate::tape::Node;
    use alloc::string::{String, ToString};
    use alloc::{format, vec};

    fn tape_of(backend: &mut impl Sealed, text: &str, limits: &Limits) -> Option<(Vec<Node>, Option<usize>)> {
        let mut tape = Tape::default();
        tape.limit_items(limits.max_batch_len);
        backend.tokenise(text, limits, &mut tape).ok().map(|()| (tape.nodes(), tape.overflow()))
    }

    const REQUEST: &str =
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a","arguments":{"q":"x"}}}"#;

    /// Batches whose chunks meet every case: guesses that hold, guesses cut
    /// inside an item (a nested object that opens with `"jsonrpc"`), items
    /// without `"jsonrpc"` first, scalars, whitespace, strings with
    /// brackets, quotes and escapes.
    fn batches() -> Vec<String> {
        let nested =
            r#"{"jsonrpc":"2.0","id":2,"method":"m","params":{"inner":[1,{"jsonrpc":"2.0","id":9},{"k":"]}"}]}}"#;
        let escaped = r#"{"id":"a\"b\\","jsonrpc":"2.0","result":{"t":"{\"jsonrpc\":[}"}}"#;
        vec![
            format!("[{}]", [REQUEST; 40].join(",")),
            format!(" [ {} ] \n", [REQUEST, nested, escaped, "1", "\"s\"", "[]", "{}", "null"].join(" ,\n ")),
            format!("[{}]", [nested; 30].join(",")),
            format!("[{}]", [escaped, REQUEST].repeat(20).join(",")),
            // Strings and numbers as items, with what ends an item inside
            // the strings; no item opens with `{"jsonrpc"`, so no guess holds.
            format!("[{}]", [r#""a, ]b""#, "12.5e3", r#""\"]""#, "[1,\"x,\"]"].repeat(10).join(" , ")),
            "[  ]".to_string(),
        ]
    }

    #[test]
    fn a_batch_read_in_chunks_builds_the_tape_of_one_read_whole() {
        let limits = [Limits::new(), Limits::new().with_max_batch_len(7)];
        for text in batches() {
            for limits in &limits {
                let reference = tape_of(&mut Reference::default(), &text, limits);
                assert!(reference.is_some(), "reference declined {text}");
                for chunk_len in (0..48).chain([100, 1000, 5000]) {
                    let chunked = tape_of(&mut SimdJson::with_chunk_len(chunk_len), &text, limits);
                    assert_eq!(chunked, reference, "chunks of {chunk_len}: {text}");
                }
            }
        }
    }

    #[test]
    fn a_batch_read_in_chunks_declines_what_is_not_json() {
        let bad = [
            format!("[{REQUEST},]"),
            format!("[{REQUEST},,{REQUEST}]"),
            format!("[{REQUEST} {REQUEST}]"),
            format!("[{REQUEST},{REQUEST}"),
            // Ending in a comma: the items before it are a valid chunk.
            format!("[{REQUEST},{REQUEST},"),
            format!("[{REQUEST},{REQUEST}, \n"),
            format!("[{REQUEST},{REQUEST}]]"),
            format!("[{REQUEST},{REQUEST}] x"),
            format!("[{REQUEST},{{\"jsonrpc\":1,}}]"),
            format!("[{REQUEST},tru]"),
            format!("[{REQUEST},\"open]"),
            format!("[{REQUEST},{{\"a\":[}}]]"),
        ];
        for text in &bad {
            assert!(tape_of(&mut Reference::default(), text, &Limits::new()).is_none(), "reference took {text}");
            for chunk_len in (0..48).chain([100, 1000]) {
                let chunked = tape_of(&mut SimdJson::with_chunk_len(chunk_len), text, &Limits::new());
                assert_eq!(chunked, None, "chunks of {chunk_len} took {text}");
            }
        }
    }

    #[test]
    fn a_chunk_of_a_batch_is_as_deep_as_the_batch() {
        // Depth 4 allowed: the batch, the request, `params`, one array.
        let at_limit = format!("[{REQUEST},{}]", r#"{"jsonrpc":"2.0","method":"m","params":{"a":[1]}}"#);
        let past = format!("[{REQUEST},{}]", r#"{"jsonrpc":"2.0","method":"m","params":{"a":[[1]]}}"#);
        let limits = Limits::new().with_max_depth(4);
        for chunk_len in [0, 10, 100] {
            assert!(tape_of(&mut SimdJson::with_chunk_len(chunk_len), &at_limit, &limits).is_some());
            assert!(tape_of(&mut SimdJson::with_chunk_len(chunk_len), &past, &limits).is_none());
        }
    }

    #[test]
    fn the_guess_ends_a_chunk_before_the_next_request() {
        // The fast path: no item-by-item pass over a batch of requests.
        let text = format!("[{}]", [REQUEST; 3].join(", "));
        let second = REQUEST.len() + 3;
        let close = text.len() - 1;
        assert_eq!(guess_chunk(text.as_bytes(), 1, close, 60), Some((1 + REQUEST.len(), second)));
        assert_eq!(guess_chunk(text.as_bytes(), 1, close, close), Some((close, close)));
        // No request starts within the window: no guess.
        assert_eq!(guess_chunk(text.as_bytes(), 1, close, 2), None);
        // The window is the chunk_len bytes after the first chunk_len.
        assert_eq!(guess_chunk(text.as_bytes(), 1, close, 10), None);
        let third = 2 * second - 1;
        assert_eq!(guess_chunk(text.as_bytes(), second, close, 60), Some((second + REQUEST.len(), third)));
    }

    #[test]
    fn an_exact_chunk_takes_whole_items_until_it_holds_chunk_len_bytes() {
        let text = format!("[{}]", [REQUEST; 3].join(", "));
        let (second, close) = (REQUEST.len() + 3, text.len() - 1);
        let third = 2 * second - 1;
        let bytes = text.as_bytes();
        assert_eq!(exact_chunk(bytes, 1, close, 60), Some((1 + REQUEST.len(), second)));
        assert_eq!(exact_chunk(bytes, second, close, 60), Some((second + REQUEST.len(), third)));
        // One item is short of 150 bytes: two are taken.
        assert_eq!(exact_chunk(bytes, 1, close, 150), Some((second + REQUEST.len(), third)));
        assert_eq!(exact_chunk(bytes, second, close, 150), Some((close, close)));
    }
}
