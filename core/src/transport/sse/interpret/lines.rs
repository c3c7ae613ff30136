//! The walk over a stream's bytes: the state machine that takes them line
//! by line in pieces of any size, and where a line ends.

use super::{At, Ending, Field, Interpreter, MAX_FIELD_LEN};
use crate::span;

/// Where the line in `bytes` ends: its first CR or LF. The values of
/// `event` and `id` lines are a few bytes long, where memchr costs more to
/// set up than it saves: their first eight
/// bytes are looked at as one word, the rest (a data line) with memchr.
#[inline]
pub(super) fn line_end(bytes: &[u8]) -> Option<usize> {
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
    memchr::memchr2(b'\r', b'\n', span::from(bytes, 8)).map(|at| at + 8)
}

impl Interpreter {
    /// Takes `bytes` (past any byte-order mark) until an event ends.
    pub(super) fn run(&mut self, bytes: &[u8]) -> (usize, Option<Ending>) {
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
                            let rest = span::from(bytes, i);
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
                    let rest = span::from(bytes, i);
                    let end = memchr::memchr3(b':', b'\r', b'\n', rest);
                    let name = span::within(rest, 0..end.unwrap_or(rest.len()));
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
                    let mut rest = span::from(bytes, i);
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
                        rest = span::within(rest, 0..at);
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
                    let rest = span::from(bytes, i);
                    let Some(at) = line_end(rest) else { return self.used_up(bytes) };
                    i += at + 1;
                    self.line_end(rest.get(at).copied().unwrap_or(b'\n'));
                }
            }
        }
        self.used_up(bytes)
    }

    /// [`Interpreter::whole_event`] or [`Interpreter::usual_events`] met a
    /// usual event whose data line the chunk cuts, having read `lines`
    /// whole field lines from `at`: the line is held as the machine holds
    /// it (its value still being read, `part` of it here), so that its
    /// bytes are not scanned twice.
    #[cold]
    #[inline(never)]
    pub(super) fn cut_line(
        &mut self,
        bytes: &[u8],
        (at, lines): (usize, u64),
        (event, id): (Option<&[u8]>, Option<&[u8]>),
        (from, to): (usize, usize),
    ) -> (usize, Option<Ending>) {
        self.take_fields(event, id);
        self.pending = true;
        self.start = (self.line, self.offset + at as u64);
        self.line += lines;
        self.at = At::Value { field: Field::Data, first: false };
        self.take_value(Field::Data, span::within(bytes, from..to));
        self.used_up(bytes)
    }

    /// All of `bytes` taken with no event ended: lent data is copied, as
    /// the bytes go.
    pub(super) fn used_up(&mut self, bytes: &[u8]) -> (usize, Option<Ending>) {
        self.materialize(bytes);
        self.offset += bytes.len() as u64;
        (bytes.len(), None)
    }

    /// Copies lent data (and the LF its line added) into the data buffer.
    pub(super) fn materialize(&mut self, bytes: &[u8]) {
        if let Some((from, to)) = self.lent.take() {
            self.hold_data(span::within(bytes, from..to));
            self.hold_data(b"\n");
        }
    }

    /// A line ended with `byte` (CR or LF).
    pub(super) fn line_end(&mut self, byte: u8) {
        self.line += 1;
        self.after_cr = byte == b'\r';
        self.at = At::LineStart;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

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
