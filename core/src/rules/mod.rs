//! The envelope rules, read off the tape a backend filled:
//! [`classify`] turns a message's members into a [`Message`](crate::Message)
//! or the first rule it breaks, [`names`] recognises the member names it
//! looks for, and [`repeats`] finds a member name given twice.

pub(crate) mod classify;
pub(crate) mod names;
pub(crate) mod repeats;
