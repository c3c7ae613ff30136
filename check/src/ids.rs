//! The in-flight tracker against a model made of two lists.

use std::vec::Vec;

use mcp_envelope::Id;
use mcp_envelope::transport::ids::{IdFault, InFlight};
use mcp_envelope::{IdReuse, Revision};

/// Steps read from one input. The model has nine ids, so every state the
/// tracker can reach is a few dozen steps away; longer inputs (libFuzzer
/// grows them to its `-max_len`) would only repeat states, at a cost
/// linear in their length.
const MAX_ID_STEPS: usize = 512;

/// The string ids: they look like the integer ids, and must not match them.
const DIGITS: [&str; 4] = ["0", "1", "2", "3"];

/// The first byte picks the revision (so the fuzzer meets both id rules
/// and plain JSON-RPC, one per input); each following pair of bytes is one
/// step: the first says send or receive, the second picks one of a few ids
/// (integers, strings that look like them, `null`). The tracker's answers
/// and size match the model's.
pub fn ids(input: &[u8]) {
    let Some((&pick_revision, steps)) = input.split_first() else { return };
    let revisions = Revision::ALL;
    let revision = revisions.get(usize::from(pick_revision) % revisions.len()).copied().unwrap_or_default();
    let steps = steps.get(..2 * MAX_ID_STEPS).unwrap_or(steps);
    let mut tracker = InFlight::new(revision);
    let (mut in_flight, mut used): (Vec<Id<'static>>, Vec<Id<'static>>) = (Vec::new(), Vec::new());
    for step in steps.chunks_exact(2) {
        let [op, pick] = [step.first().copied().unwrap_or(0), step.get(1).copied().unwrap_or(0)];
        let id = match pick % 9 {
            0..=3 => Id::Int(i64::from(pick % 4)),
            4..=7 => Id::from(DIGITS.get(usize::from(pick % 4)).copied().unwrap_or_default()),
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
                // Each id once: the model stays as small as the id space.
                if !used.contains(&id) {
                    used.push(id);
                }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_byte_reaches_both_id_rules() {
        let session = (0..=u8::MAX)
            .filter_map(|b| Revision::ALL.get(usize::from(b) % Revision::ALL.len()))
            .filter(|r| r.id_reuse() == IdReuse::Session)
            .count();
        assert!(session > 0 && session < 256, "{session} of 256 first bytes pick the session rule");
    }
}
