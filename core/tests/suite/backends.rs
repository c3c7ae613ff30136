//! The backends really tokenise: ordinary messages never reach the core's
//! scanner, and the cases each library cannot read do, with the same answer.

use mcp_envelope::backend::{Backend, SerdeJson};
use mcp_envelope::{Parser, Revision};

const ORDINARY: &[&str] = &[
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search","arguments":{"q":"rust \"json\"","n":[1,2.5,-3e2]}}}"#,
    r#"{"jsonrpc":"2.0","id":"x","result":{"resultType":"complete","content":[{"type":"text","text":"ok\n"}],"isError":false}}"#,
    r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"t","progress":0.25,"total":null}}"#,
    r#"{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"Unknown tool","data":{"name":"nope"}}}"#,
];

fn declined<B: Backend>(input: &str) -> bool {
    let mut parser = Parser::<B>::with_backend(Revision::V2026_07_28);
    let _ = parser.parse(input.as_bytes());
    parser.declined()
}

#[test]
fn ordinary_messages_are_read_by_the_backend_itself() {
    for input in ORDINARY {
        assert!(!declined::<SerdeJson>(input), "serde declined {input}");
        #[cfg(feature = "simd-json")]
        assert!(!declined::<mcp_envelope::backend::SimdJson>(input), "simd declined {input}");
    }
}

#[test]
fn what_a_library_cannot_read_is_declined_and_judged_by_the_core() {
    let big = r#"{"jsonrpc":"2.0","id":1,"result":{"n":1e400}}"#;
    #[cfg(feature = "simd-json")]
    assert!(declined::<mcp_envelope::backend::SimdJson>(big), "simd-json cannot read 1e400");
    assert!(!declined::<SerdeJson>(big));
    let deep = format!(r#"{{"jsonrpc":"2.0","id":1,"result":{{"a":{}{}}}}}"#, "[".repeat(126), "]".repeat(126));
    assert!(declined::<SerdeJson>(&deep), "serde_json stops at 127 levels");
    assert!(crate::support::parse(Revision::V2026_07_28, deep.as_bytes()).is_ok());
    // Every invalid message is judged by the core.
    assert!(declined::<SerdeJson>(r#"{"jsonrpc":"2.0","method":"m",}"#));
}

#[test]
fn the_suite_runs_every_backend() {
    // core's dev-dependency on itself turns these on for every test run.
    const { assert!(cfg!(feature = "simd-json") && cfg!(feature = "arbitrary"), "the suite must run simd-json too") };
    assert_eq!(crate::support::backends(), ["serde", "simd", "reference"]);
}
