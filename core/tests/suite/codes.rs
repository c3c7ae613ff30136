//! RULES.md section 3: what an error code means under each revision.

use mcp_envelope::Revision;
use mcp_envelope::codes::{CodeClass, classify};

fn names(code: i64) -> Vec<&'static str> {
    Revision::ALL.iter().map(|&r| classify(code, r).name()).collect()
}

#[test]
fn the_five_json_rpc_codes_mean_the_same_everywhere() {
    for (code, name) in [
        (-32700, "parse-error"),
        (-32600, "invalid-request"),
        (-32601, "method-not-found"),
        (-32602, "invalid-params"),
        (-32603, "internal-error"),
    ] {
        assert!(names(code).iter().all(|n| *n == name), "{code}");
    }
}

#[test]
fn the_server_error_range_splits_in_2026_07_28() {
    // Order: 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28, jsonrpc.
    let sd = "server-defined";
    assert_eq!(names(-32001), [sd, sd, sd, sd, "legacy", sd]);
    assert_eq!(names(-32019), [sd, sd, sd, sd, "legacy", sd]);
    assert_eq!(names(-32050), [sd, sd, sd, sd, "mcp-reserved", sd]);
    assert_eq!(names(-32099), [sd, sd, sd, sd, "mcp-reserved", sd]);
}

#[test]
fn named_mcp_codes_exist_only_in_their_revisions() {
    let rnf = "resource-not-found";
    assert_eq!(names(-32002), [rnf, rnf, rnf, rnf, "legacy", "server-defined"]);
    assert_eq!(
        names(-32042),
        [
            "server-defined",
            "server-defined",
            "server-defined",
            "url-elicitation-required",
            "mcp-reserved",
            "server-defined"
        ]
    );
    assert_eq!(classify(-32020, Revision::V2026_07_28).name(), "header-mismatch");
    assert_eq!(classify(-32021, Revision::V2026_07_28).name(), "missing-required-client-capability");
    assert_eq!(classify(-32022, Revision::V2026_07_28).name(), "unsupported-protocol-version");
    let sd = "server-defined";
    assert_eq!(names(-32020), [sd, sd, sd, sd, "header-mismatch", sd]);
    assert_eq!(names(-32021), [sd, sd, sd, sd, "missing-required-client-capability", sd]);
    assert_eq!(names(-32022), [sd, sd, sd, sd, "unsupported-protocol-version", sd]);
}

#[test]
fn a_code_class_displays_as_its_name() {
    assert_eq!(classify(-32601, Revision::V2025_11_25).to_string(), "method-not-found");
    assert_eq!(classify(7, Revision::V2025_11_25).to_string(), "application");
}

#[test]
fn the_rest_is_reserved_by_json_rpc_or_the_application_s() {
    for code in [-32768, -32604, -32100, -32699] {
        assert_eq!(classify(code, Revision::V2026_07_28), CodeClass::JsonRpcReserved, "{code}");
    }
    for code in [-32769, -31999, 0, 1, 404, i64::MIN, i64::MAX] {
        assert_eq!(classify(code, Revision::V2026_07_28), CodeClass::Application, "{code}");
    }
}
