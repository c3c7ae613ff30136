//! The example servers run: a real exchange over their standard input and
//! output, the same for the synchronous loop and the tokio one.

#![allow(clippy::unwrap_used, clippy::expect_used, reason = "tests fail loudly")]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// Where cargo put the example `name`: `cargo test` builds the examples
/// next to the test binaries' folder (`target/<profile>/examples`).
fn example(name: &str) -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let profile_dir = exe.parent().and_then(|deps| deps.parent()).unwrap();
    let path = profile_dir.join("examples").join(name);
    assert!(path.exists(), "{} not built (cargo test builds the examples)", path.display());
    path
}

const SESSION: &str = concat!(
    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n",
    "\n",
    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\r\n",
    "{\"jsonrpc\":\"2.0\",\"id\":\"t\",\"method\":\"tools/list\"}\n",
    "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"nope\"}\n",
    "{\"jsonrpc\":\"2.0\",\"id\":4,\"id\":5,\"method\":\"ping\"}\n",
    "{\"jsonrpc\":\"2.0\",\"id\":9,\"result\":{},\"error\":{\"code\":1,\"message\":\"m\"}}\n",
    "{\"jsonrpc\":\n",
);

const ANSWERS: &str = concat!(
    "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n",
    "{\"jsonrpc\":\"2.0\",\"id\":\"t\",\"result\":{\"tools\":[{\"name\":\"echo\",\"inputSchema\":{\"type\":\"object\"}}]}}\n",
    "{\"jsonrpc\":\"2.0\",\"id\":3,\"error\":{\"code\":-32601,\"message\":\"method not found\"}}\n",
    "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":\"member name is repeated\",\"data\":{\"reason\":\"duplicate-member\",\"offset\":24}}}\n",
    "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"message ends inside a value\",\"data\":{\"reason\":\"unexpected-end\",\"offset\":11}}}\n",
);

fn exchange(name: &str) -> String {
    let mut child = Command::new(example(name))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(SESSION.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success(), "{name}: {:?}", output.status);
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn the_synchronous_server_answers_requests_and_faults_and_never_a_response() {
    assert_eq!(exchange("stdio_server"), ANSWERS);
}

#[test]
fn the_tokio_server_gives_the_same_answers() {
    assert_eq!(exchange("tokio_server"), ANSWERS);
}
