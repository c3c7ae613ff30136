//! A message's verdict as the members of its JSON line: `kind`, `id`,
//! `method`, and for a fault its code, reason, severity, message, offset,
//! hint and the reply to send; a batch's items; each backend's verdict
//! when they differ.

use super::Checked;
use super::json::Object;
use crate::summary::{Invalid, Summary};

/// The members `checked` gives a line, after its context.
pub(super) fn write(o: &mut Object<'_>, checked: &Checked<'_>) {
    match checked {
        Checked::One(summary) => summary_members(o, summary),
        Checked::Disagreement(each) => {
            // The first backend's verdict, then each one's.
            if let Some((_, first)) = each.first() {
                summary_members(o, first);
            }
            o.bool("disagreement", true);
            let mut backends = o.object("backends");
            for (name, summary) in each.iter() {
                let mut one = backends.object_named(name);
                summary_members(&mut one, summary);
                one.close();
            }
            backends.close();
        }
    }
}

fn summary_members(o: &mut Object<'_>, summary: &Summary) {
    match summary {
        Summary::Valid { kind, id, method, .. } => {
            o.str("kind", kind.name());
            o.id("id", id.as_ref());
            o.str_or_null("method", method.as_deref());
        }
        Summary::Batch(items) => {
            o.str("kind", "batch");
            o.null("id");
            o.null("method");
            let mut array = o.array("items");
            for item in items {
                let mut one = array.object();
                summary_members(&mut one, item);
                one.close();
            }
            array.close();
        }
        Summary::Invalid(Invalid { reason, offset, id, reply }) => {
            o.str("kind", "invalid");
            o.id("id", id.as_ref());
            o.null("method");
            o.int("code", reason.code());
            o.str("reason", reason.name());
            // `violation` (a MUST broken) or `warning` (a rule the texts
            // leave open, or this reader's own limit).
            o.str("severity", reason.severity().name());
            o.str("message", reason.message());
            o.uint("offset", *offset as u64);
            o.some_str("hint", reason.hint());
            // The error response to send (written by the library), or
            // `null` when none is due.
            match reply {
                Some(reply) => o.raw("reply", reply),
                None => o.null("reply"),
            }
        }
    }
}
