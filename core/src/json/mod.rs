//! JSON (RFC 8259) as the rules restrict it: lone surrogates refused,
//! numbers of any size, one depth limit. Bytes in, offsets or a
//! [`Fault`](crate::Fault) out; nothing here knows of messages.
//!
//! - [`string`] and [`number`]: the grammar of the two leaves with
//!   structure, and validated strings compared, decoded and hashed;
//! - [`grammar`]: whitespace, literals, member names, and the validating
//!   walk over containers the reference backend, `check_json` and the
//!   oversized-message reader share;
//! - [`skim`]: the one trusted skip, where a value ends in text that needs
//!   no validating;
//! - [`lookup`]: reading members and values out of validated text.

pub(crate) mod escape;
pub(crate) mod grammar;
pub(crate) mod lookup;
pub(crate) mod number;
pub(crate) mod skim;
pub(crate) mod string;
pub(crate) mod text;

/// The JSON type of a value (a node, on the tape).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum NodeKind {
    Object,
    Array,
    String,
    Number,
    True,
    False,
    Null,
}

impl NodeKind {
    /// The kind of the value starting with `byte`, for input already known
    /// to be valid JSON.
    #[cfg_attr(not(any(feature = "serde_json", feature = "simd-json")), allow(dead_code))]
    pub(crate) fn of_first_byte(byte: u8) -> NodeKind {
        match byte {
            b'{' => NodeKind::Object,
            b'[' => NodeKind::Array,
            b'"' => NodeKind::String,
            b't' => NodeKind::True,
            b'f' => NodeKind::False,
            b'n' => NodeKind::Null,
            _ => NodeKind::Number,
        }
    }
}
