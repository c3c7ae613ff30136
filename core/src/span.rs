//! Reading what the walk promised lies in the bytes: a position or a span
//! it found itself (a tape node, a line's end, a string's close). The
//! promise is asserted here, once, in debug builds (every fuzz build turns
//! them on); a release build that broke it reads an empty span rather than
//! panicking on someone's input. Where the input itself can put a position
//! past the end (a message cut short), the caller reads with `get` and
//! says what none means; it does not come here.

use core::ops::Range;

/// `items` from `at`, which the walk found at or before their end.
#[inline(always)]
pub(crate) fn from<T>(items: &[T], at: usize) -> &[T] {
    debug_assert!(at <= items.len(), "position {at} is past the end ({})", items.len());
    items.get(at..).unwrap_or_default()
}

/// The span of `items` the walk found.
#[inline(always)]
pub(crate) fn within<T>(items: &[T], span: Range<usize>) -> &[T] {
    debug_assert!(span.start <= span.end && span.end <= items.len(), "span {span:?} is not in 0..{}", items.len());
    items.get(span).unwrap_or_default()
}

/// The span of `text` the walk found, on character boundaries.
#[inline(always)]
pub(crate) fn text(text: &str, span: Range<usize>) -> &str {
    debug_assert!(text.get(span.clone()).is_some(), "span {span:?} is not a span of the {} bytes of text", text.len());
    text.get(span).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_inside_are_read_as_they_are() {
        assert_eq!(from(b"abc", 1), b"bc");
        assert_eq!(from(b"abc", 3), b"");
        assert_eq!(within(b"abc", 1..2), b"b");
        assert_eq!(text("aéb", 1..3), "é");
    }

    #[test]
    #[cfg_attr(debug_assertions, should_panic(expected = "past the end"))]
    fn a_position_past_the_end_is_a_bug_the_debug_build_reports() {
        assert_eq!(from(b"abc", 4), b"");
    }

    #[test]
    #[cfg_attr(debug_assertions, should_panic(expected = "not a span"))]
    fn a_span_off_a_character_boundary_is_a_bug_the_debug_build_reports() {
        assert_eq!(text("aéb", 1..2), "");
    }
}
