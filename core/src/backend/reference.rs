//! The reference backend ([`Reference`]): it validates
//! RFC 8259 exactly, as the rules restrict it, with the one grammar
//! (`json::grammar::walk`, its sink recording on the tape), and builds the
//! same shallow tape as the other backends. When a backend declines a message, this scanner decides
//! whether it is really invalid and names the first fault in document
//! order and its offset: that is how every backend gives the same reason
//! and offset for every bad input. It needs no dependency, and it is the
//! oracle the differential fuzz target holds the others to.

use alloc::vec::Vec;

use super::{Backend, Declined, sealed};
use crate::fault::{Fault, Reason};
use crate::json::grammar::{Open, Sink, skip_whitespace, walk};
use crate::limits::Limits;
use crate::tape::{NodeKind, Tape};

/// The reference backend: no dependencies, the one the
/// other backends fall back to, and the oracle for differential fuzzing.
#[derive(Debug, Default)]
pub struct Reference {
    stack: Vec<Open>,
}

impl Reference {
    /// Scans `text`, naming the first fault if it is not valid JSON.
    pub(crate) fn tokenise_exact(&mut self, text: &str, limits: &Limits, tape: &mut Tape) -> Result<(), Fault> {
        scan(text, limits, tape, &mut self.stack)
    }
}

// For the parser's test of one scan (which needs simd-json).
#[cfg(all(test, feature = "simd-json"))]
impl Reference {
    /// Whether this backend has scanned a message with containers.
    pub(crate) fn has_scanned(&self) -> bool {
        self.stack.capacity() > 0
    }
}

impl sealed::Sealed for Reference {
    fn tokenise(&mut self, text: &str, limits: &Limits, tape: &mut Tape) -> Result<(), Declined> {
        self.tokenise_exact(text, limits, tape).map_err(|_| Declined)
    }

    /// Its own fault is the answer: nothing to hand on.
    #[inline]
    fn tokenise_judged(
        &mut self,
        text: &str,
        limits: &Limits,
        tape: &mut Tape,
        _reference: &mut Reference,
    ) -> Result<bool, Fault> {
        self.tokenise_exact(text, limits, tape).map(|()| false)
    }
}

impl Backend for Reference {
    const NAME: &'static str = "reference";
}

/// Validates `text` as one JSON value under `limits` and fills `tape`.
///
/// Every value the grammar tells goes on the tape. A container whose
/// contents do not (a payload below the levels the rules read) gets its
/// node and is validated whole, so only the expanded levels, at most
/// three, are ever open here.
pub(crate) fn scan(text: &str, limits: &Limits, tape: &mut Tape, stack: &mut Vec<Open>) -> Result<(), Fault> {
    tape.clear();
    stack.clear();
    let bytes = text.as_bytes();
    let i = skip_whitespace(bytes, 0);
    // One walk for batches, one for the rest: a single message's walk
    // carries none of the batch's bookkeeping.
    let end = if bytes.get(i) == Some(&b'[') {
        walk(bytes, i, 1, limits, &mut Recording::<true>(tape), stack)?
    } else {
        walk(bytes, i, 1, limits, &mut Recording::<false>(tape), stack)?
    };
    let after = skip_whitespace(bytes, end);
    if after < bytes.len() { Err(Fault::new(Reason::TrailingCharacters, after)) } else { Ok(()) }
}

/// The grammar's sink that records on the tape; `BATCH` says whether the
/// message is an array (see [`Tape::open_in`]).
struct Recording<'t, const BATCH: bool>(&'t mut Tape);

impl<const BATCH: bool> Sink for Recording<'_, BATCH> {
    #[inline(always)]
    fn expands(&self, level: usize) -> bool {
        Tape::expands_in::<BATCH>(level)
    }

    #[inline(always)]
    fn open(&mut self, kind: NodeKind, at: usize, expanded: bool) -> usize {
        self.0.open_in::<BATCH>(kind, at, expanded)
    }

    #[inline(always)]
    fn close(&mut self, node: usize, end: usize) {
        self.0.close_in::<BATCH>(node, end);
    }

    #[inline(always)]
    fn leaf(&mut self, kind: NodeKind, at: usize, end: usize) {
        self.0.leaf_in::<BATCH>(kind, at, end);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::grammar::{skip_container, validate};

    fn fault(text: &str) -> Option<Fault> {
        scan(text, &Limits::new(), &mut Tape::default(), &mut Vec::new()).err()
    }

    /// Seeds and every one-byte edit of them: deletions, truncations, and
    /// each position replaced by a byte that matters to the grammar.
    fn edited_documents() -> Vec<Vec<u8>> {
        let seeds: [&[u8]; 5] = [
            br#"{"a":{"b":[1,-2.5e3,true,false,null,"x\u0041y"],"c":{}},"d":[[],[{}]]}"#,
            // Runs of numbers (read in one loop in payloads), broken by
            // edits anywhere in them.
            br#"{"v":[1,-2,3.5,4e2,0,-0.5E-3,6],"w":[[7,8],9,[10]]}"#,
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
    fn validating_without_a_tape_gives_the_verdicts_faults_and_offsets_of_the_scan() {
        // check_json validates with the shared grammar and builds nothing:
        // it must agree with the tape-building scan on every document,
        // whatever its first value (containers, leaves, nothing at all).
        let mut documents = edited_documents();
        for leaf in ["", " ", "\"a\\u0041\"", "-0.5e+3", "01", "true", "nul", "[1] x", "\"\\ud800\"", "  null  "] {
            documents.push(leaf.as_bytes().to_vec());
        }
        let mut compared = 0;
        for text in documents {
            let Ok(text) = core::str::from_utf8(&text) else { continue };
            for max_depth in [1, 2, 3, 128] {
                let limits = Limits::new().with_max_depth(max_depth);
                let scanned = scan(text, &limits, &mut Tape::default(), &mut Vec::new());
                assert_eq!(validate(text, &limits), scanned, "{text:?} under depth {max_depth}");
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
