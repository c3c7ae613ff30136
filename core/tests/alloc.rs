//! A warm parser does not allocate: a global allocator counts, and parsing
//! a second round of the same kinds of messages must not call it.

#![allow(clippy::unwrap_used, reason = "tests fail loudly")]
#![allow(unsafe_code, reason = "a counting global allocator")]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use mcp_envelope::backend::{Backend, Reference, SerdeJson};
use mcp_envelope::{Parser, Revision};

struct Counting;

thread_local! {
    // Per thread, since tests run in parallel. Const-initialised, so reading
    // it never allocates.
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn count() {
    ALLOCATIONS.with(|n| n.set(n.get() + 1));
}

fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}

// SAFETY: forwards every call to the system allocator unchanged; only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: same contract as our caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as our caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: same contract as our caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Messages without escapes in `method` or `id`; escapes in payloads are fine.
const VALID_JSON: &[&str] = &[
    r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"search","arguments":{"q":"a \"b\" \u00e9","deep":[[[{"x":[1,2,3]}]]]}}}"#,
    r#"{"jsonrpc":"2.0","id":"req-2","result":{"resultType":"complete","content":[{"type":"text","text":"line\nline"}]}}"#,
    r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":{"k":[true,false,null]}}}"#,
    r#"{"jsonrpc":"2.0","id":3,"error":{"code":-32603,"message":"internal","data":[1e400]}}"#,
    r#"{"jsonrpc":"2.0","id":4,"id":5,"method":"bad"}"#,
];

const INVALID_JSON: &[&str] = &[r#"{"jsonrpc":"2.0","id":6,"method":"m","params":{"a":1,}}"#];

fn allocations_when_warm<B: Backend>(messages: &[&str]) -> usize {
    let mut parser = Parser::<B>::with_backend(Revision::V2026_07_28);
    for m in messages {
        let _ = parser.parse(m.as_bytes());
    }
    let before = allocations();
    for _ in 0..10 {
        for m in messages {
            let outcome = parser.parse(m.as_bytes());
            std::hint::black_box(&outcome);
        }
    }
    allocations() - before
}

#[test]
fn a_warm_parser_does_not_allocate_per_message() {
    assert_eq!(allocations_when_warm::<SerdeJson>(VALID_JSON), 0, "serde");
    assert_eq!(allocations_when_warm::<Reference>(VALID_JSON), 0, "reference");
    #[cfg(feature = "simd-json")]
    assert_eq!(allocations_when_warm::<mcp_envelope::backend::SimdJson>(VALID_JSON), 0, "simd");
}

#[test]
fn invalid_json_costs_at_most_serde_json_s_boxed_error() {
    // serde_json boxes every error it returns: one allocation per message it
    // rejects. The core's scanner and simd-json's path allocate nothing.
    assert_eq!(allocations_when_warm::<SerdeJson>(INVALID_JSON), 10, "serde");
    assert_eq!(allocations_when_warm::<Reference>(INVALID_JSON), 0, "reference");
    #[cfg(feature = "simd-json")]
    assert_eq!(allocations_when_warm::<mcp_envelope::backend::SimdJson>(INVALID_JSON), 0, "simd");
}
