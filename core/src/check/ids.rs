//! The in-flight tracker against a model made of two lists.

use alloc::format;
use alloc::vec::Vec;

use crate::envelope::Id;
use crate::ids::{IdFault, InFlight};
use crate::revision::{IdReuse, Revision};

/// Each pair of input bytes is one step: the first says send or receive,
/// the second picks one of a few ids (integers, strings that look like
/// them, `null`). The tracker's answers and size match the model's under
/// the session rule, the in-flight rule and plain JSON-RPC.
pub fn ids(input: &[u8]) {
    for revision in [Revision::V2025_06_18, Revision::V2026_07_28, Revision::JsonRpc] {
        let mut tracker = InFlight::new(revision);
        let (mut in_flight, mut used): (Vec<Id<'static>>, Vec<Id<'static>>) = (Vec::new(), Vec::new());
        for step in input.chunks_exact(2) {
            let [op, pick] = [step.first().copied().unwrap_or(0), step.get(1).copied().unwrap_or(0)];
            let id = match pick % 9 {
                0..=3 => Id::Int(i64::from(pick % 4)),
                4..=7 => Id::from(format!("{}", pick % 4)),
                _ => Id::Null,
            };
            if op % 2 == 0 {
                let taken = match revision.id_reuse() {
                    IdReuse::Session => used.contains(&id),
                    IdReuse::InFlight => in_flight.contains(&id),
                };
                let expected = if taken && id != Id::Null { Err(IdFault::Reused(id.clone())) } else { Ok(()) };
                assert_eq!(tracker.sent(&id), expected, "sending {id} under {revision}");
                if expected.is_ok() && id != Id::Null {
                    in_flight.push(id.clone());
                    used.push(id);
                }
            } else {
                let at = in_flight.iter().position(|x| *x == id);
                let expected = if at.is_some() { Ok(()) } else { Err(IdFault::Unknown(id.clone())) };
                assert_eq!(tracker.received(&id), expected, "receiving {id} under {revision}");
                if let Some(at) = at {
                    in_flight.swap_remove(at);
                }
            }
            assert_eq!(tracker.len(), in_flight.len(), "size under {revision}");
            assert!(in_flight.iter().all(|id| tracker.is_in_flight(id)), "tracker lost an id under {revision}");
        }
    }
}
