//! The shallow tape: what a backend hands the classifier.
//!
//! A flat list of nodes, in document order, each with its byte span in the
//! message. Only the containers the envelope rules look inside are expanded
//! (the top level, the members of the envelope, and in a batch the members
//! of each item's members); everything deeper is one leaf node whose span is
//! the raw payload. Every tokeniser builds it through [`Tape`]'s methods
//! and asks it which containers expand ([`Tape::expands`]), so two backends
//! that read the same bytes build the same tape.

use alloc::vec::Vec;

pub(crate) use crate::json::NodeKind;

/// One value (or member name) on the tape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Node {
    pub kind: NodeKind,
    /// Offset of the first byte (`{`, `[`, `"`, or the first character).
    pub start: usize,
    /// Offset one past the last byte.
    pub end: usize,
    /// Index of the node after this one's subtree: `index + 1` for leaves
    /// and unexpanded containers.
    pub next: usize,
    /// Whether the node's children follow it on the tape.
    pub expanded: bool,
}

impl Node {
    /// For a string node, where its text lies: between the quotes.
    #[inline]
    pub(crate) fn inside_quotes(self) -> core::ops::Range<usize> {
        self.start + 1..self.end.saturating_sub(1)
    }
}

/// Whether a container at nesting `level` (the top value is level 1) gets
/// its children on the tape. Level 3 is needed only inside a batch, for the
/// `error` and `result` members of each item. Backends ask through
/// [`Tape::expands`] (or [`Tape::expands_in`]): this is the one place that
/// decides.
#[inline(always)]
fn expands(level: usize, batch: bool) -> bool {
    level <= 2 || (level == 3 && batch)
}

/// A node as stored: offsets in 32 bits (messages are at most
/// [`Limits::MAX_SIZE_CEILING`](crate::Limits::MAX_SIZE_CEILING) bytes), so a
/// node takes 16 bytes and the tape stays small in cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Packed {
    kind: NodeKind,
    expanded: bool,
    start: u32,
    end: u32,
    next: u32,
}

impl Packed {
    #[inline]
    fn unpack(self) -> Node {
        Node {
            kind: self.kind,
            start: self.start as usize,
            end: self.end as usize,
            next: self.next as usize,
            expanded: self.expanded,
        }
    }
}

/// Offsets and indices fit in 32 bits: the parser refuses messages over
/// `u32::MAX` bytes before any tokeniser runs, and a tape has fewer nodes
/// than its message has bytes. (Only `check_json` on a larger string could
/// wrap, and it reads no spans from the tape.)
#[inline]
fn narrow(n: usize) -> u32 {
    debug_assert!(u32::try_from(n).is_ok(), "a tape offset or index past u32: {n}");
    n as u32
}

/// The tape and the methods every tokeniser builds it with.
///
/// It also enforces the batch length limit, so that every tokeniser stops
/// alike: once a top-level array has `max_items` items, nothing more goes on
/// the tape (the tokeniser still validates the rest of the text), and
/// [`Tape::overflow`] gives the offset of the first item past the limit.
/// A batch of any length thus costs at most `max_items` items of tape.
#[derive(Debug)]
pub struct Tape {
    nodes: Vec<Packed>,
    /// The root is an array: its items are counted, and `depth` kept.
    batch: bool,
    /// In a batch, nodes opened and not yet closed (1 inside the root).
    depth: usize,
    items: usize,
    max_items: usize,
    overflow: Option<usize>,
}

impl Default for Tape {
    fn default() -> Self {
        Tape { nodes: Vec::new(), batch: false, depth: 0, items: 0, max_items: usize::MAX, overflow: None }
    }
}

/// What [`Tape::open`] returns for a node it left off (past the batch limit).
const LEFT_OFF: usize = usize::MAX;

impl Tape {
    /// Empties the tape; the item limit stays.
    pub(crate) fn clear(&mut self) {
        self.nodes.clear();
        self.batch = false;
        self.depth = 0;
        self.items = 0;
        self.overflow = None;
    }

    #[cfg(test)]
    pub(crate) fn nodes(&self) -> alloc::vec::Vec<Node> {
        self.nodes.iter().map(|n| n.unpack()).collect()
    }

    /// The most items a top-level array may put on the tape.
    pub(crate) fn limit_items(&mut self, max_items: usize) {
        self.max_items = max_items;
    }

    /// Where the first item past the limit starts, if a top-level array had
    /// more than the limit.
    pub(crate) fn overflow(&self) -> Option<usize> {
        self.overflow
    }

    /// Whether a container opening at nesting `level` gets its children
    /// on the tape. Whether the message is a batch is the tape's to know:
    /// its root, opened first, says so.
    #[cfg_attr(not(any(feature = "serde_json", feature = "simd-json")), allow(dead_code))]
    #[inline(always)]
    pub(crate) fn expands(&self, level: usize) -> bool {
        expands(level, self.batch)
    }

    /// [`Tape::expands`] for a tokeniser that knows whether it reads a
    /// batch (`BATCH`, as for [`Tape::open_in`]).
    #[inline(always)]
    pub(crate) fn expands_in<const BATCH: bool>(level: usize) -> bool {
        expands(level, BATCH)
    }

    /// In a batch, whether a node starting at `start` goes on the tape.
    /// Kept off the path of single messages, which never get here.
    #[inline(never)]
    fn admit(&mut self, start: usize) -> bool {
        if self.overflow.is_some() {
            return false;
        }
        if self.depth == 1 {
            self.items += 1;
            if self.items > self.max_items {
                self.overflow = Some(start);
                return false;
            }
        }
        true
    }

    /// A complete value (or member name) that gets no children.
    #[cfg_attr(not(any(feature = "serde_json", feature = "simd-json")), allow(dead_code))]
    #[inline(always)]
    pub(crate) fn leaf(&mut self, kind: NodeKind, start: usize, end: usize) {
        if self.batch && !self.admit(start) {
            return;
        }
        self.push_leaf(kind, start, end);
    }

    /// A container whose end is not known yet; returns its index for
    /// [`Tape::close`].
    #[cfg_attr(not(any(feature = "serde_json", feature = "simd-json")), allow(dead_code))]
    #[inline(always)]
    pub(crate) fn open(&mut self, kind: NodeKind, start: usize, expanded: bool) -> usize {
        if self.batch {
            if !self.admit_open(start) {
                return LEFT_OFF;
            }
        } else if kind == NodeKind::Array && self.nodes.is_empty() {
            self.start_batch();
        }
        self.push_open(kind, start, expanded)
    }

    /// Ends the container opened at `index`: its subtree is everything
    /// pushed since.
    #[cfg_attr(not(any(feature = "serde_json", feature = "simd-json")), allow(dead_code))]
    #[inline(always)]
    pub(crate) fn close(&mut self, index: usize, end: usize) {
        if self.batch {
            self.depth = self.depth.saturating_sub(1);
        }
        self.finish(index, end);
    }

    // The same three for a tokeniser that knows whether the root is an
    // array (`BATCH`), so that the loop for a single message carries no
    // batch code. (`leaf`, `open` and `close` do not call these: the serde
    // backend then inlines differently, and measured slower.)

    /// [`Tape::leaf`], knowing whether the root is an array.
    #[inline(always)]
    pub(crate) fn leaf_in<const BATCH: bool>(&mut self, kind: NodeKind, start: usize, end: usize) {
        // Inside an item before any overflow (most nodes of a batch), there
        // is nothing to count: decided here, without the call.
        if BATCH && (self.depth == 1 || self.overflow.is_some()) && !self.admit(start) {
            return;
        }
        self.push_leaf(kind, start, end);
    }

    /// [`Tape::open`], knowing whether the root is an array: with `BATCH`,
    /// the first node opened is the batch.
    #[inline(always)]
    pub(crate) fn open_in<const BATCH: bool>(&mut self, kind: NodeKind, start: usize, expanded: bool) -> usize {
        if BATCH {
            if !self.batch {
                self.start_batch();
            } else if !self.admit_open(start) {
                return LEFT_OFF;
            }
        }
        self.push_open(kind, start, expanded)
    }

    /// [`Tape::close`], knowing whether the root is an array.
    #[inline(always)]
    pub(crate) fn close_in<const BATCH: bool>(&mut self, index: usize, end: usize) {
        if BATCH {
            self.depth = self.depth.saturating_sub(1);
        }
        self.finish(index, end);
    }

    #[inline(always)]
    fn start_batch(&mut self) {
        self.batch = true;
        self.depth = 1;
    }

    /// In a batch, whether a container opening at `start` goes on the tape;
    /// either way it is one level deeper.
    #[inline(always)]
    fn admit_open(&mut self, start: usize) -> bool {
        let admitted = self.admit(start);
        self.depth += 1;
        admitted
    }

    #[inline(always)]
    fn push_leaf(&mut self, kind: NodeKind, start: usize, end: usize) {
        let next = self.nodes.len() + 1;
        self.nodes.push(Packed { kind, expanded: false, start: narrow(start), end: narrow(end), next: narrow(next) });
    }

    #[inline(always)]
    fn push_open(&mut self, kind: NodeKind, start: usize, expanded: bool) -> usize {
        let index = self.nodes.len();
        self.nodes.push(Packed { kind, expanded, start: narrow(start), end: narrow(start), next: narrow(index + 1) });
        index
    }

    #[inline(always)]
    fn finish(&mut self, index: usize, end: usize) {
        let next = self.nodes.len();
        // No node at `index` is no bug: past the batch limit a tokeniser
        // still closes the containers it no longer puts on the tape.
        if let Some(node) = self.nodes.get_mut(index) {
            node.end = narrow(end);
            node.next = narrow(next);
        }
    }

    #[inline]
    pub(crate) fn get(&self, index: usize) -> Option<Node> {
        self.nodes.get(index).map(|n| n.unpack())
    }

    /// The indices of the direct children of the expanded node at `index`
    /// (for an object: name, value, name, value, ...). Any other node's
    /// next is `index + 1`, so its range is empty.
    pub(crate) fn children(&self, index: usize) -> Children<'_> {
        let (at, end) = match self.nodes.get(index) {
            Some(node) => (index + 1, node.next as usize),
            None => (0, 0),
        };
        Children { tape: self, at, end }
    }
}

/// The members of the expanded object at `index`, each as its name's index
/// and node (its value is the node after): one read a member.
pub(crate) fn members(tape: &Tape, index: usize) -> Members<'_> {
    let (at, end) = match tape.nodes.get(index) {
        Some(node) => (index + 1, node.next as usize),
        None => (0, 0),
    };
    Members { nodes: tape.nodes.get(..end).unwrap_or_default(), at }
}

/// Iterator over the members of an object: see [`members`].
#[derive(Debug)]
pub(crate) struct Members<'t> {
    nodes: &'t [Packed],
    at: usize,
}

impl Iterator for Members<'_> {
    type Item = (usize, Node);

    #[inline]
    fn next(&mut self) -> Option<(usize, Node)> {
        let index = self.at;
        let [name, value] = self.nodes.get(index..)?.first_chunk::<2>()?;
        // A malformed tape (a bug, not input) ends the walk rather than
        // looping: the next member is always further on.
        self.at = (value.next as usize).max(index + 2);
        Some((index, name.unpack()))
    }
}

/// Iterator over the direct children of a node.
#[derive(Debug)]
pub(crate) struct Children<'t> {
    tape: &'t Tape,
    at: usize,
    end: usize,
}

impl Iterator for Children<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        if self.at >= self.end {
            return None;
        }
        let index = self.at;
        // A malformed tape (a bug, not input) ends the walk rather than looping.
        self.at = self.tape.nodes.get(index).map_or(self.end, |n| (n.next as usize).max(index + 1));
        Some(index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An object (node 0) of two members, `"a":1` and `"b":[2]`, the
    /// array expanded: its item comes between the second member's value and
    /// the object's end.
    fn object_of_two_members() -> Tape {
        let mut tape = Tape::default();
        let object = tape.open(NodeKind::Object, 0, true);
        tape.leaf(NodeKind::String, 1, 4);
        tape.leaf(NodeKind::Number, 5, 6);
        tape.leaf(NodeKind::String, 7, 10);
        let array = tape.open(NodeKind::Array, 11, true);
        tape.leaf(NodeKind::Number, 12, 13);
        tape.close(array, 14);
        tape.close(object, 15);
        tape
    }

    fn names(tape: &Tape, object: usize) -> alloc::vec::Vec<usize> {
        members(tape, object).map(|(name, _)| name).take(10).collect()
    }

    #[test]
    fn members_are_each_name_with_its_value_after_it_and_skip_what_the_value_holds() {
        let tape = object_of_two_members();
        assert_eq!(names(&tape, 0), [1, 3]);
        let b = members(&tape, 0).nth(1).map(|(_, node)| (node.kind, node.start, node.end));
        assert_eq!(b, Some((NodeKind::String, 7, 10)));
        // Not an object expanded on the tape, or not on it at all: none.
        assert_eq!(names(&tape, 2), [] as [usize; 0]);
        assert_eq!(names(&tape, 99), [] as [usize; 0]);
    }

    #[test]
    fn a_container_not_expanded_has_no_children_or_members_its_next_being_the_node_after_it() {
        // `children` and `members` read any node's range from its next: a
        // container validated whole must end up with `index + 1` there.
        let mut tape = Tape::default();
        let object = tape.open(NodeKind::Object, 0, true);
        tape.leaf(NodeKind::String, 1, 4);
        let params = tape.open(NodeKind::Object, 5, false);
        tape.close(params, 20);
        tape.leaf(NodeKind::String, 21, 24);
        tape.leaf(NodeKind::Number, 25, 26);
        tape.close(object, 27);
        assert_eq!(tape.get(params).map(|node| (node.expanded, node.next)), Some((false, params + 1)));
        assert_eq!(tape.children(params).count(), 0);
        assert_eq!(names(&tape, params), [] as [usize; 0]);
        assert_eq!(names(&tape, object), [1, 3]);
    }

    #[test]
    fn a_malformed_tape_ends_the_members_rather_than_looping_or_going_back() {
        // A value whose next points back (a bug, not input): the next member
        // is taken to start right after it.
        let mut tape = object_of_two_members();
        if let Some(value) = tape.nodes.get_mut(2) {
            value.next = 0;
        }
        assert_eq!(names(&tape, 0), [1, 3]);
        // A value past the object's end: the object ends there.
        let mut tape = object_of_two_members();
        if let Some(value) = tape.nodes.get_mut(2) {
            value.next = 99;
        }
        assert_eq!(names(&tape, 0), [1]);
    }

    #[test]
    fn a_malformed_tape_ends_the_children_rather_than_looping_or_going_back() {
        let children = |tape: &Tape| tape.children(0).take(10).collect::<alloc::vec::Vec<_>>();
        let mut tape = object_of_two_members();
        assert_eq!(children(&tape), [1, 2, 3, 4]);
        // A child whose next points back (a bug, not input): the walk goes
        // on from the node after it.
        if let Some(value) = tape.nodes.get_mut(2) {
            value.next = 0;
        }
        assert_eq!(children(&tape), [1, 2, 3, 4]);
    }
}
