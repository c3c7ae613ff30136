//! RULES.md section 1: the JSON layer, identical in every backend.

use mcp_envelope::backend::SerdeJson;
use mcp_envelope::{Kind, Limits, Parser, Revision};

use crate::support::{Judgement, error, invalid, judgement, parse, parse_limited};

const R: Revision = Revision::V2026_07_28;

/// Where `params` starts in [`request_with_params`].
const P: usize = 46;

fn request_with_params(params: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":1,"method":"m","params":{params}}}"#)
}

#[test]
fn invalid_utf8_anywhere_is_a_parse_error() {
    // serde_json skips UTF-8 checks in members it ignores; the rule does not.
    for (input, at) in [
        (&b"{\"jsonrpc\":\"2.0\",\"x\":\"\xff\",\"method\":\"m\"}"[..], 22),
        (b"{\"jsonrpc\":\"2.0\",\"method\":\"m\",\"params\":{\"a\":\"\xc3\x28\"}}", 45),
        (b"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"t\":\"ok\xed\xa0\x80\"}}", 41),
        (b"\xff", 0),
    ] {
        let e = parse(R, input).unwrap_err();
        assert_eq!((e.code(), e.reason().name(), e.offset()), (-32700, "invalid-utf8", at), "{input:?}");
    }
}

#[test]
fn leading_byte_order_mark_is_a_parse_error_with_its_own_reason() {
    let e = parse(R, b"\xEF\xBB\xBF{\"jsonrpc\":\"2.0\",\"method\":\"m\"}").unwrap_err();
    assert_eq!((e.code(), e.reason().name(), e.offset()), (-32700, "byte-order-mark", 0));
    assert!(e.hint().is_some_and(|h| h.contains("U+FEFF")));
}

#[test]
fn empty_or_whitespace_only_input_is_a_parse_error() {
    assert_eq!(judgement(R, ""), invalid("empty", 0));
    assert_eq!(judgement(R, " \t\r\n "), invalid("empty", 5));
}

#[test]
fn anything_but_whitespace_after_the_value_is_a_parse_error() {
    let one = r#"{"jsonrpc":"2.0","method":"m"}"#;
    assert_eq!(judgement(R, &format!("{one} {one}")), invalid("trailing-characters", one.len() + 1));
    assert_eq!(judgement(R, &format!("{one}x")), invalid("trailing-characters", one.len()));
    assert_eq!(judgement(R, &format!(" {one} \r\n")), Judgement::Valid(Kind::Notification));
    // Form feed and no-break space are not JSON whitespace.
    assert_eq!(judgement(R, &format!("{one}\u{c}")), invalid("trailing-characters", one.len()));
    assert_eq!(judgement(R, &format!("\u{a0}{one}")), invalid("expected-value", 0));
}

#[test]
fn unescaped_control_character_in_a_string_is_a_parse_error() {
    for c in ['\u{0}', '\u{1f}', '\n', '\t'] {
        let input = request_with_params(&format!(r#"{{"a":"x{c}y"}}"#));
        assert_eq!(judgement(R, &input), invalid("control-character", P + 7), "{c:?}");
    }
    // Escaped, they are fine; DEL is not a control character for JSON.
    assert_eq!(judgement(R, &request_with_params(r#"{"a":"x\u0000\n\ty"}"#)), Judgement::Valid(Kind::Request));
    assert_eq!(judgement(R, &request_with_params("{\"a\":\"\u{7f}\"}")), Judgement::Valid(Kind::Request));
}

#[test]
fn unpaired_surrogate_escape_anywhere_is_a_parse_error() {
    for (input, at) in [
        // In a payload, where serde_json's raw skipping would accept it.
        (request_with_params(r#"{"a":"\ud800"}"#), P + 6),
        (request_with_params(r#"{"a":["\udc00"]}"#), P + 7),
        (request_with_params(r#"{"a":"\ud800\u0041"}"#), P + 6),
        (request_with_params(r#"{"a":"\ud800\ud800"}"#), P + 6),
        // In an ignored member, a member name, the method, the id.
        (r#"{"jsonrpc":"2.0","x":"\udfff","method":"m"}"#.into(), 22),
        (r#"{"jsonrpc":"2.0","\ud800":1,"method":"m"}"#.into(), 18),
        (r#"{"jsonrpc":"2.0","method":"\udbff"}"#.into(), 27),
        (r#"{"jsonrpc":"2.0","id":"a\ud800","method":"m"}"#.into(), 24),
        // A high surrogate followed by an escape that is not four hex
        // digits is lone, whatever follows.
        (request_with_params(r#"{"a":"\ud800\u12x4"}"#), P + 6),
        (r#"{"jsonrpc":"2.0","id":"\ud800\uzzzz","method":"m"}"#.into(), 23),
        // After an escaped backslash, `\ud800` is a real escape again.
        (request_with_params(r#"{"a":"\\\ud800"}"#), P + 8),
    ] {
        let e = error(R, &input);
        assert_eq!((e.code(), e.reason().name(), e.offset()), (-32700, "lone-surrogate", at), "{input}");
    }
}

#[test]
fn paired_surrogate_escapes_are_accepted_and_decoded() {
    let input = r#"{"jsonrpc":"2.0","id":"\ud83d\ude00","method":"m","params":{"a":"\uD834\uDD1E"}}"#;
    let m = crate::support::message(R, input);
    assert_eq!(m.id().map(ToString::to_string), Some("\"\u{1F600}\"".into()));
    // An escaped backslash before `ud800` makes it plain text, not an escape.
    let text = request_with_params(r#"{"a":"\\ud800","b":"\\\\udc00"}"#);
    assert_eq!(judgement(R, &text), Judgement::Valid(Kind::Request));
}

#[test]
fn numbers_of_any_magnitude_pass_through_payloads_unconverted() {
    // simd-json rejects both; serde_json's raw skipping accepts them; the rule accepts.
    for number in ["1e400", "-1e-400", "1234567890123456789012345678901234567890", "-0", "0.0e-0", "1E+2"] {
        let params = format!(r#"{{"n":{number},"m":[{number}]}}"#);
        let input = request_with_params(&params);
        let m = crate::support::message(R, &input);
        assert_eq!(m.payload().map(|p| p.get().to_owned()), Some(params), "{number}");
    }
}

#[test]
fn numbers_outside_the_grammar_are_parse_errors() {
    for (number, reason, at) in [
        ("01", "invalid-number", 1),
        ("1.", "invalid-number", 2),
        (".5", "expected-value", 0),
        ("+1", "expected-value", 0),
        ("0x10", "expected-comma-or-end", 1),
        ("1e", "invalid-number", 2),
        ("-", "invalid-number", 1),
        ("NaN", "expected-value", 0),
        ("Infinity", "expected-value", 0),
        ("1.5e+-3", "invalid-number", 5),
    ] {
        let input = request_with_params(&format!("[{number}]"));
        assert_eq!(judgement(Revision::JsonRpc, &input), invalid(reason, P + 1 + at), "{number}");
    }
}

/// `depth` nested arrays as the `params` of a request: the envelope object
/// is level 1, `params` level 2, so the deepest array is level `depth + 1`.
fn nested_params(depth: usize) -> String {
    request_with_params(&format!("{}{}", "[".repeat(depth), "]".repeat(depth)))
}

#[test]
fn nesting_at_the_limit_passes_and_one_deeper_is_a_parse_error() {
    const J: Revision = Revision::JsonRpc;
    assert_eq!(judgement(J, &nested_params(127)), Judgement::Valid(Kind::Request));
    let too_deep = nested_params(128);
    assert_eq!(judgement(J, &too_deep), invalid("too-deep", P + 127));
    // Bare arrays, counted the same way.
    assert_eq!(judgement(R, &format!("{}{}", "[".repeat(128), "]".repeat(128))), invalid("batch-not-allowed", 0));
    assert_eq!(judgement(R, &format!("{}{}", "[".repeat(129), "]".repeat(129))), invalid("too-deep", 128));
}

#[test]
fn the_depth_limit_is_configurable_and_shared_by_every_backend() {
    let limits = Limits::new().with_max_depth(3);
    let ok = request_with_params(r#"{"a":[]}"#);
    let deep = request_with_params(r#"{"a":[[]]}"#);
    assert!(parse_limited(Revision::JsonRpc, limits, ok.as_bytes()).is_ok());
    let e = parse_limited(Revision::JsonRpc, limits, deep.as_bytes()).unwrap_err();
    assert_eq!((e.reason().name(), e.offset()), ("too-deep", P + 6));
    // serde_json reads nesting up to the limit itself, and declines past it.
    let mut serde = Parser::<SerdeJson>::with_backend(Revision::JsonRpc).with_limits(limits);
    assert!(serde.parse(ok.as_bytes()).is_ok() && !serde.declined());
    assert!(serde.parse(deep.as_bytes()).is_err() && serde.declined());
    // Above serde_json's own limit of 127, too.
    let limits = Limits::new().with_max_depth(300);
    let input = format!("{}{}", "[".repeat(300), "]".repeat(300));
    assert_eq!(parse_limited(R, limits, input.as_bytes()).unwrap_err().reason().name(), "batch-not-allowed");
    let input = format!("{}{}", "[".repeat(301), "]".repeat(301));
    assert_eq!(parse_limited(R, limits, input.as_bytes()).unwrap_err().reason().name(), "too-deep");
}

#[test]
fn a_hundred_thousand_open_brackets_fail_without_overflowing_the_stack() {
    for open in ["[", "{\"a\":"] {
        let input = open.repeat(100_000);
        let e = parse(R, input.as_bytes()).unwrap_err();
        assert_eq!((e.reason().name(), e.offset()), ("too-deep", open.len() * 128));
    }
    // Inside a payload too, where serde_json's raw skipping has no limit.
    let input = request_with_params(&format!("{}{}", "[".repeat(100_000), "]".repeat(100_000)));
    assert_eq!(parse(Revision::JsonRpc, input.as_bytes()).unwrap_err().reason().name(), "too-deep");
}

#[test]
fn a_message_over_the_size_limit_is_a_parse_error() {
    let input = request_with_params(r#"{"pad":"0123456789"}"#);
    let limits = Limits::new().with_max_size(input.len() - 1);
    let e = parse_limited(R, limits, input.as_bytes()).unwrap_err();
    assert_eq!((e.code(), e.reason().name(), e.offset()), (-32700, "too-large", input.len() - 1));
    let limits = Limits::new().with_max_size(input.len());
    assert!(parse_limited(R, limits, input.as_bytes()).is_ok());
}

#[test]
fn an_html_page_is_a_parse_error_with_a_hint() {
    let e = parse(R, b"\r\n<!DOCTYPE html><html><body>Docs</body></html>").unwrap_err();
    assert_eq!((e.code(), e.reason().name(), e.offset()), (-32700, "html-page", 2));
    assert!(e.hint().is_some_and(|h| h.contains("web page")));
}

#[test]
fn syntax_faults_name_the_first_offending_byte() {
    for (input, reason, at) in [
        (r#"{"jsonrpc":"2.0","method":"m""#, "unexpected-end", 29),
        (r#"{"jsonrpc":"2.0" "method":"m"}"#, "expected-comma-or-end", 17),
        (r#"{"jsonrpc":"2.0","method" "m"}"#, "expected-colon", 26),
        (r#"{"jsonrpc":"2.0",method:"m"}"#, "expected-member-name", 17),
        (r#"{"jsonrpc":"2.0","method":"m",}"#, "expected-member-name", 30),
        (r#"{"jsonrpc":"2.0","method":nul}"#, "invalid-literal", 26),
        // A literal cut short by the end of input is a truncation; one that
        // is wrong before the end is wrong, wherever it ends.
        (r#"{"jsonrpc":"2.0","method":"m","x":tr"#, "unexpected-end", 36),
        (r#"{"jsonrpc":"2.0","method":"m","x":fals"#, "unexpected-end", 38),
        (r#"{"jsonrpc":"2.0","method":"m","x":tx"#, "invalid-literal", 34),
        (r#"{"jsonrpc":"2.0","method":"m","x":nulL}"#, "invalid-literal", 34),
        (r#"{"jsonrpc":"2.0","method":"\x"}"#, "invalid-escape", 27),
        (r#"{'jsonrpc':'2.0'}"#, "expected-member-name", 1),
    ] {
        assert_eq!(judgement(R, input), invalid(reason, at), "{input}");
    }
}
