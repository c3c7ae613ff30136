//! What can still be told of a message too large to hold: its kind and id,
//! read from its first and last bytes.
//!
//! A relay that skips an oversized message must still know whether it was
//! a request and which id it carried, or the answer to it will look like a
//! response to nothing. Its head is read as the start of an envelope (the
//! top-level members, each value skipped, until the bytes run out); its id
//! may instead be the last member (the Python SDK writes `method` and
//! `params` first), so the tail is read backwards for a closing
//! `"id": value }`. What neither shows stays unknown: nothing is guessed.

use crate::envelope::{Id, Kind};
use crate::json::grammar::{self, skip_whitespace};
use crate::json::{number, string};
use crate::limits::Limits;
use crate::span;
use alloc::vec::Vec;

/// What the head and tail of a message say of it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Glimpse<'a> {
    /// [`Kind::Request`] (a `method` and an id seen), [`Kind::Result`] or
    /// [`Kind::Error`] (that member seen), [`Kind::Batch`] (an array);
    /// `None` when the bytes read do not tell.
    pub kind: Option<Kind>,
    /// The id, when a whole top-level `id` member was read.
    pub id: Option<Id<'a>>,
}

/// Reads `head` (the message's first bytes) and `tail` (its last bytes,
/// ending where the message ends). Either may be cut anywhere.
#[must_use]
pub fn glimpse<'a>(head: &'a [u8], tail: &'a [u8]) -> Glimpse<'a> {
    let start = skip_whitespace(head, 0);
    if head.get(start) == Some(&b'[') {
        return Glimpse { kind: Some(Kind::Batch), id: None };
    }
    let mut seen = Seen::default();
    if head.get(start) == Some(&b'{') {
        read_members(head, start + 1, &mut seen);
    }
    let id = seen.id.or_else(|| last_id(tail));
    let kind = if seen.error {
        Some(Kind::Error)
    } else if seen.result {
        Some(Kind::Result)
    } else if seen.method && id.is_some() {
        Some(Kind::Request)
    } else {
        None
    };
    Glimpse { kind, id }
}

#[derive(Default)]
struct Seen<'a> {
    method: bool,
    result: bool,
    error: bool,
    id: Option<Id<'a>>,
}

/// Reads the top-level members from `i` (after the `{`) until the object
/// or the bytes end, or something is not JSON.
fn read_members<'a>(bytes: &'a [u8], mut i: usize, seen: &mut Seen<'a>) {
    let limits = Limits::default();
    let mut stack = Vec::new();
    loop {
        i = skip_whitespace(bytes, i);
        if bytes.get(i) != Some(&b'"') {
            return;
        }
        let Ok(name_end) = string::scan(bytes, i) else { return };
        let name = span::within(bytes, i + 1..name_end - 1);
        i = skip_whitespace(bytes, name_end);
        if bytes.get(i) != Some(&b':') {
            return;
        }
        let value = skip_whitespace(bytes, i + 1);
        // The member counts once its value begins (a `result` is mostly
        // cut short); an id only once its value is whole.
        match name {
            b"method" => seen.method = true,
            b"result" => seen.result = true,
            b"error" => seen.error = true,
            _ => {}
        }
        let end = match bytes.get(value) {
            Some(b'{' | b'[') => grammar::skip_container(bytes, value, 1, &limits, &mut stack).ok(),
            Some(b'"') => string::scan(bytes, value).ok(),
            Some(b'-' | b'0'..=b'9') => number::scan(bytes, value).ok(),
            Some(b't' | b'f' | b'n') => grammar::scan_literal(bytes, value).ok().map(|(_, end)| end),
            _ => None,
        };
        let Some(end) = end else { return };
        // A number that runs to the end of the bytes may go on past them.
        if end >= bytes.len() {
            return;
        }
        if name == b"id" && seen.id.is_none() {
            seen.id = id_at(bytes, value, end);
        }
        i = skip_whitespace(bytes, end);
        match bytes.get(i) {
            Some(b',') => i += 1,
            _ => return,
        }
    }
}

/// The id written at `value..end`: a string without escapes, or an integer.
/// Anything else (an object, `null`, digits that are not a JSON number)
/// is no id this can read.
fn id_at(bytes: &[u8], value: usize, end: usize) -> Option<Id<'_>> {
    let text = core::str::from_utf8(bytes.get(value..end)?).ok()?;
    match text.strip_prefix('"') {
        Some(quoted) => {
            let inner = quoted.strip_suffix('"')?;
            (!inner.contains('\\')).then_some(Id::from(inner))
        }
        // `number::integer` reads only what `number::scan` accepts.
        None if number::scan(bytes, value) == Ok(end) => number::integer(text.as_bytes()).map(Id::Int),
        None => None,
    }
}

/// The id of a message whose last member is `"id": value`, read backwards
/// from the closing `}` of `tail`.
fn last_id(tail: &[u8]) -> Option<Id<'_>> {
    let mut end = tail.len();
    while end > 0 && tail.get(end - 1).copied().is_some_and(grammar::is_whitespace) {
        end -= 1;
    }
    end = end.checked_sub(1).filter(|&close| tail.get(close) == Some(&b'}'))?;
    while end > 0 && tail.get(end - 1).copied().is_some_and(grammar::is_whitespace) {
        end -= 1;
    }
    let start = match tail.get(end.checked_sub(1)?)? {
        b'"' => {
            // The opening quote: the nearest one before that is not
            // escaped. A backslash in the id leaves it unknown.
            let inner = tail.get(..end - 1)?;
            let open = inner.iter().rposition(|&b| b == b'"' || b == b'\\')?;
            (inner.get(open) == Some(&b'"')).then_some(open)?
        }
        _ => tail.get(..end)?.iter().rposition(|&b| !matches!(b, b'-' | b'0'..=b'9'))? + 1,
    };
    let mut before = start;
    while before > 0 && tail.get(before - 1).copied().is_some_and(grammar::is_whitespace) {
        before -= 1;
    }
    let colon = before.checked_sub(1).filter(|&c| tail.get(c) == Some(&b':'))?;
    let mut name_end = colon;
    while name_end > 0 && tail.get(name_end - 1).copied().is_some_and(grammar::is_whitespace) {
        name_end -= 1;
    }
    let name_start = name_end.checked_sub(4)?;
    if tail.get(name_start..name_end) != Some(b"\"id\"") {
        return None;
    }
    // The name must open a member: after `,` or `{`, not end a string.
    let mut lead = name_start;
    while lead > 0 && tail.get(lead - 1).copied().is_some_and(grammar::is_whitespace) {
        lead -= 1;
    }
    if !matches!(tail.get(lead.checked_sub(1)?), Some(b',' | b'{')) {
        return None;
    }
    id_at(tail, start, end)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;

    const BIG_PARAMS: &str = r#""params":{"name":"write","arguments":{"text":"aaaaaaaaaaaaaaaa"#;

    #[test]
    fn a_request_whose_id_comes_first_is_known_from_its_head() {
        let head = format!(r#"{{"jsonrpc":"2.0","id":10,"method":"tools/call",{BIG_PARAMS}"#);
        let seen = glimpse(head.as_bytes(), b"aaaa\"}}}");
        assert_eq!(seen, Glimpse { kind: Some(Kind::Request), id: Some(Id::Int(10)) });
    }

    #[test]
    fn a_request_whose_id_comes_last_is_known_from_its_tail() {
        let head = format!(r#"{{"method":"tools/call",{BIG_PARAMS}"#);
        let seen = glimpse(head.as_bytes(), br#"aaaa"}},"jsonrpc":"2.0","id":"req-7" }"#);
        assert_eq!(seen, Glimpse { kind: Some(Kind::Request), id: Some(Id::from("req-7")) });
        let seen = glimpse(head.as_bytes(), b"aaaa\"}},\"jsonrpc\":\"2.0\",\"id\": -3}\r");
        assert_eq!(seen.id, Some(Id::Int(-3)));
    }

    #[test]
    fn a_response_is_known_by_its_result_or_error_member() {
        let seen = glimpse(br#"{"jsonrpc":"2.0","id":"a","result":{"content":[{"text":"xxxx"#, b"xx\"}]}}");
        assert_eq!(seen, Glimpse { kind: Some(Kind::Result), id: Some(Id::from("a")) });
        let seen = glimpse(br#"{"error":{"code":-1,"message":"x"},"id":4"#, b"");
        assert_eq!(seen.kind, Some(Kind::Error));
    }

    #[test]
    fn what_the_bytes_do_not_show_stays_unknown() {
        // An id cut by the end of the head might go on: not read.
        assert_eq!(glimpse(br#"{"id":12"#, b"").id, None);
        // A method without an id may be a notification.
        assert_eq!(glimpse(br#"{"method":"x","params":{"a":"#, b"}}").kind, None);
        // An escaped id, and an id that is the last member of params.
        assert_eq!(glimpse(br#"{"id":"a\"b","method":"m","#, b"").id, None);
        assert_eq!(glimpse(br#"{"method":"m","params":"#, br#"{"x":[1],"id":5}}"#).id, None);
        assert_eq!(glimpse(b"", br#"x\"id\":5}"#).id, None);
        assert_eq!(glimpse(b"not json", b"").kind, None);
        assert_eq!(glimpse(b"  [{\"id\":1", b"").kind, Some(Kind::Batch));
        // Ids that are no number or string (found by the parse_serde target).
        assert_eq!(glimpse(b"{\"id\":{ }\n", b"").id, None);
        assert_eq!(glimpse(b"{\"id\":null,", b"").id, None);
        assert_eq!(glimpse(b"", b"{\"a\":1,\"id\":--05}").id, None);
        assert_eq!(glimpse(b"", b"{\"a\":1,\"id\":-}").id, None);
    }

    #[test]
    fn literal_values_before_the_id_are_skipped_in_the_head() {
        let head = br#"{"jsonrpc":"2.0","a":true,"b":false,"c":null,"id":5,"method":"m","params":{"x":"#;
        assert_eq!(glimpse(head, b"").id, Some(Id::Int(5)));
        assert_eq!(glimpse(br#"{"a":nul,"id":5,"#, b"").id, None, "not a literal: reading stops");
    }

    #[test]
    fn the_last_id_is_read_through_whitespace_wherever_json_allows_it() {
        for tail in
            ["{\"a\":1 ,  \"id\"  :  7  }  \r\n", "\"x\"}\t,\n\"id\"\r:\t7\n}", "{\"id\":7}", " { \"id\" : 7 } "]
        {
            assert_eq!(glimpse(b"", tail.as_bytes()).id, Some(Id::Int(7)), "{tail:?}");
        }
        assert_eq!(glimpse(b"", br#"[1], "id" : "q-1" }"#).id, Some(Id::from("q-1")));
    }

    #[test]
    fn a_tail_that_starts_inside_the_last_member_tells_nothing() {
        // Each reading backwards reaches the tail's first byte without
        // seeing what opens the member.
        for tail in ["   ", "}", "  } ", "5}", "\"x\"}", " \"x\" }", ":5}", " : 5 }", "\"id\":5}", "  \"id\" : 5}"] {
            assert_eq!(glimpse(b"", tail.as_bytes()).id, None, "{tail:?}");
        }
    }
}
