//! The fuzz kit's suite: every property under plain `cargo test` (bolero,
//! on random input for a bounded time), every regression file and seed
//! replayed through its target's check, and the exchange seeds held to the
//! findings each was written for.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing, reason = "tests fail loudly")]

mod accepted_mutants;
mod exchange_corpus;
mod properties;
mod support;
