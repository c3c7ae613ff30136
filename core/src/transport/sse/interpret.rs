//! The event-stream interpretation of the WHATWG HTML standard ("Server-sent
//! events", section 9.2.6), as a state machine that takes bytes in pieces
//! of any size and stops at the end of each event.
//!
//! It works on bytes, not decoded text: the data goes to the parser, which
//! checks UTF-8 itself and says where it fails (a browser would put U+FFFD
//! there instead). Lines end at CR LF, LF or CR; a CR ends its line at once
//! and an LF right after it, in this piece or the next, is skipped, so a CR
//! LF split across reads is one line ending, never two.

use alloc::vec::Vec;

/// The longest `event` or `id` value held, in bytes. Real ones are short (a
/// type name, a stream id and a counter); a longer one makes its event
/// too large rather than growing memory past `max_size` plus this.
pub const MAX_FIELD_LEN: usize = 1024;

const BOM: [u8; 3] = [0xEF, 0xBB, 0xBF];
/// Longest field name that means anything (`retry`, `event`).
const MAX_NAME: usize = 5;

/// Where the interpreter is within a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum At {
    /// At the start of a line: a blank line, a comment or a field follows.
    LineStart,
    /// Reading a field's name, up to its `:` or the end of the line.
    Name,
    /// Reading the value of a field that means something; `first` until
    /// its first byte was seen (one leading space is removed).
    Value { field: Field, first: bool },
    /// A comment, or a field that means nothing: skipped to the line's end.
    Skip,
}

/// The fields the standard gives a meaning to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Field {
    Data,
    Event,
    Id,
    Retry,
}

impl Field {
    fn named(name: &[u8]) -> Option<Field> {
        Some(match name {
            b"data" => Field::Data,
            b"event" => Field::Event,
            b"id" => Field::Id,
            b"retry" => Field::Retry,
            _ => return None,
        })
    }
}

/// How an event ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ending {
    /// Dispatched: its blank line arrived and it had data.
    Dispatched,
    /// Its blank line arrived, but something of it was too long (`len`
    /// bytes): the data past `max_size`, or an `event` or `id` value past
    /// [`MAX_FIELD_LEN`].
    Oversized(u64),
    /// The stream ended inside it.
    Cut,
}

/// The state of one event stream.
#[derive(Clone, Debug)]
pub(crate) struct Interpreter {
    max_size: usize,
    at: At,
    /// The last line ended with CR: an LF next is part of that line ending.
    after_cr: bool,
    /// Bytes of a byte-order mark matched at the start; `None` once past it.
    bom: Option<usize>,
    /// The line the next byte belongs to, 1-based.
    line: u64,
    /// Stream offset of the next byte.
    offset: u64,
    /// The name of the field being read, while it is short enough to mean
    /// something.
    name: [u8; MAX_NAME],
    /// Its length; past `MAX_NAME`, a name that means nothing.
    name_len: usize,
    /// A field line (not a comment) arrived since the last blank line.
    pending: bool,
    /// Line and offset of the event's first field line.
    start: (u64, u64),
    /// The data buffer: each `data` value and an LF, while it fits
    /// `max_size` plus that LF.
    data: Vec<u8>,
    /// Its length, counted on past the limit.
    data_len: u64,
    /// The event type buffer.
    event_type: Vec<u8>,
    /// The last event ID buffer (it outlives events, as the standard says).
    id: Vec<u8>,
    /// The `event` or `id` value being read, and its length counted on
    /// past [`MAX_FIELD_LEN`] (for `retry`, only its length).
    value: Vec<u8>,
    value_len: u64,
    /// A `retry` value being read: its number, and whether it is only
    /// ASCII digits so far.
    retry_value: u64,
    retry_digits: bool,
    /// The reconnection time last set, and the one set within this event.
    retry: Option<u64>,
    event_retry: Option<u64>,
    /// Length of the first `event` or `id` value of this event that was too long.
    over_field: Option<u64>,
    /// The last event returned, whose buffers are reset before any more
    /// bytes are taken (its data is lent until then).
    ended: Option<Ending>,
    /// The event's one data line so far, where it lies in the bytes being
    /// read, when it is not copied (the common event: one `data` line,
    /// whole in one chunk). Copied into `data` before those bytes go.
    lent: Option<(usize, usize)>,
    /// Whether data may be lent: not for readers that give the bytes back
    /// before the event is read (the pull reader).
    lend: bool,
}

/// Where the line in `bytes` ends: its first CR or LF. The values of
/// `event` and `id` lines are a few bytes long, where memchr costs more to
/// set up than it saves (about 85 instructions a call): their first eight
/// bytes are looked at as one word, the rest (a data line) with memchr.
#[inline]
fn line_end(bytes: &[u8]) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let Some(&word) = bytes.first_chunk::<8>() else {
        return bytes.iter().position(|&b| b == b'\r' || b == b'\n');
    };
    let word = u64::from_le_bytes(word);
    let (cr, lf) = (word ^ (ONES * u64::from(b'\r')), word ^ (ONES * u64::from(b'\n')));
    // The usual zero-byte test, exact for the lowest byte it marks.
    let found = ((cr.wrapping_sub(ONES) & !cr) | (lf.wrapping_sub(ONES) & !lf)) & HIGHS;
    if found != 0 {
        return Some((found.trailing_zeros() / 8) as usize);
    }
    memchr::memchr2(b'\r', b'\n', bytes.get(8..).unwrap_or_default()).map(|at| at + 8)
}

impl Interpreter {
    pub(crate) fn new(max_size: usize) -> Interpreter {
        Interpreter {
            max_size,
            at: At::LineStart,
            after_cr: false,
            bom: Some(0),
            line: 1,
            offset: 0,
            name: [0; MAX_NAME],
            name_len: 0,
            pending: false,
            start: (1, 0),
            data: Vec::new(),
            data_len: 0,
            event_type: Vec::new(),
            id: Vec::new(),
            value: Vec::new(),
            value_len: 0,
            retry_value: 0,
            retry_digits: false,
            retry: None,
            event_retry: None,
            over_field: None,
            ended: None,
            lent: None,
            lend: true,
        }
    }

    /// An interpreter that always copies the data.
    #[cfg(feature = "std")]
    pub(crate) fn copying(max_size: usize) -> Interpreter {
        Interpreter { lend: false, ..Interpreter::new(max_size) }
    }

    /// Takes bytes of `chunk` until an event ends or the chunk is used up:
    /// how many it took, and how the event ended, if one did. The event's
    /// parts stay readable until the next call.
    pub(crate) fn step(&mut self, chunk: &[u8]) -> (usize, Option<Ending>) {
        self.reset_ended();
        let mut taken = 0;
        if let Some(matched) = self.bom {
            // The mark may come in pieces: hold what matches so far.
            let mut matched = matched;
            while let (Some(&byte), Some(&want)) = (chunk.get(taken), BOM.get(matched)) {
                if byte != want {
                    break;
                }
                matched += 1;
                taken += 1;
            }
            if matched == BOM.len() {
                self.offset += BOM.len() as u64;
                self.bom = None;
            } else if taken == chunk.len() {
                self.bom = Some(matched);
                return (taken, None);
            } else {
                // Not a mark: what matched of it was ordinary bytes (the
                // start of a field name, which cannot end an event).
                self.bom = None;
                let (_, ending) = self.run(BOM.get(..matched).unwrap_or_default());
                debug_assert!(ending.is_none());
            }
        }
        let (used, ending) = self.run(chunk.get(taken..).unwrap_or_default());
        // Lent data lies in the chunk, past the mark.
        self.lent = self.lent.map(|(from, to)| (from + taken, to + taken));
        (taken + used, ending)
    }

    /// The stream ended: an event it was inside is cut (the standard
    /// discards it; a checker reports it). Only once.
    pub(crate) fn finish(&mut self) -> Option<Ending> {
        self.reset_ended();
        if let Some(matched) = self.bom.take() {
            let _ = self.run(BOM.get(..matched).unwrap_or_default());
        }
        if !self.pending {
            return None;
        }
        self.pending = false;
        self.at = At::LineStart;
        self.ended = Some(Ending::Cut);
        Some(Ending::Cut)
    }

    /// Takes `bytes` (past any byte-order mark) until an event ends.
    fn run(&mut self, bytes: &[u8]) -> (usize, Option<Ending>) {
        let mut i = 0;
        while let Some(&byte) = bytes.get(i) {
            match self.at {
                At::LineStart => {
                    if core::mem::take(&mut self.after_cr) && byte == b'\n' {
                        i += 1;
                        continue;
                    }
                    match byte {
                        b'\r' | b'\n' => {
                            i += 1;
                            self.line_end(byte);
                            if let Some(ending) = self.blank_line() {
                                self.offset += i as u64;
                                return (i, Some(ending));
                            }
                        }
                        b':' => {
                            i += 1;
                            self.at = At::Skip;
                        }
                        _ => {
                            if !self.pending {
                                if let Some(taken) = self.whole_event(bytes, i) {
                                    return taken;
                                }
                                self.pending = true;
                                self.start = (self.line, self.offset + i as u64);
                            }
                            // The names servers send, whole in the chunk:
                            // straight to the value.
                            let rest = bytes.get(i..).unwrap_or_default();
                            let known = if rest.starts_with(b"data:") {
                                Some((Field::Data, 5))
                            } else if rest.starts_with(b"id:") {
                                Some((Field::Id, 3))
                            } else if rest.starts_with(b"event:") {
                                Some((Field::Event, 6))
                            } else {
                                None
                            };
                            if let Some((field, len)) = known {
                                i += len;
                                if field == Field::Data {
                                    self.materialize(bytes);
                                }
                                self.at = self.begin_value(field);
                                // Its one leading space, here in the chunk:
                                // removed now rather than on the next turn.
                                if bytes.get(i) == Some(&b' ') {
                                    i += 1;
                                    self.at = At::Value { field, first: false };
                                }
                                continue;
                            }
                            self.name_len = 0;
                            self.at = At::Name;
                        }
                    }
                }
                At::Name => {
                    let rest = bytes.get(i..).unwrap_or_default();
                    let end = memchr::memchr3(b':', b'\r', b'\n', rest);
                    let name = rest.get(..end.unwrap_or(rest.len())).unwrap_or_default();
                    self.take_name(name);
                    let Some(at) = end else { return self.used_up(bytes) };
                    i += at + 1;
                    let field = self.field();
                    if field == Some(Field::Data) {
                        self.materialize(bytes);
                    }
                    if let Some(&b':') = rest.get(at) {
                        self.at = match field {
                            Some(field) => self.begin_value(field),
                            None => At::Skip,
                        };
                    } else {
                        // A line without `:` is a field with an empty value.
                        if let Some(field) = field {
                            self.begin_value(field);
                            self.end_value(field);
                        }
                        self.line_end(rest.get(at).copied().unwrap_or(b'\n'));
                    }
                }
                At::Value { field, first } => {
                    let mut rest = bytes.get(i..).unwrap_or_default();
                    if first {
                        self.at = At::Value { field, first: false };
                        if byte == b' ' {
                            i += 1;
                            continue;
                        }
                    }
                    let end = line_end(rest);
                    let ending = end.and_then(|at| rest.get(at).copied());
                    if let Some(at) = end {
                        rest = rest.get(..at).unwrap_or_default();
                    }
                    let (Some(at), Some(ending)) = (end, ending) else {
                        self.take_value(field, rest);
                        return self.used_up(bytes);
                    };
                    let value = rest;
                    if matches!(field, Field::Event | Field::Id) && self.value_len == 0 && at <= MAX_FIELD_LEN {
                        // A whole short value (the common case): set at
                        // once, without the value buffer.
                        match field {
                            // `message` is what an empty type means.
                            Field::Event if value == b"message" => self.event_type.clear(),
                            Field::Event => {
                                self.event_type.clear();
                                self.event_type.extend_from_slice(value);
                            }
                            _ if value.contains(&0) => {}
                            _ => {
                                self.id.clear();
                                self.id.extend_from_slice(value);
                            }
                        }
                    } else if field == Field::Data && self.lend && self.data_len == 0 && at <= self.max_size {
                        // The event's first data line, whole here: lent,
                        // not copied, unless more data or the chunk's end
                        // comes first.
                        self.lent = Some((i, i + at));
                        self.data_len = at as u64 + 1;
                    } else {
                        self.take_value(field, rest);
                        self.end_value(field);
                    }
                    i += at + 1;
                    self.line_end(ending);
                }
                At::Skip => {
                    let rest = bytes.get(i..).unwrap_or_default();
                    let Some(at) = line_end(rest) else { return self.used_up(bytes) };
                    i += at + 1;
                    self.line_end(rest.get(at).copied().unwrap_or(b'\n'));
                }
            }
        }
        self.used_up(bytes)
    }

    /// The event servers send, whole in `bytes` from `at` (the start of
    /// its first line): at most one `event` and one `id` line, in either
    /// order, then one `data` line and the blank line, every line ended by
    /// LF. Read in one pass and dispatched with its data lent, without the
    /// state machine between lines; returns what [`Interpreter::run`]
    /// returns. A data line the chunk cuts is held as the machine holds it,
    /// to the chunk's end, so that it is not read twice. Anything else (a
    /// comment, `retry`, a second data line, CR, an id holding NUL, a value
    /// past its limit, an event the chunk cuts elsewhere) is `None`, having
    /// changed nothing: the state machine reads it.
    fn whole_event(&mut self, bytes: &[u8], at: usize) -> Option<(usize, Option<Ending>)> {
        if !self.lend {
            return None;
        }
        debug_assert!(self.data_len == 0 && self.lent.is_none() && self.over_field.is_none());
        let mut i = at;
        let mut lines = 2; // the data line and the blank line
        let (mut event, mut id) = (None, None);
        let (from, to) = loop {
            let rest = bytes.get(i..).unwrap_or_default();
            // The name told by its first byte, then checked whole.
            let (field, mut name) = match rest.first() {
                Some(b'd') if rest.starts_with(b"data:") => (Field::Data, 5),
                Some(b'i') if rest.starts_with(b"id:") => (Field::Id, 3),
                Some(b'e') if rest.starts_with(b"event:") => (Field::Event, 6),
                _ => return None,
            };
            if rest.get(name) == Some(&b' ') {
                name += 1;
            }
            let from = i + name;
            let value = rest.get(name..).unwrap_or_default();
            let Some(len) = line_end(value) else {
                return self.cut_line(bytes, (at, lines - 2), field, (event, id), value);
            };
            if value.get(len) != Some(&b'\n') {
                return None;
            }
            let to = from + len;
            i = to + 1;
            let value = value.get(..len).unwrap_or_default();
            match field {
                Field::Data if len <= self.max_size => break (from, to),
                Field::Event if event.is_none() && len <= MAX_FIELD_LEN => event = Some(value),
                Field::Id if id.is_none() && len <= MAX_FIELD_LEN && !value.contains(&0) => id = Some(value),
                _ => return None,
            }
            lines += 1;
        };
        if bytes.get(i) != Some(&b'\n') {
            return None;
        }
        self.take_fields(event, id);
        self.start = (self.line, self.offset + at as u64);
        self.line += lines;
        // Dispatched at once: `data_len`, which only the blank line reads,
        // stays 0 until the event is forgotten.
        self.lent = Some((from, to));
        self.ended = Some(Ending::Dispatched);
        self.offset += i as u64 + 1;
        Some((i + 1, Some(Ending::Dispatched)))
    }

    /// A short `event` and `id` value read whole: set as their lines set them.
    #[inline(always)]
    fn take_fields(&mut self, event: Option<&[u8]>, id: Option<&[u8]>) {
        if let Some(event) = event {
            // `message` is what an empty type means.
            self.event_type.clear();
            if event != b"message" {
                self.event_type.extend_from_slice(event);
            }
        }
        if let Some(id) = id {
            self.id.clear();
            self.id.extend_from_slice(id);
        }
    }

    /// [`Interpreter::whole_event`] met a line the chunk cuts, having read
    /// `lines` whole field lines from `at`. A data line is held as the
    /// machine holds it (its value still being read, `part` of it here),
    /// so that its bytes are not scanned twice; anything else goes to the
    /// machine from `at`, nothing changed.
    #[cold]
    #[inline(never)]
    fn cut_line(
        &mut self,
        bytes: &[u8],
        (at, lines): (usize, u64),
        field: Field,
        (event, id): (Option<&[u8]>, Option<&[u8]>),
        part: &[u8],
    ) -> Option<(usize, Option<Ending>)> {
        if field != Field::Data || part.is_empty() {
            return None;
        }
        self.take_fields(event, id);
        self.pending = true;
        self.start = (self.line, self.offset + at as u64);
        self.line += lines;
        self.at = At::Value { field, first: false };
        self.take_value(field, part);
        Some(self.used_up(bytes))
    }

    /// All of `bytes` taken with no event ended: lent data is copied, as
    /// the bytes go.
    fn used_up(&mut self, bytes: &[u8]) -> (usize, Option<Ending>) {
        self.materialize(bytes);
        self.offset += bytes.len() as u64;
        (bytes.len(), None)
    }

    /// Copies lent data (and the LF its line added) into the data buffer.
    fn materialize(&mut self, bytes: &[u8]) {
        if let Some((from, to)) = self.lent.take() {
            self.hold_data(bytes.get(from..to).unwrap_or_default());
            self.hold_data(b"\n");
        }
    }

    /// A line ended with `byte` (CR or LF).
    fn line_end(&mut self, byte: u8) {
        self.line += 1;
        self.after_cr = byte == b'\r';
        self.at = At::LineStart;
    }

    fn take_name(&mut self, part: &[u8]) {
        if let Some(slot) = self.name.get_mut(self.name_len..self.name_len + part.len()) {
            slot.copy_from_slice(part);
        }
        self.name_len = self.name_len.saturating_add(part.len());
    }

    fn field(&self) -> Option<Field> {
        Field::named(self.name.get(..self.name_len)?)
    }

    fn begin_value(&mut self, field: Field) -> At {
        match field {
            Field::Data => {}
            Field::Event | Field::Id => {
                self.value.clear();
                self.value_len = 0;
            }
            Field::Retry => {
                self.value_len = 0;
                self.retry_value = 0;
                self.retry_digits = true;
            }
        }
        At::Value { field, first: true }
    }

    fn take_value(&mut self, field: Field, part: &[u8]) {
        match field {
            Field::Data => {
                self.data_len += part.len() as u64;
                self.hold_data(part);
            }
            Field::Event | Field::Id => {
                self.value_len += part.len() as u64;
                if self.value_len <= MAX_FIELD_LEN as u64 {
                    self.value.extend_from_slice(part);
                } else {
                    self.value.clear();
                }
            }
            Field::Retry => {
                self.value_len += part.len() as u64;
                for &b in part {
                    self.retry_digits &= b.is_ascii_digit();
                    self.retry_value = self.retry_value.saturating_mul(10).saturating_add(u64::from(b & 0x0F));
                }
            }
        }
    }

    /// Holds data bytes while the buffer fits the limit plus the LF that
    /// the last line adds (removed at dispatch); drops them past it.
    fn hold_data(&mut self, part: &[u8]) {
        let limit = (self.max_size as u64).saturating_add(1);
        if self.data_len > limit {
            self.data.clear();
            return;
        }
        // Grow towards the limit, never past it: a message of 40 MiB under
        // a 64 MiB limit does not reserve 80.
        let wanted = self.data.len() + part.len();
        if wanted > self.data.capacity() {
            let room = usize::try_from(limit).unwrap_or(usize::MAX);
            let target = wanted.max(self.data.capacity().saturating_mul(2)).min(room);
            self.data.reserve_exact(target - self.data.len());
        }
        self.data.extend_from_slice(part);
    }

    /// The field line ended: what the standard does with its value.
    fn end_value(&mut self, field: Field) {
        match field {
            Field::Data => {
                self.data_len += 1;
                self.hold_data(b"\n");
            }
            Field::Event | Field::Id if self.value_len > MAX_FIELD_LEN as u64 => {
                self.over_field.get_or_insert(self.value_len);
            }
            Field::Event => core::mem::swap(&mut self.event_type, &mut self.value),
            // An id holding NUL is ignored.
            Field::Id if self.value.contains(&0) => {}
            Field::Id => core::mem::swap(&mut self.id, &mut self.value),
            // Only ASCII digits set the reconnection time (not an empty value).
            Field::Retry if self.retry_digits && self.value_len > 0 => {
                self.retry = Some(self.retry_value);
                self.event_retry = Some(self.retry_value);
            }
            Field::Retry => {}
        }
    }

    /// A blank line: the standard's "dispatch the event".
    fn blank_line(&mut self) -> Option<Ending> {
        if !core::mem::take(&mut self.pending) {
            return None;
        }
        let limit = (self.max_size as u64).saturating_add(1);
        let ending = if self.data_len > limit {
            Ending::Oversized(self.data_len - 1)
        } else if let Some(len) = self.over_field {
            Ending::Oversized(len)
        } else if self.data_len == 0 {
            // No data line: nothing is dispatched (the id still counts).
            self.event_type.clear();
            self.event_retry = None;
            return None;
        } else {
            if self.lent.is_none() {
                self.data.pop();
            }
            Ending::Dispatched
        };
        self.ended = Some(ending);
        Some(ending)
    }

    /// Forgets the event returned last, before taking more bytes.
    fn reset_ended(&mut self) {
        if self.ended.take().is_some() {
            self.lent = None;
            self.data.clear();
            self.data_len = 0;
            self.event_type.clear();
            self.event_retry = None;
            self.over_field = None;
        }
    }

    /// Line and offset of the event's first field line.
    pub(crate) fn start(&self) -> (u64, u64) {
        self.start
    }

    /// The event type: the buffer, or `message` when it is empty.
    pub(crate) fn event_type(&self) -> &[u8] {
        if self.event_type.is_empty() { b"message" } else { &self.event_type }
    }

    /// The last event ID buffer.
    pub(crate) fn id(&self) -> &[u8] {
        &self.id
    }

    /// The event's data, once dispatched: lent from `chunk` (what was
    /// given to the step that dispatched it), or held.
    pub(crate) fn data<'a>(&'a self, chunk: &'a [u8]) -> &'a [u8] {
        match self.lent {
            Some((from, to)) => chunk.get(from..to).unwrap_or_default(),
            None => &self.data,
        }
    }

    /// The reconnection time set within the event.
    pub(crate) fn event_retry(&self) -> Option<u64> {
        self.event_retry
    }

    /// The reconnection time last set.
    pub(crate) fn retry(&self) -> Option<u64> {
        self.retry
    }

    /// Bytes held: the data, the event type and id, a value being read.
    pub(crate) fn held(&self) -> usize {
        self.data.len() + self.event_type.len() + self.id.len() + self.value.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_ends_at_its_first_cr_or_lf_within_the_first_word_or_past_it() {
        let naive = |bytes: &[u8]| bytes.iter().position(|&b| b == b'\r' || b == b'\n');
        // Bytes next to CR and LF in value, and UTF-8, around the ending.
        let filler = "\x0b\x0c\x0e\x09aé€ ".as_bytes();
        for len in 0..40 {
            let base: Vec<u8> = filler.iter().cycle().take(len).copied().collect();
            assert_eq!(line_end(&base), None, "len {len}");
            for at in 0..len {
                for ending in [b'\r', b'\n'] {
                    let mut bytes = base.clone();
                    bytes[at] = ending;
                    // A later ending of the other kind changes nothing.
                    if at + 3 < len {
                        bytes[at + 3] = b'\r' ^ b'\n' ^ ending;
                    }
                    assert_eq!(line_end(&bytes), naive(&bytes), "len {len}, {ending:#x} at {at}");
                    assert_eq!(line_end(&bytes), Some(at));
                }
            }
        }
    }
}
