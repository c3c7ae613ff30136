//! What a Rust program holds the parser's results with: owned forms, the
//! batch iterator, one code type, errors that display, serde.

use std::borrow::Cow;

use mcp_envelope::{Envelope, Error, Fault, Id, Limits, Message, Parser, RawJson, Reason, Revision, check_json};

fn parse_owned(line: &str) -> Envelope<'static> {
    let bytes = line.as_bytes().to_vec();
    let mut parser = Parser::new(Revision::JsonRpc);
    let envelope = parser.parse(&bytes).unwrap().into_owned();
    drop(bytes);
    envelope
}

#[test]
fn an_owned_envelope_outlives_its_input() {
    let envelope = parse_owned(r#"{"jsonrpc":"2.0","id":"a\n","method":"tools/call","params":{"x":[1]}}"#);
    let Envelope::Single(Message::Request(r)) = &envelope else { panic!("{envelope:?}") };
    assert_eq!((r.id.clone(), r.method.as_ref()), (Id::from("a\n"), "tools/call"));
    assert_eq!(r.params.as_ref().map(RawJson::get), Some(r#"{"x":[1]}"#));
    assert_eq!(r.params.as_ref().and_then(RawJson::borrowed), None, "owned, not borrowed");
    let batch = parse_owned(r#"[{"jsonrpc":"2.0","id":1,"result":7},{"jsonrpc":"2.0","id":1,"id":2,"method":"m"}]"#);
    let kinds: Vec<_> = batch.items().map(|i| i.map(Message::kind).map_err(Error::reason)).collect();
    assert_eq!(kinds, [Ok(mcp_envelope::Kind::Result), Err(Reason::DuplicateMember)]);
}

#[test]
fn items_walk_a_single_message_or_every_batch_item_in_order() {
    let mut parser = Parser::new(Revision::JsonRpc);
    let one = parser.parse(br#"{"jsonrpc":"2.0","method":"a"}"#).unwrap();
    assert_eq!(one.items().len(), 1);
    assert_eq!(one.items().map(|m| m.ok().and_then(Message::method)).collect::<Vec<_>>(), [Some("a")]);
    let batch = parser.parse(br#"[{"jsonrpc":"2.0","method":"a"},2,{"jsonrpc":"2.0","method":"c"}]"#).unwrap();
    let methods: Vec<_> = batch.items().map(|m| m.map(|m| m.method()).map_err(|e| e.offset())).collect();
    assert_eq!(methods, [Ok(Some("a")), Err(32), Ok(Some("c"))]);
    assert_eq!(batch.clone().into_iter().count(), 3);
    assert_eq!(one.into_iter().count(), 1);
    // The length is exact, and counts down as items are taken.
    let mut items = batch.items();
    assert_eq!(items.len(), 3);
    items.next();
    assert_eq!(items.size_hint(), (2, Some(2)));
    let mut single = parser.parse(br#"{"jsonrpc":"2.0","method":"a"}"#).unwrap();
    let mut items = single.items();
    items.next();
    assert_eq!(items.len(), 0);
    single = parser.parse(br#"[{"jsonrpc":"2.0","method":"a"}]"#).unwrap();
    assert_eq!(single.items().len(), 1);
}

#[test]
fn kinds_reasons_and_raw_json_display_as_the_cli_prints_them() {
    use mcp_envelope::Kind;
    let kinds = [Kind::Request, Kind::Notification, Kind::Result, Kind::Error, Kind::Batch];
    let names: Vec<&str> = kinds.iter().map(|k| k.name()).collect();
    assert_eq!(names, ["request", "notification", "result", "error", "batch"]);
    assert_eq!(Reason::DuplicateMember.to_string(), "duplicate-member");
    assert_eq!(Revision::V2025_11_25.to_string(), "2025-11-25");
    assert_eq!(Revision::JsonRpc.to_string(), Revision::JsonRpc.name());
    assert_eq!(Reason::TrailingCharacters.to_string(), Reason::TrailingCharacters.name());
    let raw = check_json(r#" {"a":[1,"\u0041"]}"#).unwrap();
    assert_eq!(raw.to_string(), r#"{"a":[1,"\u0041"]}"#);
    assert_eq!(format!("{raw:?}"), r#"RawJson({"a":[1,"\u0041"]})"#);
}

#[test]
fn codes_share_one_integer_type() {
    let mut parser = Parser::new(Revision::V2026_07_28);
    let e = parser.parse(b"{").unwrap_err();
    let code: i64 = e.code();
    assert_eq!((code, Reason::Empty.code(), mcp_envelope::PARSE_ERROR), (-32700, -32700, -32700));
    let Ok(Envelope::Single(Message::Error(r))) =
        parser.parse(br#"{"jsonrpc":"2.0","id":1,"error":{"code":-32700,"message":"x"}}"#)
    else {
        panic!()
    };
    assert_eq!(r.error.code, e.code());
    assert_eq!(mcp_envelope::codes::classify(e.code(), Revision::V2026_07_28).name(), "parse-error");
}

#[test]
fn every_error_type_displays_and_is_a_std_error() {
    fn std_error(e: &dyn std::error::Error) -> String {
        e.to_string()
    }
    let fault = Fault::new(Reason::DuplicateMember, 24);
    assert_eq!(std_error(&fault), "member name is repeated at byte 24 (duplicate-member)");
    let e = Parser::new(Revision::JsonRpc).parse(br#"{"jsonrpc":"2.0","id":null}"#).unwrap_err();
    assert!(std_error(&e).contains("at byte 0"), "{e}");
    let unknown = "2099-01-01".parse::<Revision>().unwrap_err();
    assert!(!std_error(&unknown).is_empty());
    assert!(
        !std_error(
            &mcp_envelope::transport::ids::InFlight::new(Revision::V2026_07_28).received(&Id::Int(1)).unwrap_err()
        )
        .is_empty()
    );
}

#[test]
fn ids_serialize_as_json_rpc_writes_them_and_deserialize_by_the_id_rule() {
    let ids = [Id::from("x\"y"), Id::Int(-5), Id::Null];
    assert_eq!(serde_json::to_string(&ids).unwrap(), r#"["x\"y",-5,null]"#);
    let read: Vec<Id<'_>> = serde_json::from_str(r#"["plain", 7, 1.0, 1e2, null]"#).unwrap();
    assert_eq!(read, [Id::from("plain"), Id::Int(7), Id::Int(1), Id::Int(100), Id::Null]);
    assert!(matches!(&read[0], Id::Str(Cow::Borrowed(_))), "borrowed from the input");
    for bad in ["1.5", "true", "{}", "[]", "1e19", "9223372036854775808"] {
        assert!(serde_json::from_str::<Id<'_>>(bad).is_err(), "{bad}");
    }
    // serde's message says what an id may be.
    let e = serde_json::from_str::<Id<'_>>("true").unwrap_err().to_string();
    assert!(e.contains("expected a string, an integer or null"), "{e}");
}

#[test]
fn raw_json_serializes_verbatim_and_deserializes_borrowed_under_the_rules() {
    #[derive(serde::Serialize, serde::Deserialize)]
    struct Holder<'a> {
        #[serde(borrow)]
        payload: RawJson<'a>,
    }
    let text = r#"{"payload":{"b" : [1, 2.50]}}"#;
    let holder: Holder<'_> = serde_json::from_str(text).unwrap();
    assert_eq!(holder.payload.get(), r#"{"b" : [1, 2.50]}"#);
    assert!(holder.payload.borrowed().is_some());
    assert_eq!(serde_json::to_string(&holder).unwrap(), r#"{"payload":{"b" : [1, 2.50]}}"#);
    // serde_json lets a lone surrogate through; the rules do not.
    let err = serde_json::from_str::<Holder<'_>>(r#"{"payload":"\ud800"}"#).err().unwrap();
    assert!(err.to_string().contains("lone-surrogate"), "{err}");
}

#[test]
fn raw_json_serializes_whatever_the_parser_accepted_even_past_serde_json_s_recursion_limit() {
    // serde_json refuses to build values nested past 128 levels, but the
    // parser's depth limit can be raised: a payload it accepted must still
    // serialize, verbatim.
    let payload = format!("{}{}", "[".repeat(300), "]".repeat(300));
    let text = format!(r#"{{"jsonrpc":"2.0","id":1,"result":{payload}}}"#);
    assert!(serde_json::from_str::<serde_json::Value>(&text).is_err(), "serde_json's own limit");
    let mut parser = Parser::new(Revision::JsonRpc).with_limits(Limits::new().with_max_depth(400));
    let message = parser.parse(text.as_bytes()).unwrap();
    let raw = message.single().and_then(|m| m.payload()).unwrap();
    assert_eq!(serde_json::to_string(&raw).unwrap(), payload);
}

#[test]
fn raw_json_converts_from_and_to_serde_json_raw_value() {
    use serde_json::value::RawValue;
    let raw: Box<RawValue> = serde_json::from_str(r#"{"a":1}"#).unwrap();
    let borrowed = RawJson::try_from(raw.as_ref()).unwrap();
    assert_eq!(borrowed.get(), r#"{"a":1}"#);
    let back = Box::<RawValue>::try_from(&borrowed).unwrap();
    assert_eq!(back.get(), r#"{"a":1}"#);
    let owned: RawJson<'static> = RawJson::try_from(raw).unwrap();
    assert_eq!(owned, check_json(r#"{"a":1}"#).unwrap());
    let lone: Box<RawValue> = serde_json::from_str(r#""\udc00""#).unwrap();
    assert_eq!(RawJson::try_from(lone).unwrap_err().reason, Reason::LoneSurrogate);
}

#[test]
fn typed_params_that_do_not_fit_answer_invalid_params_with_serde_s_message() {
    #[derive(serde::Deserialize, Debug)]
    struct Call<'a> {
        name: &'a str,
        #[allow(dead_code, reason = "read only to be type-checked")]
        count: u8,
    }
    let params = check_json(r#"{"name":"get_me","count":300}"#).unwrap();
    let e = params.deserialize::<Call<'_>>().unwrap_err();
    assert_eq!(e.code, -32602);
    assert!(e.message.contains("invalid value: integer `300`"), "{}", e.message);
    let mut answer = Vec::new();
    mcp_envelope::write::error(&mut answer, Some(&Id::Int(3)), &e);
    assert!(answer.starts_with(br#"{"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"invalid value"#));
    let fine = check_json(r#"{"name":"x","count":3}"#).unwrap();
    assert_eq!(fine.deserialize::<Call<'_>>().unwrap().name, "x");
}

#[test]
fn too_large_is_the_error_the_parser_gives_for_input_over_the_limit() {
    let limits = mcp_envelope::Limits::new().with_max_size(16);
    let refused = Parser::new(Revision::V2026_07_28).with_limits(limits).parse(br#"{"jsonrpc":"2.0","method":"x"}"#);
    let Err(error) = refused else { panic!("{refused:?}") };
    assert_eq!(error, Error::too_large(16));
    assert_eq!((error.reason(), error.offset()), (Reason::TooLarge, 16));
    let frame = mcp_envelope::transport::lines::Line::Oversized { line: 1, offset: 0, len: 40 };
    assert_eq!(frame.error(16), Some(Error::too_large(16)));
}

#[test]
fn the_default_backend_is_the_core_s_own_scanner() {
    // Fails to compile if `Parser::new` ever picks another backend.
    let parser: mcp_envelope::Parser<mcp_envelope::backend::Reference> =
        mcp_envelope::Parser::new(Revision::V2026_07_28);
    // The names the CLI prints and `--backend` takes.
    assert_eq!(parser.backend_name(), "reference");
    use mcp_envelope::backend::{SerdeJson, SimdJson};
    assert_eq!(Parser::<SerdeJson>::with_backend(Revision::V2026_07_28).backend_name(), "serde");
    assert_eq!(Parser::<SimdJson>::with_backend(Revision::V2026_07_28).backend_name(), "simd");
}

#[test]
fn a_size_limit_above_the_ceiling_is_brought_down_to_it_and_others_are_kept() {
    use mcp_envelope::Limits;
    let ceiling = Limits::MAX_SIZE_CEILING;
    assert_eq!(Limits::new().with_max_size(ceiling + 1).max_size, ceiling);
    assert_eq!(Limits::new().with_max_size(usize::MAX).max_size, ceiling);
    assert_eq!(Limits::new().with_max_size(ceiling).max_size, ceiling);
    assert_eq!(Limits::new().with_max_size(10).max_size, 10);
}
