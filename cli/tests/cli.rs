//! The binary as users run it: output formats, exit statuses, framing, and
//! agreement of the backends on every test file the workspace has.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, reason = "tests fail loudly")]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_mcp-envelope"))
}

fn run(args: &[&str], stdin: &[u8]) -> Output {
    let mut child =
        bin().args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

fn json_lines(out: &Output) -> Vec<Value> {
    String::from_utf8(out.stdout.clone()).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

const SESSION: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}
{"jsonrpc":"2.0","method":"notifications/initialized"}

{"jsonrpc":"2.0","id":1,"id":2,"method":"tools/list"}
[{"jsonrpc":"2.0","id":3,"method":"a"},7]
{"jsonrpc":"2.0","id":"r","result":{}}
"#;

#[test]
fn json_format_prints_one_object_per_message_with_the_documented_members() {
    let out = run(&["check", "--format", "json", "--revision", "2025-03-26"], SESSION.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 5);
    assert_eq!(lines[0], serde_json::json!({"file":"-","line":1,"kind":"request","id":1,"method":"initialize"}));
    assert_eq!(lines[1]["kind"], "notification");
    assert_eq!(lines[1]["id"], Value::Null);
    let bad = &lines[2];
    assert_eq!((bad["line"].as_u64(), bad["kind"].as_str()), (Some(4), Some("invalid")));
    assert_eq!(
        (bad["code"].as_i64(), bad["reason"].as_str(), bad["offset"].as_u64()),
        (Some(-32600), Some("duplicate-member"), Some(24))
    );
    assert_eq!(bad["message"], "member name is repeated");
    let batch = &lines[3];
    assert_eq!(batch["kind"], "batch");
    assert_eq!(batch["items"][0], serde_json::json!({"kind":"request","id":3,"method":"a"}));
    assert_eq!(batch["items"][1]["reason"], "not-an-object");
    assert_eq!(lines[4]["id"], "r");
}

#[test]
fn every_backend_prints_the_same_verdicts() {
    let args = |backend| ["check", "--format", "json", "--revision", "2025-03-26", "--backend", backend];
    let serde = run(&args("serde"), SESSION.as_bytes());
    for backend in ["simd", "reference"] {
        let other = run(&args(backend), SESSION.as_bytes());
        assert_eq!(json_lines(&other), json_lines(&serde), "{backend}");
        assert_eq!(other.status.code(), serde.status.code(), "{backend}");
    }
}

#[test]
fn every_invalid_message_says_whether_it_breaks_a_must_or_only_what_the_texts_leave_open() {
    let input = b"{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}\n{\"jsonrpc\":\"2.0\",\"id\":1,\"id\":2,\"method\":\"ping\"}\n[{\"jsonrpc\":\"2.0\",\"id\":1,\"id\":2,\"method\":\"ping\"},{\"jsonrpc\":\"1.0\",\"id\":3,\"method\":\"ping\"}]\n";
    let out = run(&["check", "--revision", "2025-03-26", "--format", "json"], input);
    let lines = json_lines(&out);
    assert_eq!(lines[0]["severity"], "violation", "MCP: ids MUST NOT be null");
    assert_eq!(lines[1]["severity"], "warning", "RFC 8259: names SHOULD be unique");
    assert_eq!(lines[2]["items"][0]["severity"], "warning");
    assert_eq!(lines[2]["items"][1]["severity"], "violation");
    let text = run(&["check", "--revision", "2025-03-26"], input);
    let stdout = String::from_utf8(text.stdout).unwrap();
    assert!(stdout.contains("duplicate-member: member name is repeated (warning)"), "{stdout}");
    assert!(!stdout.contains("null-id: id is null (warning)"), "{stdout}");
    let stderr = String::from_utf8(text.stderr).unwrap();
    // A batch counts once, as its gravest item.
    assert!(stderr.contains("3 messages, 3 invalid (2 violations, 1 warnings)"), "{stderr}");
}

#[test]
fn text_format_puts_a_caret_under_the_fault() {
    let out = run(&["check"], b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":7}\n");
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        text,
        "-:1:34: invalid -32600 invalid-method: method is not a string (id=1)\n  | {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":7}\n  |                                  ^\n"
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("1 messages, 1 invalid (1 violations, 0 warnings), 0 disagreements")
    );
}

#[test]
fn all_valid_exits_0_and_quiet_prints_nothing() {
    let out = run(&["check", "--quiet"], b"{\"jsonrpc\":\"2.0\",\"method\":\"m\"}\r\n\r\n");
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
}

#[test]
fn usage_and_io_errors_exit_2() {
    assert_eq!(run(&["check", "--revision", "2023-01-01"], b"").status.code(), Some(2));
    assert_eq!(run(&["check", "--backend", "fast"], b"").status.code(), Some(2));
    let out = run(&["check", "/no/such/file", "-"], b"{\"jsonrpc\":\"2.0\",\"method\":\"m\"}\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().contains("/no/such/file"));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "-:1: notification method=\"m\"\n",
        "other inputs are still read"
    );
}

#[test]
fn whole_framing_reads_each_file_as_one_message_and_reports_line_and_column() {
    let dir = std::env::temp_dir().join(format!("mcp-envelope-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("pretty.json");
    std::fs::write(&file, "{\n  \"jsonrpc\": \"2.0\",\n  \"id\": true,\n  \"method\": \"m\"\n}\n").unwrap();
    let path = file.to_str().unwrap();
    let out = run(&["check", "--framing", "whole", path], b"");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with(&format!("{path}:3:9: invalid -32600 invalid-id")), "{text}");
    let out = run(&["check", "--framing", "lines", path], b"");
    assert_eq!(json_or_text_lines(&out), 5, "line framing sees five broken lines");
    std::fs::remove_dir_all(&dir).unwrap();
}

fn json_or_text_lines(out: &Output) -> usize {
    String::from_utf8_lossy(&out.stdout).lines().filter(|l| !l.starts_with(' ')).count()
}

#[test]
fn an_oversized_line_is_reported_and_the_stream_goes_on() {
    let mut input = b"{\"jsonrpc\":\"2.0\",\"method\":\"a\"}\n".to_vec();
    input.extend(std::iter::repeat_n(b'x', 5000));
    input.extend(b"\n{\"jsonrpc\":\"2.0\",\"method\":\"b\"}\n");
    let out = run(&["check", "--format", "json", "--max-size", "1000"], &input);
    let lines = json_lines(&out);
    assert_eq!(
        lines.iter().map(|l| l["kind"].as_str().unwrap()).collect::<Vec<_>>(),
        ["notification", "invalid", "notification"]
    );
    assert_eq!((lines[1]["reason"].as_str(), lines[1]["line"].as_u64()), (Some("too-large"), Some(2)));
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files_under(&path, out);
        } else if path.file_name().is_some_and(|n| n != "LICENSE" && n != "README.md") {
            out.push(path);
        }
    }
}

#[test]
fn both_backends_agree_on_every_test_file_of_the_workspace() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for dir in [
        "testdata/jsontestsuite/test_parsing",
        "testdata/mcp-spec/2026-07-28/examples",
        "testdata/github-mcp-server-toolsnaps",
        "corpus",
    ] {
        if root.join(dir).is_dir() {
            files_under(&root.join(dir), &mut files);
        }
    }
    assert!(files.len() >= 318 + 129 + 117, "{}", files.len());
    for revision in ["2026-07-28", "2025-03-26", "jsonrpc"] {
        for framing in ["whole", "lines", "sse"] {
            let mut args = vec![
                "check",
                "--backend",
                "both",
                "--format",
                "json",
                "--quiet",
                "--framing",
                framing,
                "--revision",
                revision,
            ];
            args.extend(files.iter().map(|f| f.to_str().unwrap()));
            let out = run(&args, b"");
            let disagreements: Vec<_> = json_lines(&out).into_iter().filter(|l| l["disagreement"] == true).collect();
            assert!(disagreements.is_empty(), "{revision} {framing}: {disagreements:#?}");
            assert_ne!(out.status.code(), Some(3));
            assert_ne!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
        }
    }
}

#[test]
fn a_closed_output_pipe_stops_the_check_quietly() {
    // Like `mcp-envelope check big.jsonl | head -1`.
    let dir = std::env::temp_dir().join(format!("mcp-envelope-pipe-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("many.jsonl");
    let line = format!("{}\n", r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#);
    std::fs::write(&file, line.repeat(300_000)).unwrap();
    let mut child =
        bin().args(["check", file.to_str().unwrap()]).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 64];
    std::io::Read::read_exact(&mut stdout, &mut first).unwrap();
    drop(stdout);
    let out = child.wait_with_output().unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stderr.is_empty(), "said: {}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn quiet_silences_the_summary() {
    let out = run(&["check", "--quiet"], b"{\"jsonrpc\":\"2.0\",\"method\":\"m\"}\n");
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty() && out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
    let loud = run(&["check"], b"{\"jsonrpc\":\"2.0\",\"method\":\"m\"}\n");
    assert!(String::from_utf8_lossy(&loud.stderr).contains("1 messages, 0 invalid"));
}

#[test]
fn a_clamped_limit_is_reported() {
    let out = run(&["check", "--quiet", "--max-depth", "0", "--max-size", "9999999999"], b"[]\n");
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("--max-depth 0 is below 1; using 1"), "{said}");
    assert!(
        said.contains("--max-size 9999999999 is above the largest message the parser accepts; using 4294967295"),
        "{said}"
    );
}

#[test]
fn json_lines_carry_the_reply_to_send_or_null_for_a_response() {
    let input = concat!(
        r#"{"jsonrpc":"2.0","id":9,"method":1}"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":9,"result":{},"error":{"code":1,"message":"x"}}"#,
        "\n{\n"
    );
    let lines = json_lines(&run(&["check", "--format", "json"], input.as_bytes()));
    assert_eq!(
        lines[0]["reply"],
        serde_json::json!({"jsonrpc":"2.0","id":9,"error":{"code":-32600,"message":"method is not a string","data":{"reason":"invalid-method","offset":33}}})
    );
    assert_eq!(lines[1]["reply"], Value::Null);
    assert!(lines[1].as_object().unwrap().contains_key("reply"));
    assert_eq!(lines[2]["reply"]["id"], Value::Null);
    assert_eq!(lines[2]["reply"]["error"]["code"], -32700);
}

/// A stream as a Streamable HTTP server sends it: a priming event, a
/// pretty-printed message over three `data:` lines, a comment, an
/// `endpoint` event, a message over the limit, and one cut by the end.
const STREAM: &[u8] = b"id: 0\r\ndata:\r\n\r\nevent: message\r\nid: 1\r\ndata: {\"jsonrpc\":\"2.0\",\r\ndata:  \"id\":1,\r\ndata:  \"result\":{}}\r\n\r\n\
: keep-alive\r\n\r\nevent: endpoint\r\ndata: /messages\r\n\r\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"data\":\"0123456789\"}}\r\n\r\n\
data: {\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}\r\n";

#[test]
fn sse_framing_gives_one_verdict_per_message_event_with_its_type_id_and_line() {
    let out = run(&["check", "--framing", "sse", "--format", "json", "--max-size", "80"], STREAM);
    assert_eq!(out.status.code(), Some(1), "the oversized and the cut event are faults");
    let lines = json_lines(&out);
    let shape: Vec<(u64, &str, &str, Value)> = lines
        .iter()
        .map(|l| {
            (
                l["line"].as_u64().unwrap(),
                l["event"].as_str().unwrap(),
                l["kind"].as_str().unwrap(),
                l["event_id"].clone(),
            )
        })
        .collect();
    assert_eq!(
        shape,
        [
            (1, "message", "empty-data", Value::from("0")),
            (4, "message", "result", Value::from("1")),
            (12, "endpoint", "other-event", Value::from("1")),
            (15, "message", "invalid", Value::from("1")),
            (17, "message", "cut", Value::from("1")),
        ]
    );
    assert_eq!(lines[1]["id"], 1);
    assert_eq!(lines[2]["data"], "/messages");
    assert_eq!(lines[3]["reason"], "too-large");
    assert_eq!(lines[3]["severity"], "warning", "a limit of this reader, no rule of the texts");
    assert_eq!(lines[4]["severity"], "warning", "a message lost to the end of the stream");
    let text = run(&["check", "--framing", "sse", "--max-size", "80"], STREAM);
    let stderr = String::from_utf8(text.stderr).unwrap();
    assert!(
        stderr
            .contains("3 messages, 2 invalid (0 violations, 2 warnings), 0 disagreements, 2 events without a message"),
        "{stderr}"
    );
}

#[test]
fn sse_framing_names_the_fault_by_its_byte_in_the_event_s_data() {
    let out =
        run(&["check", "--framing", "sse"], b"id: 3\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\ndata: \"result\":[]}\n\n");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("-:1: event message (id \"3\"): at byte 34 of its data: invalid -32600 result-not-object"),
        "{text}"
    );
    assert!(text.contains("  | \"result\":[]}\n  |          ^\n"), "{text}");
}
