//! The line a direction is in the middle of, as far as a line too large to
//! hold still needs it: its first and last bytes, for
//! [`oversized::glimpse`](mcp_envelope::transport::oversized::glimpse).

use mcp_envelope::transport::oversized::{self, Glimpse};

/// Enough of the head for the members before `params` in any SDK's order.
const HEAD: usize = 4096;
/// Enough of the tail for a closing `"jsonrpc":"2.0","id":"…"}`.
const TAIL: usize = 256;

/// The first [`HEAD`] and last [`TAIL`] bytes of the line so far.
#[derive(Clone, Default)]
pub struct Glance {
    head: Vec<u8>,
    tail: Vec<u8>,
}

impl Glance {
    /// More bytes of the line (none of them its `\n`).
    pub fn take(&mut self, bytes: &[u8]) {
        let room = HEAD.saturating_sub(self.head.len());
        self.head.extend_from_slice(bytes.get(..room.min(bytes.len())).unwrap_or_default());
        if bytes.len() >= TAIL {
            self.tail.clear();
            self.tail.extend_from_slice(bytes.get(bytes.len() - TAIL..).unwrap_or_default());
        } else {
            self.tail.extend_from_slice(bytes);
            let over = self.tail.len().saturating_sub(TAIL);
            self.tail.drain(..over);
        }
    }

    /// The line ended: the next one starts empty.
    pub fn clear(&mut self) {
        self.head.clear();
        self.tail.clear();
    }

    /// This glance with `piece`, the rest of the line, taken too.
    pub fn with(&self, piece: &[u8]) -> Glance {
        let mut whole = self.clone();
        whole.take(piece);
        whole
    }

    pub fn glimpse(&self) -> Glimpse<'_> {
        oversized::glimpse(&self.head, &self.tail)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mcp_envelope::{Id, Kind};

    #[test]
    fn a_long_line_keeps_its_head_and_its_tail_whatever_the_pieces() {
        let line = format!(r#"{{"method":"tools/call","params":{{"t":"{}"}},"id":42}}"#, "x".repeat(100_000));
        for piece in [1, 7, 255, 256, 4096, 65_536] {
            let mut glance = Glance::default();
            line.as_bytes().chunks(piece).for_each(|bytes| glance.take(bytes));
            let seen = glance.glimpse();
            assert_eq!((seen.kind, seen.id), (Some(Kind::Request), Some(Id::Int(42))), "pieces of {piece}");
            assert_eq!((glance.head.len(), glance.tail.len()), (HEAD, TAIL));
        }
    }
}
