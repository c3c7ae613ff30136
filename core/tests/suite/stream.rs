//! RULES.md section 5: newline framing on stdio.

use mcp_envelope::transport::lines::{Line, LineBuf, LineCodec, LineReader, Lines};

#[derive(Debug, PartialEq, Eq)]
enum Owned {
    Message(u64, u64, Vec<u8>),
    Oversized(u64, u64, u64),
}

fn frames(max: usize, chunks: &[&[u8]]) -> Vec<Owned> {
    let mut reader = LineReader::new(max);
    let mut out = Vec::new();
    let mut emit = |frame: Line<'_>| {
        out.push(match frame {
            Line::Message { line, offset, bytes } => Owned::Message(line, offset, bytes.to_vec()),
            Line::Oversized { line, offset, len } => Owned::Oversized(line, offset, len),
        });
    };
    for chunk in chunks {
        reader.feed(chunk, &mut emit);
        assert!(reader.buffered() <= max + 1, "buffered {} > {}", reader.buffered(), max + 1);
    }
    reader.finish(&mut emit);
    out
}

const STREAM: &[u8] =
    b"{\"a\":1}\r\n\n   \r\n{\"b\":[1,2,3]}\n0123456789abcdefghij0123456789\n\t\n{\"c\":\"\\n\"}\r\n{\"d\":4}";

#[test]
fn lines_lose_their_carriage_return_and_blank_lines_are_skipped() {
    assert_eq!(
        frames(16, &[STREAM]),
        [
            Owned::Message(1, 0, b"{\"a\":1}".to_vec()),
            Owned::Message(4, 15, b"{\"b\":[1,2,3]}".to_vec()),
            Owned::Oversized(5, 29, 30),
            Owned::Message(7, 62, b"{\"c\":\"\\n\"}".to_vec()),
            Owned::Message(8, 74, b"{\"d\":4}".to_vec()),
        ]
    );
}

#[test]
fn frames_do_not_depend_on_how_the_bytes_are_chunked() {
    let whole = frames(16, &[STREAM]);
    for split in 0..=STREAM.len() {
        let (a, b) = STREAM.split_at(split);
        assert_eq!(frames(16, &[a, b]), whole, "split at {split}");
        for second in split..=STREAM.len() {
            let (b, c) = STREAM[split..].split_at(second - split);
            assert_eq!(frames(16, &[a, b, c]), whole, "splits at {split}, {second}");
        }
    }
    let bytes: Vec<&[u8]> = STREAM.chunks(1).collect();
    assert_eq!(frames(16, &bytes), whole);
}

#[test]
fn an_oversized_line_is_skipped_with_bounded_memory_and_reading_goes_on() {
    let big = vec![b'x'; 1 << 20];
    let mut chunks: Vec<&[u8]> = vec![b"{\"before\":1}\n"];
    chunks.extend(big.chunks(4096));
    chunks.push(b"\n{\"after\":2}\n");
    let got = frames(1024, &chunks);
    assert_eq!(
        got,
        [
            Owned::Message(1, 0, b"{\"before\":1}".to_vec()),
            Owned::Oversized(2, 13, 1 << 20),
            Owned::Message(3, 13 + (1 << 20) + 1, b"{\"after\":2}".to_vec()),
        ]
    );
}

#[test]
fn a_line_exactly_at_the_limit_passes_and_its_carriage_return_does_not_count() {
    assert_eq!(frames(4, &[b"1234\r\n12345\n"]), [Owned::Message(1, 0, b"1234".to_vec()), Owned::Oversized(2, 6, 5)]);
}

/// What [`Lines`] pulls from `input` through a `BufReader` of `capacity`.
fn pulled(max: usize, capacity: usize, input: &[u8]) -> Vec<Owned> {
    let reader = std::io::BufReader::with_capacity(capacity, input);
    Lines::new(reader, max)
        .map(|frame| match frame.unwrap() {
            LineBuf::Message { line, offset, bytes } => Owned::Message(line, offset, bytes),
            LineBuf::Oversized { line, offset, len } => Owned::Oversized(line, offset, len),
        })
        .collect()
}

/// 200 pseudo-random streams: lines around a limit of 16 bytes, with `\r`,
/// blanks, and sometimes no final newline.
fn random_streams(mut seed: u32) -> Vec<Vec<u8>> {
    (0..200)
        .map(|_| {
            let mut input = Vec::new();
            for _ in 0..(seed % 7) {
                seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                let len = (seed >> 8) as usize % 24;
                input.extend((0..len).map(|i| b"{} \t\"a1\r"[(i + seed as usize) % 8]));
                if !seed.is_multiple_of(5) {
                    input.push(b'\n');
                }
            }
            input
        })
        .collect()
}

#[test]
fn pulled_frames_are_the_pushed_frames_whatever_the_reader_s_buffer() {
    let mut inputs: Vec<Vec<u8>> = vec![STREAM.to_vec(), b"".to_vec(), b"\n\n".to_vec(), b"{\"x\":1}".to_vec()];
    inputs.extend(random_streams(0x9e37_79b9));
    for input in &inputs {
        let pushed = frames(16, &[input]);
        for capacity in [1, 2, 3, 7, 16, 17, 64, 8192] {
            assert_eq!(
                pulled(16, capacity, input),
                pushed,
                "capacity {capacity}, input {:?}",
                String::from_utf8_lossy(input)
            );
        }
    }
}

#[test]
fn a_line_one_byte_over_the_limit_held_across_reads_leaves_nothing_behind() {
    // Five bytes under a limit of four: held whole (the limit plus one byte
    // is kept, for a `\r`), then judged too long. In the pull reader such a
    // line once stayed held: the next line's length and every later offset
    // counted it, and at the end of input it came out again as a frame.
    let input = b"12345\n{}\n123\r\n54321";
    let pushed = frames(4, &[input]);
    assert_eq!(
        pushed,
        [
            Owned::Oversized(1, 0, 5),
            Owned::Message(2, 6, b"{}".to_vec()),
            Owned::Message(3, 9, b"123".to_vec()),
            Owned::Oversized(4, 14, 5)
        ]
    );
    for capacity in 1..=input.len() {
        assert_eq!(pulled(4, capacity, input), pushed, "capacity {capacity}");
    }
    assert_eq!(pulled(1, 1, b"u\0\n"), [Owned::Oversized(1, 0, 2)], "the fuzzer's minimised input");
}

#[test]
fn a_pull_loop_can_stop_early_and_give_the_reader_back_after_the_last_frame() {
    fn first_message(input: &[u8]) -> std::io::Result<(Vec<u8>, usize)> {
        let mut frames = Lines::new(input, 64);
        let Some(Line::Message { bytes, .. }) = frames.next_line()? else { panic!("no message") };
        let first = bytes.to_vec();
        let rest = frames.into_inner();
        Ok((first, rest.len()))
    }
    let (first, rest) = first_message(b"\n{\"a\":1}\r\n{\"b\":2}\n").unwrap();
    assert_eq!((first.as_slice(), rest), (&b"{\"a\":1}"[..], 8));
}

/// A reader that fails once with `kind` before each of its chunks.
pub struct Flaky<'a> {
    pub chunks: Vec<&'a [u8]>,
    pub fail_next: bool,
    pub kind: std::io::ErrorKind,
}

impl std::io::Read for Flaky<'_> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        if std::mem::replace(&mut self.fail_next, false) {
            return Err(self.kind.into());
        }
        self.fail_next = true;
        let Some(chunk) = self.chunks.first_mut() else { return Ok(0) };
        let n = chunk.len().min(out.len());
        out[..n].copy_from_slice(&chunk[..n]);
        *chunk = &chunk[n..];
        if chunk.is_empty() {
            self.chunks.remove(0);
        }
        Ok(n)
    }
}

#[test]
fn reads_interrupted_are_retried_and_other_errors_are_returned_without_losing_frames() {
    let chunks = vec![&b"{\"a\""[..], b":1}\n{\"b\":2}", b"\n"];
    let interrupted = Flaky { chunks: chunks.clone(), fail_next: true, kind: std::io::ErrorKind::Interrupted };
    let got: Vec<_> = Lines::new(std::io::BufReader::new(interrupted), 64).map(Result::unwrap).collect();
    assert_eq!(got.len(), 2);
    let failing = Flaky { chunks, fail_next: true, kind: std::io::ErrorKind::TimedOut };
    let mut frames = Lines::new(std::io::BufReader::new(failing), 64);
    let mut messages = Vec::new();
    let mut errors = 0;
    while errors < 10 {
        match frames.next() {
            Some(Ok(LineBuf::Message { bytes, .. })) => messages.push(bytes),
            Some(Ok(other)) => panic!("{other:?}"),
            Some(Err(e)) => {
                assert_eq!(e.kind(), std::io::ErrorKind::TimedOut);
                errors += 1;
            }
            None => break,
        }
    }
    assert_eq!(messages, [b"{\"a\":1}".to_vec(), b"{\"b\":2}".to_vec()]);
    assert!(errors > 0, "an error other than Interrupted reaches the caller");
}

#[test]
fn the_reader_holds_exactly_the_bytes_of_the_line_not_yet_ended() {
    let mut reader = LineReader::new(64);
    reader.feed(b"{\"a\":1}\n{\"b\"", |_| {});
    assert_eq!(reader.buffered(), 4);
    reader.feed(b":2}", |_| {});
    assert_eq!(reader.buffered(), 7);
    reader.feed(b"\n", |_| {});
    assert_eq!(reader.buffered(), 0);
}

#[test]
fn an_oversized_frame_is_answered_as_the_parser_answers_a_message_over_the_limit() {
    let line = vec![b' '; 40];
    let mut frames = Lines::new(&line[..], 16);
    let frame = frames.next_line().unwrap().unwrap();
    let error = frame.error(16).unwrap();
    let mut parser = mcp_envelope::Parser::new(mcp_envelope::Revision::V2026_07_28)
        .with_limits(mcp_envelope::Limits::new().with_max_size(16));
    let parsed = parser.parse(&line).unwrap_err();
    assert_eq!(
        (error.code(), error.reason(), error.offset(), error.id()),
        (parsed.code(), parsed.reason(), parsed.offset(), None)
    );
    let mut answer = Vec::new();
    assert!(mcp_envelope::write::error_for(&mut answer, &error));
    assert!(answer.starts_with(br#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700"#));
    assert!(Line::Message { line: 1, offset: 0, bytes: b"{}" }.error(16).is_none());
}

/// What [`LineCodec`] decodes from `input` arriving in chunks of `chunk`
/// bytes, checking that it never buffers more than the limit plus a chunk.
fn decoded(max: usize, chunk: usize, input: &[u8]) -> Vec<Owned> {
    use tokio_util::codec::Decoder;
    let mut codec = LineCodec::new(max);
    let mut buf = bytes::BytesMut::new();
    let mut out = Vec::new();
    let mut push = |frame: LineBuf| {
        out.push(match frame {
            LineBuf::Message { line, offset, bytes } => Owned::Message(line, offset, bytes),
            LineBuf::Oversized { line, offset, len } => Owned::Oversized(line, offset, len),
        });
    };
    for piece in input.chunks(chunk) {
        buf.extend_from_slice(piece);
        while let Some(frame) = codec.decode(&mut buf).unwrap() {
            push(frame);
        }
        assert!(buf.len() <= max + 1 + chunk, "buffered {} bytes, limit {max}", buf.len());
    }
    while let Some(frame) = codec.decode_eof(&mut buf).unwrap() {
        push(frame);
    }
    out
}

#[test]
fn the_tokio_codec_decodes_the_pushed_frames_with_bounded_memory() {
    let mut inputs = vec![STREAM.to_vec(), b"".to_vec(), b"\n".to_vec(), vec![b'x'; 100]];
    inputs.extend(random_streams(0x2545_f491));
    for input in &inputs {
        let pushed = frames(16, &[input]);
        for chunk in [1, 2, 5, 17, 4096] {
            assert_eq!(decoded(16, chunk, input), pushed, "chunk {chunk}, input {:?}", String::from_utf8_lossy(input));
        }
    }
}

#[test]
fn the_tokio_codec_writes_one_line_per_message_and_refuses_a_newline_inside_one() {
    use tokio_util::codec::Encoder;
    let mut codec = LineCodec::new(64);
    let mut out = bytes::BytesMut::new();
    codec.encode(&br#"{"jsonrpc":"2.0","method":"a"}"#[..], &mut out).unwrap();
    assert_eq!(&out[..], b"{\"jsonrpc\":\"2.0\",\"method\":\"a\"}\n");
    let e = codec.encode(&b"{\n}"[..], &mut out).unwrap_err();
    assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput);
    // The encoder frames bytes, it does not judge them: even none.
    let mut out = bytes::BytesMut::new();
    codec.encode(&b""[..], &mut out).unwrap();
    assert_eq!(&out[..], b"\n");
}
