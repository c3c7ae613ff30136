//! What a message the rules reject still says: whether it is shaped like
//! a response. A server that answers what gets no answer with a malformed
//! response has answered all the same, and the strict reading says only
//! that the message is invalid, so this one reads it leniently: a byte
//! order mark skipped, bytes that are not UTF-8 replaced, strings run to
//! the next unescaped quote, nothing validated.

use alloc::string::String;
use alloc::vec::Vec;

use crate::json::lookup;

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
    let strict = |name: &str| !matches!(lookup::member(text, name), Ok(None));
    let has = |name: &str| value(name).is_some() || strict(name);
    let strict_id = match lookup::member(text, "id") {
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

fn skip_whitespace(bytes: &[u8], mut i: usize) -> usize {
    while bytes.get(i).is_some_and(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r')) {
        i += 1;
    }
    i
}

/// Just past the quote that closes the string opened at `at` (a backslash
/// escapes the byte after it), or the end of the text.
fn string_end(bytes: &[u8], at: usize) -> usize {
    let mut j = at + 1;
    while let Some(&b) = bytes.get(j) {
        match b {
            b'\\' => j += 2,
            b'"' => return j + 1,
            _ => j += 1,
        }
    }
    bytes.len()
}

/// Where the value starting at `at` ends: the `,` or `}` that follows it
/// outside any string or bracket, or the end of the text.
fn value_end(bytes: &[u8], at: usize) -> usize {
    let mut depth = 0usize;
    let mut j = at;
    while let Some(&b) = bytes.get(j) {
        match b {
            b'"' => {
                j = string_end(bytes, j);
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' if depth == 0 => return j,
            b'}' | b']' => depth -= 1,
            b',' if depth == 0 => return j,
            _ => {}
        }
        j += 1;
    }
    bytes.len()
}
