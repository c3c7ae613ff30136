//! The serde_json backend: serde_json validates, this module keeps count of
//! where things are.
//!
//! serde_json's visitors give no byte offsets, so a cursor follows the parse:
//! borrowed member names and `&RawValue` leaves give their positions by
//! address, and the few bytes between tokens (whitespace, `:`, `,`) are
//! stepped over here. Containers are walked with our own visitors rather than
//! skipped as raw values, because serde_json's raw skipping checks neither
//! depth nor surrogates and allocates its own stack. What serde_json lets
//! through and the rules refuse is checked here: depth (our limit, not its
//! own) and lone surrogates in values (`escape::surrogates_are_paired`,
//! once over the whole message).

use core::fmt;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;

use super::{Backend, Declined, sealed};
use crate::json::escape;
use crate::json::grammar::skip_whitespace;
use crate::json::string;
use crate::limits::Limits;
use crate::tape::{NodeKind, Tape};

/// The serde_json backend (works without `std`).
#[derive(Debug, Default)]
pub struct SerdeJson {
    _private: (),
}

impl Backend for SerdeJson {
    const NAME: &'static str = "serde";
}

impl sealed::Sealed for SerdeJson {
    fn tokenise(&mut self, text: &str, limits: &Limits, tape: &mut Tape) -> Result<(), Declined> {
        let bytes = text.as_bytes();
        let top = skip_whitespace(bytes, 0);
        let mut walk = Walk { bytes, base: bytes.as_ptr() as usize, cursor: top, tape, max_depth: limits.max_depth };
        let mut de = serde_json::Deserializer::from_str(text);
        ValueSeed { walk: &mut walk, level: 1, on_tape: true }.deserialize(&mut de).map_err(|_| Declined)?;
        de.end().map_err(|_| Declined)?;
        // serde_json skips surrogate checks in raw values; everything else
        // about escapes it has checked. One search over the whole message
        // for `\u` covers them all.
        if escape::surrogates_are_paired(bytes) { Ok(()) } else { Err(Declined) }
    }
}

/// Where the parse is, and the tape it fills.
struct Walk<'w> {
    bytes: &'w [u8],
    base: usize,
    /// Offset just past the last token serde_json consumed.
    cursor: usize,
    tape: &'w mut Tape,
    max_depth: usize,
}

impl Walk<'_> {
    /// Start of the next token: past whitespace and at most one `:` or `,`.
    fn next_token(&self) -> usize {
        let i = skip_whitespace(self.bytes, self.cursor);
        match self.bytes.get(i) {
            Some(b':' | b',') => skip_whitespace(self.bytes, i + 1),
            _ => i,
        }
    }

    /// The offset of `s`, a slice serde_json borrowed from the message.
    fn offset_of(&self, s: &str) -> Option<usize> {
        let at = (s.as_ptr() as usize).checked_sub(self.base)?;
        (at.checked_add(s.len())? <= self.bytes.len()).then_some(at)
    }
}

fn decline<E: de::Error>() -> E {
    E::custom("declined")
}

/// One value at nesting `level`; `on_tape` when its parent is expanded.
struct ValueSeed<'s, 'w> {
    walk: &'s mut Walk<'w>,
    level: usize,
    on_tape: bool,
}

impl<'de> DeserializeSeed<'de> for ValueSeed<'_, '_> {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, de: D) -> Result<(), D::Error> {
        let walk = self.walk;
        let at = walk.next_token();
        let object = match walk.bytes.get(at) {
            Some(b'{') => true,
            Some(b'[') => false,
            Some(_) => return leaf(walk, self.on_tape, de),
            None => return Err(decline()),
        };
        if self.level > walk.max_depth {
            return Err(decline());
        }
        let kind = if object { NodeKind::Object } else { NodeKind::Array };
        let expanded = self.on_tape && walk.tape.expands(self.level);
        let node = self.on_tape.then(|| walk.tape.open(kind, at, expanded));
        walk.cursor = at + 1;
        let level = self.level;
        if object {
            de.deserialize_map(Container { walk: &mut *walk, level, expanded })?;
        } else {
            de.deserialize_seq(Container { walk: &mut *walk, level, expanded })?;
        }
        let close = skip_whitespace(walk.bytes, walk.cursor);
        if walk.bytes.get(close) != Some(if object { &b'}' } else { &b']' }) {
            return Err(decline());
        }
        walk.cursor = close + 1;
        if let Some(node) = node {
            walk.tape.close(node, close + 1);
        }
        Ok(())
    }
}

/// A string, number or literal, taken as a raw value: serde_json checks its
/// syntax without converting numbers, and we check its escapes.
#[inline]
fn leaf<'de, D: de::Deserializer<'de>>(walk: &mut Walk<'_>, on_tape: bool, de: D) -> Result<(), D::Error> {
    let raw: &'de RawValue = de::Deserialize::deserialize(de)?;
    let raw = raw.get();
    let start = walk.offset_of(raw).ok_or_else(decline)?;
    debug_assert!(!raw.is_empty(), "serde_json gave an empty value");
    let kind = NodeKind::of_first_byte(raw.as_bytes().first().copied().unwrap_or_default());
    let end = start + raw.len();
    if on_tape {
        walk.tape.leaf(kind, start, end);
    }
    walk.cursor = end;
    Ok(())
}

/// The members of an object or the items of an array.
///
/// The walk's visitors are marked `#[inline]`: without it, whether they
/// are inlined hung on which codegen unit the crate's layout put them in
/// (docs/benchmarks.md, "A count that moves with no change of code").
struct Container<'s, 'w> {
    walk: &'s mut Walk<'w>,
    level: usize,
    expanded: bool,
}

impl<'de> Visitor<'de> for Container<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a json container")
    }

    #[inline]
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let (level, on_tape) = (self.level + 1, self.expanded);
        while map.next_key_seed(NameSeed { walk: &mut *self.walk, on_tape })?.is_some() {
            map.next_value_seed(ValueSeed { walk: &mut *self.walk, level, on_tape })?;
        }
        Ok(())
    }

    #[inline]
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let (level, on_tape) = (self.level + 1, self.expanded);
        while seq.next_element_seed(ValueSeed { walk: &mut *self.walk, level, on_tape })?.is_some() {}
        Ok(())
    }
}

/// A member name. serde_json decodes it (checking its escapes, surrogates
/// included); we only need where it is.
struct NameSeed<'s, 'w> {
    walk: &'s mut Walk<'w>,
    on_tape: bool,
}

impl<'de> DeserializeSeed<'de> for NameSeed<'_, '_> {
    type Value = ();

    #[inline]
    fn deserialize<D: de::Deserializer<'de>>(self, de: D) -> Result<(), D::Error> {
        de.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for NameSeed<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a member name")
    }

    #[inline]
    fn visit_borrowed_str<E: de::Error>(self, name: &'de str) -> Result<(), E> {
        // No escapes: serde_json lent us the bytes between the quotes.
        let inner = self.walk.offset_of(name).ok_or_else(decline)?;
        self.record(inner.checked_sub(1).ok_or_else(decline)?, inner + name.len() + 1)
    }

    #[inline]
    fn visit_str<E: de::Error>(self, _decoded: &str) -> Result<(), E> {
        // Escapes: the decoded copy has no address in the message, so find
        // the token by scanning (serde_json has already validated it).
        let start = self.walk.next_token();
        let end = string::scan(self.walk.bytes, start).map_err(|_| decline())?;
        self.record(start, end)
    }
}

impl NameSeed<'_, '_> {
    #[inline]
    fn record<E: de::Error>(self, start: usize, end: usize) -> Result<(), E> {
        if self.walk.bytes.get(start) != Some(&b'"') {
            return Err(decline());
        }
        if self.on_tape {
            self.walk.tape.leaf(NodeKind::String, start, end);
        }
        self.walk.cursor = end;
        Ok(())
    }
}
