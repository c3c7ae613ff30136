//! JSONTestSuite's `test_parsing/` (vendored in `testdata/jsontestsuite/`),
//! every file on every backend: `y_` files are JSON and never give -32700,
//! `n_` files are not and always give -32700, and `i_` files (where RFC 8259
//! leaves the choice to the parser) give the same verdict on every backend.

use mcp_envelope::backend::{Backend, Reference, SerdeJson};
use mcp_envelope::{Parser, Revision};

use crate::support::{backends, files, testdata};

/// The verdict of one backend: `None` for valid JSON (whatever the envelope
/// rules then say), else the parse error's reason and offset.
fn json_verdict<B: Backend>(input: &[u8]) -> Option<(&'static str, usize)> {
    match Parser::<B>::with_backend(Revision::JsonRpc).parse(input) {
        Err(e) if e.code() == -32700 => Some((e.reason().name(), e.offset())),
        _ => None,
    }
}

fn verdicts(input: &[u8]) -> Vec<(&'static str, Option<(&'static str, usize)>)> {
    #[cfg_attr(not(feature = "simd-json"), allow(unused_mut))]
    let mut out = vec![("serde", json_verdict::<SerdeJson>(input)), ("reference", json_verdict::<Reference>(input))];
    #[cfg(feature = "simd-json")]
    out.push(("simd", json_verdict::<mcp_envelope::backend::SimdJson>(input)));
    out
}

#[test]
fn jsontestsuite_files_get_the_verdict_their_prefix_demands_on_every_backend() {
    let dir = testdata().join("jsontestsuite/test_parsing");
    let cases = files(&dir);
    assert_eq!(cases.len(), 318, "the vendored suite has 318 files");
    let mut failures = Vec::new();
    let (mut y, mut n, mut i) = (0, 0, 0);
    for (name, input) in &cases {
        let verdicts = verdicts(input);
        for (backend, verdict) in &verdicts {
            if name.starts_with("y_") && verdict.is_some() {
                failures.push(format!("{name}: {backend} refused valid JSON: {verdict:?}"));
            }
            if name.starts_with("n_") && verdict.is_none() {
                failures.push(format!("{name}: {backend} accepted invalid JSON"));
            }
        }
        if verdicts.iter().any(|(_, v)| *v != verdicts[0].1) {
            failures.push(format!("{name}: backends disagree: {verdicts:?}"));
        }
        match name.get(..2) {
            Some("y_") => y += 1,
            Some("n_") => n += 1,
            _ => i += 1,
        }
    }
    assert_eq!((y, n, i), (95, 188, 35));
    assert!(failures.is_empty(), "{} failures on {:?}:\n{}", failures.len(), backends(), failures.join("\n"));
}
