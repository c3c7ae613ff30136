//! The probe's grading (RULES.md, section 9): what passes for an error, for
//! no answer, and for the results that answer ids.

use mcp_envelope::grade::{self, Answer, Outcome, Verdict, Want};
use mcp_envelope::{Id, Revision};

fn stdio(messages: &[&str]) -> Answer {
    Answer { messages: messages.iter().map(|m| m.as_bytes().to_vec()).collect(), ..Answer::default() }
}

fn http(status: u16, messages: &[&str]) -> Answer {
    Answer { status: Some(status), ..stdio(messages) }
}

fn blank() -> Outcome {
    Outcome::new(String::new(), "", &Answer::default())
}

fn nothing(answer: &Answer, http: bool) -> Verdict {
    grade::nothing(blank(), answer, Revision::V2025_11_25, http).verdict
}

#[test]
fn what_gets_no_answer_passes_on_silence_and_on_the_server_s_own_notifications() {
    assert_eq!(nothing(&stdio(&[]), false), Verdict::Pass);
    let log = r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}"#;
    assert_eq!(nothing(&stdio(&[log]), false), Verdict::Pass);
    assert_eq!(nothing(&http(202, &[]), true), Verdict::Pass);
}

#[test]
fn a_response_to_what_gets_none_fails_even_when_the_rules_reject_it() {
    // `[]` (JSON-RPC: never an empty array), a result under `jsonrpc` 1.0,
    // a result and an error together: malformed, and answers all the same.
    for answer in [
        " []",
        r#" {"jsonrpc":"1.0","id":1,"result":{}}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"x"}}"#,
        r#"{"jsonrpc":"2.0","id":1.5,"error":{"code":-32600,"message":"x"}}"#,
        r#"{"jsonrpc":"2.0","id":null,"id":1,"error":{"code":-32600,"message":"x"}}"#,
        // A name given twice, or escaped, is still there.
        r#"{"jsonrpc":"1.0","id":1,"result":{},"result":{}}"#,
        r#"{"jsonrpc":"1.0","id":1,"r\u0065sult":{}}"#,
        // What no JSON reader reads: a byte order mark first, a raw tab in
        // a string before the result, bytes that are not UTF-8.
        "\u{feff}{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}",
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"s\":\"a\tb\",\"result\":{}}",
    ] {
        assert_eq!(nothing(&stdio(&[answer]), false), Verdict::Fail, "{answer}");
        assert_eq!(nothing(&http(400, &[answer]), true), Verdict::Fail, "{answer}");
    }
    let not_utf8 =
        Answer { messages: vec![b"{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"t\":\"\xff\"}}".to_vec()], ..stdio(&[]) };
    assert_eq!(nothing(&not_utf8, false), Verdict::Fail);
    assert_eq!(nothing(&stdio(&[r#"{"jsonrpc":"2.0","id":1,"result":{}}"#]), false), Verdict::Fail);
    // On stdio an error is an answer, with an id or without, valid or not.
    assert_eq!(
        nothing(&stdio(&[r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"x"}}"#]), false),
        Verdict::Fail
    );
    assert_eq!(nothing(&stdio(&[r#"{"error":{"code":-32600,"message":"x"}}"#]), false), Verdict::Fail);
}

#[test]
fn a_refusal_may_carry_an_error_without_an_id_even_a_malformed_one() {
    let idless = r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"x"}}"#;
    assert_eq!(nothing(&http(400, &[idless]), true), Verdict::Pass);
    let no_jsonrpc = r#"{"id":null,"error":{"code":-32600,"message":"x"}}"#;
    assert_eq!(nothing(&http(400, &[no_jsonrpc]), true), Verdict::Pass);
    assert_eq!(nothing(&http(200, &[]), true), Verdict::Fail, "a success that is not 202");
}

#[test]
fn an_error_passes_only_with_the_code_and_id_wanted() {
    let want = Want { code: -32600, id: Some(Id::Int(7)), also: &[-32602], alike: &[] };
    let grade = |answer: &str| grade::error(blank(), &stdio(&[answer]), &want, Revision::V2025_11_25, false).verdict;
    assert_eq!(grade(r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"x"}}"#), Verdict::Pass);
    assert_eq!(grade(r#"{"jsonrpc":"2.0","id":"7","error":{"code":-32600,"message":"x"}}"#), Verdict::Fail);
    assert_eq!(grade(r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32700,"message":"x"}}"#), Verdict::Fail);
    assert_eq!(grade(r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"x"}}"#), Verdict::Warn);
    assert_eq!(grade(r#"{"jsonrpc":"2.0","id":7,"result":{}}"#), Verdict::Fail);
}

#[test]
fn ids_pass_when_each_is_answered_by_one_result() {
    let ids = [Id::Int(1), Id::Str("1".into())];
    let both = stdio(&[r#"{"jsonrpc":"2.0","id":1,"result":{}}"#, r#"{"jsonrpc":"2.0","id":"1","result":{}}"#]);
    assert!(grade::results(&both, &ids, Revision::V2025_11_25).is_empty());
    let one = stdio(&[r#"{"jsonrpc":"2.0","id":1,"result":{}}"#, r#"{"jsonrpc":"2.0","id":1,"result":{}}"#]);
    assert!(!grade::results(&one, &ids, Revision::V2025_11_25).is_empty(), "\"1\" is not 1");
}

#[test]
fn an_answer_is_described_by_its_status_text_and_first_messages_leaving_out_notifications() {
    let note = r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#;
    let pong = r#"{"jsonrpc":"2.0","id":1,"result":{}}"#;
    assert_eq!(stdio(&[]).describe(), "no answer");
    assert_eq!(stdio(&[note]).describe(), "no answer", "a notification answers nothing");
    assert_eq!(http(202, &[]).describe(), "202");
    assert_eq!(Answer { status: None, ..Answer::default() }.describe(), "no answer");
    assert_eq!(http(200, &[note, pong]).describe(), format!("200 {pong}"));
    let five: Vec<String> = (1..=5).map(|i| format!(r#"{{"jsonrpc":"2.0","id":{i},"result":{{}}}}"#)).collect();
    let five: Vec<&str> = five.iter().map(String::as_str).collect();
    let described = stdio(&five).describe();
    assert!(
        described.starts_with(five[0]) && described.contains(five[2]) && !described.contains(five[3]),
        "{described}"
    );
    assert!(described.ends_with("and 2 more"), "{described}");
    let three = stdio(&five[..3]).describe();
    assert!(three.ends_with(five[2]) && !three.contains("more"), "three are all shown: {three}");
    let page = Answer { status: Some(404), text: Some("<html>not here</html>".into()), ..Answer::default() };
    assert_eq!(page.describe(), r#"404 "<html>not here</html>""#);
    let failed = Answer { failure: Some("the server exited".into()), ..http(200, &[pong]) };
    assert_eq!(failed.describe(), "the server exited");
    // A success is any 2xx status, and only over HTTP.
    assert!(http(200, &[]).success() && http(299, &[]).success());
    assert!(!http(300, &[]).success() && !http(199, &[]).success() && !stdio(&[]).success());
}

#[test]
fn text_is_clipped_on_a_character_boundary_and_ids_written_as_json() {
    assert_eq!(grade::clip("short", 5), "short");
    assert_eq!(grade::clip("longer", 4), "long…");
    // "é" is two bytes: a cut inside it moves back before it.
    assert_eq!(grade::clip("aébc", 2), "a…");
    assert_eq!(grade::clip("aébc", 3), "aé…");
    let long = "x".repeat(200);
    let described = stdio(&[&format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"t":"{long}"}}}}"#)]).describe();
    assert_eq!(described.chars().count(), 161, "160 bytes and the ellipsis: {described}");
    assert_eq!(grade::id_json(&Id::Int(-7)), "-7");
    assert_eq!(grade::id_json(&Id::from("a\"b")), r#""a\"b""#);
}

#[test]
fn a_batch_in_an_answer_is_read_as_plain_json_rpc_whatever_the_revision() {
    let answer = stdio(&[
        r#" [{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0"}]"#,
        r#"{"jsonrpc":"2.0","id":2,"result":{}}"#,
    ]);
    let read = answer.read(Revision::V2025_11_25);
    // 2025-11-25 has no batches: read as JSON-RPC, its valid items kept.
    assert!(matches!(&read[..], [grade::Read::Batch(items), grade::Read::Message(_)] if items.len() == 1), "{read:?}");
    let broken = stdio(&["[1,"]);
    assert!(
        matches!(&broken.read(Revision::V2025_03_26)[..], [grade::Read::Invalid(why)] if why.starts_with("unexpected-end"))
    );
    // Only what opens with `[` is read again as plain JSON-RPC: a message
    // the revision refuses stays refused, even one JSON-RPC would take.
    let null_id = stdio(&[r#"{"jsonrpc":"2.0","id":null,"method":"m"}"#]);
    assert!(
        matches!(&null_id.read(Revision::V2025_11_25)[..], [grade::Read::Invalid(why)] if why.starts_with("null-id"))
    );
    let not_batch = stdio(&["{\"jsonrpc\":"]);
    assert!(
        matches!(&not_batch.read(Revision::V2025_11_25)[..], [grade::Read::Invalid(why)] if why == "unexpected-end at byte 11")
    );
}
