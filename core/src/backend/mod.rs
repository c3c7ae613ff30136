//! JSON backends: interchangeable tokenisers behind one sealed trait.
//!
//! A backend only tokenises: it reads the message into the shallow tape, or
//! says it could not. It never decides a verdict. When it declines, the
//! reference backend ([`Reference`]) decides, so
//! every backend reports the same reason and offset for the same bad input,
//! and a backend that refuses valid JSON (simd-json and `1e400`) still
//! yields the same envelope.

use crate::limits::Limits;
use crate::tape::Tape;

mod reference;
#[cfg(feature = "serde_json")]
mod serde_json;
#[cfg(feature = "simd-json")]
mod simd_json;

pub use self::reference::Reference;
#[cfg(feature = "serde_json")]
pub use self::serde_json::SerdeJson;
#[cfg(feature = "simd-json")]
pub use self::simd_json::SimdJson;

/// The backend declined the message; the reference backend will judge it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Declined;

pub(crate) mod sealed {
    use super::{Declined, Limits, Reference, Tape};
    use crate::fault::Fault;

    pub trait Sealed {
        /// Fills `tape` from `text` (valid UTF-8, not empty, at most
        /// `limits.max_size` bytes), or declines. Must never accept a
        /// message the reference backend rejects.
        fn tokenise(&mut self, text: &str, limits: &Limits, tape: &mut Tape) -> Result<(), Declined>;

        /// Fills `tape`, or names the message's first fault: a backend that
        /// declines hands the message to `reference`, which judges it.
        /// `Ok(true)` when the backend declined a message that is valid
        /// after all. The reference backend's own fault is the answer, so
        /// an invalid message is scanned once.
        #[inline]
        fn tokenise_judged(
            &mut self,
            text: &str,
            limits: &Limits,
            tape: &mut Tape,
            reference: &mut Reference,
        ) -> Result<bool, Fault> {
            if self.tokenise(text, limits, tape).is_ok() {
                return Ok(false);
            }
            tape.clear();
            reference.tokenise_exact(text, limits, tape)?;
            Ok(true)
        }
    }
}

/// A JSON tokeniser the [`Parser`](crate::Parser) can run on. Sealed: the
/// backends are [`SerdeJson`], [`SimdJson`] and [`Reference`].
pub trait Backend: sealed::Sealed + Default {
    /// `serde`, `simd` or `reference`.
    const NAME: &'static str;
}

#[cfg(test)]
mod tests {
    use super::sealed::Sealed;
    use super::*;
    use crate::tape::Node;
    use alloc::vec::Vec;

    /// Valid messages each backend reads itself (without declining).
    const READABLE: &[&str] = &[
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
        r#" { "jsonrpc" : "2.0" , "id" : "a\u0041" , "method" : "x" , "params" : { "a" : [ 1 , { "b" : null } ] } } "#,
        r#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[{"type":"text","text":"hi\n"}],"n":-0.5e-3}}"#,
        r#"[{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no","data":[true,false]}},{"a":{"b":{"c":{}}}},[],"s",1]"#,
        r#"{"\u006a\u0073onrpc":"2.0","e\"sc":{"x\\":[[[[]]]]},"id":[],"k":"\ud83d\ude00"}"#,
        "[]",
        "{}",
        "\"top\"",
        "  12  ",
        "true",
    ];

    fn tape_of(backend: &mut impl Sealed, text: &str) -> Result<Tape, Declined> {
        let mut tape = Tape::default();
        backend.tokenise(text, &Limits::new(), &mut tape).map(|()| tape)
    }

    #[test]
    fn every_backend_builds_the_reference_tape() {
        for text in READABLE {
            let reference = tape_of(&mut Reference::default(), text);
            assert!(reference.is_ok(), "reference declined {text}");
            let reference = reference.map(|t| t.nodes().to_vec());
            #[cfg(feature = "serde_json")]
            assert_eq!(
                tape_of(&mut SerdeJson::default(), text).map(|t| t.nodes().to_vec()),
                reference,
                "serde: {text}"
            );
            #[cfg(feature = "simd-json")]
            assert_eq!(tape_of(&mut SimdJson::default(), text).map(|t| t.nodes().to_vec()), reference, "simd: {text}");
        }
    }

    /// The tape of `text` with at most `items` batch items: nodes and overflow.
    fn limited_tape(backend: &mut impl Sealed, text: &str, items: usize) -> Option<(Vec<Node>, Option<usize>)> {
        let mut tape = Tape::default();
        tape.limit_items(items);
        backend.tokenise(text, &Limits::new(), &mut tape).ok().map(|()| (tape.nodes(), tape.overflow()))
    }

    #[test]
    fn every_backend_stops_taking_batch_items_at_the_limit_alike() {
        let text = r#"[1, {"a":[1,{"b":2}]}, "three", [4], {"five":5}]"#;
        let reference = limited_tape(&mut Reference::default(), text, 2);
        let Some((nodes, overflow)) = &reference else { panic!("reference declined") };
        assert_eq!(*overflow, text.find(r#""three""#), "the offset of the first item past the limit");
        // After the root: `1`, and the second item's subtree; nothing later.
        let last = nodes.iter().skip(1).map(|n| n.end).max();
        assert!(last < text.find("three"), "nodes past the limit: {nodes:?}");
        #[cfg(feature = "serde_json")]
        assert_eq!(limited_tape(&mut SerdeJson::default(), text, 2), reference, "serde");
        #[cfg(feature = "simd-json")]
        assert_eq!(limited_tape(&mut SimdJson::default(), text, 2), reference, "simd");
        // An object at the top is not a batch: no limit applies to its members.
        let (_, overflow) = limited_tape(&mut Reference::default(), r#"{"a":1,"b":2,"c":3}"#, 1).unwrap_or_default();
        assert_eq!(overflow, None);
    }
}
