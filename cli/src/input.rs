//! Reading inputs: files or standard input, one message per line (MCP
//! stdio framing), one per `message` event of an event stream (Streamable
//! HTTP), or one message per file.

use std::fs::File;
use std::io::{self, Read};
use std::ops::ControlFlow;

use mcp_envelope::transport::lines::{Line, LineReader};
use mcp_envelope::transport::sse::{Body, Event, EventReader};

/// Where a message came from.
pub struct Origin<'a> {
    pub file: &'a str,
    /// 1-based line where the message starts (for an event: where the
    /// event began).
    pub line: u64,
    /// The event that carried it, in an event stream.
    pub event: Option<Tag<'a>>,
}

/// An event's type and last event id.
#[derive(Clone, Copy)]
pub struct Tag<'a> {
    pub event_type: &'a [u8],
    pub id: &'a [u8],
}

/// One message read from an input, or an event that carries none.
pub enum Piece<'b> {
    Message(&'b [u8]),
    /// Longer than the size limit; skipped, not stored.
    Oversized,
    /// An event with no message: empty data (a priming event), or an event
    /// type other than `message` (its data, as it came).
    NoMessage(&'b [u8]),
    /// The stream ended inside an event, which was never delivered.
    Cut,
}

impl<'b> Piece<'b> {
    fn of_event(event: &Event<'b>) -> Piece<'b> {
        match event.body {
            Body::Data(data) if event.is_message() && !data.is_empty() => Piece::Message(data),
            Body::Data(data) => Piece::NoMessage(data),
            Body::Oversized { .. } if event.is_message() => Piece::Oversized,
            // Another type too large to hold: no message either way.
            Body::Oversized { .. } => Piece::NoMessage(&[]),
            Body::Cut => Piece::Cut,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Framing {
    /// One message per line (MCP stdio).
    Lines,
    /// An event stream (`text/event-stream`, Streamable HTTP): one message
    /// per `message` event.
    Sse,
    /// Each file is exactly one message.
    Whole,
}

fn open(name: &str) -> io::Result<Box<dyn Read>> {
    if name == "-" { Ok(Box::new(io::stdin().lock())) } else { Ok(Box::new(File::open(name)?)) }
}

/// Calls `each` for every message of `name` ("-" for standard input), until
/// `each` says to stop: then nothing more is read.
pub fn read(
    name: &str,
    framing: Framing,
    max_size: usize,
    mut each: impl FnMut(Origin<'_>, Piece<'_>) -> ControlFlow<()>,
) -> io::Result<()> {
    let mut reader = open(name)?;
    let stopped = std::cell::Cell::new(false);
    let mut give = |origin: Origin<'_>, piece: Piece<'_>| {
        if !stopped.get() {
            stopped.set(each(origin, piece).is_break());
        }
    };
    match framing {
        Framing::Lines => {
            let mut lines = LineReader::new(max_size);
            let mut emit = |frame: Line<'_>| match frame {
                Line::Message { line, bytes, .. } => {
                    give(Origin { file: name, line, event: None }, Piece::Message(bytes))
                }
                Line::Oversized { line, .. } => give(Origin { file: name, line, event: None }, Piece::Oversized),
            };
            chunks(&mut reader, &stopped, |chunk| lines.feed(chunk, &mut emit))?;
            lines.finish(&mut emit);
        }
        Framing::Sse => {
            let mut events = EventReader::new(max_size);
            let mut emit = |event: Event<'_>| {
                let tag = Tag { event_type: event.event_type, id: event.id };
                give(Origin { file: name, line: event.line, event: Some(tag) }, Piece::of_event(&event));
            };
            chunks(&mut reader, &stopped, |chunk| events.feed(chunk, &mut emit))?;
            events.finish(&mut emit);
        }
        Framing::Whole => {
            // Read one byte past the limit to know whether it was exceeded,
            // without reading a huge file into memory.
            let mut bytes = Vec::new();
            reader.by_ref().take(max_size as u64 + 1).read_to_end(&mut bytes)?;
            let origin = Origin { file: name, line: 1, event: None };
            give(origin, if bytes.len() > max_size { Piece::Oversized } else { Piece::Message(&bytes) });
        }
    }
    Ok(())
}

/// Reads `reader` in chunks of 64 KiB, handing each to `feed`, until the
/// end or until `stopped` is set.
fn chunks(reader: &mut dyn Read, stopped: &std::cell::Cell<bool>, mut feed: impl FnMut(&[u8])) -> io::Result<()> {
    let mut chunk = vec![0; 64 * 1024];
    while !stopped.get() {
        let n = match reader.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        feed(chunk.get(..n).unwrap_or_default());
    }
    Ok(())
}
