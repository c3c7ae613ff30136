//! RULES.md section 8, 2026-07-28 without sessions: what a server of that
//! revision answers, and what its clients send. Each rule is raised
//! against a server (or client) that commits the fault and not against
//! one that does not.

use mcp_envelope::Severity;
use mcp_envelope::transport::exchange::{Conversation, Exchange, Headers, Place};
use mcp_envelope::{Parser, Revision};

use super::exchange::{ACCEPT, JSON, PING, PONG, SSE, V1125, answer, call, headers, modern, names, post};

const MODERN: Revision = Revision::V2026_07_28;

fn result(id: u32, result_type: Option<&str>) -> String {
    let member = result_type.map(|t| format!(r#""resultType":"{t}","#)).unwrap_or_default();
    format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{{member}"content":[]}}}}"#)
}

fn judged(
    method: &str,
    name: Option<&str>,
    body: &str,
    pairs: &[(&str, &str)],
    messages: &[&str],
) -> Vec<&'static str> {
    let mut e = post(MODERN, &modern(method, name), body);
    answer(&mut e, 200, pairs, messages);
    names(&e)
}

#[test]
fn every_2026_07_28_result_carries_a_result_type_input_required_only_where_allowed() {
    let tools_call = call("tools/call", r#""name":"echo","#);
    let run = |messages: &[&str]| judged("tools/call", Some("echo"), &tools_call, &[JSON], messages);
    assert_eq!(run(&[&result(9, Some("complete"))]), [] as [&str; 0]);
    assert_eq!(run(&[&result(9, Some("input_required"))]), [] as [&str; 0]);
    assert_eq!(run(&[&result(9, None)]), ["result-type-missing"]);
    assert_eq!(run(&[&result(9, Some("done"))]), ["result-type-unknown"]);
    let list = call("tools/list", "");
    assert_eq!(
        judged("tools/list", None, &list, &[JSON], &[&result(9, Some("input_required"))]),
        ["input-required-not-allowed"]
    );
    // Results of earlier revisions have no such member.
    let mut e = post(Revision::V2025_11_25, &[ACCEPT, JSON, V1125], PING);
    answer(&mut e, 200, &[JSON], &[PONG]);
    assert_eq!(names(&e), [] as [&str; 0]);
}

#[test]
fn nothing_follows_the_final_response_on_a_request_s_stream() {
    let tools_call = call("tools/call", r#""name":"echo","#);
    let progress = r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}"#;
    let done = result(9, Some("complete"));
    let run = |messages: &[&str]| {
        let mut e = post(MODERN, &modern("tools/call", Some("echo")), &tools_call);
        answer(&mut e, 200, &[SSE], messages);
        e.findings().iter().map(|f| (f.rule.name(), f.severity(), f.place)).collect::<Vec<_>>()
    };
    assert_eq!(run(&[progress, &done]), []);
    let after = ("message-after-response", Severity::Warning, Place::Response { line: 4, offset: 0 });
    assert_eq!(run(&[&done, progress]), [after]);
}

#[test]
fn log_messages_come_only_for_a_request_that_asked_for_a_log_level() {
    let log = r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}"#;
    let done = result(9, Some("complete"));
    let silent = call("tools/call", r#""name":"echo","#);
    assert_eq!(judged("tools/call", Some("echo"), &silent, &[SSE], &[log, &done]), ["log-message-unrequested"]);
    let asked = r#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"echo","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"info"}}}"#;
    assert_eq!(judged("tools/call", Some("echo"), asked, &[SSE], &[log, &done]), [] as [&str; 0]);
}

#[test]
fn a_listen_stream_opens_with_its_acknowledgement_and_tags_every_notification_with_its_id() {
    let listen = call("subscriptions/listen", r#""notifications":{"toolsListChanged":true},"#);
    let tagged = |method: &str, id: &str| {
        format!(
            r#"{{"jsonrpc":"2.0","method":"{method}","params":{{"_meta":{{"io.modelcontextprotocol/subscriptionId":{id}}}}}}}"#
        )
    };
    let ack = tagged("notifications/subscriptions/acknowledged", "9");
    let changed = tagged("notifications/tools/list_changed", "9");
    // A server that ends the subscription answers the listen request (a
    // SHOULD: closing without it is an unexpected disconnect).
    let end = r#"{"jsonrpc":"2.0","id":9,"result":{"resultType":"complete","_meta":{"io.modelcontextprotocol/subscriptionId":9}}}"#;
    let run = |messages: &[&str]| judged("subscriptions/listen", None, &listen, &[SSE], &[messages, &[end]].concat());
    assert_eq!(run(&[&ack, &changed, &changed]), [] as [&str; 0]);
    assert_eq!(judged("subscriptions/listen", None, &listen, &[SSE], &[&ack, &changed]), ["no-response"]);
    assert_eq!(run(&[&changed, &ack]), ["listen-not-acknowledged"]);
    assert_eq!(run(&[&ack, &tagged("notifications/tools/list_changed", "\"9\"")]), ["listen-without-subscription-id"]);
    let untagged = r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#;
    assert_eq!(run(&[&ack, untagged]), ["listen-without-subscription-id"]);
    assert_eq!(run(&[&ack, &tagged("notifications/message", "9")]), ["log-message-unrequested"]);
}

#[test]
fn a_2026_07_28_server_mints_no_session_and_answers_get_and_delete_405() {
    let mut e = post(MODERN, &modern("ping", None), &super::exchange::modern_ping());
    answer(&mut e, 200, &[JSON, ("Mcp-Session-Id", "abc")], &[super::exchange::MODERN_PONG]);
    let found: Vec<_> = e.findings().iter().map(|f| (f.rule.name(), f.severity())).collect();
    assert_eq!(found, [("session-id-under-2026", Severity::Warning)]);
    let conversation = Conversation::new(MODERN);
    let declared = headers(&[("MCP-Protocol-Version", "2026-07-28")]);
    for method in ["GET", "DELETE"] {
        let mut e = Exchange::other(&conversation, method, &declared);
        answer(&mut e, 200, &[SSE], &[]);
        assert_eq!(names(&e), ["get-or-delete-not-405"], "{method}");
        assert_eq!(e.findings()[0].severity(), Severity::Warning);
        let mut e = Exchange::other(&conversation, method, &declared);
        answer(&mut e, 405, &[], &[]);
        assert_eq!(names(&e), [] as [&str; 0], "{method}");
    }
    // A GET that declares no revision comes from a client of an earlier one.
    let mut e = Exchange::other(&conversation, "GET", &Headers::default());
    answer(&mut e, 200, &[SSE], &[]);
    assert_eq!(names(&e), [] as [&str; 0]);
}

#[test]
fn mcp_param_headers_hold_what_a_parameter_encodes_to_or_are_refused_with_32020() {
    let body = call("tools/call", r#""name":"echo","arguments":{"region":"us west"},"#);
    let mut pairs = modern("tools/call", Some("echo"));
    pairs.push(("Mcp-Param-Region", "=?base64?dXMgd2VzdA==?="));
    assert_eq!(names(&post(MODERN, &pairs, &body)), [] as [&str; 0]);
    pairs.push(("Mcp-Param-Zone", "=?base64?not base64?="));
    let e = post(MODERN, &pairs, &body);
    assert_eq!(names(&e), ["mcp-param-malformed"]);
    assert_eq!(e.findings()[0].reply().map(|r| r.code()), Some(-32020));
}

#[test]
fn a_stream_closed_early_after_an_event_id_may_resume_under_2025_11_25() {
    let progress = r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}"#;
    let run = |revision: Revision, with_id: bool| {
        let version = ("MCP-Protocol-Version", revision.name());
        let mut e = post(revision, &[ACCEPT, JSON, version], PING);
        e.response(200, &headers(&[SSE]));
        if with_id {
            e.event_id();
        }
        e.message(Place::Response { line: 1, offset: 0 }, &Parser::new(revision).parse(progress.as_bytes()));
        e.end();
        names(&e)
    };
    assert_eq!(run(Revision::V2025_11_25, true), [] as [&str; 0], "the response may come on the resumed stream");
    assert_eq!(run(Revision::V2025_11_25, false), ["no-response"]);
    // Earlier revisions: the server SHOULD NOT close before the response.
    assert_eq!(run(Revision::V2025_06_18, true), ["no-response"]);
}
