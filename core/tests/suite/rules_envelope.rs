//! RULES.md section 2: the envelope, as JSON-RPC 2.0 and each MCP revision
//! define it.

use std::borrow::Cow;

use mcp_envelope::{Envelope, Id, Kind, Limits, Message, Revision};

use crate::support::{Judgement, error, invalid, judgement, message, parse, parse_limited};

const LATEST: Revision = Revision::V2026_07_28;
const MCP: [Revision; 5] =
    [Revision::V2024_11_05, Revision::V2025_03_26, Revision::V2025_06_18, Revision::V2025_11_25, Revision::V2026_07_28];

fn valid(kind: Kind) -> Judgement {
    Judgement::Valid(kind)
}

#[test]
fn method_and_id_make_a_request() {
    let m = message(LATEST, r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}"#);
    let Message::Request(r) = m else { panic!("{m:?}") };
    assert_eq!((r.id, r.method.as_ref(), r.params.as_ref().map(|p| p.get())), (Id::Int(1), "tools/list", Some("{}")));
}

#[test]
fn method_without_id_makes_a_notification() {
    let m = message(LATEST, r#"{"method":"notifications/initialized","jsonrpc":"2.0"}"#);
    assert_eq!((m.kind(), m.id(), m.method()), (Kind::Notification, None, Some("notifications/initialized")));
}

#[test]
fn result_and_id_make_a_result_response() {
    let m = message(LATEST, r#"{"jsonrpc":"2.0","id":"a","result":{"resultType":"complete"}}"#);
    let Message::Result(r) = m else { panic!("{m:?}") };
    assert_eq!(
        (&r.id, r.result.get(), r.result_type_or_complete()),
        (&Id::from("a"), r#"{"resultType":"complete"}"#, "complete")
    );
}

#[test]
fn error_makes_an_error_response() {
    let m =
        message(LATEST, r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no such method","data":[1]}}"#);
    let Message::Error(e) = m else { panic!("{m:?}") };
    assert_eq!((e.id, e.error.code, e.error.message.as_ref()), (Some(Id::Int(1)), -32601, "no such method"));
    assert_eq!(e.error.data.as_ref().map(|d| d.get()), Some("[1]"));
}

#[test]
fn members_of_two_kinds_are_an_invalid_request() {
    // The fault is at the name of the second of the conflicting members.
    for (input, second) in [
        (r#"{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"m"}}"#, r#""error""#),
        (r#"{"jsonrpc":"2.0","id":1,"method":"m","result":{}}"#, r#""result""#),
        (r#"{"jsonrpc":"2.0","error":{"code":1,"message":"m"},"method":"m"}"#, r#""method""#),
        // All three: still the second of them, not the last.
        (r#"{"jsonrpc":"2.0","id":1,"result":{},"method":"m","error":{"code":1,"message":"m"}}"#, r#""method""#),
        (r#"{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m"},"result":{},"method":"m"}"#, r#""result""#),
    ] {
        assert_eq!(judgement(LATEST, input), invalid("conflicting-members", input.find(second).unwrap()), "{input}");
    }
}

#[test]
fn a_top_level_scalar_is_an_invalid_request() {
    for input in [r#""tools/list""#, "42", "true", "null", " -1.5e3 "] {
        let e = error(LATEST, input);
        assert_eq!((e.code(), e.reason().name()), (-32600, "not-an-object"), "{input}");
    }
}

#[test]
fn a_top_level_array_is_a_batch_only_where_the_revision_has_batches() {
    let batch = r#"[{"jsonrpc":"2.0","id":1,"method":"a"},{"jsonrpc":"2.0","method":"b"}]"#;
    for revision in Revision::ALL {
        let expected = if revision.allows_batches() { valid(Kind::Batch) } else { invalid("batch-not-allowed", 0) };
        assert_eq!(judgement(revision, batch), expected, "{revision}");
    }
    let e = error(Revision::V2025_06_18, batch);
    assert!(e.hint().is_some_and(|h| h.contains("2025-03-26")));
}

#[test]
fn batch_items_are_judged_one_by_one_and_an_empty_batch_is_invalid() {
    let input = r#"[{"jsonrpc":"2.0","id":1,"method":"a"}, 1, {"jsonrpc":"2.0","id":2,"id":3,"method":"b"}]"#;
    let Ok(Envelope::Batch(items)) = parse(Revision::JsonRpc, input.as_bytes()) else { panic!() };
    let summary: Vec<_> =
        items.iter().map(|i| i.as_ref().map(Message::kind).map_err(|e| (e.reason().name(), e.offset()))).collect();
    let (one, repeat) = (input.find(" 1,").unwrap() + 1, input.find(r#""id":3"#).unwrap());
    assert_eq!(summary, [Ok(Kind::Request), Err(("not-an-object", one)), Err(("duplicate-member", repeat))]);
    assert_eq!(judgement(Revision::V2025_03_26, " [ ] "), invalid("empty-batch", 1));
}

#[test]
fn a_batch_longer_than_the_limit_is_an_invalid_request_at_its_first_extra_item() {
    let item = r#"{"jsonrpc":"2.0","method":"a"}"#;
    let batch = |n: usize| format!("[{}]", vec![item; n].join(" , "));
    let limits = Limits::new().with_max_batch_len(3);
    assert!(
        matches!(parse_limited(Revision::JsonRpc, limits, batch(3).as_bytes()), Ok(Envelope::Batch(i)) if i.len() == 3)
    );
    let four = batch(4);
    let fourth = four.rfind('{').unwrap();
    let e = parse_limited(Revision::JsonRpc, limits, four.as_bytes()).unwrap_err();
    assert_eq!((e.code(), e.reason().name(), e.offset()), (-32600, "batch-too-long", fourth));
    assert!(e.id().is_none(), "a batch has no id: the answer carries null");
    // Items that are not even objects count too: the limit is on items.
    let e = parse_limited(Revision::V2025_03_26, limits, b"[1,2,3,4,5]").unwrap_err();
    assert_eq!((e.reason().name(), e.offset()), ("batch-too-long", 7));
    // The default is documented and holds exactly at its edge.
    assert_eq!(Limits::new().max_batch_len, 1024);
    assert!(parse(Revision::JsonRpc, batch(1024).as_bytes()).is_ok());
    assert_eq!(error(Revision::JsonRpc, &batch(1025)).reason().name(), "batch-too-long");
    // Zero is brought up to one, as the other limits are brought into range.
    assert_eq!(Limits::new().with_max_batch_len(0).max_batch_len, 1);
}

#[test]
fn an_object_without_envelope_members_is_a_bare_payload() {
    let e = error(LATEST, r#"{"tools":[{"name":"get_me","inputSchema":{"type":"object"}}]}"#);
    assert_eq!((e.code(), e.reason().name(), e.offset()), (-32600, "bare-payload", 0));
    assert!(e.hint().is_some_and(|h| h.contains("without a json-rpc envelope")));
    assert_eq!(judgement(LATEST, r#"{"jsonrpc":"2.0"}"#), invalid("incomplete-envelope", 0));
    assert_eq!(judgement(LATEST, r#"{"jsonrpc":"2.0","id":4}"#), invalid("incomplete-envelope", 0));
}

#[test]
fn jsonrpc_must_be_exactly_the_string_2_0() {
    assert_eq!(judgement(LATEST, r#"{"id":1,"method":"m"}"#), invalid("missing-jsonrpc", 0));
    for value in [r#""2""#, r#""1.0""#, "2.0", r#""2.0 ""#, r#""2.00""#, r#""\u0032.1""#, "null", r#"["2.0"]"#] {
        let input = format!(r#"{{"jsonrpc":{value},"id":1,"method":"m"}}"#);
        assert_eq!(judgement(LATEST, &input), invalid("invalid-jsonrpc", 11), "{value}");
    }
    // Escapes are decoded before the comparison.
    assert_eq!(judgement(LATEST, r#"{"jsonrpc":"\u0032.0","method":"m"}"#), valid(Kind::Notification));
    assert_eq!(judgement(LATEST, r#"{"jsonrpc":"2\u002e0","method":"m"}"#), valid(Kind::Notification));
}

#[test]
fn a_repeated_member_name_is_an_invalid_request() {
    // The fault is at the second occurrence of the name.
    for (input, repeat) in [
        (r#"{"jsonrpc":"2.0","id":1,"method":"a","method":"b"}"#, r#""method":"b""#),
        (r#"{"jsonrpc":"2.0","jsonrpc":"2.0","method":"a"}"#, r#""jsonrpc":"2.0","method""#),
        // Unknown members too, and names spelled with escapes.
        (r#"{"jsonrpc":"2.0","x":1,"method":"a","x":2}"#, r#""x":2"#),
        (r#"{"jsonrpc":"2.0","id":1,"i\u0064":2,"method":"a"}"#, r#""i\u0064""#),
        (r#"{"jsonrpc":"2.0","x\u0031":1,"method":"a","x1":2}"#, r#""x1""#),
        // And inside the error object.
        (r#"{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"a","code":2}}"#, r#""code":2"#),
    ] {
        assert_eq!(judgement(LATEST, input), invalid("duplicate-member", input.find(repeat).unwrap()), "{input}");
    }
}

#[test]
fn repeated_names_are_found_in_objects_of_any_size() {
    let mut members: Vec<String> = (0..5000).map(|i| format!(r#""k{i}":{i}"#)).collect();
    members.push(r#""k17":0"#.into());
    members.push(r#""k3":0"#.into());
    let input = format!(r#"{{"jsonrpc":"2.0","method":"m",{}}}"#, members.join(","));
    let at = input.find(r#""k17":0"#).unwrap();
    assert_eq!(judgement(LATEST, &input), invalid("duplicate-member", at));
    // In a large object too, a name spelled with escapes is the same name.
    let mut members: Vec<String> = (0..50).map(|i| format!(r#""k{i}":{i}"#)).collect();
    members.push(r#""k\u0034\u0032":0"#.into());
    let input = format!(r#"{{"jsonrpc":"2.0","method":"m",{}}}"#, members.join(","));
    let at = input.find(r#""k\u0034"#).unwrap();
    assert_eq!(judgement(LATEST, &input), invalid("duplicate-member", at));
    // Past 131 072 members the names are checked in partitions: the first
    // repeat in document order is still the one named, escaped or not, a
    // wanted name's included.
    let members: Vec<String> = (0..200_000).map(|i| format!(r#""k{i}":{i}"#)).collect();
    let body = members.join(",");
    for (late, first) in [
        (r#""k199999":0,"k\u0031\u0037":0"#, r#""k199999":0"#),
        (r#""k\u0031\u0037":0,"k5":0"#, r#""k\u0031"#),
        (r#""method":"again","k5":0"#, r#""method":"again""#),
    ] {
        let input = format!(r#"{{"jsonrpc":"2.0","method":"m",{body},{late}}}"#);
        let at = input.find(first).unwrap();
        assert_eq!(judgement(LATEST, &input), invalid("duplicate-member", at), "{late}");
    }
    let input = format!(r#"{{"jsonrpc":"2.0","method":"m",{body}}}"#);
    assert_eq!(judgement(LATEST, &input), valid(Kind::Notification));
}

#[test]
fn unknown_members_are_ignored() {
    let input = r#"{"jsonrpc":"2.0","id":1,"method":"m","extra":{"deep":[1,2]},"_meta":null}"#;
    assert_eq!(judgement(LATEST, input), valid(Kind::Request));
}

#[test]
fn a_string_id_is_valid_with_any_content() {
    for (raw, id) in [(r#""""#, ""), (r#"" ""#, " "), (r#""\n\"\\""#, "\n\"\\"), (r#""1""#, "1"), (r#""null""#, "null")]
    {
        let input = format!(r#"{{"jsonrpc":"2.0","id":{raw},"method":"m"}}"#);
        assert_eq!(message(LATEST, &input).id(), Some(&Id::from(id)), "{raw}");
    }
}

#[test]
fn method_and_string_ids_borrow_unless_they_have_escapes() {
    let m = message(LATEST, r#"{"jsonrpc":"2.0","id":"plain","method":"tools/list"}"#);
    let Message::Request(r) = m else { panic!() };
    assert!(matches!((&r.id, &r.method), (Id::Str(Cow::Borrowed(_)), Cow::Borrowed(_))));
    let m = message(LATEST, r#"{"jsonrpc":"2.0","id":"\u0041","method":"tools\/list"}"#);
    let Message::Request(r) = m else { panic!() };
    assert!(matches!((&r.id, &r.method), (Id::Str(Cow::Owned(_)), Cow::Owned(_))));
    assert_eq!((r.id, r.method.as_ref()), (Id::from("A"), "tools/list"));
}

#[test]
fn integral_number_ids_are_integers() {
    for (raw, n) in [("1", 1), ("-5", -5), ("1.0", 1), ("1e2", 100), ("-0", 0), ("9223372036854775807", i64::MAX)] {
        let input = format!(r#"{{"jsonrpc":"2.0","id":{raw},"method":"m"}}"#);
        assert_eq!(message(LATEST, &input).id(), Some(&Id::Int(n)), "{raw}");
    }
}

#[test]
fn non_integral_or_structured_ids_are_an_invalid_request() {
    for raw in ["1.5", "1e19", "9223372036854775808", "true", "{}", "[]", "[1]"] {
        for tail in [r#""method":"m""#, r#""result":{}"#, r#""error":{"code":1,"message":"m"}"#] {
            let input = format!(r#"{{"jsonrpc":"2.0","id":{raw},{tail}}}"#);
            assert_eq!(judgement(LATEST, &input), invalid("invalid-id", 22), "{input}");
        }
    }
}

#[test]
fn a_null_request_id_is_invalid_under_mcp_and_a_request_under_plain_json_rpc() {
    let input = r#"{"jsonrpc":"2.0","id":null,"method":"m"}"#;
    for revision in MCP {
        assert_eq!(judgement(revision, input), invalid("null-id", 22), "{revision}");
    }
    assert_eq!(message(Revision::JsonRpc, input).id(), Some(&Id::Null));
    let result = r#"{"jsonrpc":"2.0","id":null,"result":{}}"#;
    assert_eq!(judgement(LATEST, result), invalid("null-id", 22));
    assert_eq!(judgement(Revision::JsonRpc, result), valid(Kind::Result));
}

#[test]
fn an_error_response_id_may_be_null_always_and_absent_from_2025_11_25() {
    let null = r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}"#;
    let absent = r#"{"jsonrpc":"2.0","error":{"code":-32700,"message":"Parse error"}}"#;
    for revision in Revision::ALL {
        assert_eq!(message(revision, null).id(), None, "{revision}");
        let expected = if revision.allows_error_without_id() { valid(Kind::Error) } else { invalid("missing-id", 0) };
        assert_eq!(judgement(revision, absent), expected, "{revision}");
    }
    assert_eq!(judgement(LATEST, r#"{"jsonrpc":"2.0","result":{}}"#), invalid("missing-id", 0));
}

#[test]
fn a_method_that_is_not_a_string_is_an_invalid_request() {
    // jsonrpsee answers this with -32700; it is valid JSON, so -32600.
    for raw in ["1", "null", r#"["m"]"#, "{}"] {
        let input = format!(r#"{{"jsonrpc":"2.0","method":{raw}}}"#);
        let e = error(LATEST, &input);
        assert_eq!((e.code(), e.reason().name(), e.offset()), (-32600, "invalid-method", 26), "{raw}");
    }
}

#[test]
fn params_must_be_an_object_under_mcp_and_structured_under_plain_json_rpc() {
    for raw in ["[1,2]", "null", r#""s""#, "3"] {
        let input = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"m","params":{raw}}}"#);
        for revision in MCP {
            assert_eq!(judgement(revision, &input), invalid("params-not-object", 46), "{revision} {raw}");
        }
        let expected = if raw.starts_with('[') { valid(Kind::Request) } else { invalid("params-not-structured", 46) };
        assert_eq!(judgement(Revision::JsonRpc, &input), expected, "{raw}");
    }
}

#[test]
fn result_must_be_an_object_under_mcp_and_may_be_anything_under_plain_json_rpc() {
    for raw in ["19", "null", "[]", r#""ok""#] {
        let input = format!(r#"{{"jsonrpc":"2.0","id":1,"result":{raw}}}"#);
        for revision in MCP {
            assert_eq!(judgement(revision, &input), invalid("result-not-object", 33), "{revision} {raw}");
        }
        assert_eq!(judgement(Revision::JsonRpc, &input), valid(Kind::Result), "{raw}");
    }
}

#[test]
fn result_type_must_be_a_string_under_2026_07_28_and_absent_means_complete() {
    let bad = r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":1}}"#;
    assert_eq!(judgement(LATEST, bad), invalid("result-type-not-string", 47));
    for revision in [Revision::V2025_11_25, Revision::JsonRpc] {
        assert_eq!(judgement(revision, bad), valid(Kind::Result), "{revision}");
    }
    let Message::Result(r) = message(LATEST, r#"{"jsonrpc":"2.0","id":1,"result":{}}"#) else { panic!() };
    assert_eq!((&r.result_type, r.result_type_or_complete()), (&None, "complete"));
    let Message::Result(r) = message(LATEST, r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"incomplete"}}"#) else {
        panic!()
    };
    assert_eq!(r.result_type.as_deref(), Some("incomplete"));
    // The member's name is read through escapes; names of other lengths,
    // escaped or not, are other members.
    let with = |result: &str| format!(r#"{{"jsonrpc":"2.0","id":1,"result":{result}}}"#);
    let escaped = with(r#"{"result\u0054ype":"incomplete"}"#);
    let Message::Result(r) = message(LATEST, &escaped) else { panic!() };
    assert_eq!(r.result_type.as_deref(), Some("incomplete"));
    let escaped_bad = with(r#"{"resultTyp\u0065":1}"#);
    assert_eq!(judgement(LATEST, &escaped_bad), invalid("result-type-not-string", escaped_bad.len() - 3));
    let others = with(r#"{"resultTyp":1,"resultTypes":1,"result\tType":1,"\u0072esultTyp":1}"#);
    let Message::Result(r) = message(LATEST, &others) else { panic!() };
    assert_eq!(r.result_type, None);
}

#[test]
fn the_error_member_must_hold_an_integer_code_and_a_string_message() {
    let e = |error: &str| format!(r#"{{"jsonrpc":"2.0","id":1,"error":{error}}}"#);
    for (error, reason, at) in [
        ("[]", "error-not-object", 32),
        (r#""boom""#, "error-not-object", 32),
        (r#"{"message":"m"}"#, "missing-error-code", 32),
        (r#"{"code":1.5,"message":"m"}"#, "invalid-error-code", 40),
        (r#"{"code":"-32600","message":"m"}"#, "invalid-error-code", 40),
        (r#"{"code":1e19,"message":"m"}"#, "invalid-error-code", 40),
        (r#"{"code":1}"#, "missing-error-message", 32),
        (r#"{"code":1,"message":null}"#, "invalid-error-message", 52),
    ] {
        assert_eq!(judgement(LATEST, &e(error)), invalid(reason, at), "{error}");
    }
    let integral = e(r#"{"code":-3.26e4,"message":"m","extra":1}"#);
    let Message::Error(r) = message(LATEST, &integral) else { panic!() };
    assert_eq!((r.error.code, r.error.data), (-32600, None));
}

#[test]
fn an_invalid_message_still_yields_its_readable_id() {
    let e = error(LATEST, r#"{"jsonrpc":"2.0","id":"req-7","method":5}"#);
    assert_eq!((e.reason().name(), e.id()), ("invalid-method", Some(&Id::from("req-7"))));
    let e = error(LATEST, r#"{"jsonrpc":"1.0","id":7,"method":"m"}"#);
    assert_eq!(e.id(), Some(&Id::Int(7)));
    // Not when the id itself is the fault, or repeated, or the JSON is broken.
    assert_eq!(error(LATEST, r#"{"jsonrpc":"2.0","id":1.5,"method":"m"}"#).id(), None);
    assert_eq!(error(LATEST, r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"m"}"#).id(), None);
    assert_eq!(error(LATEST, r#"{"jsonrpc":"2.0","id":1,"method":"m""#).id(), None);
    assert_eq!(error(LATEST, r#"{"jsonrpc":"2.0","id":1,"x":0,"x":0,"method":"m"}"#).id(), Some(&Id::Int(1)));
    // A repeated name spelled with escapes is the id only if it decodes to
    // `id`: longer than `id` and escaped is not enough.
    assert_eq!(error(LATEST, r#"{"jsonrpc":"2.0","id":1,"\u0078":0,"\u0078":0,"method":"m"}"#).id(), Some(&Id::Int(1)));
    assert_eq!(error(LATEST, r#"{"jsonrpc":"2.0","id":1,"\u0069d":2,"method":"m"}"#).id(), None);
}

#[test]
fn the_peer_bugs_of_rules_section_6_get_the_right_answer() {
    // rmcp up to 3.1 and jsonrpsee read these as notifications; they are
    // invalid requests whose fault is the id.
    for raw in ["null", "1.5", "true", "{}"] {
        let input = format!(r#"{{"jsonrpc":"2.0","id":{raw},"method":"tools/list"}}"#);
        let e = error(LATEST, &input);
        assert_eq!((e.code(), e.offset()), (-32600, 22), "{raw}");
    }
    // jsonrpsee reads -5 as a notification: it is a request.
    assert_eq!(message(LATEST, r#"{"jsonrpc":"2.0","id":-5,"method":"m"}"#).kind(), Kind::Request);
    // rmcp's untyped message rejects a request without params: it is valid.
    assert_eq!(judgement(LATEST, r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#), valid(Kind::Request));
}

#[test]
fn a_member_name_spelled_with_escapes_is_that_member_however_many_members_there_are() {
    // Up to eight members the names are compared pairwise, past that in a
    // hash table: each way must decode an escaped envelope name.
    for extra in [0, 4, 9, 40] {
        let others: String = (0..extra).map(|k| format!(r#","x{k}":{k}"#)).collect();
        let input = format!(r#"{{"jsonrpc":"2.0","\u0069d":7,"\u006dethod":"tools/list"{others}}}"#);
        let m = message(LATEST, &input);
        assert_eq!(
            (m.kind(), m.id(), m.method()),
            (Kind::Request, Some(&Id::Int(7)), Some("tools/list")),
            "{extra} others"
        );
    }
}
