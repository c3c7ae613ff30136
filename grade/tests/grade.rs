//! The probe's grading (RULES.md, section 9): what passes for an error, for
//! no answer, and for the results that answer ids.

use mcp_envelope::{Id, Revision};
use mcp_envelope_grade::{self as grade, Answer, Outcome, Verdict, Want};

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

#[test]
fn verdicts_are_named_as_the_scorecard_writes_them() {
    let names: Vec<&str> = [Verdict::Pass, Verdict::Fail, Verdict::Warn, Verdict::Skip].map(Verdict::name).to_vec();
    assert_eq!(names, ["pass", "fail", "warn", "skip"]);
}

#[test]
fn judging_keeps_the_worst_verdict_and_the_first_reason_given_for_it() {
    let outcome = blank().judge(Verdict::Warn, "first warning").judge(Verdict::Warn, "second warning");
    assert_eq!((outcome.verdict, outcome.why.as_deref()), (Verdict::Warn, Some("first warning")));
    let outcome = outcome.judge(Verdict::Fail, "a failure").judge(Verdict::Warn, "a later warning");
    assert_eq!((outcome.verdict, outcome.why.as_deref()), (Verdict::Fail, Some("a failure")));
    // A skip ranks with a pass: it never hides one.
    let outcome = blank().judge(Verdict::Skip, "not run");
    assert_eq!((outcome.verdict, outcome.why), (Verdict::Pass, None));
}

#[test]
fn the_error_wanted_is_described_with_its_code_id_and_over_http_its_status() {
    let want = Want { code: -32600, id: Some(Id::from("a")), also: &[], alike: &[] };
    assert_eq!(want.describe(false), r#"error -32600 with id "a""#);
    let want = Want { code: -32700, id: None, also: &[], alike: &[] };
    assert_eq!(want.describe(true), "error -32700 with id null, an HTTP error status");
}

fn error_grade(want: &Want, answer: &Answer, http: bool) -> (Verdict, Option<String>) {
    let outcome = grade::error(blank(), answer, want, Revision::V2025_11_25, http);
    (outcome.verdict, outcome.why)
}

#[test]
fn an_error_over_http_wants_an_error_status_and_the_json_rpc_error() {
    let want = Want { code: -32600, id: None, also: &[], alike: &[] };
    let refusal = r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"x"}}"#;
    assert_eq!(error_grade(&want, &http(400, &[refusal]), true), (Verdict::Pass, None));
    assert_eq!(
        error_grade(&want, &http(200, &[refusal]), true),
        (Verdict::Warn, Some("a success status for input the server could not accept".into()))
    );
    assert_eq!(
        error_grade(&want, &http(202, &[]), true),
        (Verdict::Fail, Some("accepted (202) without the error json-rpc gives it".into()))
    );
    assert_eq!(
        error_grade(&want, &http(400, &[]), true),
        (Verdict::Warn, Some("refused by its status alone, without the json-rpc error".into()))
    );
    // On stdio nothing at all is a failure, status or none.
    assert_eq!(error_grade(&want, &stdio(&[]), false), (Verdict::Fail, Some("no error came".into())));
    assert_eq!(error_grade(&want, &stdio(&[refusal]), false), (Verdict::Pass, None));
    let gone = Answer { failure: Some("the server exited".into()), ..stdio(&[refusal]) };
    assert_eq!(error_grade(&want, &gone, false), (Verdict::Fail, Some("the server exited".into())));
}

#[test]
fn an_error_fails_when_more_than_one_answer_comes() {
    let want = Want { code: -32600, id: None, also: &[], alike: &[] };
    let refusal = r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"x"}}"#;
    let more = Some("more than one answer".to_owned());
    assert_eq!(error_grade(&want, &stdio(&[refusal, refusal]), false), (Verdict::Fail, more.clone()));
    let result = r#"{"jsonrpc":"2.0","id":3,"result":{}}"#;
    assert_eq!(error_grade(&want, &stdio(&[refusal, result]), false), (Verdict::Fail, more));
    // The server's own notifications are no answer.
    let note = r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}"#;
    assert_eq!(error_grade(&want, &stdio(&[note, refusal]), false), (Verdict::Pass, None));
}

#[test]
fn a_code_other_than_the_one_due_warns_only_where_the_text_is_loose_and_never_between_parse_and_invalid() {
    let want = Want { code: -32600, id: None, also: &[-32602, -32700], alike: &[-32603] };
    let with_code = |code: i64| format!(r#"{{"jsonrpc":"2.0","id":null,"error":{{"code":{code},"message":"x"}}}}"#);
    let grade = |code: i64| error_grade(&want, &stdio(&[&with_code(code)]), false);
    assert_eq!(grade(-32602), (Verdict::Warn, Some("code -32602, where -32600 is due".into())));
    assert_eq!(grade(-32603), (Verdict::Pass, None), "as good as the code due");
    assert_eq!(grade(-32601), (Verdict::Fail, Some("code -32601, where -32600 is due".into())));
    // A parse error for an invalid request (or the reverse) is the one
    // confusion the rules never allow, listed or not.
    assert_eq!(grade(-32700), (Verdict::Fail, Some("code -32700, where -32600 is due".into())));
    let want = Want { code: -32700, id: None, also: &[-32600], alike: &[] };
    assert_eq!(
        error_grade(&want, &stdio(&[&with_code(-32600)]), false),
        (Verdict::Fail, Some("code -32600, where -32700 is due".into()))
    );
}

#[test]
fn an_error_with_the_wrong_id_fails_naming_the_id_it_carried() {
    let want = Want { code: -32600, id: None, also: &[], alike: &[] };
    let answer = stdio(&[r#"{"jsonrpc":"2.0","id":"x","error":{"code":-32600,"message":"x"}}"#]);
    assert_eq!(
        error_grade(&want, &answer, false),
        (Verdict::Fail, Some(r#"id "x", not the one the rules give"#.into()))
    );
}

#[test]
fn over_http_an_error_with_an_id_answers_what_gets_none_even_on_a_refusal() {
    let answered = Some("a json-rpc answer to what gets none".to_owned());
    let with_id = r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32600,"message":"x"}}"#;
    let outcome = grade::nothing(blank(), &http(400, &[with_id]), Revision::V2025_11_25, true);
    assert_eq!((outcome.verdict, outcome.why), (Verdict::Fail, answered));
    let pong = r#"{"jsonrpc":"2.0","id":1,"result":{}}"#;
    let outcome = grade::nothing(blank(), &http(202, &[pong]), Revision::V2025_11_25, true);
    assert_eq!((outcome.verdict, outcome.why.as_deref()), (Verdict::Fail, Some("202 with a body")));
    let page = Answer { text: Some("ok".into()), ..http(202, &[]) };
    assert_eq!(nothing(&page, true), Verdict::Fail, "a body in text is a body too");
    let outcome = grade::nothing(blank(), &http(200, &[]), Revision::V2025_11_25, true);
    assert_eq!(outcome.why.as_deref(), Some("200, not 202 Accepted"));
    let gone = Answer { failure: Some("the connection failed".into()), ..http(202, &[]) };
    assert_eq!(nothing(&gone, true), Verdict::Fail);
}

#[test]
fn results_name_each_id_missing_repeated_or_never_sent_and_every_error_or_invalid_answer() {
    let result = |id: &str| format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{}}}}"#);
    let one = stdio(&[&result("1")]);
    assert_eq!(grade::results(&one, &[Id::Int(1)], Revision::V2025_11_25), Vec::<String>::new());
    let answer = stdio(&[
        &result("1"),
        &result("1"),
        &result("3"),
        r#"{"jsonrpc":"2.0","id":4,"error":{"code":-32601,"message":"no such method"}}"#,
        r#"{"jsonrpc":"2.0","id":5}"#,
    ]);
    assert_eq!(
        grade::results(&answer, &[Id::Int(1), Id::Int(2)], Revision::V2025_11_25),
        [
            "an error -32601 (no such method)",
            "an invalid answer (incomplete-envelope at byte 0)",
            "2 results for id 1",
            "no result for id 2",
            "a result for id 3 that was not sent",
        ]
    );
}
