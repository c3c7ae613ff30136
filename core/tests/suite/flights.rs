//! RULES.md section 8, ids across requests: each side's requests in
//! flight in one conversation, whatever POST or stream carries them.

use mcp_envelope::transport::exchange::{Flights, Place, Rule};
use mcp_envelope::{Envelope, Message, Parser, Revision};

fn one(revision: Revision, json: &str) -> Message<'static> {
    match Parser::new(revision).parse(json.as_bytes()) {
        Ok(Envelope::Single(message)) => message.into_owned(),
        other => panic!("{json}: {other:?}"),
    }
}

fn posted(flights: &mut Flights, revision: Revision, json: &str) -> Option<(Rule, Place)> {
    flights.posted(&one(revision, json), json.as_bytes()).map(|f| (f.rule, f.place))
}

fn sent(flights: &mut Flights, revision: Revision, json: &str, get: bool) -> Option<Rule> {
    flights.sent(&one(revision, json), Place::Response { line: 1, offset: 0 }, get).map(|f| f.rule)
}

const CALL: &str = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}}"#;
const DONE: &str = r#"{"jsonrpc":"2.0","id":1,"result":{}}"#;

#[test]
fn under_2026_07_28_a_client_may_not_send_an_id_still_in_flight() {
    let v = Revision::V2026_07_28;
    let mut flights = Flights::new(v);
    assert_eq!(posted(&mut flights, v, CALL), None);
    // Two concurrent calls with one id cross-wire their answers.
    assert_eq!(
        posted(&mut flights, v, CALL),
        Some((Rule::RequestIdReused, Place::RequestBody(CALL.find("1,").unwrap())))
    );
    assert!(flights.awaits(&1.into()));
    assert_eq!(sent(&mut flights, v, DONE, false), None);
    assert!(!flights.awaits(&1.into()));
    assert_eq!(posted(&mut flights, v, CALL), None, "free again once answered");
}

#[test]
fn up_to_2025_11_25_an_id_is_never_used_twice_in_a_session() {
    let v = Revision::V2025_11_25;
    let mut flights = Flights::new(v);
    assert_eq!(posted(&mut flights, v, CALL), None);
    assert_eq!(sent(&mut flights, v, DONE, false), None);
    assert_eq!(posted(&mut flights, v, CALL).map(|f| f.0), Some(Rule::RequestIdReused));
}

#[test]
fn a_request_refused_by_its_http_status_is_taken_back() {
    let v = Revision::V2025_11_25;
    let mut flights = Flights::new(v);
    assert_eq!(posted(&mut flights, v, CALL), None);
    flights.withdraw(&1.into());
    assert_eq!(posted(&mut flights, v, CALL), None, "sent again after a 401, say");
}

#[test]
fn the_server_s_requests_are_followed_and_answered_once() {
    let v = Revision::V2025_11_25;
    let mut flights = Flights::new(v);
    let sampling = r#"{"jsonrpc":"2.0","id":"s1","method":"sampling/createMessage","params":{}}"#;
    let answer = r#"{"jsonrpc":"2.0","id":"s1","result":{"role":"assistant"}}"#;
    assert_eq!(sent(&mut flights, v, sampling, true), None);
    assert_eq!(sent(&mut flights, v, sampling, false), Some(Rule::ServerRequestIdReused));
    assert_eq!(posted(&mut flights, v, answer), None);
    assert_eq!(posted(&mut flights, v, answer).map(|f| f.0), Some(Rule::ResponseToNothing), "answered already");
    let stray = r#"{"jsonrpc":"2.0","id":"s9","error":{"code":-1,"message":"x"}}"#;
    assert_eq!(posted(&mut flights, v, stray).map(|f| f.0), Some(Rule::ResponseToNothing));
}

#[test]
fn a_response_on_a_get_stream_answers_a_request_in_flight() {
    let v = Revision::V2025_11_25;
    let mut flights = Flights::new(v);
    assert_eq!(posted(&mut flights, v, CALL), None);
    assert_eq!(flights.pending().collect::<Vec<_>>(), [mcp_envelope::Id::Int(1)], "the call awaits its response");
    // The POST's stream closed early; the response comes on the resumed GET.
    assert_eq!(sent(&mut flights, v, DONE, true), None);
    assert_eq!(sent(&mut flights, v, DONE, true), Some(Rule::ResponseIdMismatch), "answered already");
    let pending: Vec<_> = flights.pending().collect();
    assert!(pending.is_empty(), "{pending:?}");
}
