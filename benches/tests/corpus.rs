//! The committed corpus is exactly what the generator writes, and every
//! message in it gets the verdict it is meant to, on both backends.

#![allow(clippy::unwrap_used, clippy::indexing_slicing, reason = "tests fail loudly")]

use mcp_envelope::backend::{SerdeJson, SimdJson};
use mcp_envelope::{Parser, Revision};
use mcp_envelope_benches::adversarial::{self, Expect};
use mcp_envelope_benches::{SizeClass, realistic, workspace_root};

#[test]
fn committed_realistic_files_match_the_generator() {
    let samples = realistic::generate();
    for class in [SizeClass::Small, SizeClass::Medium, SizeClass::Large] {
        let mut expected = Vec::new();
        for s in samples.iter().filter(|s| SizeClass::of(s.bytes.len()) == class && s.bytes.len() <= 1024 * 1024) {
            expected.extend(&s.bytes);
            expected.push(b'\n');
        }
        let path = workspace_root().join(format!("corpus/realistic/{}.jsonl", class.name()));
        let committed = std::fs::read(&path).unwrap();
        assert!(committed == expected, "{} differs from the generator: run gen-corpus", path.display());
    }
}

#[test]
fn committed_adversarial_files_match_the_generator() {
    for case in adversarial::small() {
        let ext = if case.name == "html-page" { "html" } else { "json" };
        let committed =
            std::fs::read(workspace_root().join(format!("corpus/adversarial/{}.{ext}", case.name))).unwrap();
        assert!(committed == case.bytes, "corpus/adversarial/{} differs from the generator", case.name);
    }
}

#[test]
fn every_realistic_message_is_valid_on_both_backends() {
    let mut serde = Parser::<SerdeJson>::with_backend(Revision::V2026_07_28);
    let mut simd = Parser::<SimdJson>::with_backend(Revision::V2026_07_28);
    let samples = realistic::generate();
    assert!(samples.len() > 900);
    for s in &samples {
        let a = serde.parse(&s.bytes).map(|e| e.kind());
        let b = simd.parse(&s.bytes).map(|e| e.kind());
        assert!(a.is_ok(), "{}: {:?}", s.label, a);
        assert_eq!(a, b, "{}", s.label);
    }
}

#[test]
fn every_adversarial_case_gets_its_expected_verdict_on_both_backends() {
    for case in adversarial::small().into_iter().chain(adversarial::large()) {
        let expected = match case.expect {
            Expect::Valid(kind) => Ok(kind),
            Expect::Invalid(reason) => Err(reason),
        };
        let serde = Parser::<SerdeJson>::with_backend(case.revision)
            .parse(&case.bytes)
            .map(|e| e.kind().name())
            .map_err(|e| e.reason().name());
        let simd = Parser::<SimdJson>::with_backend(case.revision)
            .parse(&case.bytes)
            .map(|e| e.kind().name())
            .map_err(|e| e.reason().name());
        assert_eq!(serde, expected, "{} on serde", case.name);
        assert_eq!(simd, expected, "{} on simd", case.name);
    }
}

#[test]
fn the_size_classes_hold_what_their_names_say() {
    let samples = realistic::generate();
    for class in [SizeClass::Small, SizeClass::Medium, SizeClass::Large] {
        let count = samples.iter().filter(|s| SizeClass::of(s.bytes.len()) == class).count();
        assert!(count >= 5, "{} has {count} messages", class.name());
    }
    let tools_list = samples.iter().find(|s| s.label == "tools/list result (all 117)").unwrap();
    assert!((130_000..150_000).contains(&tools_list.bytes.len()), "tools/list is {} bytes", tools_list.bytes.len());
}
