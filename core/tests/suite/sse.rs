//! RULES.md section 7: event-stream framing (WHATWG HTML, "Server-sent
//! events", event stream interpretation), as Streamable HTTP carries MCP.

use std::io::BufReader;

use bytes::BytesMut;
use mcp_envelope::transport::sse::{BodyBuf, EventBuf, EventCodec, EventReader, Events, MAX_FIELD_LEN};
use tokio_util::codec::Decoder;

fn events(max: usize, chunks: &[&[u8]]) -> Vec<EventBuf> {
    let mut reader = EventReader::new(max);
    let mut out = Vec::new();
    for chunk in chunks {
        reader.feed(chunk, |e| out.push(EventBuf::from(e)));
        assert!(reader.buffered() <= max + 1 + 3 * MAX_FIELD_LEN, "buffered {}", reader.buffered());
    }
    reader.finish(|e| out.push(EventBuf::from(e)));
    out
}

fn whole(stream: &[u8]) -> Vec<EventBuf> {
    events(1 << 20, &[stream])
}

fn whole_limited(max: usize, stream: &[u8]) -> Vec<EventBuf> {
    events(max, &[stream])
}

#[test]
fn the_pull_reader_retries_interrupted_reads_and_returns_other_errors() {
    use crate::stream::Flaky;
    let chunks = vec![&b"data: {\"a\""[..], b":1}\n\ndata: 2", b"\n\n"];
    let interrupted = Flaky { chunks: chunks.clone(), fail_next: true, kind: std::io::ErrorKind::Interrupted };
    let got: Vec<EventBuf> = Events::new(BufReader::new(interrupted), 64).map(Result::unwrap).collect();
    assert_eq!(data_of(&got), ["{\"a\":1}", "2"]);
    let failing = Flaky { chunks, fail_next: true, kind: std::io::ErrorKind::TimedOut };
    let (mut data, mut errors) = (Vec::new(), 0);
    for item in Events::new(BufReader::new(failing), 64).take(20) {
        match item {
            Ok(event) => data.push(event),
            Err(e) => {
                assert_eq!(e.kind(), std::io::ErrorKind::TimedOut);
                errors += 1;
            }
        }
    }
    assert_eq!((data_of(&data).len(), errors > 0), (2, true));
}

#[test]
fn the_readers_hold_the_type_id_and_data_of_the_event_being_read() {
    let mut reader = EventReader::new(64);
    // The type `ab` (2), the id `345` (3) and the data begun (4).
    reader.feed(b"event: ab\nid: 345\ndata: {\"b\"", |_| {});
    assert_eq!(reader.buffered(), 9);
    // `message` is the type an empty one stands for: nothing to hold.
    let mut reader = EventReader::new(64);
    reader.feed(b"event: message\ndata: {", |_| {});
    assert_eq!(reader.buffered(), 1);
}

#[test]
fn an_id_of_exactly_the_field_limit_is_taken_however_it_is_split() {
    let stream = format!("id: {}\ndata: a\n\n", "i".repeat(MAX_FIELD_LEN));
    let bytes = stream.as_bytes();
    for split in [5, 10, MAX_FIELD_LEN / 2, MAX_FIELD_LEN + 3] {
        let got = events(1 << 20, &[&bytes[..split], &bytes[split..]]);
        assert_eq!((got[0].id.len(), data_of(&got)), (MAX_FIELD_LEN, vec!["a".to_owned()]), "split at {split}");
    }
}

#[test]
fn the_readers_hold_only_the_event_not_yet_ended() {
    let mut reader = EventReader::new(64);
    let mut codec = EventCodec::new(64);
    let mut buf = BytesMut::new();
    for chunk in [&b"data: {}\n\ndata: {\"a\""[..], b":1}\n", b"\n"] {
        reader.feed(chunk, |_| {});
        buf.extend_from_slice(chunk);
        while codec.decode(&mut buf).unwrap().is_some() {}
        assert_eq!(reader.buffered(), codec.buffered());
    }
    assert_eq!(reader.buffered(), 0, "the last event was dispatched");
    reader.feed(b"data: {\"b\"", |_| {});
    assert_eq!(reader.buffered(), 4, "the value begun, four bytes, is held");
}

fn event(line: u64, offset: u64, event_type: &str, id: &str, data: &str) -> EventBuf {
    EventBuf {
        line,
        offset,
        event_type: event_type.into(),
        id: id.into(),
        retry: None,
        body: BodyBuf::Data(data.into()),
    }
}

fn data_of(events: &[EventBuf]) -> Vec<String> {
    events
        .iter()
        .map(|e| match &e.body {
            BodyBuf::Data(d) => String::from_utf8_lossy(d).into_owned(),
            other => format!("{other:?}"),
        })
        .collect()
}

#[test]
fn lines_end_at_crlf_lf_or_cr_alone() {
    let expected = ["a", "b", "c"];
    assert_eq!(data_of(&whole(b"data: a\r\n\r\ndata: b\n\ndata: c\r\r")), expected);
    // Mixed within one event: each ending counts once.
    assert_eq!(data_of(&whole(b"data: a\r\ndata: b\rdata: c\n\r\n")), ["a\nb\nc"]);
    // Line numbers count CR LF as one ending.
    let got = whole(b"data: a\r\n\r\ndata: b\r\rdata: c\n\n");
    assert_eq!(got.iter().map(|e| (e.line, e.offset)).collect::<Vec<_>>(), [(1, 0), (3, 11), (5, 20)]);
}

#[test]
fn a_crlf_split_across_two_chunks_is_one_line_ending_not_an_event_boundary() {
    let stream = b"data: {\"a\":\r\ndata: 1}\r\n\r\n";
    let at = stream.iter().position(|&b| b == b'\r').unwrap() + 1;
    let (a, b) = stream.split_at(at);
    assert_eq!(data_of(&events(1 << 20, &[a, b])), ["{\"a\":\n1}"]);
    // And a CR at the end of a chunk before the blank line's CR LF.
    let got = events(1 << 20, &[b"data: x\r", b"\n\r", b"\n"]);
    assert_eq!(data_of(&got), ["x"]);
}

#[test]
fn one_byte_order_mark_at_the_very_start_is_skipped_and_is_a_field_name_byte_elsewhere() {
    let got = whole(b"\xEF\xBB\xBFdata: a\n\n");
    assert_eq!(got, [event(1, 3, "message", "", "a")]);
    // A second mark is part of the field name, so the line is ignored.
    assert_eq!(whole(b"\xEF\xBB\xBF\xEF\xBB\xBFdata: a\n\ndata: b\n\n"), [event(3, 15, "message", "", "b")]);
    // Split byte by byte, it is still skipped; half a mark is not one.
    assert_eq!(events(1 << 20, &[b"\xEF", b"\xBB", b"\xBFdata: a\n\n"]), got);
    let half = events(1 << 20, &[b"\xEF\xBB", b"data: a\n\n"]);
    assert_eq!(half, []);
    let cut = events(1 << 20, &[b"\xEF\xBB"]);
    assert_eq!(cut.len(), 1);
    assert_eq!(cut[0].body, BodyBuf::Cut);
}

#[test]
fn comment_lines_are_skipped_and_end_no_event() {
    let got = whole(b": keep-alive\n\n:ping\r\ndata: a\n: between\ndata: b\n\n");
    assert_eq!(got, [event(4, 21, "message", "", "a\nb")]);
}

#[test]
fn a_field_value_loses_exactly_one_leading_space() {
    assert_eq!(data_of(&whole(b"data:a\n\ndata: a\n\ndata:  a\n\ndata:\ta\n\n")), ["a", "a", " a", "\ta"]);
    // The space may arrive in a chunk of its own.
    assert_eq!(data_of(&events(1 << 20, &[b"data:", b" ", b" a\n\n"])), [" a"]);
}

#[test]
fn the_value_is_everything_after_the_first_colon() {
    assert_eq!(data_of(&whole(b"data: {\"a\":\"b:c\"}\n\n")), ["{\"a\":\"b:c\"}"]);
}

#[test]
fn a_line_without_a_colon_is_a_field_with_an_empty_value() {
    // `data` alone appends an empty line.
    assert_eq!(data_of(&whole(b"data\ndata: x\ndata\n\n")), ["\nx\n"]);
    // After a first data line (whole in its chunk, so lent, not copied).
    assert_eq!(data_of(&whole(b"data: x\ndata\n\n")), ["x\n"]);
    // `id` alone resets the last event id; `event` alone leaves the default.
    let got = whole(b"id: 7\nevent: other\ndata: a\n\nid\nevent\ndata: b\n\n");
    assert_eq!(got, [event(1, 0, "other", "7", "a"), event(5, 28, "message", "", "b")]);
}

#[test]
fn data_lines_join_with_lf_and_the_last_lf_is_removed() {
    let pretty = b"data: {\ndata:   \"jsonrpc\": \"2.0\",\ndata:   \"method\": \"ping\"\ndata: }\n\n";
    let got = whole(pretty);
    assert_eq!(data_of(&got), ["{\n  \"jsonrpc\": \"2.0\",\n  \"method\": \"ping\"\n}"]);
    let BodyBuf::Data(data) = &got[0].body else { unreachable!() };
    let mut parser = mcp_envelope::Parser::new(mcp_envelope::Revision::V2026_07_28);
    assert!(parser.parse(data).is_ok(), "a pretty-printed message over several data lines is one message");
}

#[test]
fn the_event_type_defaults_to_message_and_is_reset_after_each_event() {
    let got = whole(b"event: endpoint\ndata: /messages?sessionId=1\n\ndata: {}\n\nevent: a\nevent: b\ndata: x\n\n");
    assert_eq!(
        got,
        [
            event(1, 0, "endpoint", "", "/messages?sessionId=1"),
            event(4, 45, "message", "", "{}"),
            event(6, 55, "b", "", "x"),
        ]
    );
    assert_eq!(got[0].as_event().message(), None, "an endpoint event carries no message");
    assert_eq!(got[1].as_event().message(), Some(&b"{}"[..]));
}

#[test]
fn the_last_event_id_outlives_its_event_and_an_id_holding_nul_is_ignored() {
    let got = whole(b"id: 1\ndata: a\n\ndata: b\n\nid: 2\0x\ndata: c\n\nid:\ndata: d\n\n");
    let ids: Vec<_> = got.iter().map(|e| String::from_utf8_lossy(&e.id).into_owned()).collect();
    assert_eq!(ids, ["1", "1", "1", ""]);
}

#[test]
fn retry_is_taken_only_when_its_value_is_all_ascii_digits() {
    let stream = b"retry: 3000\ndata: a\n\nretry: 10s\ndata: b\n\nretry:\ndata: c\n\nretry: -1\ndata: d\n\nretry: 00\ndata: e\n\n";
    let got = whole(stream);
    assert_eq!(got.iter().map(|e| e.retry).collect::<Vec<_>>(), [Some(3000), None, None, None, Some(0)]);
    let mut reader = EventReader::new(100);
    reader.feed(b"retry: 5\n\nretry: x\n\n", |_| {});
    assert_eq!(reader.retry(), Some(5), "a retry field sets the time even in an event with no data");
}

#[test]
fn other_field_names_are_ignored() {
    let got = whole(b"Data: no\ndatas: no\n data: no\nfoo: bar\ndata: yes\n\n");
    assert_eq!(got, [event(1, 0, "message", "", "yes")]);
}

#[test]
fn an_event_with_no_data_line_is_not_dispatched_but_its_id_counts() {
    let mut reader = EventReader::new(100);
    let mut got = Vec::new();
    reader.feed(b"id: 42\nevent: x\n\ndata: a\n\n", |e| got.push(EventBuf::from(e)));
    assert_eq!(got, [event(4, 17, "message", "42", "a")]);
    assert_eq!(reader.last_event_id(), b"42");
}

#[test]
fn an_event_with_empty_data_is_dispatched_and_carries_no_message() {
    // MCP 2025-11-25 servers prime reconnection with an id and empty data.
    let got = whole(b"id: 0\ndata:\n\ndata: {}\n\n");
    assert_eq!(got, [event(1, 0, "message", "0", ""), event(4, 13, "message", "0", "{}")]);
    assert_eq!(got[0].as_event().message(), None);
    assert_eq!(got[0].as_event().error(100), None, "nor is it a fault");
}

#[test]
fn an_event_cut_by_the_end_of_the_stream_is_reported_not_dropped() {
    for stream in [
        &b"data: {}\n\ndata: {\"a\":1}\n"[..],
        b"data: {}\n\ndata: {\"a\":1}",
        b"data: {}\n\nid: 3\n",
        b"data: {}\n\nda",
    ] {
        let got = whole(stream);
        assert_eq!(got.len(), 2, "{stream:?}");
        assert_eq!((got[1].line, got[1].offset, &got[1].body), (3, 10, &BodyBuf::Cut), "{stream:?}");
    }
    // A comment or blank lines at the end are no event.
    assert_eq!(whole(b"data: {}\n\n: bye\n\n\n").len(), 1);
    assert_eq!(whole(b"data: {}\n\n: by").len(), 1);
}

#[test]
fn an_event_over_the_size_limit_is_skipped_with_bounded_memory_and_reading_goes_on() {
    let big = format!("data: {}\ndata: {}\n\n", "x".repeat(600), "y".repeat(600));
    let stream = [b"data: {}\n\n".as_slice(), big.as_bytes(), b"data: [1]\n\n"].concat();
    for chunk in [1, 7, 100, stream.len()] {
        let chunks: Vec<&[u8]> = stream.chunks(chunk).collect();
        let got = events(1000, &chunks);
        assert_eq!(data_of(&got), ["{}", "Oversized { len: 1201 }", "[1]"], "chunks of {chunk}");
        assert_eq!((got[1].line, got[1].offset), (3, 10));
        assert!(got[1].as_event().error(1000).is_some_and(|e| e.reason().name() == "too-large"));
    }
    // Only a `message` event is answered: an oversized event of another
    // type is skipped in silence.
    let other = format!("event: progress\ndata: {}\n\n", "z".repeat(600));
    let got = whole_limited(1000 / 4, other.as_bytes());
    assert_eq!(data_of(&got), ["Oversized { len: 600 }"]);
    assert_eq!(got[0].as_event().error(250), None);
    // Exactly at the limit is held; one byte more is not.
    assert_eq!(data_of(&events(4, &[b"data: ab\ndata: c\n\n"])), ["ab\nc"]);
    assert_eq!(data_of(&events(4, &[b"data: ab\ndata: cd\n\n"])), ["Oversized { len: 5 }"]);
}

#[test]
fn an_event_or_id_value_past_the_field_limit_makes_its_event_too_large() {
    let long = "i".repeat(MAX_FIELD_LEN + 1);
    let stream = format!("id: 1\ndata: a\n\nid: {long}\ndata: b\n\nevent: {long}\ndata: c\n\ndata: d\n\n");
    let got = whole(stream.as_bytes());
    let len = MAX_FIELD_LEN as u64 + 1;
    assert_eq!(
        data_of(&got),
        ["a", &format!("Oversized {{ len: {len} }}"), &format!("Oversized {{ len: {len} }}"), "d"]
    );
    assert_eq!(got[3].id, b"1", "the long id was not taken");
    let at_limit = format!("id: {}\ndata: a\n\n", "i".repeat(MAX_FIELD_LEN));
    assert_eq!(whole(at_limit.as_bytes())[0].id.len(), MAX_FIELD_LEN);
}

#[test]
fn data_that_is_not_utf8_reaches_the_parser_which_names_the_byte() {
    let got = whole(b"data: {\"a\":\"\xFF\"}\n\n");
    let BodyBuf::Data(data) = &got[0].body else { unreachable!() };
    let error = mcp_envelope::Parser::new(mcp_envelope::Revision::V2026_07_28).parse(data).unwrap_err();
    assert_eq!((error.reason().name(), error.offset()), ("invalid-utf8", 6));
}

const STREAM: &[u8] = b"\xEF\xBB\xBFretry: 100\r\nid: 0\r\ndata:\r\n\r\n: keep-alive\n\nevent: message\nid: 1\ndata: {\"jsonrpc\":\"2.0\",\ndata:  \"id\":1,\"result\":{\"t\":\"\xC3\xA9\"}}\n\n\
data: 0123456789abcdefghij0123456789abcdefghij0123456789abcdefghij\r\rdata\rdata:x\r\rid: a\0\nevent: endpoint\ndata: /mcp\n\nfoo\ndata: [";

#[test]
fn events_do_not_depend_on_how_the_bytes_are_chunked() {
    let max = 50;
    let whole = events(max, &[STREAM]);
    assert_eq!(
        data_of(&whole),
        [
            "",
            "{\"jsonrpc\":\"2.0\",\n \"id\":1,\"result\":{\"t\":\"é\"}}",
            "Oversized { len: 60 }",
            "\nx",
            "/mcp",
            "Cut"
        ]
    );
    for split in 0..=STREAM.len() {
        let (a, b) = STREAM.split_at(split);
        assert_eq!(events(max, &[a, b]), whole, "split at {split}");
        for second in split..=STREAM.len() {
            let (b, c) = STREAM[split..].split_at(second - split);
            assert_eq!(events(max, &[a, b, c]), whole, "splits at {split}, {second}");
        }
    }
    let bytes: Vec<&[u8]> = STREAM.chunks(1).collect();
    assert_eq!(events(max, &bytes), whole);
}

#[test]
fn the_pull_reader_and_the_codec_give_the_push_readers_events() {
    let max = 50;
    let expected = events(max, &[STREAM]);
    // A buffer the whole stream fits in too: the pull reader gives its
    // bytes back before the event is read, so it must never lend data.
    for stream in [STREAM, USUAL] {
        let pulled: Vec<EventBuf> =
            Events::new(BufReader::with_capacity(8192, stream), max).collect::<Result<_, _>>().unwrap();
        assert_eq!(pulled, events(max, &[stream]), "pull, the stream whole in the buffer");
    }
    for capacity in 1..12 {
        let pulled: Vec<EventBuf> =
            Events::new(BufReader::with_capacity(capacity, STREAM), max).collect::<Result<_, _>>().unwrap();
        assert_eq!(pulled, expected, "pull, capacity {capacity}");
        let mut codec = EventCodec::new(max);
        let mut buf = BytesMut::new();
        let mut decoded = Vec::new();
        for chunk in STREAM.chunks(capacity) {
            buf.extend_from_slice(chunk);
            while let Some(e) = codec.decode(&mut buf).unwrap() {
                decoded.push(e);
            }
            assert!(buf.is_empty(), "the codec takes every byte it is given");
        }
        while let Some(e) = codec.decode_eof(&mut buf).unwrap() {
            decoded.push(e);
        }
        assert_eq!(decoded, expected, "codec, chunks of {capacity}");
    }
}

/// Events the usual way (`event`, `id` and one `data` line, ended by LF),
/// read in one pass when whole in a chunk, and each way out of that pass:
/// the fields in either order, a repeated `event`, an id holding NUL, CR,
/// `retry`, a comment, a second data line, fields without a space, an
/// empty id, data past the limit, and an event the stream cuts.
const USUAL: &[u8] = b"id: 0\ndata: \n\n\
event: message\nid: 1\ndata: {\"a\":1}\n\n\
id: 2\nevent: endpoint\ndata: /mcp\n\n\
data: plain\n\n\
event: e\nevent: f\ndata: twice\n\n\
id: 3\0\ndata: nul\n\n\
id: 4\r\ndata: cr\n\n\
retry: 5\ndata: r\n\n\
: comment\ndata: after\n\n\
data: one\ndata: two\n\n\
event:x\nid:5\ndata:tight\n\n\
id:\ndata: no id\n\n\
data: 0123456789abcdefghij0123456789abcdefghij0123456789abcdefghij\n\n\
event: last\nid: 6\ndata: cut";

#[test]
fn the_usual_event_read_in_one_pass_is_the_event_read_line_by_line() {
    let max = 50;
    let whole = events(max, &[USUAL]);
    assert_eq!(
        data_of(&whole),
        [
            "",
            "{\"a\":1}",
            "/mcp",
            "plain",
            "twice",
            "nul",
            "cr",
            "r",
            "after",
            "one\ntwo",
            "tight",
            "no id",
            "Oversized { len: 60 }",
            "Cut"
        ]
    );
    let types: Vec<&[u8]> = whole.iter().map(|e| e.event_type.as_slice()).collect();
    let message: &[u8] = b"message";
    assert_eq!(types[..5], [message, message, b"endpoint", message, b"f"]);
    assert_eq!(types[10], b"x");
    let ids: Vec<&[u8]> = whole.iter().map(|e| e.id.as_slice()).collect();
    assert_eq!(ids[..7], [b"0" as &[u8], b"1", b"2", b"2", b"2", b"2", b"4"]);
    assert_eq!((ids[10], ids[11], ids[13]), (b"5" as &[u8], b"" as &[u8], b"6" as &[u8]));
    assert_eq!(whole[7].retry, Some(5));
    // Where each event starts: its first field line, comments not counted.
    let starts: Vec<(u64, u64)> = whole.iter().map(|e| (e.line, e.offset)).collect();
    assert_eq!(starts[..3], [(1, 0), (4, 14), (8, 50)]);
    assert_eq!(starts[8].0, 28, "the line after the comment");
    // Byte by byte no event is whole in a chunk: the state machine alone.
    let bytes: Vec<&[u8]> = USUAL.chunks(1).collect();
    assert_eq!(events(max, &bytes), whole);
    for split in 0..=USUAL.len() {
        let (a, b) = USUAL.split_at(split);
        assert_eq!(events(max, &[a, b]), whole, "split at {split}");
    }
}

#[test]
fn a_field_whose_name_only_begins_like_a_known_one_is_another_field() {
    // `evented`, `ids` and `datum` are fields no event reads: ignored, in
    // one pass as line by line, and the type, id and data stay as they were.
    let stream = b"evented: x\ndata:1\n\nids: 9\ndata:2\n\ndatum: 3\ndata:4\n\n";
    let whole = events(50, &[stream]);
    assert_eq!(data_of(&whole), ["1", "2", "4"]);
    let message: &[u8] = b"message";
    assert!(whole.iter().all(|e| e.event_type.as_slice() == message && e.id.is_empty()), "{whole:?}");
    let bytes: Vec<&[u8]> = stream.chunks(1).collect();
    assert_eq!(events(50, &bytes), whole);
}

#[test]
fn an_event_read_in_one_pass_ends_at_its_own_data_line_whatever_follows() {
    // After `data:ab` and its blank line come a comment and a blank line:
    // no part of them is the event's data, however the bytes arrive.
    let stream = b"data:ab\n\n:\n\n";
    let whole = events(50, &[stream]);
    assert_eq!(data_of(&whole), ["ab"]);
    let bytes: Vec<&[u8]> = stream.chunks(1).collect();
    assert_eq!(events(50, &bytes), whole);
}

#[test]
fn the_type_message_is_the_default_and_holds_no_bytes() {
    // Read by the state machine (CR LF endings), line by line: naming the
    // default type keeps nothing, another type keeps its name.
    let mut reader = EventReader::new(50);
    reader.feed(b"event: message\r\n", |_| {});
    assert_eq!(reader.buffered(), 0);
    reader.feed(b"event: other\r\n", |_| {});
    assert_eq!(reader.buffered(), 5);
    let mut got = Vec::new();
    reader.feed(b"event: message\r\ndata: x\r\n\r\n", |e| got.push(EventBuf::from(e)));
    assert_eq!((got.len(), got[0].event_type.as_slice()), (1, &b"message"[..]));
}
