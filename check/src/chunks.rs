//! How the framing properties cut a stream: pseudo-random chunk sizes
//! chosen by the input, and a reader that delivers it as a pipe would.

use std::io::{self, Read};
use std::vec::Vec;

/// Pseudo-random sizes (xorshift), from the input's seed byte.
pub(super) struct Sizes(u32);

impl Sizes {
    pub(super) fn new(seed: u32) -> Sizes {
        // xorshift never leaves zero.
        Sizes(seed | 1)
    }

    /// A size in `0..bound`.
    pub(super) fn next(&mut self, bound: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        self.0 as usize % bound.max(1)
    }

    /// A second sequence, from where this one is.
    pub(super) fn fork(&self) -> Sizes {
        Sizes::new(self.0)
    }
}

/// `bytes` in chunks of pseudo-random sizes below `bound` (empty ones
/// included).
pub(super) fn split<'b>(bytes: &'b [u8], sizes: &mut Sizes, bound: usize) -> Vec<&'b [u8]> {
    let mut rest = bytes;
    let mut chunks = Vec::new();
    while !rest.is_empty() {
        let n = sizes.next(bound).min(rest.len());
        let (chunk, after) = rest.split_at(n);
        chunks.push(chunk);
        rest = after;
    }
    chunks
}

/// The stream as a pipe delivers it: reads of pseudo-random sizes, and now
/// and then an interrupted one, which a pull reader must retry.
pub(super) struct Trickle<'a> {
    rest: &'a [u8],
    sizes: Sizes,
    bound: usize,
}

impl<'a> Trickle<'a> {
    pub(super) fn new(bytes: &'a [u8], sizes: Sizes, bound: usize) -> Trickle<'a> {
        Trickle { rest: bytes, sizes, bound }
    }
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.sizes.next(self.bound);
        if n == 0 && !self.rest.is_empty() {
            return Err(io::ErrorKind::Interrupted.into());
        }
        let n = n.min(self.rest.len()).min(buf.len());
        let (piece, after) = self.rest.split_at(n);
        if let Some(to) = buf.get_mut(..n) {
            to.copy_from_slice(piece);
        }
        self.rest = after;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trickled_reads_are_sometimes_interrupted_and_lose_nothing() {
        let text: Vec<u8> = (0..=255u8).collect();
        let mut trickle = Trickle::new(&text, Sizes::new(7), 9);
        let (mut read, mut interrupted) = (Vec::new(), 0);
        let mut buf = [0u8; 16];
        loop {
            match trickle.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => read.extend_from_slice(&buf[..n]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => interrupted += 1,
                Err(e) => panic!("{e}"),
            }
        }
        assert_eq!(read, text);
        assert!(interrupted > 0);
    }

    #[test]
    fn a_split_loses_nothing_and_keeps_the_order() {
        let text: Vec<u8> = (0..200u8).collect();
        let chunks = split(&text, &mut Sizes::new(3), 7);
        assert!(chunks.len() > 28 && chunks.iter().all(|c| c.len() < 7));
        assert_eq!(chunks.concat(), text);
    }
}
