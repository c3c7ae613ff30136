//! The parsers `check` and the taps read messages with: the backend
//! `--backend` chose, built once and reused for every message, and with
//! `both` serde_json's and simd-json's verdicts side by side.

use clap::ValueEnum;
use mcp_envelope::backend::{Backend, Reference, SerdeJson, SimdJson};
use mcp_envelope::{Limits, Parsed, Parser, Revision};

use crate::summary::Summary;

/// `--backend`: which parser reads the messages.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BackendChoice {
    Serde,
    Simd,
    Reference,
    Both,
}

/// The backend whose verdict is reported (and, with `both`, compared).
enum First {
    Serde(Parser<SerdeJson>),
    Simd(Parser<SimdJson>),
    Reference(Parser<Reference>),
}

/// The chosen parsers, built once and reused for every message.
pub struct Parsers {
    first: First,
    /// With `both`: simd, held to serde's verdict.
    second: Option<Parser<SimdJson>>,
}

/// One backend's verdict, and what `judge` makes of its reading.
fn read<B: Backend, T>(parser: &mut Parser<B>, bytes: &[u8], judge: impl FnOnce(&Parsed<'_>) -> T) -> (Summary, T) {
    let outcome = parser.parse(bytes);
    let judged = judge(&outcome);
    (Summary::of(bytes, &outcome), judged)
}

impl Parsers {
    pub fn new(choice: BackendChoice, revision: Revision, limits: Limits) -> Parsers {
        fn parser<B: Backend>(revision: Revision, limits: Limits) -> Parser<B> {
            Parser::with_backend(revision).with_limits(limits)
        }
        let first = match choice {
            BackendChoice::Serde | BackendChoice::Both => First::Serde(parser(revision, limits)),
            BackendChoice::Simd => First::Simd(parser(revision, limits)),
            BackendChoice::Reference => First::Reference(parser(revision, limits)),
        };
        let second = (choice == BackendChoice::Both).then(|| parser(revision, limits));
        Parsers { first, second }
    }

    /// Each backend's verdict on `bytes`, in order serde, simd.
    pub fn verdicts(&mut self, bytes: &[u8]) -> Vec<(&'static str, Summary)> {
        self.verdicts_and(bytes, |_| ()).0
    }

    /// Each backend's verdict on `bytes`, and what `judge` makes of the
    /// first backend's reading (the exchange rules need the envelope, not
    /// its summary).
    pub fn verdicts_and<T>(
        &mut self,
        bytes: &[u8],
        judge: impl FnOnce(&Parsed<'_>) -> T,
    ) -> (Vec<(&'static str, Summary)>, T) {
        let (name, (summary, judged)) = match &mut self.first {
            First::Serde(p) => (SerdeJson::NAME, read(p, bytes, judge)),
            First::Simd(p) => (SimdJson::NAME, read(p, bytes, judge)),
            First::Reference(p) => (Reference::NAME, read(p, bytes, judge)),
        };
        let mut out = Vec::with_capacity(2);
        out.push((name, summary));
        if let Some(p) = &mut self.second {
            out.push((SimdJson::NAME, read(p, bytes, |_| ()).0));
        }
        (out, judged)
    }
}
