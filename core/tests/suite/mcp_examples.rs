//! The examples of MCP 2026-07-28 (vendored in `testdata/mcp-spec/`): the
//! 32 full envelopes classify as their folder name says, and the payload
//! examples are valid JSON that is not an envelope.

use mcp_envelope::{Kind, Revision};

use crate::support::{files, parse, testdata};

/// The kind a folder name announces, for folders of full envelopes.
fn kind_of_folder(folder: &str) -> Option<Kind> {
    if folder.ends_with("ResultResponse") {
        Some(Kind::Result)
    } else if folder.ends_with("Request") {
        Some(Kind::Request)
    } else if folder.ends_with("Notification") {
        Some(Kind::Notification)
    } else if folder.ends_with("Error") {
        Some(Kind::Error)
    } else {
        None
    }
}

#[test]
fn every_mcp_example_envelope_classifies_as_its_folder_says() {
    let root = testdata().join("mcp-spec/2026-07-28/examples");
    let mut folders: Vec<_> = std::fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).collect();
    folders.sort();
    let (mut envelopes, mut payloads, mut per_kind) = (0, 0, std::collections::BTreeMap::new());
    let mut failures = Vec::new();
    for folder in folders {
        let folder_name = folder.file_name().unwrap().to_string_lossy().into_owned();
        for (file, bytes) in files(&folder) {
            let outcome = parse(Revision::V2026_07_28, &bytes);
            let is_envelope = std::str::from_utf8(&bytes).unwrap().contains("\"jsonrpc\"");
            if is_envelope {
                envelopes += 1;
                let expected = kind_of_folder(&folder_name);
                let got = outcome.as_ref().map(|e| e.kind()).map_err(|e| e.to_string());
                *per_kind.entry(format!("{expected:?}")).or_insert(0) += 1;
                if expected.is_none() || got != Ok(expected.unwrap_or(Kind::Batch)) {
                    failures.push(format!("{folder_name}/{file}: expected {expected:?}, got {got:?}"));
                }
            } else {
                payloads += 1;
                match outcome {
                    Err(e) if e.code() == -32600 => {}
                    other => failures.push(format!("{folder_name}/{file}: a payload, got {other:?}")),
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!((envelopes, payloads), (32, 97));
    let counts: Vec<_> = per_kind.into_iter().collect();
    assert_eq!(
        counts,
        [
            ("Some(Error)".into(), 3),
            ("Some(Notification)".into(), 8),
            ("Some(Request)".into(), 10),
            ("Some(Result)".into(), 11)
        ]
    );
}
