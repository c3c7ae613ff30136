//! The event servers send, read whole from the bytes in one pass: at most
//! one `event` and one `id` line, in either order, then one `data` line and
//! the blank line, every line ended by LF. Found here without changing the
//! interpreter; [`Interpreter::whole_event`] applies one to the state
//! machine, and [`Interpreter::usual_events`] dispatches a run of them
//! straight from the chunk, lending every part, the last event id copied
//! once at the end of the run rather than once an event.

use super::lines::line_end;
use super::{At, BOM, Ending, Field, Interpreter, MAX_FIELD_LEN};
use crate::span;
use crate::transport::sse::{Body, Event};

/// Where a part of the event lies in the bytes read.
type Part = (usize, usize);

/// What the bytes from a line's start hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Found {
    /// A usual event, whole.
    Whole {
        /// The `event` and `id` values, when their lines were there.
        event: Option<Part>,
        id: Option<Part>,
        data: Part,
        /// Lines the event took, its blank line included.
        lines: u64,
        /// Where the byte after its blank line is.
        end: usize,
    },
    /// A usual event's data line, cut by the end of the bytes after
    /// `lines` whole field lines: `part` of its value is here.
    Cut { event: Option<Part>, id: Option<Part>, lines: u64, part: Part },
    /// Anything else (a comment, `retry`, a second data line, CR, an id
    /// holding NUL, a value past its limit, an event cut elsewhere): for
    /// the state machine.
    Other,
}

/// The usual event, if one starts at `at` (the start of a line, between
/// events), its data at most `max_size` bytes.
pub(super) fn read(bytes: &[u8], at: usize, max_size: usize) -> Found {
    let mut i = at;
    let mut lines = 0;
    let (mut event, mut id) = (None, None);
    // The line most servers begin an event with, whole: one comparison.
    if span::from(bytes, at).starts_with(b"event: message\n") {
        event = Some((at + 7, at + 14));
        i += 15;
        lines += 1;
    }
    loop {
        let rest = span::from(bytes, i);
        // The name told by its first byte, then checked whole.
        let (field, mut name) = match rest.first() {
            Some(b'd') if rest.starts_with(b"data:") => (Field::Data, 5),
            Some(b'i') if rest.starts_with(b"id:") => (Field::Id, 3),
            Some(b'e') if rest.starts_with(b"event:") => (Field::Event, 6),
            _ => return Found::Other,
        };
        if rest.get(name) == Some(&b' ') {
            name += 1;
        }
        let from = i + name;
        let value = span::from(rest, name);
        // A data line holds a message, longer than the word `line_end`
        // looks at first: straight to memchr.
        let end = match field {
            Field::Data => memchr::memchr2(b'\r', b'\n', value),
            _ => line_end(value),
        };
        let Some(len) = end else {
            if field == Field::Data && !value.is_empty() {
                return Found::Cut { event, id, lines, part: (from, bytes.len()) };
            }
            return Found::Other;
        };
        if value.get(len) != Some(&b'\n') {
            return Found::Other;
        }
        let part = (from, from + len);
        i = from + len + 1;
        let value = span::within(value, 0..len);
        match field {
            Field::Data if len <= max_size => {
                if bytes.get(i) != Some(&b'\n') {
                    return Found::Other;
                }
                return Found::Whole { event, id, data: part, lines: lines + 2, end: i + 1 };
            }
            Field::Event if event.is_none() && len <= MAX_FIELD_LEN => event = Some(part),
            Field::Id if id.is_none() && len <= MAX_FIELD_LEN && !holds_nul(value) => id = Some(part),
            _ => return Found::Other,
        }
        lines += 1;
    }
}

/// Whether an `id` value holds NUL (the standard then ignores it). Ids are
/// a few bytes long: a byte loop, where `contains` would call memchr.
#[allow(clippy::manual_contains, reason = "memchr's set-up costs more than a short value's bytes")]
fn holds_nul(value: &[u8]) -> bool {
    value.iter().any(|&b| b == 0)
}

/// The bytes of `part`, if any.
fn slice(bytes: &[u8], part: Option<Part>) -> Option<&[u8]> {
    part.map(|(from, to)| span::within(bytes, from..to))
}

impl Interpreter {
    /// Whether the stream stands between events, where a usual event may
    /// start: nothing of an event read, no line begun, no CR whose LF may
    /// come next, past any byte-order mark, and data may be lent.
    fn between_events(&self) -> bool {
        self.lend && self.bom.is_none() && self.at == At::LineStart && !self.pending && !self.after_cr
    }

    /// The usual event at `at` in `bytes` (where [`Interpreter::run`] is,
    /// between events), applied as the state machine would have read it,
    /// and dispatched with its data lent; returns what `run` returns.
    /// `None`, having changed nothing, for anything else.
    pub(super) fn whole_event(&mut self, bytes: &[u8], at: usize) -> Option<(usize, Option<Ending>)> {
        if !self.lend {
            return None;
        }
        debug_assert!(self.data_len == 0 && self.lent.is_none() && self.over_field.is_none());
        match read(bytes, at, self.max_size) {
            Found::Whole { event, id, data, lines, end } => {
                self.take_fields(slice(bytes, event), slice(bytes, id));
                self.start = (self.line, self.offset + at as u64);
                self.line += lines;
                // Dispatched at once: `data_len`, which only the blank line
                // reads, stays 0 until the event is forgotten.
                self.lent = Some(data);
                self.ended = Some(Ending::Dispatched);
                self.offset += end as u64;
                Some((end, Some(Ending::Dispatched)))
            }
            Found::Cut { event, id, lines, part } => {
                Some(self.cut_line(bytes, (at, lines), (slice(bytes, event), slice(bytes, id)), part))
            }
            Found::Other => None,
        }
    }

    /// Dispatches the usual events at the start of `bytes` to `emit`, each
    /// lent straight from `bytes`, while the stream stands between events;
    /// returns how many bytes they took. A data line the bytes cut is held
    /// as [`Interpreter::whole_event`] holds it (all the bytes are then
    /// taken); anything else is left for [`Interpreter::step`].
    pub(crate) fn usual_events(&mut self, bytes: &[u8], emit: &mut impl FnMut(Event<'_>)) -> usize {
        self.reset_ended();
        // A stream that does not begin with a byte-order mark has none.
        if self.bom == Some(0) && bytes.first().is_some_and(|&b| b != BOM[0]) {
            self.bom = None;
        }
        if !self.between_events() {
            return 0;
        }
        let mut at = 0;
        // The id the last event of the run set, lent until the run ends.
        let mut last_id = None;
        let found = loop {
            let (event, id, data, lines, end) = match read(bytes, at, self.max_size) {
                Found::Whole { event, id, data, lines, end } => (event, id, data, lines, end),
                other => break other,
            };
            last_id = id.or(last_id);
            emit(Event {
                line: self.line,
                offset: self.offset + at as u64,
                // `message` is what an empty type means.
                event_type: slice(bytes, event).filter(|t| !t.is_empty()).unwrap_or(b"message"),
                id: slice(bytes, last_id).unwrap_or(&self.id),
                retry: None,
                body: Body::Data(span::within(bytes, data.0..data.1)),
            });
            self.line += lines;
            at = end;
        };
        if let Some(id) = slice(bytes, last_id) {
            self.take_fields(None, Some(id));
        }
        match found {
            // `self.offset` is still that of the bytes' start, as `cut_line` wants.
            Found::Cut { event, id, lines, part } => {
                self.cut_line(bytes, (at, lines), (slice(bytes, event), slice(bytes, id)), part).0
            }
            _ => {
                self.offset += at as u64;
                at
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    const MAX: usize = 64;

    /// A usual event found whole, ending at the end of its bytes.
    fn whole(bytes: &[u8], event: Option<Part>, id: Option<Part>, data: Part, lines: u64) -> Found {
        Found::Whole { event, id, data, lines, end: bytes.len() }
    }

    #[test]
    fn the_usual_event_is_found_whole_with_where_each_part_lies() {
        // The shape servers send, and the shapes around it the one pass takes.
        let shapes: [&[u8]; 5] = [
            b"event: message\nid: 7\ndata: {}\n\n",
            b"id:42\nevent:x\ndata:ab\n\n",
            b"event: messages\ndata: a\n\n",
            b"data: a\n\n",
            b"data:\n\n",
        ];
        let found = [
            whole(shapes[0], Some((7, 14)), Some((19, 20)), (27, 29), 4),
            whole(shapes[1], Some((12, 13)), Some((3, 5)), (19, 21), 4),
            whole(shapes[2], Some((7, 15)), None, (22, 23), 3),
            whole(shapes[3], None, None, (6, 7), 2),
            whole(shapes[4], None, None, (5, 5), 2),
        ];
        for (bytes, found) in shapes.into_iter().zip(found) {
            assert_eq!(read(bytes, 0, MAX), found, "{:?}", bytes.escape_ascii());
            // From any line start in the bytes: the parts move with it.
            let shifted = [b"xy".as_slice(), bytes].concat();
            let Found::Whole { event, id, data, lines, end } = found else { unreachable!() };
            let moved = |part: Option<Part>| part.map(|(from, to)| (from + 2, to + 2));
            let data = (data.0 + 2, data.1 + 2);
            let found = Found::Whole { event: moved(event), id: moved(id), data, lines, end: end + 2 };
            assert_eq!(read(&shifted, 2, MAX), found);
        }
    }

    #[test]
    fn anything_but_the_usual_event_whole_is_left_to_the_state_machine() {
        for bytes in [
            &b": comment\ndata: a\n\n"[..],
            b"retry: 5\ndata: a\n\n",
            b"data: a\ndata: b\n\n",
            b"data: a\r\n\r\n",
            b"event: message\r\ndata: a\n\n",
            b"data: a\n",
            b"data: a\nid: 1\n\n",
            b"id: 1\nid: 2\ndata: a\n\n",
            b"event: a\nevent: b\ndata: a\n\n",
            b"id: 1\0\ndata: a\n\n",
            b"id: 1",
            b"event: message",
            b"dat: a\n\n",
            b"\ndata: a\n\n",
        ] {
            assert_eq!(read(bytes, 0, MAX), Found::Other, "{:?}", bytes.escape_ascii());
        }
        // Data past the limit is the machine's to count; at the limit it is taken.
        assert_eq!(read(b"data: abc\n\n", 0, 2), Found::Other);
        assert!(matches!(read(b"data: abc\n\n", 0, 3), Found::Whole { .. }));
        // Values past their limit likewise.
        let long = [b"id: ".as_slice(), &[b'7'; MAX_FIELD_LEN + 1], b"\ndata: a\n\n"].concat();
        assert_eq!(read(&long, 0, MAX), Found::Other);
        let at_limit = [b"event: ".as_slice(), &[b'e'; MAX_FIELD_LEN], b"\ndata: a\n\n"].concat();
        assert!(matches!(read(&at_limit, 0, MAX), Found::Whole { .. }));
    }

    #[test]
    fn a_usual_event_whose_data_line_the_bytes_cut_is_found_cut_with_the_part_here() {
        let bytes = b"event: message\nid: 3\ndata: {\"a\"";
        let found = Found::Cut { event: Some((7, 14)), id: Some((19, 20)), lines: 2, part: (27, bytes.len()) };
        assert_eq!(read(bytes, 0, MAX), found);
        // A cut anywhere else, or before any of the data's value, is not.
        assert_eq!(read(b"event: message\nid: 3\ndata: ", 0, MAX), Found::Other);
        assert_eq!(read(b"event: message\nid: 3", 0, MAX), Found::Other);
    }

    #[test]
    fn a_run_of_usual_events_is_dispatched_from_the_chunk_and_leaves_its_last_id() {
        let chunk = b"event: message\nid: 1\ndata: a\n\ndata: b\n\nid: 2\ndata: c\n\n: comment\n\ndata: d\n\n";
        let mut interpreter = Interpreter::new(MAX);
        let mut seen = Vec::new();
        let taken = interpreter.usual_events(chunk, &mut |e: Event<'_>| {
            let Body::Data(data) = e.body else { return };
            seen.push((e.line, e.offset, e.id.to_vec(), data.to_vec()));
        });
        let ids_then_data = [(1, 0, b"1", b"a"), (5, 30, b"1", b"b"), (7, 39, b"2", b"c")];
        let expected: Vec<_> = ids_then_data.iter().map(|&(l, o, i, d)| (l, o, i.to_vec(), d.to_vec())).collect();
        assert_eq!(seen, expected);
        // Up to the comment, which the state machine reads; the id is held.
        assert_eq!(taken, 54);
        assert_eq!((interpreter.id(), interpreter.line, interpreter.offset), (&b"2"[..], 10, 54));
        // Not between events (a line begun): nothing taken.
        let mut begun = Interpreter::new(MAX);
        assert_eq!(begun.step(b"dat"), (3, None));
        assert_eq!(begun.usual_events(b"a: x\n\n", &mut |_: Event<'_>| unreachable!()), 0);
        // The pull reader's interpreter lends nothing: nothing taken either.
        #[cfg(feature = "std")]
        assert_eq!(Interpreter::copying(MAX).usual_events(chunk, &mut |_: Event<'_>| unreachable!()), 0);
    }

    #[test]
    fn a_run_that_ends_in_a_cut_data_line_holds_it_as_the_machine_does() {
        let chunk = b"data: a\n\nid: 9\ndata: {\"b\"";
        let mut interpreter = Interpreter::new(MAX);
        let mut count = 0;
        let taken = interpreter.usual_events(chunk, &mut |_: Event<'_>| count += 1);
        assert_eq!((taken, count), (chunk.len(), 1));
        assert_eq!((interpreter.id(), interpreter.held()), (&b"9"[..], 1 + 4));
        assert_eq!((interpreter.start(), interpreter.pending), ((3, 9), true));
        let (used, ending) = interpreter.step(b":1}\n\n");
        assert_eq!((used, ending), (5, Some(Ending::Dispatched)));
        assert_eq!(interpreter.data(&[]), b"{\"b\":1}");
    }

    #[test]
    fn a_step_between_events_dispatches_the_usual_event_with_its_data_lent() {
        let mut interpreter = Interpreter::new(MAX);
        let chunk = b"id: 5\ndata: {}\n\ndata: x\n\n";
        assert_eq!(interpreter.step(chunk), (16, Some(Ending::Dispatched)));
        assert_eq!((interpreter.lent, interpreter.held()), (Some((12, 14)), 1));
        assert_eq!(interpreter.data(chunk), b"{}");
        // Where the state machine meets it at a line's start, in one pass;
        // anything else is left to the machine, nothing changed.
        let mut interpreter = Interpreter::new(MAX);
        interpreter.bom = None;
        assert_eq!(interpreter.whole_event(b"xdata: y\n\n", 1), Some((10, Some(Ending::Dispatched))));
        assert_eq!((interpreter.lent, interpreter.line, interpreter.offset), (Some((7, 8)), 3, 10));
        let mut interpreter = Interpreter::new(MAX);
        interpreter.bom = None;
        assert_eq!(interpreter.whole_event(b"retry: 1\ndata: y\n\n", 0), None);
        assert_eq!((interpreter.line, interpreter.offset, interpreter.pending), (1, 0, false));
    }
}
