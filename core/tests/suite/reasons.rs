//! The reason names are part of the CLI's output and of the public API:
//! this list pins them. Renaming one is a breaking change.

use mcp_envelope::Reason;

#[test]
fn reason_names_and_codes_are_stable() {
    let pinned: Vec<(&str, i64)> = Reason::ALL.iter().map(|r| (r.name(), r.code())).collect();
    assert_eq!(
        pinned,
        [
            ("too-large", -32700),
            ("empty", -32700),
            ("byte-order-mark", -32700),
            ("html-page", -32700),
            ("invalid-utf8", -32700),
            ("too-deep", -32700),
            ("unexpected-end", -32700),
            ("expected-value", -32700),
            ("expected-member-name", -32700),
            ("expected-colon", -32700),
            ("expected-comma-or-end", -32700),
            ("trailing-characters", -32700),
            ("control-character", -32700),
            ("invalid-escape", -32700),
            ("lone-surrogate", -32700),
            ("invalid-number", -32700),
            ("invalid-literal", -32700),
            ("not-an-object", -32600),
            ("batch-not-allowed", -32600),
            ("empty-batch", -32600),
            ("batch-too-long", -32600),
            ("bare-payload", -32600),
            ("missing-jsonrpc", -32600),
            ("invalid-jsonrpc", -32600),
            ("duplicate-member", -32600),
            ("incomplete-envelope", -32600),
            ("conflicting-members", -32600),
            ("invalid-id", -32600),
            ("null-id", -32600),
            ("missing-id", -32600),
            ("invalid-method", -32600),
            ("params-not-object", -32600),
            ("params-not-structured", -32600),
            ("result-not-object", -32600),
            ("result-type-not-string", -32600),
            ("error-not-object", -32600),
            ("missing-error-code", -32600),
            ("invalid-error-code", -32600),
            ("missing-error-message", -32600),
            ("invalid-error-message", -32600),
            ("header-mismatch", -32020),
        ]
    );
}

#[test]
fn reason_names_round_trip_and_messages_are_lowercase_one_liners() {
    for &reason in Reason::ALL {
        assert_eq!(Reason::from_name(reason.name()), Some(reason));
        let message = reason.message();
        assert!(!message.contains('\n') && message.chars().next().is_some_and(char::is_lowercase), "{message}");
    }
    assert_eq!(Reason::from_name("no-such-reason"), None);
}

#[test]
fn a_reason_is_a_warning_only_where_the_texts_leave_it_open_or_a_limit_of_this_reader() {
    use mcp_envelope::Severity;
    let warnings: Vec<&str> =
        Reason::ALL.iter().filter(|r| r.severity() == Severity::Warning).map(|r| r.name()).collect();
    // RFC 8259 section 4: names "SHOULD be unique"; section 8.2: the grammar
    // allows unpaired surrogates; the size, depth and batch limits are this
    // reader's own.
    assert_eq!(warnings, ["too-large", "too-deep", "lone-surrogate", "batch-too-long", "duplicate-member"]);
    assert_eq!(Reason::NullId.severity(), Severity::Violation, "MCP: ids MUST NOT be null");
    assert_eq!(Reason::ByteOrderMark.severity(), Severity::Violation, "RFC 8259 8.1: MUST NOT add a BOM");
}
