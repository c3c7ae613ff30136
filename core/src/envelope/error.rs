//! An invalid message as the parser gives it: its [`Fault`], the id when
//! one could be read, and whether (and how) to answer it.

use core::fmt;

use super::Id;
use crate::fault::{Fault, Reason};

/// Whether and how the receiver of an invalid message answers it.
///
/// JSON-RPC 2.0 answers an invalid request with an error response carrying
/// the request's id, or `null` when the id could not be read (section 5,
/// parse errors included). A response is never answered: a message shaped
/// like one (`result` or `error`, and no `method`) gets no reply, even when
/// it is broken, since answering responses is how two peers end up in a
/// reply storm. See RULES.md, section 6.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reply<'e, 'a> {
    /// An error response with the id recovered from the message.
    WithId(&'e Id<'a>),
    /// An error response with `"id": null`.
    WithNullId,
    /// No answer at all: the message was response-shaped.
    NotAnswered,
}

/// An invalid message: what to answer with, and where the fault is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error<'a> {
    fault: Fault,
    id: Option<Id<'a>>,
    /// The message had `result` or `error` and no `method`.
    response: bool,
}

impl<'a> Error<'a> {
    #[cold]
    pub(crate) fn new(fault: Fault, id: Option<Id<'a>>) -> Error<'a> {
        Error { fault, id, response: false }
    }

    /// The same error, for a message shaped like a response (`result` or
    /// `error`, no `method`) when `response` is true: it gets no answer.
    #[cold]
    pub(crate) fn of_response(mut self, response: bool) -> Error<'a> {
        self.response = response;
        self
    }

    /// The error for a fault found outside the parser, such as a line
    /// longer than the size limit (`Fault { reason: Reason::TooLarge,
    /// offset: max_size }`) or one that could not be read: no id, so
    /// [`write::error_for`](crate::write::error_for) answers it with `null`.
    #[must_use]
    pub fn from_fault(fault: Fault) -> Error<'static> {
        Error::new(fault, None)
    }

    /// The error for a message refused for its size, unread: what the
    /// parser gives for input over `max_size` bytes, and what
    /// [`Line::error`](crate::transport::lines::Line::error) gives for an oversized
    /// line (the offset is the limit, the first byte past what may be read).
    #[must_use]
    pub fn too_large(max_size: usize) -> Error<'static> {
        Error::from_fault(Fault::new(Reason::TooLarge, max_size))
    }

    /// Whether and how to answer: see [`Reply`].
    /// [`write::error_for`](crate::write::error_for) writes exactly this.
    #[must_use]
    pub fn reply(&self) -> Reply<'_, 'a> {
        match (&self.id, self.response) {
            (_, true) => Reply::NotAnswered,
            (Some(id), false) => Reply::WithId(id),
            (None, false) => Reply::WithNullId,
        }
    }

    /// Why.
    #[must_use]
    pub fn reason(&self) -> Reason {
        self.fault.reason
    }

    /// The JSON-RPC error code to answer with (-32700 or -32600; -32020
    /// for a header fault).
    #[must_use]
    pub fn code(&self) -> i64 {
        self.fault.reason.code()
    }

    /// Byte offset of the fault within the message.
    #[must_use]
    pub fn offset(&self) -> usize {
        self.fault.offset
    }

    /// Reason and offset.
    #[must_use]
    pub fn fault(&self) -> Fault {
        self.fault
    }

    /// The message's `id`, when it could be read: JSON-RPC 2.0 asks a server
    /// to answer an invalid request with its id, or `null` when there is none.
    /// Parse errors (-32700) never carry one.
    #[must_use]
    pub fn id(&self) -> Option<&Id<'a>> {
        self.id.as_ref()
    }

    /// One line for people, e.g. `member name is repeated`.
    #[must_use]
    pub fn message(&self) -> &'static str {
        self.fault.reason.message()
    }

    /// What probably happened, where that helps.
    #[must_use]
    pub fn hint(&self) -> Option<&'static str> {
        self.fault.reason.hint()
    }

    /// The same error, owning its id.
    #[must_use]
    pub fn into_owned(self) -> Error<'static> {
        Error { fault: self.fault, id: self.id.map(Id::into_owned), response: self.response }
    }
}

impl fmt::Display for Error<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at byte {}", self.message(), self.offset())?;
        if let Some(hint) = self.hint() {
            write!(f, " ({hint})")?;
        }
        Ok(())
    }
}

impl core::error::Error for Error<'_> {}
