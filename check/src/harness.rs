//! The framing harness, written once for both framings: each of a
//! framing's three readers (push, pull, tokio decoder) driven over the
//! same stream, and the items it hands out held to the ones expected as
//! they come, without copying them (copies were a fifth of a run).

use std::io::{self, BufReader};

use bytes::BytesMut;
use tokio_util::codec::Decoder;

use crate::chunks::{Sizes, Trickle};
use crate::shown;

/// The items expected, met one by one.
pub(crate) struct Expect<'e, T> {
    expected: &'e [T],
    seen: usize,
    same: bool,
}

impl<'e, T> Expect<'e, T> {
    pub(crate) fn new(expected: &'e [T]) -> Self {
        Expect { expected, seen: 0, same: true }
    }

    /// The next item came: `is` says whether it is the one expected there.
    pub(crate) fn next(&mut self, is: impl FnOnce(&T) -> bool) {
        self.same &= self.expected.get(self.seen).is_some_and(is);
        self.seen += 1;
    }

    /// Every item matched, and none is missing.
    pub(crate) fn all_met(&self) -> bool {
        self.same && self.seen == self.expected.len()
    }
}

/// Whether a pull reader over `bytes` gives `expected`, read in pieces
/// through a buffer of pseudo-random capacity (down to one byte, so items
/// straddle refills) over reads of pseudo-random size, some interrupted.
/// `open` makes the reader; `next` takes one item into the expectation
/// and says whether there was one.
pub(crate) fn pulled<'b, T, P>(
    bytes: &'b [u8],
    max: usize,
    sizes: &mut Sizes,
    expected: &[T],
    open: impl FnOnce(BufReader<Trickle<'b>>) -> P,
    mut next: impl FnMut(&mut P, &mut Expect<'_, T>) -> io::Result<bool>,
) -> bool {
    let bound = 2 * max + 3;
    let capacity = 1 + sizes.next(bound);
    let trickle = Trickle::new(bytes, sizes.fork(), bound);
    let mut reader = open(BufReader::with_capacity(capacity, trickle));
    let mut expect = Expect::new(expected);
    loop {
        match next(&mut reader, &mut expect) {
            Ok(true) => {}
            Ok(false) => return expect.all_met(),
            // Trickle gives no error but `Interrupted`, which is retried.
            Err(e) => panic!("the pull reader failed on {}: {e}", shown(bytes)),
        }
    }
}

/// Whether a tokio decoder fed `chunks` as `FramedRead` feeds it (`decode`
/// after each chunk, `decode_eof` at the end) gives `expected` and leaves
/// nothing in its buffer; `same` compares an item with the one expected,
/// `held` asserts the decoder's memory bound after each chunk.
pub(crate) fn decoded<'c, T, D: Decoder<Error = io::Error>>(
    mut codec: D,
    chunks: impl Iterator<Item = &'c [u8]>,
    expected: &[T],
    mut same: impl FnMut(&D::Item, &T) -> bool,
    mut held: impl FnMut(&D, &BytesMut),
) -> bool {
    let mut buf = BytesMut::new();
    let mut expect = Expect::new(expected);
    let fail = |e: io::Error| -> ! { panic!("the codec failed: {e}") };
    for chunk in chunks {
        buf.extend_from_slice(chunk);
        while let Some(item) = codec.decode(&mut buf).unwrap_or_else(|e| fail(e)) {
            expect.next(|x| same(&item, x));
        }
        held(&codec, &buf);
    }
    while let Some(item) = codec.decode_eof(&mut buf).unwrap_or_else(|e| fail(e)) {
        expect.next(|x| same(&item, x));
    }
    expect.all_met() && buf.is_empty()
}
