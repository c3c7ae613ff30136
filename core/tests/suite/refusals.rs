//! RULES.md section 8, the refusal half: a server's answer is judged
//! whatever its status. Each rule is raised against a server that commits
//! the fault and not against one that answers as the rules say.

use mcp_envelope::Revision;
use mcp_envelope::Severity;
use mcp_envelope::transport::exchange::{Conversation, Exchange, Place};

use super::exchange::{
    ACCEPT, INITIALIZED, JSON, PING, PONG, SSE, V1125, answer, call, meta_params, modern, names, post, post_in,
};

const MODERN: Revision = Revision::V2026_07_28;

/// A conversation with a server that has answered 2026-07-28 before.
fn modern_server() -> Conversation {
    Conversation { modern: true, ..Conversation::new(MODERN) }
}

fn error(id: &str, code: i64, extra: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":{id},"error":{{"code":{code},"message":"no"{extra}}}}}"#)
}

/// A 2026-07-28 `tools/call` of `delete_repo` whose Mcp-Name says `get_me`.
fn confused(status: u16, pairs: &[(&str, &str)], messages: &[&str]) -> Vec<&'static str> {
    let body = call("tools/call", r#""name":"delete_repo","#);
    let mut e = post(MODERN, &modern("tools/call", Some("get_me")), &body);
    answer(&mut e, status, pairs, messages);
    names(&e)
}

#[test]
fn a_header_fault_answered_with_a_success_is_the_confused_deputy_hole() {
    let result = r#"{"jsonrpc":"2.0","id":9,"result":{"resultType":"complete","content":[]}}"#;
    assert_eq!(confused(200, &[JSON], &[result]), ["mcp-name-mismatch", "header-mismatch-accepted"]);
    assert_eq!(confused(200, &[SSE], &[result]), ["mcp-name-mismatch", "header-mismatch-accepted"]);
    // Refused as SEP-2243 says: 400, -32020, the request's id.
    assert_eq!(confused(400, &[JSON], &[&error("9", -32020, "")]), ["mcp-name-mismatch"]);
}

#[test]
fn a_header_fault_is_refused_with_400_and_32020_carrying_the_request_s_id() {
    let found = |status, messages: &[&str]| confused(status, &[JSON], messages);
    assert_eq!(found(403, &[&error("9", -32020, "")]), ["mcp-name-mismatch", "header-mismatch-refusal"]);
    assert_eq!(found(400, &[&error("9", -32600, "")]), ["mcp-name-mismatch", "header-mismatch-refusal"]);
    assert_eq!(found(400, &[&error("null", -32020, "")]), ["mcp-name-mismatch", "header-mismatch-refusal"]);
    assert_eq!(found(400, &[&error("8", -32020, "")]), ["mcp-name-mismatch", "header-mismatch-refusal"]);
    // The version checked first is an answer too; so is an intermediary's
    // 400 with a body of its own, or none, which the text allows.
    assert_eq!(found(400, &[&error("9", -32022, "")]), ["mcp-name-mismatch"]);
    assert_eq!(found(400, &[]), ["mcp-name-mismatch"]);
    assert_eq!(confused(400, &[("content-type", "text/plain")], &[]), ["mcp-name-mismatch"]);
}

#[test]
fn a_request_without_its_required_meta_is_refused_with_400_and_invalid_params() {
    let bare = r#"{"jsonrpc":"2.0","id":4,"method":"tools/list","params":{}}"#;
    let run = |status, messages: &[&str]| {
        let mut e = post(MODERN, &modern("tools/list", None), bare);
        answer(&mut e, status, &[JSON], messages);
        names(&e)
    };
    let meta = ["meta-protocol-version-missing", "meta-client-capabilities-missing"];
    assert_eq!(run(400, &[&error("4", -32602, "")]), meta);
    // With the version header there and `_meta`'s missing, no code wins.
    assert_eq!(run(400, &[&error("4", -32020, "")]), meta);
    let accepted = r#"{"jsonrpc":"2.0","id":4,"result":{"resultType":"complete","tools":[]}}"#;
    assert_eq!(run(200, &[accepted]), [&meta[..], &["meta-refusal"]].concat());
    assert_eq!(run(500, &[&error("4", -32603, "")]), [&meta[..], &["meta-refusal", "meta-refusal"]].concat());
}

#[test]
fn a_protocol_version_header_that_names_no_revision_is_refused_400_from_2025_06_18() {
    let conversation =
        Conversation { negotiated: Some(Revision::V2025_06_18), ..Conversation::new(Revision::V2025_11_25) };
    let junk = [ACCEPT, JSON, ("MCP-Protocol-Version", "1900-01-01")];
    let mut e = post_in(&conversation, &junk, PING);
    answer(&mut e, 200, &[JSON], &[PONG]);
    assert_eq!(names(&e), ["protocol-version-invalid", "unsupported-version-accepted"]);
    let mut e = post_in(&conversation, &junk, PING);
    answer(&mut e, 400, &[], &[]);
    assert_eq!(names(&e), ["protocol-version-invalid"]);
    // 2025-03-26 has no such header, so no value of it is refused.
    let mut e = post(Revision::V2025_03_26, &junk, PING);
    answer(&mut e, 200, &[JSON], &[PONG]);
    assert_eq!(names(&e), [] as [&str; 0]);
}

#[test]
fn unsupported_version_comes_with_400_and_the_supported_and_requested_versions() {
    let versions = r#","data":{"supported":["2025-11-25"],"requested":"2026-07-28"}"#;
    let run = |status, body: &str| {
        let mut e = post(MODERN, &modern("ping", None), &super::exchange::modern_ping());
        answer(&mut e, status, &[JSON], &[body]);
        (names(&e), e.modern())
    };
    assert_eq!(run(400, &error("1", -32022, versions)), (vec![], true), "a 2026-07-28 error shows a modern server");
    assert_eq!(run(400, &error("1", -32022, "")).0, ["unsupported-version-refusal"]);
    assert_eq!(
        run(400, &error("1", -32022, r#","data":{"supported":"2025-11-25"}"#)).0,
        ["unsupported-version-refusal"]
    );
    // Both are needed: the supported versions without the requested one
    // (or with one that is not a string) do not do.
    for data in [r#","data":{"supported":["2025-11-25"]}"#, r#","data":{"supported":["2025-11-25"],"requested":7}"#] {
        assert_eq!(run(400, &error("1", -32022, data)).0, ["unsupported-version-refusal"], "{data}");
    }
    assert_eq!(run(200, &error("1", -32022, versions)).0, ["unsupported-version-refusal"]);
}

#[test]
fn a_server_known_to_speak_2026_07_28_refuses_an_unsupported_version_with_32022_whatever_code_it_chose() {
    let body = r#"{"jsonrpc":"2.0","id":5,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"1900-01-01","io.modelcontextprotocol/clientCapabilities":{}}}}"#;
    let pairs = [ACCEPT, JSON, ("MCP-Protocol-Version", "1900-01-01"), ("Mcp-Method", "tools/list")];
    let run = |conversation: &Conversation, status, content: &[(&str, &str)], reply: &[&str]| {
        let mut e = post_in(conversation, &pairs, body);
        answer(&mut e, status, content, reply);
        names(&e)
    };
    let versions = r#","data":{"supported":["2026-07-28"],"requested":"1900-01-01"}"#;
    assert_eq!(run(&modern_server(), 400, &[JSON], &[&error("5", -32022, versions)]), [] as [&str; 0]);
    // -32000 with no data, as one server refuses it; a plain-text 400.
    assert_eq!(run(&modern_server(), 400, &[JSON], &[&error("5", -32000, "")]), ["unsupported-version-refusal"]);
    let plain = [("Content-Type", "text/plain")];
    assert_eq!(run(&modern_server(), 400, &plain, &[]), ["unsupported-version-refusal"]);
    // A server not known to speak 2026-07-28 refuses as its own revision
    // lets it.
    let legacy = Conversation::new(MODERN);
    assert_eq!(run(&legacy, 400, &[JSON], &[&error("5", -32000, "")]), [] as [&str; 0]);
    assert_eq!(run(&legacy, 400, &plain, &[]), [] as [&str; 0]);
}

#[test]
fn a_2026_07_28_server_answers_an_unknown_method_404_and_implements_server_discover() {
    let list = call("tools/list", "");
    let run = |conversation: &Conversation, method: &str, body: &str, status, pairs: &[(&str, &str)], reply: &str| {
        let mut e = post_in(conversation, &modern(method, None), body);
        answer(&mut e, status, pairs, &[reply]);
        names(&e)
    };
    let not_found = error("9", -32601, "");
    assert_eq!(run(&modern_server(), "tools/list", &list, 404, &[JSON], &not_found), [] as [&str; 0]);
    assert_eq!(run(&modern_server(), "tools/list", &list, 400, &[JSON], &not_found), ["method-not-found-status"]);
    assert_eq!(run(&modern_server(), "tools/list", &list, 200, &[SSE], &not_found), ["method-not-found-status"]);
    // A server not known to speak 2026-07-28 refusing a version it does not
    // know is held to its own revision, which says nothing of the body.
    let legacy = Conversation::new(MODERN);
    assert_eq!(run(&legacy, "tools/list", &list, 400, &[JSON], &not_found), [] as [&str; 0]);
    let discover = call("server/discover", "");
    assert_eq!(
        run(&modern_server(), "server/discover", &discover, 404, &[JSON], &not_found),
        ["discover-not-implemented"]
    );
    let found = r#"{"jsonrpc":"2.0","id":9,"result":{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{}}}"#;
    assert_eq!(run(&legacy, "server/discover", &discover, 200, &[JSON], found), [] as [&str; 0]);
}

fn invalid(
    revision: Revision,
    body: &str,
    status: u16,
    pairs: &[(&str, &str)],
    messages: &[&str],
) -> Vec<&'static str> {
    let mut e = post(revision, &[ACCEPT, JSON, V1125], body);
    answer(&mut e, status, pairs, messages);
    names(&e)
}

#[test]
fn an_invalid_body_is_not_accepted_and_gets_the_error_json_rpc_gives_it() {
    let v = Revision::V2025_11_25;
    let cut = r#"{"jsonrpc":"2.0","id":1,"method":"#;
    assert_eq!(invalid(v, cut, 202, &[], &[]), ["invalid-body-accepted"]);
    assert_eq!(invalid(v, cut, 200, &[JSON], &[]), ["invalid-body-accepted"]);
    assert_eq!(invalid(v, cut, 200, &[JSON], &[&error("null", -32700, "")]), [] as [&str; 0]);
    assert_eq!(invalid(v, cut, 400, &[JSON], &[&error("null", -32700, "")]), [] as [&str; 0]);
    assert_eq!(invalid(v, cut, 400, &[], &[]), [] as [&str; 0], "a bare 400 refuses it");
    // Valid JSON that is no valid request is -32600, not -32700.
    let null_id = r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#;
    assert_eq!(invalid(v, null_id, 202, &[], &[]), ["invalid-body-accepted"], "a request answered as a notification");
    assert_eq!(invalid(v, null_id, 200, &[JSON], &[&error("null", -32700, "")]), ["wrong-error-code"]);
    assert_eq!(invalid(v, null_id, 400, &[JSON], &[&error("null", -32700, "")]), ["wrong-error-code"]);
    assert_eq!(invalid(v, null_id, 200, &[JSON], &[PONG]), ["invalid-body-accepted"]);
    assert_eq!(invalid(v, null_id, 200, &[JSON], &[&error("null", -32600, "")]), [] as [&str; 0]);
    // -32700 where -32600 is due, and back; other codes are the server's.
    assert_eq!(invalid(v, cut, 200, &[JSON], &[&error("null", -32600, "")]), ["wrong-error-code"]);
    assert_eq!(invalid(v, null_id, 400, &[JSON], &[&error("null", -32602, "")]), [] as [&str; 0]);
    // The id is answered when it could be read, and only then.
    let bad_method = r#"{"jsonrpc":"2.0","id":5,"method":1}"#;
    assert_eq!(invalid(v, bad_method, 200, &[JSON], &[&error("5", -32600, "")]), [] as [&str; 0]);
    assert_eq!(invalid(v, bad_method, 200, &[JSON], &[&error("null", -32600, "")]), ["error-id-mismatch"]);
    assert_eq!(invalid(v, null_id, 200, &[JSON], &[&error("7", -32600, "")]), ["error-id-mismatch"]);
    // A batch where none is allowed.
    let batch = format!("[{PING}]");
    assert_eq!(invalid(v, &batch, 200, &[JSON], &[&format!("[{PONG}]")]), ["invalid-body-accepted"]);
    assert_eq!(invalid(v, &batch, 400, &[JSON], &[&error("null", -32600, "")]), [] as [&str; 0]);
}

#[test]
fn a_body_over_the_parser_s_own_limits_and_a_broken_response_make_nothing_due() {
    let deep = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"x","params":{}1{}}}"#, "[".repeat(200), "]".repeat(200));
    let mut e = post(Revision::V2025_11_25, &[ACCEPT, JSON, V1125], &deep);
    answer(&mut e, 200, &[JSON], &[PONG]);
    assert_eq!(names(&e), [] as [&str; 0], "another server's limits may be higher");
    let broken_response = r#"{"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"x"}}"#;
    assert_eq!(invalid(Revision::V2025_11_25, broken_response, 202, &[], &[]), [] as [&str; 0]);
}

#[test]
fn an_error_answering_a_readable_request_carries_its_id() {
    let run = |status, messages: &[&str]| {
        let mut e = post(Revision::V2025_11_25, &[ACCEPT, JSON, V1125], PING);
        answer(&mut e, status, &[JSON], messages);
        names(&e)
    };
    assert_eq!(run(200, &[&error("1", -32603, "")]), [] as [&str; 0]);
    assert_eq!(run(200, &[&error("null", -32603, "")]), ["error-id-mismatch"]);
    // A 2026-07-28 server's refusal carries it too.
    let mut e = post_in(&modern_server(), &modern("ping", None), &super::exchange::modern_ping());
    answer(&mut e, 400, &[JSON], &[&error("2", -32021, "")]);
    assert_eq!(names(&e), ["error-id-mismatch"]);
}

#[test]
fn an_error_that_reads_like_an_authorisation_failure_wants_401() {
    let refused = r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32001,"message":"Unauthorized: invalid API key"}}"#;
    let run = |status, pairs: &[(&str, &str)]| {
        let mut e = post(Revision::V2025_11_25, &[ACCEPT, JSON, V1125], PING);
        answer(&mut e, status, pairs, &[refused]);
        e.findings().iter().map(|f| (f.rule.name(), f.severity())).collect::<Vec<_>>()
    };
    assert_eq!(run(200, &[JSON]), [("auth-error-not-401", Severity::Warning)]);
    assert_eq!(run(400, &[JSON]), [("auth-error-not-401", Severity::Warning)]);
    assert_eq!(run(401, &[JSON]), []);
    assert_eq!(run(403, &[JSON]), []);
    let other = r#"{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"the upstream failed"}}"#;
    let mut e = post(Revision::V2025_11_25, &[ACCEPT, JSON, V1125], PING);
    answer(&mut e, 200, &[JSON], &[other]);
    assert_eq!(names(&e), [] as [&str; 0]);
}

#[test]
fn a_2026_07_28_server_s_refusal_is_a_json_rpc_error_not_a_web_page() {
    let run = |conversation: &Conversation| {
        let mut e = post_in(conversation, &modern("ping", None), &super::exchange::modern_ping());
        answer(&mut e, 404, &[("content-type", "text/html")], &[]);
        e.findings().iter().map(|f| (f.rule.name(), f.severity(), f.place)).collect::<Vec<_>>()
    };
    let warning = ("refusal-not-json-rpc", Severity::Warning, Place::ResponseHeader("Content-Type"));
    assert_eq!(run(&modern_server()), [warning]);
    // A refusal in bare text is no web page: not this warning.
    let mut e = post_in(&modern_server(), &modern("ping", None), &super::exchange::modern_ping());
    answer(&mut e, 404, &[("content-type", "text/plain")], &[]);
    assert_eq!(names(&e), [] as [&str; 0]);
    // Before the server showed it speaks 2026-07-28, a page is what an
    // older server (or the wrong address) sends: not judged.
    assert_eq!(run(&Conversation::new(MODERN)), []);
    // Nor in earlier revisions, whose texts say nothing of refusal bodies.
    let mut e = post(Revision::V2025_11_25, &[ACCEPT, JSON, V1125], PING);
    answer(&mut e, 404, &[("content-type", "text/html")], &[]);
    assert_eq!(names(&e), [] as [&str; 0]);
}

#[test]
fn a_notification_the_server_cannot_accept_is_refused_with_or_without_an_error() {
    let mut e = post(Revision::V2025_11_25, &[ACCEPT, JSON, V1125], INITIALIZED);
    answer(&mut e, 400, &[JSON], &[r#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"no"}}"#]);
    assert_eq!(names(&e), [] as [&str; 0]);
    let note = format!(r#"{{"jsonrpc":"2.0","method":"notifications/x","params":{}}}"#, meta_params(""));
    let mut e = post(MODERN, &modern("notifications/x", None), &note);
    answer(&mut e, 400, &[], &[]);
    assert_eq!(names(&e), [] as [&str; 0]);
}

#[test]
fn what_a_conversation_learns_of_a_server_that_speaks_2026_07_28() {
    let mut conversation = Conversation::new(MODERN);
    let mut e = post_in(&conversation, &modern("ping", None), &super::exchange::modern_ping());
    answer(&mut e, 400, &[JSON], &[r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Bad Request"}}"#]);
    conversation.learn(&e);
    assert!(!conversation.modern, "a legacy refusal shows nothing");
    let mut e: Exchange = post_in(&conversation, &modern("ping", None), &super::exchange::modern_ping());
    answer(&mut e, 200, &[JSON], &[super::exchange::MODERN_PONG]);
    conversation.learn(&e);
    assert!(conversation.modern, "a success to a 2026-07-28 request does");
}
