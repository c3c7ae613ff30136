//! `mcp-envelope probe` against the example server
//! (`cli/examples/probe_server/`): conforming, it passes every check of
//! every revision it speaks, over stdio and Streamable HTTP; with one fault
//! of the kind real servers have, it fails (or, for a SHOULD, warns on)
//! exactly the checks that fault touches, and passes the rest. And the
//! probe's own contract: its exit status, its JSON lines, a census.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, reason = "tests fail loudly")]

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Output, Stdio};

use serde_json::Value;

fn cli() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_mcp-envelope"))
}

/// The example server, built (again, if its source changed) on first use:
/// `cargo test --test probe` alone builds no example.
fn server() -> PathBuf {
    static BUILT: std::sync::Once = std::sync::Once::new();
    BUILT.call_once(|| {
        // The profile the tests were built with (debug is `dev`'s folder).
        let folder = cli().parent().unwrap().file_name().unwrap().to_string_lossy().into_owned();
        let profile = if folder == "debug" { "dev".to_owned() } else { folder };
        let built = Command::new(env!("CARGO"))
            .args(["build", "-p", "mcp-envelope-cli", "--example", "probe_server", "--profile", &profile])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .status()
            .unwrap();
        assert!(built.success(), "building the probe_server example");
    });
    cli().parent().unwrap().join("examples").join("probe_server")
}

/// The example server over HTTP on a free port, stopped when dropped.
struct Http {
    child: Child,
    urls: Vec<String>,
}

impl Http {
    fn start(faults: &[&str], count: u16) -> Http {
        let mut command = Command::new(server());
        for fault in faults {
            command.args(["--fault", fault]);
        }
        let mut child = command.args(["http", "0", &count.to_string()]).stdout(Stdio::piped()).spawn().unwrap();
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let urls = (0..count).map(|_| lines.next().unwrap().unwrap()).collect();
        Http { child, urls }
    }
}

impl Drop for Http {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn probe(args: &[&str]) -> Output {
    Command::new(cli()).arg("probe").args(["--wait", "2", "--oversize", "2000000"]).args(args).output().unwrap()
}

/// The verdicts of a JSON run other than pass, by revision:
/// `check:verdict` each.
fn not_passed(output: &Output) -> BTreeMap<String, Vec<String>> {
    let text = String::from_utf8_lossy(&output.stdout);
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for line in text.lines() {
        let v: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        let revision = v["revision"].as_str().unwrap().to_owned();
        let entry = out.entry(revision).or_default();
        if let Some(check) = v["check"].as_str()
            && v["verdict"] != "pass"
        {
            entry.push(format!("{check}:{}", v["verdict"].as_str().unwrap()));
        }
    }
    out
}

/// Probes the example server with `faults` over `transport` under every
/// revision it speaks: what did not pass, by revision.
fn run(faults: &[&str], transport: &str) -> BTreeMap<String, Vec<String>> {
    let output = if transport == "stdio" {
        let server = server();
        let mut args = vec!["--revision", "all", "--format", "json", "--", server.to_str().unwrap()];
        for fault in faults {
            args.extend(["--fault", fault]);
        }
        args.push("stdio");
        probe(&args)
    } else {
        let http = Http::start(faults, 1);
        probe(&["--revision", "all", "--format", "json", &http.urls[0]])
    };
    assert!(output.status.code() == Some(0) || output.status.code() == Some(1), "{output:?}");
    not_passed(&output)
}

const STDIO: [&str; 5] = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"];
const HTTP: [&str; 4] = ["2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"];

/// What a fault leaves unpassed under each revision: `same` under all,
/// plus `extra` under those it names.
fn expect(revisions: &[&str], same: &[&str], extra: &[(&str, &[&str])]) -> BTreeMap<String, Vec<String>> {
    revisions
        .iter()
        .map(|r| {
            let mut checks: Vec<String> = same.iter().map(|c| (*c).to_owned()).collect();
            for (revision, more) in extra {
                if revision == r {
                    checks.extend(more.iter().map(|c| (*c).to_owned()));
                }
            }
            ((*r).to_owned(), checks)
        })
        .collect()
}

fn sorted(mut found: BTreeMap<String, Vec<String>>) -> BTreeMap<String, Vec<String>> {
    found.values_mut().for_each(|v| v.sort());
    found
}

fn assert_faults(transport: &str, faults: &[&str], expected: BTreeMap<String, Vec<String>>) {
    assert_eq!(sorted(run(faults, transport)), sorted(expected), "{transport} with {faults:?}");
}

const PARSE: [&str; 4] = [
    "parse-error-bad-json:fail",
    "parse-error-truncated:fail",
    "parse-error-invalid-utf8:fail",
    "byte-order-mark:fail",
];
const INVALID: [&str; 12] = [
    "not-an-object-number:fail",
    "not-an-object-string:fail",
    "jsonrpc-missing:fail",
    "jsonrpc-1.0:fail",
    "method-not-a-string:fail",
    "id-null:fail",
    "id-fractional:fail",
    "id-boolean:fail",
    "id-object:fail",
    "params-a-string:fail",
    "result-and-error-together:fail",
    "batch-empty:fail",
];
const META: [&str; 3] =
    ["meta-missing:fail", "meta-protocol-version-missing:fail", "meta-client-capabilities-missing:fail"];
const REMOVED: [&str; 4] = [
    "removed-ping:fail",
    "removed-logging-set-level:fail",
    "removed-resources-subscribe:fail",
    "removed-resources-unsubscribe:fail",
];
const REMOVED_HTTP: [&str; 5] = [
    "removed-initialize:fail",
    "removed-ping:fail",
    "removed-logging-set-level:fail",
    "removed-resources-subscribe:fail",
    "removed-resources-unsubscribe:fail",
];
const BAD_IDS: [&str; 4] = ["id-null:fail", "id-fractional:fail", "id-boolean:fail", "id-object:fail"];
const READABLE_IDS: [&str; 6] = [
    "jsonrpc-missing:fail",
    "jsonrpc-1.0:fail",
    "method-not-a-string:fail",
    "params-a-string:fail",
    "result-and-error-together:fail",
    "unknown-method:fail",
];

/// `batch-refused` comes out `verdict` too, except under 2025-03-26 (which
/// has batches).
fn with_batch_refused(
    revisions: &[&str],
    verdict: &'static [&'static str],
) -> Vec<(&'static str, &'static [&'static str])> {
    let all: [&'static str; 4] = ["2024-11-05", "2025-06-18", "2025-11-25", "2026-07-28"];
    all.into_iter().filter(|r| revisions.contains(r)).map(|r| (r, verdict)).collect()
}

#[test]
fn a_conforming_server_passes_every_check_over_stdio_and_http() {
    assert_faults("stdio", &[], expect(&STDIO, &[], &[]));
    assert_faults("http", &[], expect(&HTTP, &[], &[]));
}

#[test]
fn parse_errors_answered_as_invalid_requests_fail_the_parse_error_checks() {
    for (transport, revisions) in [("stdio", &STDIO[..]), ("http", &HTTP[..])] {
        assert_faults(transport, &["parse-as-invalid"], expect(revisions, &PARSE, &[]));
    }
}

#[test]
fn invalid_requests_answered_as_parse_errors_fail_the_invalid_request_checks() {
    for (transport, revisions) in [("stdio", &STDIO[..]), ("http", &HTTP[..])] {
        let batch = with_batch_refused(revisions, &["batch-refused:fail"]);
        assert_faults(transport, &["invalid-as-parse"], expect(revisions, &INVALID, &batch));
    }
}

#[test]
fn a_request_with_a_bad_id_taken_for_a_notification_fails_the_id_checks() {
    for (transport, revisions) in [("stdio", &STDIO[..]), ("http", &HTTP[..])] {
        assert_faults(transport, &["bad-id-as-notification"], expect(revisions, &BAD_IDS, &[]));
    }
}

#[test]
fn an_error_without_the_readable_id_fails_the_checks_whose_id_is_readable() {
    for (transport, revisions) in [("stdio", &STDIO[..]), ("http", &HTTP[..])] {
        // And under 2026-07-28 the refusals of its own answers that carry
        // the id: a request's missing _meta (over stdio: over HTTP the
        // exchange rules answer it), the methods it removed.
        let stdio: Vec<&str> = META.into_iter().chain(REMOVED).collect();
        let modern: &[&str] = if transport == "stdio" { &stdio } else { &REMOVED_HTTP };
        assert_faults(transport, &["error-id-null"], expect(revisions, &READABLE_IDS, &[("2026-07-28", modern)]));
    }
}

#[test]
fn answering_what_gets_no_answer_fails_those_checks() {
    for (transport, revisions) in [("stdio", &STDIO[..]), ("http", &HTTP[..])] {
        let batch: &[(&str, &[&str])] = &[("2025-03-26", &["batch-answered:fail"])];
        assert_faults(
            transport,
            &["answer-notifications"],
            expect(revisions, &["notification-unanswered:fail"], batch),
        );
        assert_faults(
            transport,
            &["answer-responses"],
            expect(revisions, &["response-to-nothing-unanswered:fail"], &[]),
        );
    }
}

#[test]
fn batches_run_where_none_are_allowed_warn_on_batch_refused() {
    for (transport, revisions) in [("stdio", &STDIO[..]), ("http", &HTTP[..])] {
        let batch = with_batch_refused(revisions, &["batch-refused:warn"]);
        assert_faults(transport, &["batch-always"], expect(revisions, &[], &batch));
    }
}

#[test]
fn ids_not_echoed_as_sent_fail_the_id_echo_checks() {
    for (transport, revisions) in [("stdio", &STDIO[..]), ("http", &HTTP[..])] {
        assert_faults(transport, &["string-id-as-number"], expect(revisions, &["id-string-echoed:fail"], &[]));
        assert_faults(transport, &["id-through-double"], expect(revisions, &["id-large-integer-exact:fail"], &[]));
    }
}

#[test]
fn a_server_that_cannot_take_two_requests_at_once_fails_ids_in_flight() {
    assert_faults("http", &["busy"], expect(&HTTP, &["ids-in-flight-answered-once:fail"], &[]));
}

#[test]
fn a_server_that_dies_on_a_large_message_fails_oversized_and_is_started_again() {
    assert_faults("stdio", &["crash-on-large"], expect(&STDIO, &["oversized-message:fail"], &[]));
    assert_faults("http", &["crash-on-large"], expect(&HTTP, &["oversized-message:warn"], &[]));
}

#[test]
fn a_stdio_server_that_answers_out_of_order_is_not_taken_for_silent() {
    // Results and method-not-found come after the harmless requests sent
    // behind them, as from a server that runs requests at once.
    assert_faults("stdio", &["answers-out-of-order"], expect(&STDIO, &[], &[]));
}

#[test]
fn a_stdio_server_that_stops_serving_the_revision_fails_the_check_and_is_started_again() {
    // From the first request without `_meta` it serves 2025 alone: every
    // check that sends one fails, and, started again, the server passes
    // every check after it.
    let stopped = [
        "jsonrpc-missing:fail",
        "jsonrpc-1.0:fail",
        "method-not-a-string:fail",
        "id-null:fail",
        "id-fractional:fail",
        "id-boolean:fail",
        "id-object:fail",
        "params-a-string:fail",
        "meta-missing:fail",
        "meta-protocol-version-missing:fail",
    ];
    let expected = expect(&STDIO, &[], &[("2026-07-28", &stopped)]);
    assert_faults("stdio", &["request-without-meta-pins-2025"], expected);
    let server = server();
    let out = probe(&[
        "--revision",
        "2026-07-28",
        "--format",
        "json",
        "--",
        server.to_str().unwrap(),
        "--fault",
        "request-without-meta-pins-2025",
        "stdio",
    ]);
    let line = String::from_utf8_lossy(&out.stdout)
        .lines()
        .find(|l| l.contains("\"check\":\"jsonrpc-missing\""))
        .map(str::to_owned)
        .unwrap();
    let v: Value = serde_json::from_str(&line).unwrap();
    let why = v["why"].as_str().unwrap();
    assert!(why.starts_with("it stopped serving after it: server/discover got {"), "{why}");
    assert!(why.contains("-32601"), "{why}");
}

#[test]
fn a_request_that_is_also_a_response_is_taken_as_either_with_a_warning() {
    // `method` and `id` with `result` and `error`: answered as the
    // request, or left unanswered (stdio) and accepted (HTTP) as the
    // response; -32600 passes, and anything else fails.
    for (transport, revisions) in [("stdio", &STDIO[..]), ("http", &HTTP[..])] {
        let warned = ["result-and-error-together:warn"];
        assert_faults(transport, &["both-as-request"], expect(revisions, &warned, &[]));
        assert_faults(transport, &["both-as-response"], expect(revisions, &warned, &[]));
    }
}

#[test]
fn a_stdio_server_that_writes_other_things_or_mishandles_the_end_is_held_to_it() {
    assert_faults("stdio", &["stdout-noise"], expect(&STDIO, &["stdout-only-messages:fail"], &[]));
    assert_faults("stdio", &["exit-1-at-eof"], expect(&STDIO, &["end-of-input:warn"], &[]));
    assert_faults("stdio", &["hang-at-eof"], expect(&STDIO, &["end-of-input:warn"], &[]));
}

#[test]
fn a_server_that_reads_past_a_byte_order_mark_passes_as_one_that_refuses_it() {
    // RFC 8259 8.1: a reader "MAY ignore the presence of a byte order mark".
    assert_faults("stdio", &["bom-tolerated"], expect(&STDIO, &[], &[]));
}

#[test]
fn the_transport_s_own_rules_are_checked_over_http() {
    assert_faults("http", &["any-content-type"], expect(&HTTP, &["content-type-not-json:warn"], &[]));
    assert_faults("http", &["stream-despite-accept"], expect(&HTTP, &["accept-without-event-stream:warn"], &[]));
    assert_faults("http", &["put-404"], expect(&HTTP, &["method-not-allowed:warn"], &[]));
    assert_faults("http", &["405-without-allow"], expect(&HTTP, &["method-not-allowed:fail"], &[]));
    let unsupported: &[(&str, &[&str])] = &[
        ("2025-06-18", &["protocol-version-unsupported:fail"]),
        ("2025-11-25", &["protocol-version-unsupported:fail"]),
        ("2026-07-28", &["unsupported-version-32022:fail"]),
    ];
    assert_faults("http", &["any-version"], expect(&HTTP, &[], unsupported));
    let absent: &[(&str, &[&str])] =
        &[("2025-06-18", &["protocol-version-absent:warn"]), ("2025-11-25", &["protocol-version-absent:warn"])];
    assert_faults("http", &["version-required-500"], expect(&HTTP, &[], absent));
}

#[test]
fn sessions_are_held_to_their_rules_up_to_2025_11_25() {
    let legacy = |checks: &'static [&'static str]| -> Vec<(&'static str, &'static [&'static str])> {
        ["2025-03-26", "2025-06-18", "2025-11-25"].into_iter().map(|r| (r, checks)).collect()
    };
    assert_faults("http", &["sessions-optional"], expect(&HTTP, &[], &legacy(&["session-id-missing:warn"])));
    assert_faults(
        "http",
        &["unknown-session-served"],
        expect(&HTTP, &[], &legacy(&["session-id-unknown:fail", "session-deleted:fail"])),
    );
    assert_faults("http", &["delete-keeps-session"], expect(&HTTP, &[], &legacy(&["session-deleted:fail"])));
}

#[test]
fn the_refusal_half_and_no_sessions_are_checked_under_2026_07_28() {
    let modern = modern_only;
    const MISMATCH: [&str; 6] = [
        "mcp-method-mismatch:fail",
        "mcp-method-case:fail",
        "mcp-name-mismatch:fail",
        "protocol-version-mismatch:fail",
        "mcp-method-missing:fail",
        "mcp-name-missing:fail",
    ];
    assert_faults("http", &["no-header-check"], expect(&HTTP, &[], &modern(&MISMATCH)));
    let not_found: Vec<&str> = ["unknown-method:fail"].into_iter().chain(REMOVED_HTTP).collect();
    assert_faults("http", &["unknown-method-200"], expect(&HTTP, &[], &modern(&not_found)));
    assert_faults(
        "http",
        &["unsupported-without-data"],
        expect(&HTTP, &[], &modern(&["unsupported-version-32022:fail"])),
    );
    assert_faults("http", &["get-2026-served"], expect(&HTTP, &[], &modern(&["get-refused:warn"])));
    assert_faults("http", &["delete-2026-served"], expect(&HTTP, &[], &modern(&["delete-refused:warn"])));
    assert_faults("http", &["session-id-2026"], expect(&HTTP, &[], &modern(&["no-session-id:warn"])));
    assert_faults("http", &["no-result-type"], expect(&HTTP, &[], &modern(&["result-type:fail"])));
    assert_faults("stdio", &["no-result-type"], expect(&STDIO, &[], &modern(&["result-type:fail"])));
}

/// Under 2026-07-28 alone: `checks`.
fn modern_only<'a>(checks: &'a [&'a str]) -> Vec<(&'static str, &'a [&'a str])> {
    vec![("2026-07-28", checks)]
}

#[test]
fn each_request_s_meta_is_required_under_2026_07_28_over_stdio_and_http() {
    for (transport, revisions) in [("stdio", &STDIO[..]), ("http", &HTTP[..])] {
        for (fault, check) in [
            ("meta-optional", "meta-missing:fail"),
            ("protocol-version-optional", "meta-protocol-version-missing:fail"),
            ("capabilities-optional", "meta-client-capabilities-missing:fail"),
            ("client-info-required", "meta-client-info-optional:fail"),
        ] {
            assert_faults(transport, &[fault], expect(revisions, &[], &modern_only(&[check])));
        }
    }
}

#[test]
fn the_methods_2026_07_28_removed_are_method_not_found() {
    for (transport, revisions) in [("stdio", &STDIO[..]), ("http", &HTTP[..])] {
        for (fault, check) in [
            ("ping-kept", "removed-ping:fail"),
            ("set-level-kept", "removed-logging-set-level:fail"),
            ("subscribe-kept", "removed-resources-subscribe:fail"),
            ("unsubscribe-kept", "removed-resources-unsubscribe:fail"),
        ] {
            assert_faults(transport, &[fault], expect(revisions, &[], &modern_only(&[check])));
        }
    }
    // On stdio, initialize selects the earlier era for the process: asked
    // over HTTP only.
    assert_faults("http", &["initialize-kept"], expect(&HTTP, &[], &modern_only(&["removed-initialize:fail"])));
}

#[test]
fn sep_2243_headers_are_required_matched_whatever_their_case_and_trimmed() {
    for (fault, check) in [
        ("mcp-method-optional", "mcp-method-missing:fail"),
        ("mcp-name-optional", "mcp-name-missing:fail"),
        ("mcp-method-case-insensitive", "mcp-method-case:fail"),
        ("header-names-lowercase-only", "header-name-case:fail"),
        ("header-values-untrimmed", "header-value-whitespace:fail"),
    ] {
        assert_faults("http", &[fault], expect(&HTTP, &[], &modern_only(&[check])));
    }
}

#[test]
fn a_local_server_refuses_a_foreign_origin_with_403_where_the_revision_names_it() {
    let named = |checks: &'static [&'static str]| -> Vec<(&'static str, &'static [&'static str])> {
        vec![("2025-11-25", checks), ("2026-07-28", checks)]
    };
    assert_faults("http", &["origin-unchecked"], expect(&HTTP, &["origin-foreign:fail"], &[]));
    assert_faults(
        "http",
        &["rebinding-unprotected"],
        expect(&HTTP, &["origin-foreign:fail", "origin-and-host-foreign:fail"], &[]),
    );
    assert_faults("http", &["origin-refused-400"], expect(&HTTP, &[], &named(&["origin-foreign:fail"])));
    assert_faults("http", &["host-refused-421"], expect(&HTTP, &[], &named(&["origin-and-host-foreign:warn"])));
}

#[test]
fn discover_and_list_results_carry_what_2026_07_28_requires() {
    for (transport, revisions) in [("stdio", &STDIO[..]), ("http", &HTTP[..])] {
        for (fault, check) in [
            ("discover-without-caching-hints", "discover-result:fail"),
            ("discover-without-server-info", "discover-server-info:warn"),
            ("tools-list-without-caching-hints", "tools-list-caching:fail"),
            ("prompts-list-without-caching-hints", "prompts-list-caching:fail"),
            ("resources-list-without-caching-hints", "resources-list-caching:fail"),
            ("resource-templates-list-without-caching-hints", "resource-templates-list-caching:fail"),
            ("resource-read-without-caching-hints", "resource-read-caching:fail"),
            ("listen-without-ack", "listen-acknowledged-first:fail"),
            ("listen-untagged", "listen-subscription-id:fail"),
        ] {
            assert_faults(transport, &[fault], expect(revisions, &[], &modern_only(&[check])));
        }
        // Prompts served and not declared: the capability check fails, and
        // the prompts' caching hints are not asked for.
        let undeclared = ["discover-capabilities:fail", "prompts-list-caching:skip"];
        assert_faults(transport, &["prompts-undeclared"], expect(revisions, &[], &modern_only(&undeclared)));
        // An empty list where none are declared says "none" less plainly
        // than method not found: a warning.
        let empty = ["discover-capabilities:warn", "prompts-list-caching:skip"];
        assert_faults(transport, &["prompts-undeclared-empty"], expect(revisions, &[], &modern_only(&empty)));
    }
}

#[test]
fn a_server_that_floods_fails_the_check_it_floods_with_the_count_and_the_probe_goes_on() {
    for (transport, revisions) in [("stdio", &STDIO[..]), ("http", &HTTP[..])] {
        assert_faults(transport, &["flood-on-bad-json"], expect(revisions, &PARSE, &[]));
    }
    let http = Http::start(&["flood-on-bad-json"], 1);
    let output = probe(&["--format", "json", &http.urls[0]]);
    let text = String::from_utf8_lossy(&output.stdout);
    let flooded = text.lines().find(|l| l.contains("parse-error-truncated")).unwrap();
    assert!(flooded.contains("flooded: 10001 messages"), "{flooded}");
}

#[test]
fn the_exit_status_says_whether_a_check_failed_or_the_server_could_not_be_probed() {
    let http = Http::start(&[], 1);
    assert_eq!(probe(&[&http.urls[0]]).status.code(), Some(0));
    let faulty = Http::start(&["no-result-type"], 1);
    let output = probe(&[&faulty.urls[0]]);
    assert_eq!(output.status.code(), Some(1));
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("FAIL  result-type") && text.contains("[result-type]"), "{text}");
    assert!(text.lines().last().unwrap().ends_with("pass, 1 fail, 0 warn, 0 skip"), "{text}");
    // No server there: 2, and why.
    let free = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let output = probe(&[&format!("http://127.0.0.1:{free}/mcp")]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("no handshake"), "{output:?}");
    // Bad arguments: 2.
    assert_eq!(probe(&["--header", "no colon", &http.urls[0]]).status.code(), Some(2));
    assert_eq!(probe(&[]).status.code(), Some(2));
}

#[test]
fn a_header_given_for_every_request_is_sent_and_never_printed() {
    let http = Http::start(&[], 1);
    let output = probe(&["--header", "Authorization: Bearer s3cret-token", "--format", "json", &http.urls[0]]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let all = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(!all.contains("s3cret"), "{all}");
}

#[test]
fn the_json_lines_give_each_check_its_verdict_rule_and_what_was_sent_wanted_and_got() {
    let http = Http::start(&[], 1);
    let output = probe(&["--format", "json", &http.urls[0]]);
    let lines: Vec<Value> =
        String::from_utf8_lossy(&output.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let (summary, checks) = lines.split_last().unwrap();
    assert!(checks.len() >= 30, "{checks:?}");
    for check in checks {
        for field in ["check", "verdict", "rule", "sent", "expected", "got", "revision", "transport"] {
            assert!(check.get(field).is_some_and(Value::is_string), "{field} in {check}");
        }
    }
    assert_eq!(summary["summary"]["pass"], checks.len(), "{summary}");
    assert_eq!(summary["revision"], "2026-07-28");
}

#[test]
fn a_census_probes_every_target_tags_each_line_and_ends_with_a_table() {
    let many = Http::start(&[], 3);
    let faulty = Http::start(&["no-result-type"], 1);
    let dir = std::env::temp_dir().join(format!("mcp-envelope-census-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let targets = dir.join("targets.txt");
    let server = server();
    let free = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let list = format!(
        "# three conforming, one faulty, one stdio, one dead\n{}\n{}\nstdio: {} stdio\nhttp://127.0.0.1:{free}/mcp\n",
        many.urls.join("\n"),
        faulty.urls[0],
        server.display()
    );
    std::fs::write(&targets, list).unwrap();
    let output = Command::new(cli())
        .args(["probe", "--wait", "2", "--oversize", "100000", "--format", "json", "--targets"])
        .args([targets.to_str().unwrap(), "--jobs", "4"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "a check failed on one server: {output:?}");
    let lines: Vec<Value> =
        String::from_utf8_lossy(&output.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let summaries: Vec<&Value> = lines.iter().filter(|l| l.get("summary").is_some()).collect();
    assert_eq!(summaries.len(), 5, "five servers probed: {summaries:?}");
    assert!(lines.iter().all(|l| l["server"].is_string()), "every line names its server");
    assert!(
        summaries.iter().all(|l| l["serverInfo"] == serde_json::json!({"name": "probe_server", "version": "1"})),
        "{summaries:?}"
    );
    // The dead one has a line of its own, so a program reading the lines
    // learns of it.
    let dead: Vec<&Value> = lines.iter().filter(|l| l.get("unreachable").is_some()).collect();
    assert_eq!(dead.len(), 1, "{lines:?}");
    assert_eq!(dead[0]["server"], format!("http://127.0.0.1:{free}/mcp"));
    assert!(dead[0]["unreachable"].as_str().unwrap().contains("no handshake"), "{dead:?}");
    let table = String::from_utf8_lossy(&output.stderr);
    assert!(table.contains("| result-type | result-type | 4 | 1 | 0 | 0 |"), "{table}");
    assert!(table.contains(&format!("| http://127.0.0.1:{free}/mcp | - | - | not probed: ")), "{table}");
    assert!(table.contains("6 servers in"), "{table}");
}

#[test]
fn every_check_and_its_rule_is_in_rules_md() {
    let rules = std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../RULES.md")).unwrap();
    let section = &rules[rules.find("## 9.").unwrap()..rules.find("## Suites").unwrap()];
    let http = Http::start(&[], 1);
    let server = server();
    let mut lines = String::new();
    for output in [
        probe(&["--revision", "all", "--format", "json", &http.urls[0]]),
        probe(&["--revision", "all", "--format", "json", "--", server.to_str().unwrap(), "stdio"]),
    ] {
        lines += &String::from_utf8_lossy(&output.stdout);
    }
    let mut seen = 0;
    for line in lines.lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        let Some(check) = v["check"].as_str() else { continue };
        let rule = v["rule"].as_str().unwrap();
        assert!(section.contains(&format!("| `{rule}` |")), "RULES.md section 9 has no row for rule {rule}");
        assert!(section.contains(&format!("`{check}`")), "RULES.md section 9 does not name check {check}");
        seen += 1;
    }
    assert!(seen > 150, "{seen} checks read");
}

#[test]
fn a_census_file_of_json_objects_tags_each_server_s_lines_and_passes_its_environment() {
    let dir = std::env::temp_dir().join(format!("mcp-envelope-census-json-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let targets = dir.join("targets.jsonl");
    let server = server();
    // The example server's fault, passed through the environment by a
    // shell, so that the variable reaches it only if the probe sets it.
    let line = serde_json::json!({
        "stdio": ["sh", "-c", format!("exec {} --fault \"$FAULT\" stdio", server.display())],
        "env": {"FAULT": "no-result-type"},
        "package": "probe-server",
        "family": "example",
    });
    std::fs::write(&targets, format!("{line}\n")).unwrap();
    let output = Command::new(cli())
        .args(["probe", "--wait", "2", "--oversize", "100000", "--format", "json", "--targets"])
        .arg(&targets)
        .output()
        .unwrap();
    let lines: Vec<Value> =
        String::from_utf8_lossy(&output.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert!(!lines.is_empty() && lines.iter().all(|l| l["family"] == "example" && l["package"] == "probe-server"));
    let failed: Vec<&str> =
        lines.iter().filter(|l| l["verdict"] == "fail").map(|l| l["check"].as_str().unwrap()).collect();
    assert_eq!(failed, ["result-type"], "the environment reached the server: {lines:?}");
}

#[test]
fn junit_gives_a_test_case_per_check_and_a_failure_per_failed_one() {
    let faulty = Http::start(&["no-result-type"], 1);
    let output = probe(&["--format", "junit", &faulty.urls[0]]);
    assert_eq!(output.status.code(), Some(1));
    let xml = String::from_utf8_lossy(&output.stdout);
    assert!(xml.starts_with("<?xml"), "{xml}");
    let cases = xml.matches("<testcase ").count();
    assert!(cases > 50, "{cases} cases: {xml}");
    assert_eq!(xml.matches("<failure ").count(), 1, "{xml}");
    assert!(xml.contains(r#"name="result-type">"#) && xml.contains(r#"failures="1""#), "{xml}");
}

#[test]
fn expected_failures_pass_the_run_a_new_one_fails_it_and_a_fixed_one_is_noted() {
    let faulty = Http::start(&["no-result-type"], 1);
    let dir = std::env::temp_dir().join(format!("mcp-envelope-baseline-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_owned()
    };
    let exact = write("exact.txt", "# known\n2026-07-28 http result-type\n");
    let output = probe(&["--expected-failures", &exact, &faulty.urls[0]]);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let other = write("other.txt", "2026-07-28 stdio result-type\nid-null\n");
    let output = probe(&["--expected-failures", &other, &faulty.urls[0]]);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(said.contains("not among the expected failures: 2026-07-28 http result-type"), "{said}");
    assert!(said.contains("expected to fail, now passes: id-null"), "{said}");
    let typo = write("typo.txt", "result-typ\n");
    assert_eq!(probe(&["--expected-failures", &typo, &faulty.urls[0]]).status.code(), Some(2));
}

/// The peak resident memory of a process run to its end, in KiB, read
/// from /proc while it runs.
fn peak_rss(mut child: Child) -> (std::process::ExitStatus, u64) {
    let pid = child.id();
    let mut peak = 0;
    loop {
        if let Ok(status) = std::fs::read_to_string(format!("/proc/{pid}/status"))
            && let Some(kib) =
                status.lines().find(|l| l.starts_with("VmHWM:")).and_then(|l| l.split_whitespace().nth(1))
        {
            peak = peak.max(kib.parse().unwrap_or(0));
        }
        if let Some(status) = child.try_wait().unwrap() {
            return (status, peak);
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

#[test]
fn a_census_with_flooding_servers_stays_in_bounded_memory_and_probes_the_rest() {
    let flooding = Http::start(&["flood-on-bad-json"], 1);
    let fine = Http::start(&[], 1);
    let dir = std::env::temp_dir().join(format!("mcp-envelope-flood-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let targets = dir.join("targets.txt");
    let server = server();
    // `yes` writes a line forever from the start: no handshake, a flood.
    let list = format!(
        "stdio: yes\nstdio: {} --fault flood-on-bad-json stdio\n{}\n{}\n",
        server.display(),
        flooding.urls[0],
        fine.urls[0]
    );
    std::fs::write(&targets, list).unwrap();
    let child = Command::new(cli())
        .args(["probe", "--wait", "2", "--oversize", "100000", "--format", "json", "--targets"])
        .arg(&targets)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let (status, peak) = peak_rss(child);
    assert_eq!(status.code(), Some(1), "a check failed, and none was left unprobed for it");
    assert!(peak < 256 * 1024, "peak memory {peak} KiB");
}
