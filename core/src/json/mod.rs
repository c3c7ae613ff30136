//! JSON (RFC 8259) as the rules restrict it: lone surrogates refused,
//! numbers of any size, one depth limit. Bytes in, offsets or a
//! [`Fault`](crate::Fault) out; nothing here knows of messages.
//!
//! - [`string`] and [`number`]: the grammar of the two leaves with
//!   structure, and validated strings compared, decoded and hashed;
//! - [`scan`]: the crate's own validating scanner (the reference backend,
//!   and the authority on every fault);
//! - [`lookup`]: reading members and values out of validated text.

pub(crate) mod lookup;
pub(crate) mod number;
pub(crate) mod scan;
pub(crate) mod string;
