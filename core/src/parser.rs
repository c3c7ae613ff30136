//! The reusable parser: checks that need no tokeniser, the backend, the
//! reference backend when a backend declines, then the envelope rules.

use crate::backend::{Backend, Reference};
use crate::envelope::Error;
use crate::envelope::Parsed;
use crate::fault::{Fault, Reason};
use crate::json::grammar::skip_whitespace;
use crate::limits::Limits;
use crate::revision::Revision;
use crate::rules::classify::Classifier;
use crate::rules::repeats::NameTable;
use crate::tape::Tape;

/// The backend [`Parser`] uses when none is named: the reference backend,
/// the fastest of the three on realistic traffic (docs/benchmarks.md) and
/// the one the others fall back to. serde_json and simd-json stay for
/// cross-checking and for programs that already carry them.
pub type DefaultBackend = Reference;

/// Parses messages one after another, reusing its buffers: once warm, a
/// message without escapes in its `method` or `id` costs no heap allocation
/// (a batch allocates its list of items).
///
/// ```
/// use mcp_envelope::{Parser, Revision, Message};
///
/// let mut parser = Parser::new(Revision::V2026_07_28);
/// let envelope = parser.parse(br#"{"jsonrpc":"2.0","id":7,"method":"tools/list"}"#).unwrap();
/// let Some(Message::Request(request)) = envelope.single() else { panic!() };
/// assert_eq!(request.method, "tools/list");
///
/// let error = parser.parse(br#"{"jsonrpc":"2.0","id":7,"id":8,"method":"x"}"#).unwrap_err();
/// assert_eq!((error.code(), error.reason().name(), error.offset()), (-32600, "duplicate-member", 24));
/// ```
#[derive(Debug, Default)]
pub struct Parser<B: Backend = DefaultBackend> {
    backend: B,
    reference: Reference,
    revision: Revision,
    limits: Limits,
    tape: Tape,
    names: NameTable,
    declined: bool,
}

impl Parser {
    /// A parser on the [`DefaultBackend`] for `revision`, with the default
    /// [`Limits`]. For another backend, [`Parser::with_backend`].
    #[must_use]
    pub fn new(revision: Revision) -> Self {
        Parser::with_backend(revision)
    }
}

impl<B: Backend> Parser<B> {
    /// A parser on backend `B` for `revision`, with the default [`Limits`]:
    /// `Parser::<SimdJson>::with_backend(revision)`, or `Parser::with_backend`
    /// where the type is known.
    #[must_use]
    pub fn with_backend(revision: Revision) -> Self {
        Parser { revision, ..Parser::default() }
    }

    /// A parser on this backend, configured otherwise than by default (the
    /// fuzzing properties' simd-json backend with tiny batch chunks).
    #[cfg(feature = "simd-json")]
    pub(crate) fn with_backend_instance(revision: Revision, backend: B) -> Self {
        Parser { revision, backend, ..Parser::default() }
    }

    /// The same parser with other limits.
    #[must_use]
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits.clamped();
        self
    }

    /// The revision whose rules apply.
    #[must_use]
    pub fn revision(&self) -> Revision {
        self.revision
    }

    /// The limits in force.
    #[must_use]
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// The backend's name: `serde`, `simd` or `reference`.
    #[must_use]
    pub fn backend_name(&self) -> &'static str {
        B::NAME
    }

    /// Whether the backend declined the last message that reached it, so
    /// that the reference backend judged it: every invalid message, and valid
    /// ones a backend cannot read (simd-json and `1e400`, serde_json and
    /// nesting past 127). Messages refused before any tokeniser ran (size,
    /// byte-order mark, markup, UTF-8, empty) leave it unchanged.
    #[must_use]
    pub fn declined(&self) -> bool {
        self.declined
    }

    /// Parses one message (or batch). `input` is the whole message, with
    /// no framing newline (surrounding JSON whitespace is allowed).
    ///
    /// # Errors
    /// An [`Error`] with code -32700 when `input` is not one JSON value
    /// within the limits, or -32600 when it is not a valid envelope.
    pub fn parse<'a>(&mut self, input: &'a [u8]) -> Parsed<'a> {
        let text = self.tape_stage(input).map_err(|fault| Error::new(fault, None))?;
        Classifier::new(text, &self.tape, self.revision, &mut self.names).envelope()
    }
}

impl<B: Backend> Parser<B> {
    /// The pipeline without its last stage: the checks before any
    /// tokeniser, then the backend, the tape built; gives the message as
    /// text for the rules. [`Parser::parse`] applies the rules after it;
    /// the benchmarks' figures per stage stop here (`internal::tape_stage`).
    #[inline(always)]
    pub(crate) fn tape_stage<'a>(&mut self, input: &'a [u8]) -> Result<&'a str, Fault> {
        let text = precheck(input, &self.limits)?;
        self.tape.clear();
        self.tape.limit_items(self.limits.max_batch_len);
        // A backend that declines hands the message to the reference
        // backend, which names the fault if there is one; an invalid
        // message declines by definition.
        match self.backend.tokenise_judged(text, &self.limits, &mut self.tape, &mut self.reference) {
            Ok(declined) => self.declined = declined,
            Err(fault) => {
                self.declined = true;
                return Err(fault);
            }
        }
        Ok(text)
    }
}

/// Everything decided before any tokeniser runs: size, byte-order mark, a
/// web page, UTF-8 (checked once, here, for every backend), emptiness.
fn precheck<'a>(input: &'a [u8], limits: &Limits) -> Result<&'a str, Fault> {
    if input.len() > limits.max_size {
        return Err(Fault::new(Reason::TooLarge, limits.max_size));
    }
    if input.starts_with(b"\xEF\xBB\xBF") {
        return Err(Fault::new(Reason::ByteOrderMark, 0));
    }
    let first = skip_whitespace(input, 0);
    if input.get(first) == Some(&b'<') {
        return Err(Fault::new(Reason::HtmlPage, first));
    }
    let text = match simdutf8::basic::from_utf8(input) {
        Ok(text) => text,
        Err(_) => {
            // Only on failure: find where.
            let at = simdutf8::compat::from_utf8(input).err().map_or(0, |e| e.valid_up_to());
            return Err(Fault::new(Reason::InvalidUtf8, at));
        }
    };
    if first == input.len() {
        return Err(Fault::new(Reason::Empty, input.len()));
    }
    Ok(text)
}

#[cfg(all(test, feature = "simd-json"))]
mod tests {
    use super::*;
    use crate::backend::SimdJson;
    use alloc::format;

    #[test]
    fn a_parser_on_a_configured_backend_keeps_its_revision_and_that_backend() {
        let mut parser = Parser::with_backend_instance(Revision::JsonRpc, SimdJson::with_chunk_len(16));
        // Plain JSON-RPC takes a request with a null id; MCP revisions do not.
        assert!(parser.parse(br#"{"jsonrpc":"2.0","id":null,"method":"m"}"#).is_ok());
        assert_eq!(parser.revision(), Revision::JsonRpc);
        assert!(format!("{parser:?}").contains("chunk_len: 16"), "{parser:?}");
    }

    #[test]
    fn invalid_input_is_scanned_once_and_only_a_declining_backend_hands_it_on() {
        // Nested enough that a scan of it opens containers, which leaves
        // capacity on the scanning backend's stack.
        let invalid = br#"{"jsonrpc":"2.0","id":1,"result":{"a":[1,}}"#;
        let valid_past_simd = br#"{"jsonrpc":"2.0","id":1,"result":{"a":[1e400]}}"#;

        let mut reference = Parser::<Reference>::with_backend(Revision::V2025_11_25);
        let fault = reference.parse(invalid).map_err(|e| e.fault());
        assert_eq!(fault, Err(Fault::new(Reason::ExpectedValue, 41)));
        assert!(reference.declined(), "an invalid message is declined");
        assert!(reference.backend.has_scanned(), "the reference backend judged it");
        assert!(!reference.reference.has_scanned(), "and no second scan ran");

        let mut simd = Parser::<SimdJson>::with_backend(Revision::V2025_11_25);
        assert_eq!(simd.parse(invalid).map_err(|e| e.fault()), fault);
        assert!(simd.declined() && simd.reference.has_scanned(), "simd-json declined and handed it on");
        assert!(simd.parse(valid_past_simd).is_ok());
        assert!(simd.declined(), "1e400 is valid, but not to simd-json");
    }
}
