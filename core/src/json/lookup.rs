//! One member of a payload, found without building a tape: the top level
//! of an object walked name by name, every value passed over by the one
//! trusted skip ([`skim`](crate::json::skim)).
//! For the few members a transport needs from `params` (`name`, `uri`,
//! `_meta`), where parsing the whole payload would cost more than the rest
//! of the message.
//!
//! The text is a payload the parser (or [`check_json`](crate::check_json))
//! has validated, so the walk trusts its grammar; on any other text it
//! still ends, without a panic, and finds nothing it should not.

use alloc::borrow::Cow;

use crate::fault::{Fault, Reason};
use crate::json::grammar::skip_whitespace;
use crate::json::skim;
use crate::json::string;
use crate::json::text::JsonStr;

/// The value of the member `name` (compared decoded, so `"n\u0061me"` is
/// `name`) at the top level of the object `json`, as a span of `json`.
///
/// # Errors
/// `duplicate-member` at the second occurrence when `name` appears twice:
/// which of the two counts is exactly what two readers can disagree on.
pub(crate) fn member(json: &str, name: &str) -> Result<Option<core::ops::Range<usize>>, Fault> {
    let bytes = json.as_bytes();
    if bytes.first() != Some(&b'{') {
        return Ok(None);
    }
    let mut found = None;
    let mut i = 1;
    loop {
        i = skip_whitespace(bytes, i);
        if bytes.get(i) != Some(&b'"') {
            return Ok(found);
        }
        let name_start = i;
        let Ok(name_end) = string::scan(bytes, i) else { return Ok(found) };
        i = skip_whitespace(bytes, name_end);
        if bytes.get(i) != Some(&b':') {
            return Ok(found);
        }
        let value_start = skip_whitespace(bytes, i + 1);
        let value_end = skim::value_end(bytes, value_start).unwrap_or(bytes.len());
        let this = json.get(name_start..name_end).is_some_and(|quoted| JsonStr::new(quoted).eq_str(name));
        if this {
            if found.is_some() {
                return Err(Fault::new(Reason::DuplicateMember, name_start));
            }
            found = Some(value_start..value_end);
        }
        i = skip_whitespace(bytes, value_end);
        match bytes.get(i) {
            Some(b',') => i += 1,
            _ => return Ok(found),
        }
    }
}

/// The string `json` stands for, decoded, if it is a string.
pub(crate) fn string(json: &str) -> Option<Cow<'_, str>> {
    (json.len() >= 2 && json.starts_with('"') && json.ends_with('"')).then(|| JsonStr::new(json).decode())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value<'j>(json: &'j str, name: &str) -> Option<&'j str> {
        member(json, name).ok().flatten().and_then(|span| json.get(span))
    }

    #[test]
    fn a_member_is_found_past_nested_values_and_brackets_inside_strings() {
        let params =
            r#"{ "arguments" : {"a":[1,{"name":"inner"}],"s":"}]\"{"} , "n":-1.5e3,"t":true, "name" : "echo" }"#;
        assert_eq!(value(params, "name"), Some(r#""echo""#));
        assert_eq!(value(params, "n"), Some("-1.5e3"));
        assert_eq!(value(params, "t"), Some("true"));
        assert_eq!(value(params, "arguments"), Some(r#"{"a":[1,{"name":"inner"}],"s":"}]\"{"}"#));
        assert_eq!(value(params, "uri"), None);
        assert_eq!(value("[1]", "name"), None);
        assert_eq!(value("{}", "name"), None);
    }

    #[test]
    fn names_are_compared_decoded_and_a_repeat_is_a_fault_at_the_second() {
        assert_eq!(value(r#"{"n\u0061me":"x"}"#, "name"), Some(r#""x""#));
        let twice = r#"{"name":"safe","name":"other"}"#;
        assert_eq!(member(twice, "name"), Err(Fault::new(Reason::DuplicateMember, 15)));
        let escaped = r#"{"name":"safe","\u006eame":"other"}"#;
        assert_eq!(member(escaped, "name"), Err(Fault::new(Reason::DuplicateMember, 15)));
    }

    #[test]
    fn strings_are_decoded_and_other_values_are_no_strings() {
        assert_eq!(string(r#""a\"b\u00e9""#).as_deref(), Some("a\"bé"));
        assert_eq!(string("12"), None);
        assert_eq!(string("\""), None);
    }

    #[test]
    fn text_that_is_not_json_ends_the_walk_without_a_panic() {
        for text in ["{", "{\"", "{\"a\"", "{\"a\":", "{\"a\":{", "{\"a\":\"", "{\"a\":1,", "{\"a\" 1}", "{]]]"] {
            assert_eq!(value(text, "b"), None, "{text}");
        }
    }
}
