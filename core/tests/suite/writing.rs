//! Canonical writing: what `write` produces parses back to the same message.

use mcp_envelope::{Envelope, Id, Message, Reply, Revision, check_json, write};

use crate::support::{error, parse};

fn round_trip(revision: Revision, input: &str) {
    let Ok(Envelope::Single(original)) = parse(revision, input.as_bytes()) else { panic!("{input}") };
    let mut out = Vec::new();
    write::message(&mut out, &original);
    let Ok(Envelope::Single(again)) = parse(revision, &out) else { panic!("{}", String::from_utf8_lossy(&out)) };
    assert_eq!(again, original, "{}", String::from_utf8_lossy(&out));
}

#[test]
fn parse_of_write_gives_back_every_kind_of_message() {
    for input in [
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{"q":"\"quoted\"\n"}}}"#,
        r#"{"jsonrpc":"2.0","id":"s\u0000\u001f\\","method":"m\u2028é\ud83d\ude00"}"#,
        r#"{"jsonrpc":"2.0","id":-9223372036854775808,"method":"m"}"#,
        r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":0.5,"big":1e400}}"#,
        r#"{"jsonrpc":"2.0","id":9223372036854775807,"result":{"resultType":"complete","content":[]}}"#,
        r#"{"jsonrpc":"2.0","id":"e","error":{"code":-32602,"message":"tab\there","data":{"k":[null]}}}"#,
        r#"{"jsonrpc":"2.0","id":null,"error":{"code":-1,"message":""}}"#,
    ] {
        for revision in Revision::ALL {
            round_trip(revision, input);
        }
    }
    round_trip(Revision::JsonRpc, r#"{"jsonrpc":"2.0","id":null,"method":"m","params":[1,2]}"#);
}

#[test]
fn a_fault_is_answered_in_one_call_with_its_id_code_and_position() {
    let bad = r#"{"jsonrpc":"2.0","id":"r1","method":["x"]}"#;
    let mut out = Vec::new();
    write::error_for(&mut out, &error(Revision::V2026_07_28, bad));
    assert_eq!(
        String::from_utf8(out.clone()).unwrap(),
        r#"{"jsonrpc":"2.0","id":"r1","error":{"code":-32600,"message":"method is not a string","data":{"reason":"invalid-method","offset":36}}}"#
    );
    let Ok(Envelope::Single(Message::Error(answer))) = parse(Revision::V2026_07_28, &out) else { panic!() };
    assert_eq!((answer.id, answer.error.code), (Some(Id::from("r1")), -32600));
    // A parse error has no readable id: null.
    out.clear();
    write::error_for(&mut out, &error(Revision::V2026_07_28, "{"));
    assert!(String::from_utf8(out).unwrap().starts_with(r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"#));
}

#[test]
fn a_broken_response_is_never_answered() {
    for broken in [
        r#"{"jsonrpc":"2.0","id":9,"result":{},"error":{"code":1,"message":"x"}}"#,
        r#"{"jsonrpc":"2.0","id":true,"result":{}}"#,
        r#"{"jsonrpc":"2.0","id":9,"error":{"code":"x","message":"m"}}"#,
        r#"{"jsonrpc":"2.0","id":9,"id":9,"result":{}}"#,
        r#"{"jsonrpc":"1.0","id":9,"result":{}}"#,
        r#"{"result":{}}"#,
    ] {
        let fault = error(Revision::V2026_07_28, broken);
        assert_eq!(fault.reply(), Reply::NotAnswered, "{broken}");
        let mut out = Vec::new();
        assert!(!write::error_for(&mut out, &fault), "{broken}");
        assert!(out.is_empty(), "{broken}: {}", String::from_utf8_lossy(&out));
    }
    // Requests are answered: with the id, or null when it cannot be read.
    let fault = error(Revision::V2026_07_28, r#"{"jsonrpc":"2.0","id":9,"method":1}"#);
    assert_eq!(fault.reply(), Reply::WithId(&Id::Int(9)));
    let fault = error(Revision::V2026_07_28, r#"{"jsonrpc":"2.0","id":[9],"method":"m","result":{}}"#);
    assert_eq!(fault.reply(), Reply::WithNullId);
    // A parse error is answered with null, whatever the text looked like.
    assert_eq!(error(Revision::V2026_07_28, r#"{"jsonrpc":"2.0","id":9,"result":{}"#).reply(), Reply::WithNullId);
}

#[test]
fn builders_write_requests_from_checked_payloads() {
    let params = check_json(r#" {"uri":"file:///a"} "#).unwrap();
    let mut out = Vec::new();
    write::request(&mut out, &Id::Int(3), "resources/read", Some(&params));
    assert_eq!(
        String::from_utf8(out).unwrap(),
        r#"{"jsonrpc":"2.0","id":3,"method":"resources/read","params":{"uri":"file:///a"}}"#
    );
    assert_eq!(check_json(r#"{"a":"\ud800"}"#).unwrap_err().reason.name(), "lone-surrogate");
    let mut out = Vec::new();
    write::batch(&mut out, &[Message::Notification(mcp_envelope::Notification { method: "a".into(), params: None })]);
    assert_eq!(String::from_utf8(out).unwrap(), r#"[{"jsonrpc":"2.0","method":"a"}]"#);
}

#[test]
fn strings_take_the_short_escapes_where_json_has_them_and_u00xx_for_other_controls() {
    let mut out = Vec::new();
    write::string(&mut out, "a \"b\" \\ \n\r\t\u{8}\u{c}\u{0}\u{19}\u{1a}\u{1f} \u{7f}é");
    // A space and DEL are no control characters to JSON: written as they are.
    // 0x19 and 0x1A: the hex digits either side of the step from 9 to a.
    let want = format!(r#""a \"b\" \\ \n\r\t\b\f\u0000\u0019\u001a\u001f {}é""#, '\u{7f}');
    assert_eq!(String::from_utf8(out).unwrap(), want);
}

#[test]
fn integers_are_written_in_decimal_with_a_sign_only_below_zero() {
    for (n, text) in
        [(0, "0"), (7, "7"), (-7, "-7"), (i64::MAX, "9223372036854775807"), (i64::MIN, "-9223372036854775808")]
    {
        let mut out = Vec::new();
        write::integer(&mut out, n);
        assert_eq!(out, text.as_bytes(), "{n}");
    }
}

#[test]
fn a_batch_separates_its_messages_with_commas() {
    let ping = |id| Message::Request(mcp_envelope::Request { id: Id::Int(id), method: "ping".into(), params: None });
    let mut out = Vec::new();
    write::batch(&mut out, &[ping(1), ping(2), ping(3)]);
    let one = r#"{"jsonrpc":"2.0","id":N,"method":"ping"}"#;
    let want = format!("[{},{},{}]", one.replace('N', "1"), one.replace('N', "2"), one.replace('N', "3"));
    assert_eq!(String::from_utf8(out).unwrap(), want);
}
