//! The examples of the JSON-RPC 2.0 specification (section 7), under the
//! plain JSON-RPC profile: each line the specification sends, and the
//! verdict it implies.

use mcp_envelope::{Envelope, Id, Kind, Message, Revision};

use crate::support::{Judgement, judgement, parse};

const J: Revision = Revision::JsonRpc;

#[test]
fn specification_requests_responses_and_notifications_classify() {
    for (input, kind) in [
        (r#"{"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}"#, Kind::Request),
        (r#"{"jsonrpc": "2.0", "result": 19, "id": 1}"#, Kind::Result),
        (r#"{"jsonrpc": "2.0", "result": -19, "id": 2}"#, Kind::Result),
        (
            r#"{"jsonrpc": "2.0", "method": "subtract", "params": {"subtrahend": 23, "minuend": 42}, "id": 3}"#,
            Kind::Request,
        ),
        (r#"{"jsonrpc": "2.0", "method": "update", "params": [1,2,3,4,5]}"#, Kind::Notification),
        (r#"{"jsonrpc": "2.0", "method": "foobar"}"#, Kind::Notification),
        (r#"{"jsonrpc": "2.0", "method": "foobar", "id": "1"}"#, Kind::Request),
        (r#"{"jsonrpc": "2.0", "error": {"code": -32601, "message": "Method not found"}, "id": "1"}"#, Kind::Error),
        (r#"{"jsonrpc": "2.0", "error": {"code": -32700, "message": "Parse error"}, "id": null}"#, Kind::Error),
        (r#"{"jsonrpc": "2.0", "error": {"code": -32600, "message": "Invalid Request"}, "id": null}"#, Kind::Error),
    ] {
        assert_eq!(judgement(J, input), Judgement::Valid(kind), "{input}");
    }
}

#[test]
fn specification_faults_get_the_codes_the_specification_answers_with() {
    for (input, code) in [
        // "rpc call with invalid JSON"
        (r#"{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]"#, -32700),
        // "rpc call with invalid Request object"
        (r#"{"jsonrpc": "2.0", "method": 1, "params": "bar"}"#, -32600),
        // "rpc call Batch, invalid JSON"
        (
            r#"[
  {"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},
  {"jsonrpc": "2.0", "method"
]"#,
            -32700,
        ),
        // "rpc call with an empty Array"
        ("[]", -32600),
    ] {
        let e = parse(J, input.as_bytes()).unwrap_err();
        assert_eq!(e.code(), code, "{input}");
    }
}

#[test]
fn specification_batches_judge_each_item() {
    // "rpc call with an invalid Batch (but not empty)" and "invalid Batch".
    for (input, items) in [("[1]", 1), ("[1,2,3]", 3)] {
        let Ok(Envelope::Batch(batch)) = parse(J, input.as_bytes()) else { panic!("{input}") };
        assert_eq!(batch.len(), items);
        assert!(batch.iter().all(|i| i.as_ref().is_err_and(|e| e.code() == -32600)));
    }
    // "rpc call Batch": two requests, a notification, an invalid item, and
    // two more requests.
    let input = r#"[
        {"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},
        {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]},
        {"jsonrpc": "2.0", "method": "subtract", "params": [42,23], "id": "2"},
        {"foo": "boo"},
        {"jsonrpc": "2.0", "method": "foo.get", "params": {"name": "myself"}, "id": "5"},
        {"jsonrpc": "2.0", "method": "get_data", "id": "9"}
    ]"#;
    let Ok(Envelope::Batch(batch)) = parse(J, input.as_bytes()) else { panic!() };
    let kinds: Vec<_> = batch.iter().map(|i| i.as_ref().map(Message::kind).map_err(|e| e.reason().name())).collect();
    assert_eq!(
        kinds,
        [
            Ok(Kind::Request),
            Ok(Kind::Notification),
            Ok(Kind::Request),
            Err("bare-payload"),
            Ok(Kind::Request),
            Ok(Kind::Request)
        ]
    );
    assert_eq!(batch[5].as_ref().ok().and_then(Message::id), Some(&Id::from("9")));
}
