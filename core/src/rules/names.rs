//! The member names the rules look for, recognised by their bytes.
//!
//! A name spelled plainly (most are) is matched as one little-endian word
//! of the message's bytes under a mask of its length: one load and one
//! comparison a name, where a byte-by-byte match takes one a byte. Names
//! near the end of the message, where fewer than eight bytes are left to
//! load, are matched as slices. Escaped names match none of these: the
//! classifier decodes them.

use crate::tape::Node;

/// The members that decide an envelope, in the order of their slots.
pub(crate) const ENVELOPE_MEMBERS: [&str; 6] = ["jsonrpc", "id", "method", "params", "result", "error"];

/// The members of an error object, in the order of their slots.
pub(crate) const ERROR_MEMBERS: [&str; 3] = ["code", "message", "data"];

/// The first eight bytes of `name` (at most eight long), as a word.
const fn word(name: &str) -> u64 {
    let mut bytes = name.as_bytes();
    let mut word = 0;
    let mut i = 0;
    while let Some((&byte, rest)) = bytes.split_first()
        && i < 8
    {
        word |= (byte as u64) << (8 * i);
        bytes = rest;
        i += 1;
    }
    word
}

/// The mask that keeps the first `len` bytes of a word (`len` at most 8).
const fn mask(len: usize) -> u64 {
    if len >= 8 { u64::MAX } else { (1 << (8 * len)) - 1 }
}

const ID: u64 = word("id");
const ERROR: u64 = word("error");
const METHOD: u64 = word("method");
const PARAMS: u64 = word("params");
const RESULT: u64 = word("result");
const JSONRPC: u64 = word("jsonrpc");
const CODE: u64 = word("code");
const DATA: u64 = word("data");
const MESSAGE: u64 = word("message");
const RESULT_TYPE: [u64; 2] = [word("resultTy"), word("pe")];

/// The eight bytes of the message from the first byte of the string node
/// `name`'s text, as a word, with the length of that text; `None` when
/// fewer than eight bytes are left.
#[inline(always)]
fn first_word(bytes: &[u8], name: Node) -> Option<(u64, usize)> {
    let len = name.end.wrapping_sub(name.start).wrapping_sub(2);
    let at = name.start + 1;
    let word = <[u8; 8]>::try_from(bytes.get(at..at + 8)?).ok()?;
    Some((u64::from_le_bytes(word), len))
}

/// The text of the string node `name`, between its quotes.
#[inline(always)]
fn inner(bytes: &[u8], name: Node) -> &[u8] {
    bytes.get(name.inside_quotes()).unwrap_or_default()
}

/// The slot in [`ENVELOPE_MEMBERS`] of a name spelled plainly.
#[inline(always)]
pub(crate) fn envelope_slot(bytes: &[u8], name: Node) -> Option<usize> {
    let Some((word, len)) = first_word(bytes, name) else {
        return envelope_slot_of_slice(inner(bytes, name));
    };
    match len {
        2 if word & mask(2) == ID => Some(1),
        5 if word & mask(5) == ERROR => Some(5),
        6 => match word & mask(6) {
            METHOD => Some(2),
            PARAMS => Some(3),
            RESULT => Some(4),
            _ => None,
        },
        7 if word & mask(7) == JSONRPC => Some(0),
        _ => None,
    }
}

/// [`envelope_slot`] near the end of the message.
#[inline(never)]
fn envelope_slot_of_slice(name: &[u8]) -> Option<usize> {
    ENVELOPE_MEMBERS.iter().position(|wanted| wanted.as_bytes() == name)
}

/// The slot in [`ERROR_MEMBERS`] of a name spelled plainly.
#[inline(always)]
pub(crate) fn error_slot(bytes: &[u8], name: Node) -> Option<usize> {
    let Some((word, len)) = first_word(bytes, name) else {
        return ERROR_MEMBERS.iter().position(|wanted| wanted.as_bytes() == inner(bytes, name));
    };
    match len {
        4 => match word & mask(4) {
            CODE => Some(0),
            DATA => Some(2),
            _ => None,
        },
        7 if word & mask(7) == MESSAGE => Some(1),
        _ => None,
    }
}

/// Whether the string node `name` is `resultType` spelled plainly.
#[inline(always)]
pub(crate) fn is_result_type(bytes: &[u8], name: Node) -> bool {
    // The caller has usually compared the length already: this one is then
    // folded away.
    if name.end.wrapping_sub(name.start) != "resultType".len() + 2 {
        return false;
    }
    // Ten bytes and a quote are there: eight from the text's start, and
    // eight from its third byte (holding its last two and the quote).
    let at = name.start + 1;
    let words =
        bytes.get(at..).and_then(|b| b.first_chunk::<8>()).zip(bytes.get(at + 8..).and_then(|b| b.first_chunk::<2>()));
    match words {
        Some((head, tail)) => {
            u64::from_le_bytes(*head) == RESULT_TYPE[0] && u64::from(u16::from_le_bytes(*tail)) == RESULT_TYPE[1]
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tape::NodeKind;
    use alloc::format;

    /// The string node of the first quoted name in `text`.
    fn name_node(text: &str) -> Node {
        let start = text.find('"').unwrap_or(0);
        let end = text[start + 1..].find('"').map_or(text.len(), |e| start + e + 2);
        Node { kind: NodeKind::String, start, end, next: 1, expanded: false }
    }

    #[test]
    fn every_envelope_name_has_its_slot_far_from_the_end_and_near_it() {
        for (slot, name) in ENVELOPE_MEMBERS.iter().enumerate() {
            for text in [format!("{{\"{name}\":1, \"padding\": 2}}"), format!("\"{name}\"")] {
                assert_eq!(envelope_slot(text.as_bytes(), name_node(&text)), Some(slot), "{text}");
            }
        }
    }

    #[test]
    fn every_error_name_has_its_slot_far_from_the_end_and_near_it() {
        for (slot, name) in ERROR_MEMBERS.iter().enumerate() {
            for text in [format!("{{\"{name}\":1, \"padding\": 2}}"), format!("\"{name}\"")] {
                assert_eq!(error_slot(text.as_bytes(), name_node(&text)), Some(slot), "{text}");
            }
        }
    }

    #[test]
    fn a_name_is_known_only_when_every_byte_and_its_length_match() {
        // Prefixes, extensions, one byte changed at each end, other case,
        // an escape: none is a known name.
        for text in [
            "{\"i\":1,       }",
            "{\"idx\":1,     }",
            "{\"jsonrp\":1,  }",
            "{\"jsonrpcs\":1,}",
            "{\"Jsonrpc\":1, }",
            "{\"jsonrpC\":1, }",
            "{\"methods\":1, }",
            "{\"paramz\":1,  }",
            "{\"Result\":1,  }",
            "{\"erro\":1,    }",
            "{\"\\u0069d\":1,}",
            "{\"codes\":1,   }",
            "{\"dat\":1,     }",
            "{\"messagE\":1, }",
            "\"jsonrp\"",
            "\"i\"",
        ] {
            let node = name_node(text);
            assert_eq!(envelope_slot(text.as_bytes(), node), None, "{text}");
            assert_eq!(error_slot(text.as_bytes(), node), None, "{text}");
        }
    }

    #[test]
    fn result_type_is_matched_whole_and_needs_nothing_past_its_quote() {
        let yes = |text: &str| is_result_type(text.as_bytes(), name_node(text));
        assert!(yes("{\"resultType\":\"complete\"}"));
        assert!(yes("\"resultType\""));
        assert!(!yes("\"resultTypo\""));
        assert!(!yes("\"ResultType\""));
        assert!(!yes("\"resultTyp\""));
        assert!(!yes("\"resultTypes\""));
        assert!(!yes("\"result\\u0054ype\""));
    }
}
