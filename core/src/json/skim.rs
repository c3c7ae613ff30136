//! The one trusted skip over JSON text: where a string, a container or any
//! value ends, found by counting brackets (strings passed over whole, so
//! brackets inside them do not count) without validating anything. Exact
//! on valid JSON; on anything else an answer that ends without a panic,
//! or `None` where the brackets cannot balance. Member lookup reads
//! validated payloads with it, and the simd-json backend guesses where a
//! batch's items end with it (simd-json then validates what it reads).

/// One past the value starting at `start`, if the bytes can be one.
pub(crate) fn value_end(bytes: &[u8], start: usize) -> Option<usize> {
    match bytes.get(start)? {
        b'"' => string_end(bytes, start + 1),
        b'{' | b'[' => container_end(bytes, start),
        // No value starts here: an empty or trailing-comma item.
        b',' | b']' | b'}' => None,
        _ => {
            let rest = bytes.get(start..)?;
            let len = rest.iter().position(|&b| matches!(b, b',' | b']' | b'}' | b' ' | b'\t' | b'\n' | b'\r'));
            Some(start + len.unwrap_or(rest.len()))
        }
    }
}

/// One past the closing quote of the string whose text starts at `at`
/// (just after its opening quote).
pub(crate) fn string_end(bytes: &[u8], mut at: usize) -> Option<usize> {
    loop {
        at += memchr::memchr2(b'"', b'\\', bytes.get(at..)?)?;
        if bytes.get(at) == Some(&b'"') {
            return Some(at + 1);
        }
        // A backslash and the byte it escapes.
        at += 2;
    }
}

/// One past the bracket closing the container opened at `start`.
pub(crate) fn container_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut at = start;
    while let Some(&byte) = bytes.get(at) {
        match byte {
            b'"' => {
                at = string_end(bytes, at + 1)?;
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(at + 1);
                }
            }
            _ => {}
        }
        at += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_end_where_valid_json_says() {
        for (text, end) in [
            (r#""a\"]}" ,"#, 7),
            (r#"{"a":[1,{"b":"}"}],"c":"\\"} x"#, 28),
            ("[[],[[]]] ,", 9),
            ("-1.5e3,", 6),
            ("true}", 4),
            ("null\n]", 4),
            ("7", 1),
        ] {
            assert_eq!(value_end(text.as_bytes(), 0), Some(end), "{text}");
        }
    }

    #[test]
    fn text_that_cannot_balance_gives_none_and_no_panic() {
        for text in ["", ",", "]", "}", "\"open", "\"ends in a backslash\\", "{\"a\":[1,2}", "[[]", "]]", "{\"a\":\"b"]
        {
            let end = value_end(text.as_bytes(), 0);
            assert!(end.is_none() || end <= Some(text.len()), "{text}: {end:?}");
        }
        assert_eq!(value_end(b"[1]]", 0), Some(3));
        assert_eq!(container_end(b"{]", 0), Some(2), "brackets are counted, not matched");
        assert_eq!(container_end(b"[1,2", 0), None);
        assert_eq!(string_end(b"ab\\", 0), None);
    }
}
