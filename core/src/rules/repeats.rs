//! The search for a repeated member name, whole: small objects compare
//! each name with the earlier ones ([`Pairwise`]); large ones use a table,
//! in linear time ([`NameTable`]). The classifier feeds either, name by
//! name in document order, from its one pass over an object's members
//! (where it also sees a wanted name given twice).
//!
//! Large objects:
//!
//! Names go into an open-addressing table by a 64-bit hash of their decoded
//! text; names compare as text only when their hashes are equal. The first
//! member whose name is already in the table is the first repeat in
//! document order, so the pass stops there.
//!
//! An object too large for its table to stay in the cache (where every
//! probe would wait for memory) has its names gathered first, split by the
//! top bits of their hashes into partitions of a few thousand, and each
//! partition checked with a small table; the earliest repeat found in any
//! partition is the first.
//!
//! The hash is not keyed, so input could be crafted to collide: the table
//! counts its probes, and past a budget linear in the number of names it
//! gives way to sorting the hashes, which stays O(n log n) however the
//! names collide.

use alloc::vec::Vec;
use core::cmp::Ordering;

use crate::span;

/// Objects with at most this many members compare names pairwise.
pub(crate) const PAIRWISE_MEMBERS: usize = 8;

/// Whether an object of `members` members is searched with the table.
#[inline(always)]
pub(crate) fn needs_table(members: usize) -> bool {
    members > PAIRWISE_MEMBERS
}

/// The search in a small object: each name compared with the earlier ones
/// (those the caller did not recognise as a wanted member).
#[derive(Debug, Default)]
pub(crate) struct Pairwise {
    earlier: [usize; PAIRWISE_MEMBERS],
    len: usize,
}

impl Pairwise {
    /// The next name node in document order: whether an earlier one is the
    /// same (`same` compares an earlier name node with this one).
    #[inline(always)]
    pub(crate) fn see(&mut self, node: usize, same: impl Fn(usize) -> bool) -> bool {
        let earlier = span::within(&self.earlier, 0..self.len);
        let seen = earlier.iter().any(|&other| same(other));
        if let Some(free) = self.earlier.get_mut(self.len) {
            *free = node;
            self.len += 1;
        }
        seen
    }
}

/// Probes allowed per name before the table gives way to sorting: a table
/// at most half full needs about 1.5 on average.
const PROBES_PER_NAME: usize = 4;

/// Objects with more members than this are checked in partitions: their
/// one table (two to four 4-byte slots a name, and a 16-byte entry) would
/// take 768 KB and more, past a core's own cache; below this many they
/// cost more than they save (docs/benchmarks.md, "Why the code is as it
/// is", `PARTITIONED_FROM`).
const PARTITIONED_FROM: usize = 1 << 15;

/// About how many names a partition holds: its table and entries, some
/// 100 KB, stay in the cache.
const NAMES_PER_PARTITION: usize = 1 << 12;

/// Scratch for finding repeats, kept by the parser so a warm parser does
/// not allocate.
#[derive(Debug, Default)]
pub(crate) struct NameTable {
    /// (hash of the decoded name, name node), in document order.
    keys: Vec<(u64, usize)>,
    /// 0 for an empty slot, else 1 + an index into `keys` (or into the
    /// partition being checked).
    slots: Vec<u32>,
    /// Probes left before the table gives way to sorting.
    budget: usize,
    /// Names are only gathered; `finish` checks them.
    partitioned: bool,
    /// The probes ran past the budget: the names will be sorted.
    collided: bool,
    /// The gathered names, partition after partition, each in document
    /// order.
    partitions: Vec<(u64, usize)>,
    /// Where each partition starts in `partitions`.
    starts: Vec<usize>,
}

impl NameTable {
    /// Empties the table for an object of at most `members` members.
    pub(crate) fn start(&mut self, members: usize) {
        self.keys.clear();
        self.collided = false;
        self.budget = members * PROBES_PER_NAME + 16;
        self.partitioned = members > PARTITIONED_FROM;
        if !self.partitioned {
            self.clear_slots(members);
        }
    }

    /// The next name of the object, in document order: `Some(node)` when
    /// it repeats an earlier name (`same` compares an earlier name node
    /// with this one), and the caller stops there. When every name gave
    /// `None`, [`NameTable::first_repeat`] has the answer.
    #[inline]
    pub(crate) fn see(&mut self, hash: u64, node: usize, same: impl Fn(usize) -> bool) -> Option<usize> {
        if self.collided {
            return None;
        }
        if self.partitioned {
            self.gather(hash, node);
            return None;
        }
        match self.insert(hash, node, same) {
            Ok(true) => Some(node),
            Ok(false) => None,
            Err(TooManyCollisions) => {
                self.collided = true;
                None
            }
        }
    }

    /// After the last name, none of which [`NameTable::see`] found
    /// repeated: the first repeat among gathered names (`same` compares two
    /// name nodes), or, when the table gave way, by sorting `names` (every
    /// name's hash and node again, in document order; `cmp` orders two
    /// name nodes by their text).
    pub(crate) fn first_repeat(
        &mut self,
        same: impl Fn(usize, usize) -> bool,
        names: impl Iterator<Item = (u64, usize)>,
        cmp: impl Fn(usize, usize) -> Ordering,
    ) -> Option<usize> {
        if !self.collided {
            match self.finish(same) {
                Ok(first) => return first,
                Err(TooManyCollisions) => self.collided = true,
            }
        }
        self.first_repeat_sorted(names, cmp)
    }

    /// An empty table for `names` names: at most half full.
    fn clear_slots(&mut self, names: usize) {
        self.slots.clear();
        self.slots.resize((names * 2).next_power_of_two().max(16), 0);
    }

    /// Adds the next name in document order: `true` if an earlier name is
    /// the same (`same` compares an earlier name node with this one).
    fn insert(&mut self, hash: u64, node: usize, same: impl Fn(usize) -> bool) -> Result<bool, TooManyCollisions> {
        let index = u32::try_from(self.keys.len() + 1).map_err(|_| TooManyCollisions)?;
        let seen = probe(&mut self.slots, &self.keys, &mut self.budget, hash, index, same)?;
        if !seen {
            self.keys.push((hash, node));
        }
        Ok(seen)
    }

    /// A name of an object checked in partitions, in document order.
    fn gather(&mut self, hash: u64, node: usize) {
        self.keys.push((hash, node));
    }

    /// After the last `insert`: the name node of the first repeat among
    /// gathered names (`same` compares two name nodes), or `None` when the
    /// names went into one table (whose `insert` said so already).
    fn finish(&mut self, same: impl Fn(usize, usize) -> bool) -> Result<Option<usize>, TooManyCollisions> {
        if !self.partitioned {
            return Ok(None);
        }
        self.partition();
        let mut first: Option<usize> = None;
        for k in 0..self.starts.len().saturating_sub(1) {
            let (Some(&start), Some(&end)) = (self.starts.get(k), self.starts.get(k + 1)) else { break };
            self.clear_slots(end - start);
            let Some(part) = self.partitions.get(start..end) else { break };
            for (i, &(hash, node)) in part.iter().enumerate() {
                // Names are in document order within a partition: past the
                // earliest repeat found so far, none can come earlier.
                if first.is_some_and(|f| node > f) {
                    break;
                }
                let index = u32::try_from(i + 1).map_err(|_| TooManyCollisions)?;
                if probe(&mut self.slots, part, &mut self.budget, hash, index, |earlier| same(earlier, node))? {
                    first = Some(node);
                    break;
                }
            }
        }
        Ok(first)
    }

    /// Splits the gathered names into partitions by the top bits of their
    /// hashes, keeping document order within each (a counting sort).
    fn partition(&mut self) {
        let partitions = (self.keys.len() / NAMES_PER_PARTITION).next_power_of_two();
        let shift = 64 - partitions.trailing_zeros();
        let of = |hash: u64| hash.checked_shr(shift).map_or(0, |p| p as usize);
        self.starts.clear();
        self.starts.resize(partitions + 1, 0);
        for &(hash, _) in &self.keys {
            if let Some(count) = self.starts.get_mut(of(hash) + 1) {
                *count += 1;
            }
        }
        for k in 1..self.starts.len() {
            let before = self.starts.get(k - 1).copied().unwrap_or(0);
            if let Some(start) = self.starts.get_mut(k) {
                *start += before;
            }
        }
        self.partitions.clear();
        self.partitions.resize(self.keys.len(), (0, 0));
        // `starts[p]` is where partition p's next name goes; afterwards it
        // is where partition p + 1 starts, so the slice moves up by one.
        for &key in &self.keys {
            let Some(next) = self.starts.get_mut(of(key.0)) else { continue };
            if let Some(place) = self.partitions.get_mut(*next) {
                *place = key;
            }
            *next += 1;
        }
        self.starts.rotate_right(1);
        if let Some(first) = self.starts.first_mut() {
            *first = 0;
        }
    }

    /// The fallback once the table has met too many collisions: the name
    /// node of the first member whose name an earlier member has, by
    /// sorting (hash, name node) pairs given in document order. Only names
    /// whose hashes are equal are compared as text (`order`), and sorted
    /// among themselves.
    fn first_repeat_sorted(
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

/// Looks a name up in `slots`, an open-addressing table over `entries`
/// (slot value k + 1 for entry k): `true` if an entry with the same hash is
/// the same name (`same` on its node); otherwise the name takes the free
/// slot it reached, as `index`, and the caller records its entry there.
/// Each probe past the first spends one of `budget`.
#[inline(always)]
fn probe(
    slots: &mut [u32],
    entries: &[(u64, usize)],
    budget: &mut usize,
    hash: u64,
    index: u32,
    same: impl Fn(usize) -> bool,
) -> Result<bool, TooManyCollisions> {
    let mask = slots.len().wrapping_sub(1);
    // Fold the high half in, so every bit of the hash picks the slot.
    let mut at = ((hash ^ (hash >> 32)) as usize) & mask;
    loop {
        let slot = slots.get_mut(at).ok_or(TooManyCollisions)?;
        if *slot == 0 {
            *slot = index;
            return Ok(false);
        }
        let earlier = (*slot as usize).checked_sub(1).and_then(|k| entries.get(k));
        if let Some(&(earlier_hash, earlier_node)) = earlier
            && earlier_hash == hash
            && same(earlier_node)
        {
            return Ok(true);
        }
        *budget = budget.checked_sub(1).ok_or(TooManyCollisions)?;
        at = (at + 1) & mask;
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

    /// Names as plain strings; `hash` decides how they collide. The
    /// search the classifier runs, and whether it ended in sorting.
    fn first_repeat_of(names: &[&str], hash: impl Fn(&str) -> u64) -> (Option<usize>, bool) {
        let mut table = NameTable::default();
        table.start(names.len());
        for (i, name) in names.iter().enumerate() {
            if let Some(repeat) = table.see(hash(name), i, |earlier| names[earlier] == *name) {
                return (Some(repeat), table.collided);
            }
        }
        let first = table.first_repeat(
            |a, b| names[a] == names[b],
            names.iter().enumerate().map(|(i, n)| (hash(n), i)),
            |a, b| names[a].cmp(names[b]),
        );
        (first, table.collided)
    }

    #[test]
    fn small_objects_compare_each_name_with_the_earlier_ones() {
        let names = ["a", "b", "c", "b"];
        let mut pairwise = Pairwise::default();
        let seen: Vec<bool> = names.iter().enumerate().map(|(i, n)| pairwise.see(i, |e| names[e] == *n)).collect();
        assert_eq!(seen, [false, false, false, true]);
        // Only the first PAIRWISE_MEMBERS names are kept (the classifier
        // uses the table for larger objects): a repeat of a kept name is
        // seen, a repeat of one past them is not.
        let mut many: Vec<String> = (0..=PAIRWISE_MEMBERS).map(|i| format!("n{i}")).collect();
        many.push(format!("n{PAIRWISE_MEMBERS}"));
        many.push(String::from("n0"));
        let mut pairwise = Pairwise::default();
        let seen: Vec<bool> = many.iter().enumerate().map(|(i, n)| pairwise.see(i, |e| many[e] == *n)).collect();
        assert_eq!(seen.iter().rposition(|&s| s), Some(PAIRWISE_MEMBERS + 2), "{seen:?}");
        assert_eq!(seen.iter().filter(|&&s| s).count(), 1, "{seen:?}");
        assert!(needs_table(PAIRWISE_MEMBERS + 1) && !needs_table(PAIRWISE_MEMBERS));
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

    /// `n` distinct names, then `repeats` (each an earlier name).
    fn many_names(n: usize, repeats: &[usize]) -> Vec<String> {
        (0..n).map(|i| format!("key{i}")).chain(repeats.iter().map(|i| format!("key{i}"))).collect()
    }

    #[test]
    fn a_large_object_finds_its_first_repeat_in_partitions() {
        let n = PARTITIONED_FROM * 3;
        // Hashes that order the partitions differently, so that the first
        // repeat's partition is checked before and after the others'.
        let hashes: [fn(&str) -> u64; 3] = [fnv, |s| fnv(s).rotate_left(17), |s| !fnv(s)];
        for repeats in [[n - 1, 5, 77_000, 5], [5, n - 1, 5, 300], [77_000, 300, 5, n - 1]] {
            let names = many_names(n, &repeats);
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            for hash in hashes {
                assert_eq!(first_repeat_of(&names, hash), (Some(n), false), "repeats {repeats:?}");
                assert_eq!(first_repeat_of(&names[..n], hash), (None, false));
            }
        }
    }

    #[test]
    fn within_a_partition_the_earliest_repeat_is_found() {
        // Top bits all zero: one partition holds every name.
        let names = many_names(PARTITIONED_FROM * 2, &[]);
        let mut names: Vec<&str> = names.iter().map(String::as_str).collect();
        let n = names.len();
        names[n - 10] = "key3";
        names[n - 20] = "key4";
        assert_eq!(first_repeat_of(&names, |s| fnv(s) & (u64::MAX >> 16)), (Some(n - 20), false));
        assert_eq!(first_repeat_of(&names, fnv), (Some(n - 20), false));
    }

    #[test]
    fn objects_over_32_768_members_are_checked_in_partitions() {
        let mut table = NameTable::default();
        for (members, partitioned) in [(10, false), (PARTITIONED_FROM, false), (PARTITIONED_FROM + 1, true)] {
            table.start(members);
            assert_eq!(table.partitioned, partitioned, "{members}");
        }
    }

    #[test]
    fn the_probe_budget_is_four_probes_a_name_and_sixteen() {
        // The first `colliding` of 1000 names share one hash: inserting the
        // k-th of them probes past k - 1 others, so `colliding` of them take
        // colliding * (colliding - 1) / 2 probes, against 4016 allowed.
        let names = many_names(1000, &[]);
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let hash = |colliding: usize| move |s: &str| if names_index(s) < colliding { 7 } else { fnv(s) };
        // 60 of them: 1770 probes (and some more where other names land in
        // their run of slots) stay within the budget, which 1000 probes and
        // a few would not be; 100: 4950 exceed it, but not 16 times it.
        assert_eq!(first_repeat_of(&names, hash(60)), (None, false));
        assert_eq!(first_repeat_of(&names, hash(100)), (None, true));
    }

    /// The number in a name of [`many_names`].
    fn names_index(name: &str) -> usize {
        name.trim_start_matches("key").parse().unwrap_or(usize::MAX)
    }

    #[test]
    fn a_repeat_in_the_last_partition_is_found() {
        // The repeated name's hash has every top bit set: the last of the
        // partitions holds it.
        let n = PARTITIONED_FROM * 3;
        let names = many_names(n, &[5]);
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let hash = |s: &str| if s == "key5" { u64::MAX } else { fnv(s) };
        assert_eq!(first_repeat_of(&names, hash), (Some(n), false));
        let first = |s: &str| if s == "key5" { 0 } else { fnv(s) };
        assert_eq!(first_repeat_of(&names, first), (Some(n), false));
    }

    #[test]
    fn a_large_object_of_colliding_names_gives_way_to_sorting() {
        let names = many_names(PARTITIONED_FROM * 2, &[9]);
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        assert_eq!(first_repeat_of(&names, |_| 1 << 63), (Some(PARTITIONED_FROM * 2), true));
    }
}
