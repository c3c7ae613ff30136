//! serde for [`Id`] (feature `serde`) and [`RawJson`] (feature
//! `serde_json`), conversions between [`RawJson`] and serde_json's
//! `RawValue`, and [`RawJson::deserialize`] for typed params.
//!
//! Both borrow from the input where the deserializer allows it
//! (`serde_json::from_str`, `from_slice`), so reading a struct that holds
//! them copies nothing.

use alloc::borrow::Cow;
use alloc::string::ToString;
use core::fmt;

use serde::de::{self, Deserialize, Deserializer, Visitor};
use serde::ser::{Serialize, Serializer};

use crate::envelope::Id;
#[cfg(feature = "serde_json")]
use crate::envelope::{ErrorObject, RawJson};

impl Serialize for Id<'_> {
    /// A string, an integer, or `null`: the id as JSON-RPC writes it.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Id::Str(s) => serializer.serialize_str(s),
            Id::Int(n) => serializer.serialize_i64(*n),
            Id::Null => serializer.serialize_unit(),
        }
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Id<'a> {
    /// The parser's id rule: a string (borrowed when the deserializer lends
    /// it), an integer that fits in i64 (`1.0` and `1e2` included), or `null`.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(IdVisitor)
    }
}

struct IdVisitor;

/// 2^63 as a float: integral floats below it in magnitude fit in i64.
const I64_BOUND: f64 = 9_223_372_036_854_775_808.0;

impl<'de> Visitor<'de> for IdVisitor {
    type Value = Id<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string, an integer or null")
    }

    fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Id<'de>, E> {
        Ok(Id::Str(Cow::Borrowed(s)))
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<Id<'de>, E> {
        Ok(Id::Str(Cow::Owned(s.to_string())))
    }

    fn visit_i64<E: de::Error>(self, n: i64) -> Result<Id<'de>, E> {
        Ok(Id::Int(n))
    }

    fn visit_u64<E: de::Error>(self, n: u64) -> Result<Id<'de>, E> {
        i64::try_from(n).map(Id::Int).map_err(|_| E::invalid_value(de::Unexpected::Unsigned(n), &"an i64 id"))
    }

    fn visit_f64<E: de::Error>(self, n: f64) -> Result<Id<'de>, E> {
        // `1.0` and `1e2` are integers to JSON Schema, and to the parser.
        // In range, the cast is exact for integral values only (`fract`
        // needs std).
        if (-I64_BOUND..I64_BOUND).contains(&n) {
            #[allow(clippy::cast_possible_truncation, reason = "in range, checked above")]
            let whole = n as i64;
            #[allow(clippy::cast_precision_loss, reason = "compared with the float it came from")]
            if whole as f64 == n {
                return Ok(Id::Int(whole));
            }
        }
        Err(E::invalid_value(de::Unexpected::Float(n), &"an integer id"))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Id<'de>, E> {
        Ok(Id::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<Id<'de>, E> {
        Ok(Id::Null)
    }
}

#[cfg(feature = "serde_json")]
mod raw {
    use alloc::boxed::Box;
    use alloc::string::ToString;

    use serde::de::{self, Deserialize, Deserializer};
    use serde::ser::{self, Serialize, Serializer};
    use serde_json::value::RawValue;

    use super::{ErrorObject, RawJson};
    use crate::fault::{Fault, INVALID_PARAMS};

    impl Serialize for RawJson<'_> {
        /// The JSON text itself, not a string holding it (through serde_json's
        /// `RawValue`).
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            // serde_json offers no unchecked way to lend text as a RawValue,
            // so this re-reads it; it cannot fail on text the parser or
            // `check_json` accepted, under rules stricter than serde_json's.
            let raw: &RawValue = serde_json::from_str(self.get()).map_err(ser::Error::custom)?;
            raw.serialize(serializer)
        }
    }

    impl<'de: 'a, 'a> Deserialize<'de> for RawJson<'a> {
        /// Any JSON value, borrowed from the input (so with
        /// `serde_json::from_str` or `from_slice`, not `from_reader`), and
        /// checked under the parser's rules: a lone surrogate or nesting past
        /// the depth limit is refused here as the parser refuses it.
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            let raw = <&'de RawValue>::deserialize(deserializer)?;
            RawJson::try_from(raw).map_err(de::Error::custom)
        }
    }

    impl<'a> TryFrom<&'a RawValue> for RawJson<'a> {
        type Error = Fault;

        /// Checked under the parser's rules, which are stricter than serde_json's.
        fn try_from(raw: &'a RawValue) -> Result<Self, Fault> {
            RawJson::checked(raw.get())
        }
    }

    impl TryFrom<Box<RawValue>> for RawJson<'static> {
        type Error = Fault;

        fn try_from(raw: Box<RawValue>) -> Result<Self, Fault> {
            RawJson::checked(raw.get()).map(RawJson::into_owned)
        }
    }

    impl TryFrom<&RawJson<'_>> for Box<RawValue> {
        type Error = serde_json::Error;

        fn try_from(json: &RawJson<'_>) -> Result<Self, serde_json::Error> {
            RawValue::from_string(json.get().to_string())
        }
    }

    impl RawJson<'_> {
        /// The payload as a `T` (typed `params`, say), or the error to answer
        /// with: code -32602 ("Invalid params") and serde's message, as
        /// jsonrpsee's `Params::parse` answers.
        ///
        /// ```
        /// # use mcp_envelope::{Parser, Revision, Message};
        /// #[derive(serde::Deserialize)]
        /// struct Call<'a> { name: &'a str }
        ///
        /// let line = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_me"}}"#;
        /// let mut parser = Parser::new(Revision::V2026_07_28);
        /// let envelope = parser.parse(line).unwrap();
        /// let Some(Message::Request(call)) = envelope.single() else { panic!() };
        /// let params = call.params.as_ref().unwrap();
        /// assert_eq!(params.deserialize::<Call>().unwrap().name, "get_me");
        ///
        /// let wrong = params.deserialize::<Vec<u8>>().unwrap_err();
        /// assert_eq!(wrong.code, -32602);
        /// assert!(wrong.message.starts_with("invalid type: map"));
        /// ```
        ///
        /// # Errors
        /// The [`ErrorObject`] to send back when the payload is not a `T`.
        pub fn deserialize<'s, T: Deserialize<'s>>(&'s self) -> Result<T, ErrorObject<'static>> {
            serde_json::from_str(self.get()).map_err(|e| ErrorObject {
                code: INVALID_PARAMS,
                message: e.to_string().into(),
                data: None,
            })
        }
    }
}
