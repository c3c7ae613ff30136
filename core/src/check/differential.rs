//! The backends against each other and against the core's scanner.

use alloc::vec::Vec;
use core::cell::RefCell;

use super::{LIMITS, assert_same};
use crate::backend::{Backend, Reference, SerdeJson, SimdJson};
use crate::limits::Limits;
use crate::parser::Parser;
use crate::revision::Revision;

/// Parsers kept across inputs, as a server keeps them, so that state left
/// over from one message cannot change the verdict on the next unseen.
struct Warm {
    serde: Vec<Parser<SerdeJson>>,
    simd: Vec<Parser<SimdJson>>,
}

fn all<B: Backend>() -> Vec<Parser<B>> {
    LIMITS.iter().flat_map(|&l| Revision::ALL.map(|r| Parser::<B>::new(r).with_limits(l))).collect()
}

std::thread_local! {
    static WARM: RefCell<Option<Warm>> = const { RefCell::new(None) };
}

/// Under every revision and both limit sets, warm serde_json and simd-json
/// parsers and a fresh core scanner give the same verdict, envelope, ids,
/// methods, payload spans, error code, reason and offset.
pub fn differential(input: &[u8]) {
    WARM.with(|warm| {
        let mut warm = warm.borrow_mut();
        let warm = warm.get_or_insert_with(|| Warm { serde: all(), simd: all() });
        for (serde, simd) in warm.serde.iter_mut().zip(warm.simd.iter_mut()) {
            let (revision, limits): (Revision, Limits) = (serde.revision(), serde.limits());
            let context = alloc::format!("{revision}, {limits:?}");
            let a = serde.parse(input);
            let b = simd.parse(input);
            let reference = Parser::<Reference>::new(revision).with_limits(limits).parse(input);
            assert_same(input, &context, ("serde", &a), ("simd", &b));
            assert_same(input, &context, ("serde", &a), ("reference", &reference));
        }
    });
}
