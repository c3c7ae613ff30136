//! The benchmark corpus: realistic and adversarial MCP messages, built by a
//! deterministic generator (fixed seed), so anyone can regenerate exactly
//! the bytes that were measured.
//!
//! The files under `corpus/` are this generator's output (the ones up to
//! 1 MiB; a test keeps them identical to it). The benchmarks build every
//! class in memory from the same code, so the large inputs (2 MiB images, a
//! 64 MiB message) never need to be committed.

#![allow(
    clippy::indexing_slicing,
    clippy::unwrap_used,
    clippy::expect_used,
    reason = "a generator and harness over fixed data, not input-facing"
)]

pub mod adversarial;
pub mod realistic;
mod rng;
pub mod runner;
pub mod scaling;
pub mod streams;
pub mod text;

use std::path::{Path, PathBuf};

pub use rng::Rng;

/// The seed of every generated corpus.
pub const SEED: u64 = 0x2026_1202_4D43_5045;

/// One generated message with what it is, for the corpus statistics.
#[derive(Clone, Debug)]
pub struct Sample {
    /// What it stands for, e.g. `tools/call result (image)`.
    pub label: String,
    pub bytes: Vec<u8>,
}

impl Sample {
    pub fn new(label: impl Into<String>, bytes: Vec<u8>) -> Sample {
        Sample { label: label.into(), bytes }
    }
}

/// Size classes of the benchmark groups.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum SizeClass {
    /// Under 1 KiB.
    Small,
    /// 1 KiB to 64 KiB.
    Medium,
    /// Over 64 KiB.
    Large,
}

impl SizeClass {
    pub fn of(len: usize) -> SizeClass {
        match len {
            0..1024 => SizeClass::Small,
            1024..=65536 => SizeClass::Medium,
            _ => SizeClass::Large,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            SizeClass::Small => "small",
            SizeClass::Medium => "medium",
            SizeClass::Large => "large",
        }
    }
}

/// The workspace root (benches run with the package as working directory).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}
