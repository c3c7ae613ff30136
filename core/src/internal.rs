//! Hooks for the workspace's other crates: what the fuzz kit's properties
//! (`mcp-envelope-check`), the benchmarks' figures per stage and the
//! probe's grading (`mcp-envelope-grade`, which depends on this exact
//! version) need that the API does not offer. Hidden from the
//! documentation, not part of the API, and free to change in any release.

use crate::backend::Backend;
#[cfg(feature = "simd-json")]
use crate::backend::SimdJson;
use crate::fault::Fault;
use crate::parser::Parser;
#[cfg(feature = "simd-json")]
use crate::revision::Revision;

/// Parses `input` up to its tape and no further: the checks before any
/// tokeniser and the backend's scan, without the envelope rules. What a
/// message costs before the rules read it.
///
/// # Errors
/// The fault of a message that is not one JSON value within the limits.
pub fn tape_stage<B: Backend>(parser: &mut Parser<B>, input: &[u8]) -> Result<(), Fault> {
    parser.tape_stage(input).map(|_| ())
}

/// The value of the member `name` at the top level of the object `json`,
/// as a span of it: the parser's member lookup, which ends without a panic
/// on any text and finds nothing it should not.
///
/// # Errors
/// `duplicate-member` when `name` appears twice.
pub fn member(json: &str, name: &str) -> Result<Option<core::ops::Range<usize>>, Fault> {
    crate::json::lookup::member(json, name)
}

/// The parser's one trusted skip over JSON text (`json::skim`), for a
/// reading that must go on where the text is not valid: exact on valid
/// JSON, an end without a panic on anything else, `None` where the
/// brackets cannot balance.
pub mod skim {
    /// One past the closing quote of the string whose text starts at `at`
    /// (just after its opening quote), a backslash escaping the byte after
    /// it.
    #[must_use]
    pub fn string_end(bytes: &[u8], at: usize) -> Option<usize> {
        crate::json::skim::string_end(bytes, at)
    }

    /// One past the bracket closing the container opened at `start`.
    #[must_use]
    pub fn container_end(bytes: &[u8], start: usize) -> Option<usize> {
        crate::json::skim::container_end(bytes, start)
    }

    /// The first byte from `at` that is not JSON whitespace.
    #[must_use]
    pub fn skip_whitespace(bytes: &[u8], at: usize) -> usize {
        crate::json::grammar::skip_whitespace(bytes, at)
    }
}

#[cfg(feature = "simd-json")]
/// A simd-json parser that reads every batch longer than `chunk_len` bytes
/// in chunks: with a tiny length, the short inputs a fuzzer makes take the
/// chunked path too.
#[must_use]
pub fn simd_json_parser_chunked(revision: Revision, chunk_len: usize) -> Parser<SimdJson> {
    Parser::with_backend_instance(revision, SimdJson::with_chunk_len(chunk_len))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fault::Reason;
    use crate::revision::Revision;

    #[test]
    fn the_tape_stage_judges_the_json_and_applies_no_envelope_rule() {
        let mut parser = Parser::new(Revision::V2026_07_28);
        // Valid JSON that no revision takes as an envelope: the rules,
        // which this stage leaves out, refuse it.
        for not_an_envelope in [&b"{\"a\":1}"[..], b"[1,2]", b"\"text\"", b"{\"id\":1,\"id\":2}"] {
            assert_eq!(tape_stage(&mut parser, not_an_envelope), Ok(()));
            assert!(!parser.declined(), "the reference backend declines only what is invalid");
            assert!(parser.parse(not_an_envelope).is_err());
        }
        // The checks before any tokeniser, and the scan's own faults, as
        // the whole parse reports them.
        for (bad, reason) in [
            (&b"{\"a\":}"[..], Reason::ExpectedValue),
            (b"\xEF\xBB\xBF{}", Reason::ByteOrderMark),
            (b"  ", Reason::Empty),
            (b"{\"a\":\"\xff\"}", Reason::InvalidUtf8),
        ] {
            let fault = tape_stage(&mut parser, bad).err();
            assert_eq!(fault.map(|f| f.reason), Some(reason), "{bad:?}");
            // The scan's own fault: the message was declined, as `parse`
            // says (a refusal before any tokeniser leaves that as it was).
            if reason == Reason::ExpectedValue {
                assert!(parser.declined(), "{bad:?}");
            }
            assert_eq!(fault, parser.parse(bad).err().map(|e| e.fault()), "{bad:?}");
        }
    }

    #[test]
    fn the_member_hook_gives_the_span_of_a_top_level_value_and_refuses_a_repeated_name() {
        let json = r#"{"a":{"b":1},"b":[2, 3],"c":"x"}"#;
        let span = member(json, "b").ok().flatten();
        assert_eq!(span.and_then(|s| json.get(s)), Some("[2, 3]"), "the top-level b, not the nested one");
        assert_eq!(member(json, "d"), Ok(None));
        let fault = member(r#"{"a":1,"a":2}"#, "a").err();
        assert_eq!(fault.map(|f| f.reason), Some(Reason::DuplicateMember));
    }

    #[test]
    fn the_skim_hooks_find_where_strings_containers_and_whitespace_end() {
        let text = br#" {"a\"b":[1,{"c":"]"}], "d":2} x"#;
        assert_eq!(skim::skip_whitespace(text, 0), 1);
        assert_eq!(skim::skip_whitespace(b" \t\r\n x", 0), 5);
        // The name's text starts after its quote; the escaped quote is part of it.
        assert_eq!(skim::string_end(text, 3), Some(8));
        assert_eq!(skim::container_end(text, 9), Some(22), "the bracket inside a string does not count");
        assert_eq!(skim::container_end(text, 1), Some(30));
        assert_eq!(skim::container_end(b"[1,[2]", 0), None, "brackets that cannot balance");
        assert_eq!(skim::string_end(b"\"abc", 1), None);
    }
}
