//! What a message the rules reject still says: whether it is shaped like
//! a response. A server that answers what gets no answer with a malformed
//! response has answered all the same, and the strict reading says only
//! that the message is invalid, so this one reads it leniently: a byte
//! order mark skipped, bytes that are not UTF-8 replaced, strings run to
//! the next unescaped quote, nothing validated.

use mcp_envelope::internal::{self, skim, skim::skip_whitespace};

/// How a message reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// An array, an object with a `result`, or with an `error` and an id
    /// that is not null: an answer.
    Response,
    /// An object with an `error` and no id, or a null one: what a refusal
    /// of input the server cannot read may carry.
    IdlessError,
    /// Anything else (a request, a notification, text).
    Other,
}

/// The shape of `bytes`, a message no stricter reading accepted.
pub(crate) fn shape(bytes: &[u8]) -> Shape {
    let text = String::from_utf8_lossy(bytes);
    let text = trim(trim(&text).trim_start_matches('\u{feff}'));
    if text.starts_with('[') {
        return Shape::Response;
    }
    if !text.starts_with('{') {
        return Shape::Other;
    }
    let lenient = lenient_members(text);
    let value = |name: &str| lenient.iter().find(|(n, _)| *n == name).map(|(_, v)| *v);
    // The strict walk decodes escaped names (`"r\u0065sult"`), which the
    // lenient one leaves as written; a name either finds counts. A name
    // given twice counts as there: which one a reader keeps is its own.
    let strict = |name: &str| !matches!(internal::member(text, name), Ok(None));
    let has = |name: &str| value(name).is_some() || strict(name);
    let strict_id = match internal::member(text, "id") {
        Ok(None) => false,
        Ok(Some(span)) => text.get(span).is_some_and(|v| v != "null"),
        Err(_) => true,
    };
    let id = strict_id || value("id").is_some_and(|v| !v.is_empty() && v != "null");
    if has("result") || (has("error") && id) {
        Shape::Response
    } else if has("error") {
        Shape::IdlessError
    } else {
        Shape::Other
    }
}

fn trim(text: &str) -> &str {
    text.trim_matches([' ', '\t', '\n', '\r'])
}

/// The top-level members of the object `text` opens: each name as
/// written, and its value's text (trimmed), until the text stops looking
/// like an object.
fn lenient_members(text: &str) -> Vec<(&str, &str)> {
    let bytes = text.as_bytes();
    let mut members = Vec::new();
    let mut i = 1;
    loop {
        i = skip_whitespace(bytes, i);
        if bytes.get(i) != Some(&b'"') {
            return members;
        }
        let name_end = string_end(bytes, i);
        let name = text.get(i + 1..name_end.saturating_sub(1)).unwrap_or_default();
        i = skip_whitespace(bytes, name_end);
        if bytes.get(i) != Some(&b':') {
            return members;
        }
        let start = i + 1;
        let end = value_end(bytes, start);
        members.push((name, trim(text.get(start..end).unwrap_or_default())));
        if bytes.get(end) != Some(&b',') {
            return members;
        }
        i = end + 1;
    }
}

/// Just past the quote that closes the string opened at `at`, or the end
/// of the text.
fn string_end(bytes: &[u8], at: usize) -> usize {
    skim::string_end(bytes, at + 1).unwrap_or(bytes.len())
}

/// Where the value starting at `at` ends: the `,` or `}` that follows it
/// outside any string or bracket, or the end of the text. Strings and
/// containers are passed over by the skim, whole (to the end of the text
/// when they never close), so whatever lies between them and the next
/// comma belongs to the value too.
fn value_end(bytes: &[u8], at: usize) -> usize {
    let mut j = at;
    while let Some(&b) = bytes.get(j) {
        j = match b {
            b'"' => string_end(bytes, j),
            b'{' | b'[' => skim::container_end(bytes, j).unwrap_or(bytes.len()),
            b',' | b'}' | b']' => return j,
            _ => j + 1,
        };
    }
    bytes.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lenient_reading_gives_each_top_level_name_as_written_and_its_value_trimmed() {
        let text =
            "{ \"a\" :\t1 ,\n\"b\\\"c\": \"x,}\\\"y\" ,\"nested\":{\"k\":[1,{\"m\":2}],\"n\":3},\"list\":[4,[5],6] }";
        assert_eq!(
            lenient_members(text),
            [
                ("a", "1"),
                ("b\\\"c", "\"x,}\\\"y\""),
                ("nested", "{\"k\":[1,{\"m\":2}],\"n\":3}"),
                ("list", "[4,[5],6]")
            ]
        );
    }

    #[test]
    fn the_lenient_reading_stops_where_the_text_stops_looking_like_an_object() {
        // No name where one is due, no colon after a name, no comma after a
        // value: what was read so far is kept.
        assert_eq!(lenient_members(r#"{"a":1, 2:3}"#), [("a", "1")]);
        assert_eq!(lenient_members(r#"{"a":1,"b" 2}"#), [("a", "1")]);
        assert_eq!(lenient_members(r#"{"a":1 "b":2} "c":3"#), [("a", r#"1 "b":2"#)]);
        assert_eq!(lenient_members("{}"), []);
        // A text cut short: an open string or value runs to the end.
        assert_eq!(lenient_members(r#"{"a":{"b":[1,2"#), [("a", r#"{"b":[1,2"#)]);
        assert_eq!(lenient_members(r#"{"a":"open"#), [("a", r#""open"#)]);
        assert_eq!(lenient_members(r#"{"unclosed"#), []);
    }

    #[test]
    fn a_string_ends_past_its_first_unescaped_quote() {
        assert_eq!(string_end(br#""ab" x"#, 0), 4);
        assert_eq!(string_end(br#"x "a\"b\\" y"#, 2), 10);
        assert_eq!(string_end(br#""open"#, 0), 5);
        // A backslash last escapes nothing there is: the end of the text.
        assert_eq!(string_end(br#""a\"#, 0), 3);
    }

    #[test]
    fn a_value_ends_at_the_comma_or_bracket_outside_every_string_and_bracket_in_it() {
        assert_eq!(value_end(b"12,3", 0), 2);
        assert_eq!(value_end(b"12}", 0), 2);
        assert_eq!(value_end(b"[1,[2]],3", 0), 7);
        assert_eq!(value_end(br#"{"a":"}",b:[1]} ,"#, 0), 16);
        assert_eq!(value_end(br#"x"],}"]"#, 1), 6);
        assert_eq!(value_end(b"  7", 0), 3);
    }

    #[test]
    fn whitespace_is_the_four_bytes_json_allows_and_nothing_else() {
        assert_eq!(skip_whitespace(b" \t\r\n x", 0), 5);
        assert_eq!(skip_whitespace(b"x  y", 1), 3);
        assert_eq!(skip_whitespace(b"\x0c", 0), 0);
        assert_eq!(skip_whitespace(b"  ", 0), 2);
    }

    #[test]
    fn an_id_read_leniently_makes_an_error_a_response_only_when_it_is_given_and_not_null() {
        // A raw tab in a name stops the strict walk before the id; the
        // lenient one reads past it.
        let with = |id: &str| format!("{{\"a\tb\":1,\"id\":{id},\"error\":{{\"code\":-32600,\"message\":\"x\"}}}}");
        assert_eq!(shape(with("1").as_bytes()), Shape::Response);
        assert_eq!(shape(with("\"a\"").as_bytes()), Shape::Response);
        assert_eq!(shape(with("null").as_bytes()), Shape::IdlessError);
        assert_eq!(shape(with(" ").as_bytes()), Shape::IdlessError);
        assert_eq!(shape(b"{\"a\tb\":1,\"error\":{}}"), Shape::IdlessError);
        assert_eq!(shape(b"{\"a\tb\":1,\"result\":{}}"), Shape::Response);
        assert_eq!(shape(b"{\"a\tb\":1,\"method\":\"m\"}"), Shape::Other);
        assert_eq!(shape(b"  \"text\""), Shape::Other);
        assert_eq!(shape(b"\r\n[1"), Shape::Response);
    }
}
