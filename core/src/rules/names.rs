//! The member names the rules look for, recognised by their bytes.
//!
//! A name spelled plainly (most are) is read as one little-endian word of
//! the message's bytes. Three bits of its first byte pick the only wanted
//! name it can be (every set of names here differs in them: checked when
//! the crate compiles), and one comparison under a mask of that name's
//! length decides: no branch on the name's length or letters. Names near
//! the end of the message, where fewer than eight bytes are left to load,
//! are matched as slices. Escaped names match none of these: the
//! classifier decodes them.

use crate::span;
use crate::tape::Node;

/// The members that decide an envelope, in the order of their slots.
pub(crate) const ENVELOPE_MEMBERS: [&str; 6] = ["jsonrpc", "id", "method", "params", "result", "error"];

/// The members of an error object, in the order of their slots.
pub(crate) const ERROR_MEMBERS: [&str; 3] = ["code", "message", "data"];

/// The bytes of `name` as a word. A name longer than eight bytes would
/// shift past the word: as the crate compiles, that fails the build.
const fn word(name: &str) -> u64 {
    let mut bytes = name.as_bytes();
    let mut word = 0;
    let mut i = 0;
    while let Some((&byte, rest)) = bytes.split_first() {
        word |= (byte as u64) << (8 * i);
        bytes = rest;
        i += 1;
    }
    word
}

/// A wanted name as the lookup compares it.
#[derive(Clone, Copy)]
struct Entry {
    word: u64,
    /// Keeps the name's bytes of a word.
    mask: u64,
    /// The name's length; `usize::MAX` for no name (no text has it).
    len: usize,
    slot: usize,
}

/// Names of at most eight bytes, each found by three bits of its first
/// byte (from bit `shift`).
struct Lookup {
    entries: [Entry; 8],
    shift: u32,
}

impl Lookup {
    /// The lookup of `names` (their slots are their places), by the bits of
    /// the first byte from `shift`; fails to compile if two names share
    /// them or a name is longer than a word.
    #[allow(clippy::indexing_slicing, reason = "run only as the crate compiles: a bad index fails the build")]
    const fn new(names: &[&str], shift: u32) -> Lookup {
        let none = Entry { word: 0, mask: 0, len: usize::MAX, slot: 0 };
        let mut entries = [none; 8];
        let mut slot = 0;
        while slot < names.len() {
            let name = names[slot].as_bytes();
            assert!(!name.is_empty() && name.len() <= 8, "a wanted name fits in a word");
            let at = ((name[0] >> shift) & 7) as usize;
            assert!(entries[at].len == usize::MAX, "wanted names differ in the bits that pick them");
            let mask = if name.len() == 8 { u64::MAX } else { (1 << (8 * name.len())) - 1 };
            entries[at] = Entry { word: word(names[slot]), mask, len: name.len(), slot };
            slot += 1;
        }
        Lookup { entries, shift }
    }

    /// The slot of the string node `name`, spelled plainly.
    #[inline(always)]
    fn slot(&self, bytes: &[u8], name: Node, names: &[&str]) -> Option<usize> {
        let len = name.end.wrapping_sub(name.start).wrapping_sub(2);
        let at = name.start + 1;
        let Some(word) = bytes.get(at..at + 8).and_then(|w| <[u8; 8]>::try_from(w).ok()) else {
            return slot_of_slice(span::within(bytes, name.inside_quotes()), names);
        };
        let word = u64::from_le_bytes(word);
        let entry = self.entries.get((word >> self.shift) as usize & 7)?;
        (entry.len == len && word & entry.mask == entry.word).then_some(entry.slot)
    }
}

/// A name's slot among `names` near the end of the message.
#[inline(never)]
fn slot_of_slice(name: &[u8], names: &[&str]) -> Option<usize> {
    names.iter().position(|wanted| wanted.as_bytes() == name)
}

/// Bits 1 to 3 of the first byte tell the envelope's names apart.
const ENVELOPE: Lookup = Lookup::new(&ENVELOPE_MEMBERS, 1);

/// Bits 0 to 2 of the first byte tell the error object's names apart.
const ERROR: Lookup = Lookup::new(&ERROR_MEMBERS, 0);

const RESULT_TYPE: [u64; 2] = [word("resultTy"), word("pe")];

/// The slot in [`ENVELOPE_MEMBERS`] of a name spelled plainly.
#[inline(always)]
pub(crate) fn envelope_slot(bytes: &[u8], name: Node) -> Option<usize> {
    ENVELOPE.slot(bytes, name, &ENVELOPE_MEMBERS)
}

/// The slot in [`ERROR_MEMBERS`] of a name spelled plainly.
#[inline(always)]
pub(crate) fn error_slot(bytes: &[u8], name: Node) -> Option<usize> {
    ERROR.slot(bytes, name, &ERROR_MEMBERS)
}

/// Whether the string node `name` is `resultType` spelled plainly.
#[inline(always)]
pub(crate) fn is_result_type(bytes: &[u8], name: Node) -> bool {
    // The caller has usually compared the length already: this one is then
    // folded away.
    if name.end.wrapping_sub(name.start) != "resultType".len() + 2 {
        return false;
    }
    // The text's ten bytes are there: eight from its start, then two.
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
