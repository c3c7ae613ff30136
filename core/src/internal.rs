//! Hooks for the workspace's unpublished fuzz kit (`mcp-envelope-check`):
//! what its properties need that the API does not offer. Hidden from the
//! documentation, not part of the API, and free to change in any release.

use crate::backend::SimdJson;
use crate::parser::Parser;
use crate::revision::Revision;

/// A simd-json parser that reads every batch longer than `chunk_len` bytes
/// in chunks: with a tiny length, the short inputs a fuzzer makes take the
/// chunked path too.
#[must_use]
pub fn simd_json_parser_chunked(revision: Revision, chunk_len: usize) -> Parser<SimdJson> {
    Parser::with_backend_instance(revision, SimdJson::with_chunk_len(chunk_len))
}
