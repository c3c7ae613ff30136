//! Repeated member names in large objects, in linear time.
//!
//! Names go into an open-addressing table by a 64-bit hash of their decoded
//! text; names compare as text only when their hashes are equal. The first
//! member whose name is already in the table is the first repeat in
//! document order, so the pass stops there. The hash is not keyed, so input
//! could be crafted to collide: the table counts its probes, and past a
//! budget linear in the number of names it gives way to sorting the hashes,
//! which stays O(n log n) however the names collide.

use alloc::vec::Vec;
use core::cmp::Ordering;

/// Probes allowed per name before the table gives way to sorting: a table
/// at most half full needs about 1.5 on average.
const PROBES_PER_NAME: usize = 4;

/// Scratch for finding repeats, kept by the parser so a warm parser does
/// not allocate.
#[derive(Debug, Default)]
pub(crate) struct NameTable {
    /// (hash of the decoded name, name node), in document order.
    keys: Vec<(u64, usize)>,
    /// 0 for an empty slot, else 1 + an index into `keys`.
    slots: Vec<u32>,
    /// Probes left before the table gives way to sorting.
    budget: usize,
}

impl NameTable {
    /// Empties the table for an object of at most `members` members.
    pub(crate) fn start(&mut self, members: usize) {
        let capacity = (members * 2).next_power_of_two().max(16);
        self.keys.clear();
        self.slots.clear();
        self.slots.resize(capacity, 0);
        self.budget = members * PROBES_PER_NAME + 16;
    }

    /// Adds the next name in document order: `true` if an earlier name is
    /// the same (`same` compares an earlier name node with this one).
    pub(crate) fn insert(
        &mut self,
        hash: u64,
        node: usize,
        same: impl Fn(usize) -> bool,
    ) -> Result<bool, TooManyCollisions> {
        let mask = self.slots.len().wrapping_sub(1);
        let index = u32::try_from(self.keys.len() + 1).map_err(|_| TooManyCollisions)?;
        // Fold the high half in, so every bit of the hash picks the slot.
        let mut at = ((hash ^ (hash >> 32)) as usize) & mask;
        loop {
            let slot = self.slots.get_mut(at).ok_or(TooManyCollisions)?;
            if *slot == 0 {
                *slot = index;
                self.keys.push((hash, node));
                return Ok(false);
            }
            let earlier = (*slot as usize).checked_sub(1).and_then(|k| self.keys.get(k));
            if let Some(&(earlier_hash, earlier_node)) = earlier
                && earlier_hash == hash
                && same(earlier_node)
            {
                return Ok(true);
            }
            self.budget = self.budget.checked_sub(1).ok_or(TooManyCollisions)?;
            at = (at + 1) & mask;
        }
    }

    /// The fallback once the table has met too many collisions: the name
    /// node of the first member whose name an earlier member has, by
    /// sorting (hash, name node) pairs given in document order. Only names
    /// whose hashes are equal are compared as text (`order`), and sorted
    /// among themselves.
    pub(crate) fn first_repeat_sorted(
        &mut self,
        names: impl Iterator<Item = (u64, usize)>,
        order: impl Fn(usize, usize) -> Ordering,
    ) -> Option<usize> {
        self.keys.clear();
        self.keys.extend(names);
        self.keys.sort_unstable();
        let mut found: Option<usize> = None;
        for run in self.keys.chunk_by_mut(|a, b| a.0 == b.0).filter(|run| run.len() > 1) {
            // Equal names sort by position, so each group's second entry is
            // the first repeat of that name.
            run.sort_unstable_by(|a, b| order(a.1, b.1).then(a.1.cmp(&b.1)));
            let repeats = run.windows(2).filter(|pair| matches!(pair, [a, b] if order(a.1, b.1).is_eq()));
            if let Some(first) = repeats.filter_map(|pair| pair.get(1).map(|b| b.1)).min() {
                found = Some(found.map_or(first, |f| f.min(first)));
            }
        }
        found
    }
}

/// The table met more collisions than its budget allows.
#[derive(Debug)]
pub(crate) struct TooManyCollisions;

#[cfg(test)]
mod tests {
    use alloc::format;
    use alloc::string::String;

    use super::*;

    /// Names as plain strings; `hash` decides how they collide. The table
    /// first, then the sort if the table gives up, as the classifier does.
    fn first_repeat_of(names: &[&str], hash: impl Fn(&str) -> u64) -> (Option<usize>, bool) {
        let mut table = NameTable::default();
        table.start(names.len());
        for (i, name) in names.iter().enumerate() {
            match table.insert(hash(name), i, |earlier| names[earlier] == *name) {
                Ok(true) => return (Some(i), false),
                Ok(false) => {}
                Err(TooManyCollisions) => {
                    let sorted = table
                        .first_repeat_sorted(names.iter().enumerate().map(|(i, n)| (hash(n), i)), |a, b| {
                            names[a].cmp(names[b])
                        });
                    return (sorted, true);
                }
            }
        }
        (None, false)
    }

    fn fnv(s: &str) -> u64 {
        s.bytes().fold(0xCBF2_9CE4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01B3))
    }

    #[test]
    fn the_first_repeat_in_document_order_is_found() {
        let names = ["a", "b", "c", "b", "a", "c"];
        assert_eq!(first_repeat_of(&names, fnv), (Some(3), false));
        assert_eq!(first_repeat_of(&["a", "b", "c"], fnv), (None, false));
    }

    #[test]
    fn colliding_hashes_compare_the_names() {
        // Every name hashes alike: past the probe budget the sort decides,
        // and still finds the first repeat in document order.
        let names: Vec<String> = (0..200).map(|i| format!("k{i}")).chain(["k150".into(), "k7".into()]).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        assert_eq!(first_repeat_of(&names, |_| 42), (Some(200), true));
        assert_eq!(first_repeat_of(&names, fnv), (Some(200), false));
        assert_eq!(first_repeat_of(&names[..200], |_| 42), (None, true));
        // Heavy collisions: whichever decides, the answer is the same.
        assert_eq!(first_repeat_of(&names, |n| fnv(n) % 64).0, Some(200));
    }
}
