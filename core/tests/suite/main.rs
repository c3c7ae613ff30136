//! The core's integration suite: one binary, one module per subject. Every
//! parse goes through `support::parse`, which runs all backends and fails
//! the test if they disagree on anything.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, reason = "tests fail loudly")]

mod support;

mod api;
mod backends;
mod codes;
mod exchange;
mod flights;
mod ids;
mod jsonrpc_spec;
mod jsontestsuite;
mod mcp_examples;
mod modern_answers;
mod reasons;
mod refusals;
mod rules_envelope;
mod rules_json;
mod schemas;
mod sse;
mod stream;
mod writing;
