//! The fields an event's lines set: the name read, each value taken into
//! its buffer under its limit, the data buffer, and what a blank line
//! dispatches.

use super::{At, Ending, Field, Interpreter, MAX_FIELD_LEN};

impl Interpreter {
    /// A short `event` and `id` value read whole: set as their lines set them.
    #[inline(always)]
    pub(super) fn take_fields(&mut self, event: Option<&[u8]>, id: Option<&[u8]>) {
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

    pub(super) fn take_name(&mut self, part: &[u8]) {
        if let Some(slot) = self.name.get_mut(self.name_len..self.name_len + part.len()) {
            slot.copy_from_slice(part);
        }
        self.name_len = self.name_len.saturating_add(part.len());
    }

    pub(super) fn field(&self) -> Option<Field> {
        Field::named(self.name.get(..self.name_len)?)
    }

    pub(super) fn begin_value(&mut self, field: Field) -> At {
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

    pub(super) fn take_value(&mut self, field: Field, part: &[u8]) {
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
    pub(super) fn hold_data(&mut self, part: &[u8]) {
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
    pub(super) fn end_value(&mut self, field: Field) {
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
    pub(super) fn blank_line(&mut self) -> Option<Ending> {
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
    pub(super) fn reset_ended(&mut self) {
        if self.ended.take().is_some() {
            self.lent = None;
            self.data.clear();
            self.data_len = 0;
            self.event_type.clear();
            self.event_retry = None;
            self.over_field = None;
        }
    }
}
