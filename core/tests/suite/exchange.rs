//! RULES.md section 8: the rules of one Streamable HTTP exchange.

use mcp_envelope::transport::exchange::{Conversation, Exchange, Headers, Place, Rule};
use mcp_envelope::{Parser, Revision, write};

pub(crate) const JSON: (&str, &str) = ("Content-Type", "application/json");
pub(crate) const SSE: (&str, &str) = ("Content-Type", "text/event-stream");
pub(crate) const ACCEPT: (&str, &str) = ("Accept", "application/json, text/event-stream");

pub(crate) fn headers<'h>(pairs: &'h [(&'h str, &'h str)]) -> Headers<'h> {
    Headers::from_pairs(pairs.iter().map(|(n, v)| (*n, v.as_bytes())))
}

pub(crate) fn post_in(conversation: &Conversation, pairs: &[(&str, &str)], body: &str) -> Exchange {
    let headers = headers(pairs);
    let parsed = Parser::new(conversation.in_force_for(&headers)).parse(body.as_bytes());
    Exchange::post(conversation, &headers, body.as_bytes(), &parsed)
}

pub(crate) fn post(revision: Revision, pairs: &[(&str, &str)], body: &str) -> Exchange {
    post_in(&Conversation::new(revision), pairs, body)
}

pub(crate) fn names(exchange: &Exchange) -> Vec<&'static str> {
    exchange.findings().iter().map(|f| f.rule.name()).collect()
}

/// The response, then each message (a JSON body, or one event each), then the end.
pub(crate) fn answer(exchange: &mut Exchange, status: u16, pairs: &[(&str, &str)], messages: &[&str]) {
    exchange.response(status, &headers(pairs));
    // 2025-03-26 reads batches too; every other message here is valid in all.
    let mut parser = Parser::new(Revision::V2025_03_26);
    for (i, m) in messages.iter().enumerate() {
        let place = Place::Response { line: 1 + 3 * i as u64, offset: 0 };
        exchange.message(place, &parser.parse(m.as_bytes()));
    }
    exchange.end();
}

pub(crate) const PING: &str = r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#;
pub(crate) const PONG: &str = r#"{"jsonrpc":"2.0","id":1,"result":{}}"#;
pub(crate) const MODERN_PONG: &str = r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete"}}"#;
pub(crate) const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
pub(crate) const V1125: (&str, &str) = ("MCP-Protocol-Version", "2025-11-25");

#[test]
fn a_post_accepts_json_and_event_streams_and_sends_json() {
    assert_eq!(names(&post(Revision::V2025_03_26, &[ACCEPT, JSON], PING)), [] as [&str; 0]);
    let only_json = [("accept", "application/json"), JSON];
    assert_eq!(names(&post(Revision::V2025_03_26, &only_json, PING)), ["accept-incomplete"]);
    assert_eq!(
        names(&post(Revision::V2025_03_26, &[ACCEPT, ("content-type", "text/plain")], PING)),
        ["content-type-not-json"]
    );
    assert_eq!(
        names(&post(
            Revision::V2025_03_26,
            &[("accept", "*/*"), ("content-type", "application/json; charset=utf-8")],
            PING
        )),
        [] as [&str; 0]
    );
    // 2024-11-05 had no Streamable HTTP: nothing to hold a post to.
    assert_eq!(names(&post(Revision::V2024_11_05, &[], PING)), [] as [&str; 0]);
}

#[test]
fn a_post_without_requests_is_answered_202_with_no_body() {
    let ok = [ACCEPT, JSON, V1125];
    let mut e = post(Revision::V2025_11_25, &ok, INITIALIZED);
    answer(&mut e, 202, &[], &[]);
    assert_eq!(names(&e), [] as [&str; 0]);
    let mut e = post(Revision::V2025_11_25, &ok, INITIALIZED);
    answer(&mut e, 200, &[JSON], &[]);
    assert_eq!(names(&e), ["not-accepted"]);
    let mut e = post(Revision::V2025_11_25, &ok, INITIALIZED);
    e.response(202, &headers(&[]));
    e.body_bytes(0);
    assert_eq!(names(&e), [] as [&str; 0], "no byte, no body");
    e.body_bytes(2);
    assert_eq!(names(&e), ["body-on-accepted"]);
    // A message on a 202 is a body too.
    let mut e = post(Revision::V2025_11_25, &ok, INITIALIZED);
    answer(&mut e, 202, &[], &[PONG]);
    assert_eq!(names(&e), ["body-on-accepted"]);
    // A refusal is allowed, with or without an error body.
    let mut e = post(Revision::V2025_11_25, &ok, INITIALIZED);
    answer(&mut e, 400, &[JSON], &[r#"{"jsonrpc":"2.0","error":{"code":-32600,"message":"no"}}"#]);
    assert_eq!(names(&e), [] as [&str; 0]);
}

#[test]
fn a_request_answered_with_json_gets_the_response_to_its_id() {
    let ok = [ACCEPT, JSON, V1125];
    let run = |messages: &[&str]| {
        let mut e = post(Revision::V2025_11_25, &ok, PING);
        answer(&mut e, 200, &[JSON], messages);
        names(&e)
    };
    assert_eq!(run(&[PONG]), [] as [&str; 0]);
    assert_eq!(run(&[r#"{"jsonrpc":"2.0","id":2,"result":{}}"#]), ["response-id-mismatch", "response-missing"]);
    assert_eq!(run(&[PING]), ["not-a-response", "response-missing"]);
    // A JSON answer with no body is no response at all.
    assert_eq!(run(&[]), ["not-a-response"]);
    // A response too broken to read may have been the answer: no finding.
    assert_eq!(run(&[r#"{"jsonrpc":"2.0","id":1,"result":"#]), [] as [&str; 0]);
    // Body bytes of a JSON answer are its message, not a fault.
    let mut e = post(Revision::V2025_11_25, &ok, PING);
    e.response(200, &headers(&[JSON]));
    e.body_bytes(PONG.len());
    e.message(Place::Response { line: 1, offset: 0 }, &Parser::new(Revision::V2025_11_25).parse(PONG.as_bytes()));
    e.end();
    assert_eq!(names(&e), [] as [&str; 0]);
}

#[test]
fn the_response_head_says_how_its_body_is_read() {
    let ok = [ACCEPT, JSON, V1125];
    let read = |status: u16, pairs: &[(&str, &str)], body: &str| {
        let mut e = post(Revision::V2025_11_25, &ok, body);
        e.response(status, &headers(pairs));
        e.reads_events()
    };
    assert_eq!(read(200, &[SSE], PING), Some(true));
    assert_eq!(read(200, &[JSON], PING), Some(false));
    assert_eq!(read(202, &[], INITIALIZED), None, "a 202 has no messages to read");
    assert_eq!(read(400, &[JSON], PING), Some(false), "a refusal's JSON body is read, to hold it to what it must say");
    assert_eq!(read(400, &[("content-type", "text/plain")], PING), None, "bare text is not read");
}

#[test]
fn an_event_that_could_not_be_read_may_have_been_the_response() {
    let ok = [ACCEPT, JSON, V1125];
    let mut e = post(Revision::V2025_11_25, &ok, PING);
    e.response(200, &headers(&[SSE]));
    e.unreadable();
    e.end();
    assert_eq!(names(&e), [] as [&str; 0]);
    // Without it, the stream answered nothing.
    let mut e = post(Revision::V2025_11_25, &ok, PING);
    answer(&mut e, 200, &[SSE], &[]);
    assert_eq!(names(&e), ["no-response"]);
}

#[test]
fn a_batch_of_requests_under_2025_03_26_gets_one_response_to_each() {
    let batch = r#"[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]"#;
    let run = |messages: &[&str]| {
        let mut e = post(Revision::V2025_03_26, &[ACCEPT, JSON], batch);
        answer(&mut e, 200, &[JSON], messages);
        names(&e)
    };
    assert_eq!(
        run(&[r#"[{"jsonrpc":"2.0","id":2,"result":{}},{"jsonrpc":"2.0","id":1,"result":{}}]"#]),
        [] as [&str; 0]
    );
    assert_eq!(
        run(&[r#"[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":1,"result":{}}]"#]),
        ["response-repeated", "response-missing"]
    );
}

#[test]
fn an_event_stream_answer_holds_exactly_one_response_to_each_request() {
    let progress = r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}"#;
    let sampling = r#"{"jsonrpc":"2.0","id":"s1","method":"sampling/createMessage","params":{}}"#;
    let run = |revision: Revision, messages: &[&str]| {
        let version = ("MCP-Protocol-Version", revision.name());
        let mut e = post(revision, &[ACCEPT, JSON, version], PING);
        answer(&mut e, 200, &[SSE], messages);
        e.findings().iter().map(|f| (f.rule.name(), f.place)).collect::<Vec<_>>()
    };
    assert_eq!(run(Revision::V2025_11_25, &[progress, sampling, PONG]), []);
    assert_eq!(
        run(Revision::V2025_11_25, &[progress, PONG, PONG]),
        [("response-repeated", Place::Response { line: 7, offset: 0 })]
    );
    assert_eq!(run(Revision::V2025_11_25, &[progress]), [("no-response", Place::End)]);
}

#[test]
fn under_2026_07_28_servers_send_no_requests_on_a_response_stream_and_clients_post_no_responses() {
    let sampling = r#"{"jsonrpc":"2.0","id":"s1","method":"sampling/createMessage","params":{}}"#;
    let conversation = Conversation::new(Revision::V2026_07_28);
    let mut e = post_in(&conversation, &modern("ping", None), &modern_ping());
    answer(&mut e, 200, &[SSE], &[sampling, MODERN_PONG]);
    assert_eq!(names(&e), ["server-request-on-stream"]);
    let posted = post_in(&conversation, &[ACCEPT, JSON, ("MCP-Protocol-Version", "2026-07-28")], PONG);
    assert_eq!(names(&posted), ["response-posted"]);
}

#[test]
fn a_web_page_where_json_belongs_is_an_unexpected_content_type() {
    let mut e = post(Revision::V2025_11_25, &[ACCEPT, JSON, V1125], PING);
    answer(&mut e, 200, &[("Content-Type", "text/html; charset=utf-8")], &[]);
    assert_eq!(names(&e), ["content-type-unexpected"]);
}

#[test]
fn mcp_protocol_version_follows_initialize_from_2025_06_18() {
    let initialize = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#;
    let mut conversation = Conversation::new(Revision::V2025_11_25);
    // `initialize` itself needs no header; its result names the revision.
    let mut e = post_in(&conversation, &[ACCEPT, JSON], initialize);
    answer(
        &mut e,
        200,
        &[JSON],
        &[
            r#"{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-06-18","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}"#,
        ],
    );
    assert_eq!(names(&e), [] as [&str; 0]);
    assert_eq!(e.negotiated(), Some(Revision::V2025_06_18));
    conversation.learn(&e);
    assert_eq!(conversation.in_force(), Revision::V2025_06_18);
    // A later request is judged under what was negotiated, whatever it declares.
    assert_eq!(conversation.in_force_for(&headers(&[V1125])), Revision::V2025_06_18);
    assert_eq!(conversation.in_force_for(&headers(&[])), Revision::V2025_06_18);
    let mut ping = post_in(&conversation, &[ACCEPT, JSON, ("MCP-Protocol-Version", "2025-06-18")], PING);
    answer(&mut ping, 200, &[JSON], &[PONG]);
    assert_eq!(ping.negotiated(), None, "only an initialize result negotiates");
    assert_eq!(
        names(&post_in(&conversation, &[ACCEPT, JSON, ("MCP-Protocol-Version", "2025-06-18")], INITIALIZED)),
        [] as [&str; 0]
    );
    assert_eq!(names(&post_in(&conversation, &[ACCEPT, JSON], INITIALIZED)), ["protocol-version-missing"]);
    // Another revision than the one negotiated is a SHOULD broken, and a
    // value that names none a MUST.
    assert_eq!(names(&post_in(&conversation, &[ACCEPT, JSON, V1125], PING)), ["protocol-version-not-negotiated"]);
    let junk = [ACCEPT, JSON, ("MCP-Protocol-Version", "1900-01-01")];
    assert_eq!(names(&post_in(&conversation, &junk, PING)), ["protocol-version-invalid"]);
    let twice = [ACCEPT, JSON, ("MCP-Protocol-Version", "2025-06-18"), ("mcp-protocol-version", "2025-06-18")];
    assert_eq!(names(&post_in(&conversation, &twice, PING)), ["protocol-version-invalid"]);
    // Under 2025-03-26 there is no such header.
    assert_eq!(names(&post(Revision::V2025_03_26, &[ACCEPT, JSON], PING)), [] as [&str; 0]);
    let get = Exchange::other(&conversation, "GET", &headers(&[("Accept", "text/event-stream")]));
    assert_eq!(names(&get), ["protocol-version-missing"]);
}

#[test]
fn session_ids_are_visible_ascii_from_2025_03_26_to_2025_11_25() {
    let bad = [ACCEPT, JSON, V1125, ("Mcp-Session-Id", "a b")];
    assert_eq!(names(&post(Revision::V2025_11_25, &bad, PING)), ["session-id-invalid"]);
    let mut e = post(Revision::V2025_03_26, &[ACCEPT, JSON], PING);
    answer(&mut e, 200, &[JSON, ("mcp-session-id", "id\u{7}")], &[PONG]);
    assert_eq!(names(&e), ["server-session-id-invalid"]);
    // 2026-07-28 has no sessions: the header is ignored.
    let mut pairs = modern("ping", None);
    pairs.push(("Mcp-Session-Id", "a b"));
    assert_eq!(names(&post(Revision::V2026_07_28, &pairs, &modern_ping())), [] as [&str; 0]);
}

#[test]
fn a_get_stream_carries_no_response_unless_it_resumes_one() {
    let conversation = Conversation::new(Revision::V2025_03_26);
    let mut e = Exchange::other(&conversation, "GET", &headers(&[("Accept", "text/event-stream")]));
    answer(&mut e, 200, &[SSE], &[INITIALIZED, PONG]);
    assert_eq!(names(&e), ["response-on-get-stream"]);
    let mut e = Exchange::other(&conversation, "GET", &headers(&[("Last-Event-ID", "7")]));
    answer(&mut e, 200, &[SSE], &[PONG]);
    assert_eq!(names(&e), [] as [&str; 0]);
    let mut e = Exchange::other(&conversation, "GET", &headers(&[]));
    answer(&mut e, 405, &[], &[]);
    assert_eq!(names(&e), [] as [&str; 0]);
    // A DELETE's answer is held to nothing.
    let mut e = Exchange::other(&conversation, "DELETE", &headers(&[]));
    answer(&mut e, 200, &[SSE], &[PONG]);
    assert_eq!(names(&e), [] as [&str; 0]);
}

pub(crate) fn meta_params(extra: &str) -> String {
    format!(
        r#"{{{extra}"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{}}}}}}"#
    )
}

pub(crate) fn modern_ping() -> String {
    format!(r#"{{"jsonrpc":"2.0","id":1,"method":"ping","params":{}}}"#, meta_params(""))
}

pub(crate) fn call(method: &str, target: &str) -> String {
    format!(r#"{{"jsonrpc":"2.0","id":9,"method":"{method}","params":{}}}"#, meta_params(target))
}

pub(crate) fn modern<'a>(method: &'a str, name: Option<&'a str>) -> Vec<(&'a str, &'a str)> {
    let mut pairs = vec![ACCEPT, JSON, ("MCP-Protocol-Version", "2026-07-28"), ("Mcp-Method", method)];
    pairs.extend(name.map(|n| ("Mcp-Name", n)));
    pairs
}

#[test]
fn under_2026_07_28_mcp_method_mirrors_every_request_s_method() {
    let v = Revision::V2026_07_28;
    assert_eq!(names(&post(v, &modern("ping", None), &modern_ping())), [] as [&str; 0]);
    let mut missing = modern("ping", None);
    missing.retain(|(n, _)| *n != "Mcp-Method");
    assert_eq!(names(&post(v, &missing, &modern_ping())), ["mcp-method-missing"]);
    // Values are case-sensitive; a repeated header is two answers.
    assert_eq!(names(&post(v, &modern("PING", None), &modern_ping())), ["mcp-method-mismatch"]);
    let mut twice = modern("ping", None);
    twice.push(("mcp-method", "ping"));
    assert_eq!(names(&post(v, &twice, &modern_ping())), ["mcp-method-mismatch"]);
    // A notification need not carry it, but may not contradict its body.
    let note = format!(
        r#"{{"jsonrpc":"2.0","method":"notifications/cancelled","params":{}}}"#,
        meta_params(r#""requestId":1,"#)
    );
    let mut bare = modern("x", None);
    bare.retain(|(n, _)| *n != "Mcp-Method");
    assert_eq!(names(&post(v, &bare, &note)), [] as [&str; 0]);
    assert_eq!(names(&post(v, &modern("tools/call", None), &note)), ["mcp-method-mismatch"]);
}

#[test]
fn under_2026_07_28_mcp_name_mirrors_params_name_or_uri_with_base64_decoded() {
    let v = Revision::V2026_07_28;
    let run =
        |method: &str, target: &str, name: Option<&str>| names(&post(v, &modern(method, name), &call(method, target)));
    assert_eq!(run("tools/call", r#""name":"get_me","#, Some("get_me")), [] as [&str; 0]);
    assert_eq!(run("prompts/get", r#""name":"review","#, Some("review")), [] as [&str; 0]);
    assert_eq!(run("resources/read", r#""uri":"file:///a b","#, Some("file:///a b")), [] as [&str; 0]);
    assert_eq!(
        run("tools/call", r#""name":"Hello, \u4e16\u754c","#, Some("=?base64?SGVsbG8sIOS4lueVjA==?=")),
        [] as [&str; 0]
    );
    assert_eq!(run("tools/call", r#""name":"get_me","#, None), ["mcp-name-missing"]);
    assert_eq!(run("tools/call", r#""name":"delete_repo","#, Some("get_me")), ["mcp-name-mismatch"]);
    assert_eq!(run("resources/read", r#""uri":"file:///etc/passwd","#, Some("file:///tmp/a")), ["mcp-name-mismatch"]);
    assert_eq!(run("tools/call", r#""name":"Hello","#, Some("=?base64?SGVsbG8?=")), ["mcp-name-mismatch"]);
    // The whole alphabet: `+` and `/` are its last two letters.
    assert_eq!(run("tools/call", r#""name":"~~~???","#, Some("=?base64?fn5+Pz8/?=")), [] as [&str; 0]);
    // A name that is no string is invalid params, the server's to answer.
    assert_eq!(run("tools/call", r#""name":5,"#, None), [] as [&str; 0]);
    // The body naming its target twice is two answers too, whatever the header.
    assert_eq!(run("tools/call", r#""name":"get_me","name":"delete_repo","#, Some("get_me")), ["mcp-name-mismatch"]);
    // Answered at the repeat.
    let twice = call("tools/call", r#""name":"get_me","name":"delete_repo","#);
    let found = post(v, &modern("tools/call", Some("get_me")), &twice);
    let offset = found.findings()[0].reply().map(|e| e.offset());
    assert_eq!(offset, twice.find(r#""name":"delete_repo""#));
    // A notification need not carry Mcp-Name.
    let note = format!(r#"{{"jsonrpc":"2.0","method":"tools/call","params":{}}}"#, meta_params(r#""name":"get_me","#));
    assert_eq!(names(&post(v, &modern("tools/call", None), &note)), [] as [&str; 0]);
    // A header for a body without a target mirrors nothing; other methods are not named.
    assert_eq!(run("tools/call", "", Some("get_me")), ["mcp-name-mismatch"]);
    assert_eq!(run("tools/list", "", None), [] as [&str; 0]);
}

#[test]
fn under_2026_07_28_mcp_protocol_version_equals_the_body_s_meta() {
    let v = Revision::V2026_07_28;
    let mut pairs = modern("ping", None);
    pairs.retain(|(n, _)| *n != "MCP-Protocol-Version");
    assert_eq!(names(&post(v, &pairs, &modern_ping())), ["protocol-version-missing"]);
    pairs.push(("MCP-Protocol-Version", "2025-11-25"));
    assert_eq!(names(&post(v, &pairs, &modern_ping())), ["protocol-version-mismatch"]);
    let bare = r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{}}"#;
    let found = post(v, &modern("ping", None), bare);
    assert_eq!(names(&found), ["meta-protocol-version-missing", "meta-client-capabilities-missing"]);
    assert!(found.findings().iter().all(|f| f.reply().is_none()), "invalid params are the server's to answer");
    let versioned = r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#;
    let found = post(v, &modern("ping", None), versioned);
    assert_eq!(names(&found), ["meta-client-capabilities-missing"]);
    assert_eq!(found.findings()[0].place, Place::RequestBody(versioned.find(r#"{"io."#).unwrap()), "at _meta");
}

#[test]
fn a_header_fault_is_answered_with_32020_the_request_id_and_the_body_value_s_offset() {
    let body = call("tools/call", r#""name":"delete_repo","#);
    let e = post(Revision::V2026_07_28, &modern("tools/call", Some("get_me")), &body);
    let [finding] = e.findings() else { panic!("{:?}", e.findings()) };
    assert_eq!((finding.rule, finding.place), (Rule::McpNameMismatch, Place::RequestHeader("Mcp-Name")));
    let reply = finding.reply().unwrap();
    assert_eq!(&body[reply.offset()..reply.offset() + 13], r#""delete_repo""#);
    let mut out = Vec::new();
    assert!(write::error_for(&mut out, reply));
    let out: serde_json::Value = serde_json::from_slice(&out).unwrap();
    assert_eq!((out["id"].as_i64(), out["error"]["code"].as_i64()), (Some(9), Some(-32020)));
    assert_eq!(out["error"]["data"]["reason"], "header-mismatch");
    // A missing Mcp-Method points at the body's method.
    let mut pairs = modern("tools/call", Some("delete_repo"));
    pairs.retain(|(n, _)| *n != "Mcp-Method");
    let e = post(Revision::V2026_07_28, &pairs, &body);
    let reply = e.findings()[0].reply().unwrap();
    assert_eq!(&body[reply.offset()..reply.offset() + 12], r#""tools/call""#);
}

#[test]
fn new_findings_are_handed_out_once_as_the_exchange_goes() {
    let mut e = post(Revision::V2025_11_25, &[JSON, V1125], PING);
    assert_eq!(e.new_findings().len(), 1);
    assert_eq!(e.new_findings().len(), 0);
    answer(&mut e, 200, &[SSE], &[]);
    let later: Vec<Rule> = e.new_findings().iter().map(|f| f.rule).collect();
    assert_eq!(later, [Rule::NoResponse]);
}

#[test]
fn rule_names_are_stable_and_say_who_broke_them_and_how_binding_each_is() {
    let pinned: Vec<(&str, &str, &str)> =
        Rule::ALL.iter().map(|r| (r.name(), r.side().name(), r.severity().name())).collect();
    assert!(Rule::ALL.iter().all(|r| r.to_string() == r.name()), "a rule displays as its name");
    assert_eq!(
        pinned,
        [
            ("accept-incomplete", "client", "violation"),
            ("content-type-not-json", "client", "warning"),
            ("response-posted", "client", "violation"),
            ("protocol-version-missing", "client", "violation"),
            ("protocol-version-mismatch", "client", "violation"),
            ("protocol-version-not-negotiated", "client", "warning"),
            ("protocol-version-invalid", "client", "violation"),
            ("meta-protocol-version-missing", "client", "violation"),
            ("meta-client-capabilities-missing", "client", "violation"),
            ("mcp-method-missing", "client", "violation"),
            ("mcp-method-mismatch", "client", "violation"),
            ("mcp-name-missing", "client", "violation"),
            ("mcp-name-mismatch", "client", "violation"),
            ("mcp-param-malformed", "client", "violation"),
            ("session-id-invalid", "client", "violation"),
            ("request-id-reused", "client", "violation"),
            ("response-to-nothing", "client", "violation"),
            ("not-accepted", "server", "violation"),
            ("body-on-accepted", "server", "violation"),
            ("content-type-unexpected", "server", "violation"),
            ("not-a-response", "server", "violation"),
            ("response-id-mismatch", "server", "violation"),
            ("response-repeated", "server", "violation"),
            ("response-missing", "server", "violation"),
            ("no-response", "server", "warning"),
            ("server-request-on-stream", "server", "violation"),
            ("response-on-get-stream", "server", "violation"),
            ("server-session-id-invalid", "server", "violation"),
            ("server-request-id-reused", "server", "violation"),
            ("header-mismatch-accepted", "server", "violation"),
            ("header-mismatch-refusal", "server", "violation"),
            ("meta-refusal", "server", "violation"),
            ("unsupported-version-accepted", "server", "violation"),
            ("unsupported-version-refusal", "server", "violation"),
            ("method-not-found-status", "server", "violation"),
            ("discover-not-implemented", "server", "violation"),
            ("invalid-body-accepted", "server", "violation"),
            ("wrong-error-code", "server", "violation"),
            ("error-id-mismatch", "server", "violation"),
            ("auth-error-not-401", "server", "warning"),
            ("refusal-not-json-rpc", "server", "warning"),
            ("result-type-missing", "server", "violation"),
            ("result-type-unknown", "server", "warning"),
            ("input-required-not-allowed", "server", "violation"),
            ("message-after-response", "server", "warning"),
            ("log-message-unrequested", "server", "violation"),
            ("listen-not-acknowledged", "server", "violation"),
            ("listen-without-subscription-id", "server", "violation"),
            ("session-id-under-2026", "server", "warning"),
            ("get-or-delete-not-405", "server", "warning"),
        ]
    );
    assert!(Rule::ALL.iter().all(|r| r.message().chars().next().is_some_and(char::is_lowercase)));
}

#[test]
fn a_request_that_declares_2026_07_28_is_judged_under_it_whatever_was_negotiated() {
    // The Python SDK's client probes with `server/discover` first; an older
    // server refuses it (400) and the client falls back to `initialize`.
    let conversation = Conversation::new(Revision::V2025_11_25);
    let mut probe = post_in(&conversation, &modern("server/discover", None), &call("server/discover", ""));
    answer(
        &mut probe,
        400,
        &[JSON],
        &[r#"{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: Server not initialized"},"id":null}"#],
    );
    assert_eq!(names(&probe), [] as [&str; 0]);
    assert_eq!(conversation.in_force_for(&headers(&[V1125])), Revision::V2025_11_25);
    // Declaring an older revision than the one negotiated is still not
    // the negotiated one.
    assert_eq!(
        names(&post_in(&conversation, &[ACCEPT, JSON, ("MCP-Protocol-Version", "2025-06-18")], PING)),
        ["protocol-version-not-negotiated"]
    );
}

#[test]
fn a_request_without_mcp_protocol_version_is_an_earlier_revision_s_unless_its_meta_declares_2026_07_28() {
    // A client of 2025-11-25 starts with `initialize` and no header: a
    // server that gets none assumes 2025-03-26, and holds it to no
    // 2026-07-28 mirror.
    let conversation = Conversation::new(Revision::V2026_07_28);
    let initialize = r#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}"#;
    assert_eq!(conversation.in_force_for(&headers(&[ACCEPT, JSON])), Revision::V2025_03_26);
    assert_eq!(names(&post_in(&conversation, &[ACCEPT, JSON], initialize)), [] as [&str; 0]);
    // A body that declares 2026-07-28 is a 2026-07-28 request whose
    // header is missing: the -32020 answer.
    let mut headerless = modern("ping", None);
    headerless.retain(|(n, _)| *n != "MCP-Protocol-Version");
    let found = post_in(&conversation, &headerless, &modern_ping());
    assert_eq!(names(&found), ["protocol-version-missing"]);
    assert!(found.findings().iter().all(|f| f.reply().is_some()));
}

#[test]
fn a_request_declaring_an_earlier_revision_before_any_negotiation_is_judged_under_it() {
    let conversation = Conversation::new(Revision::V2026_07_28);
    assert_eq!(conversation.in_force_for(&headers(&[V1125])), Revision::V2025_11_25);
    assert_eq!(names(&post_in(&conversation, &[ACCEPT, JSON, V1125], PING)), [] as [&str; 0]);
    // An unknown value is no revision: 2026-07-28's mirror rules hold.
    let unknown = [ACCEPT, JSON, ("MCP-Protocol-Version", "2099-01-01"), ("Mcp-Method", "ping")];
    assert_eq!(conversation.in_force_for(&headers(&unknown)), Revision::V2026_07_28);
}

#[test]
fn every_rule_is_restated_in_rules_md_with_tests_that_exist() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let rules = std::fs::read_to_string(root.join("RULES.md")).unwrap();
    let section = &rules[rules.find("## 8.").unwrap()..rules.find("## Suites").unwrap()];
    for rule in Rule::ALL {
        assert!(section.contains(&format!("`{}`", rule.name())), "RULES.md section 8 does not name {}", rule.name());
    }
    let mut sources = String::new();
    for entry in std::fs::read_dir(root.join("core/tests/suite")).unwrap() {
        sources += &std::fs::read_to_string(entry.unwrap().path()).unwrap();
    }
    // Every test the section names (a backquoted name of five words or
    // more, with or without its module) is a test of the suite.
    let named: Vec<&str> = section
        .split('`')
        .skip(1)
        .step_by(2)
        .map(|quoted| quoted.rsplit("::").next().unwrap_or(quoted))
        .filter(|name| {
            name.matches('_').count() >= 4
                && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        })
        .collect();
    assert!(named.len() >= 25, "{named:?}");
    for name in named {
        assert!(sources.contains(&format!("fn {name}()")), "RULES.md names a test that does not exist: {name}");
    }
}

#[test]
fn a_protocol_version_header_naming_what_is_no_mcp_revision_is_invalid() {
    // `jsonrpc` is a revision this crate knows, but no MCP revision: not a
    // revision other than the negotiated one (a SHOULD), but no valid value.
    let not_mcp = [ACCEPT, JSON, ("MCP-Protocol-Version", "jsonrpc")];
    assert_eq!(names(&post(Revision::V2025_11_25, &not_mcp, PING)), ["protocol-version-invalid"]);
}

#[test]
fn a_body_that_is_not_a_message_must_not_be_accepted_with_202() {
    let ok = [ACCEPT, JSON, V1125];
    let mut e = post(Revision::V2025_11_25, &ok, r#"{"jsonrpc":"2.0","id":1,"method":"#);
    answer(&mut e, 202, &[], &[]);
    assert_eq!(names(&e), ["invalid-body-accepted"]);
    // Found on the status, where the fault lies, not at the end of a body
    // that never came.
    assert_eq!(e.findings().first().map(|f| f.place), Some(Place::Status));
}

#[test]
fn an_error_without_an_id_answers_a_single_request_but_not_one_of_a_batch() {
    let no_id = r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"unreadable"}}"#;
    let mut single = post(Revision::V2025_03_26, &[ACCEPT, JSON], PING);
    answer(&mut single, 200, &[JSON], &[no_id]);
    assert!(names(&single).contains(&"error-id-mismatch"), "{:?}", names(&single));
    // A batch of one: the error may answer what could not be read of it.
    let mut batch = post(Revision::V2025_03_26, &[ACCEPT, JSON], &format!("[{PING}]"));
    answer(&mut batch, 200, &[JSON], &[no_id]);
    assert!(!names(&batch).contains(&"error-id-mismatch"), "{:?}", names(&batch));
}

#[test]
fn an_exchange_tells_its_revision_status_unanswered_requests_and_era() {
    let two = format!(r#"[{PING},{{"jsonrpc":"2.0","id":2,"method":"ping"}}]"#);
    let mut e = post(Revision::V2025_03_26, &[ACCEPT, JSON], &two);
    assert_eq!((e.revision(), e.status()), (Revision::V2025_03_26, 0));
    assert_eq!(e.unanswered().cloned().collect::<Vec<_>>(), [mcp_envelope::Id::Int(1), mcp_envelope::Id::Int(2)]);
    e.response(200, &headers(&[JSON]));
    assert_eq!(e.status(), 200);
    e.message(Place::Response { line: 1, offset: 0 }, &Parser::new(Revision::V2025_03_26).parse(PONG.as_bytes()));
    assert_eq!(e.unanswered().cloned().collect::<Vec<_>>(), [mcp_envelope::Id::Int(2)]);
    assert!(!e.modern(), "an answer of an earlier revision");
    // A 2026-07-28 answer: its result says its type.
    let modern = [ACCEPT, JSON, ("MCP-Protocol-Version", "2026-07-28"), ("Mcp-Method", "ping")];
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#;
    let mut e = post(Revision::V2026_07_28, &modern, body);
    answer(&mut e, 200, &[JSON], &[MODERN_PONG]);
    assert!(e.modern(), "{:?}", names(&e));
}
