//! The exchange rules on arbitrary exchanges: no panic, findings that do
//! not depend on how the response stream was cut into chunks, handed out
//! once each, at places inside what was sent, blamed on the side that
//! sent it, and every -32020 answer a valid error response to the request;
//! and the ids of the conversation in flight until a response answers them.

use std::vec::Vec;

use crate::chunks::{Sizes, split};
use mcp_envelope::Parser;
use mcp_envelope::Revision;
use mcp_envelope::transport::exchange::{Conversation, Exchange, Finding, Flights, Headers, Place, Side};
use mcp_envelope::transport::sse::{Body, EventReader};
use mcp_envelope::write;
use mcp_envelope::{Envelope, Message};

/// The size limit of the events read here: small, so oversized events
/// (which the rules must take as unreadable) come up.
const MAX_EVENT: usize = 256;

/// `name: value` lines (the first line is the method or the status).
fn lines(block: &[u8]) -> (&[u8], Vec<(&str, &[u8])>) {
    let mut lines = block.split(|&b| b == b'\n');
    let first = lines.next().unwrap_or_default();
    let pairs = lines
        .filter_map(|line| {
            let colon = line.iter().position(|&b| b == b':')?;
            let name = core::str::from_utf8(line.get(..colon)?).ok()?;
            Some((name, line.get(colon + 1..).unwrap_or_default()))
        })
        .collect();
    (first, pairs)
}

/// Feeds the response body to `exchange` as its content type says, the
/// event stream in `chunks`; returns every finding handed out as it went.
fn respond(exchange: &mut Exchange, parser: &mut Parser, body: &[u8], chunks: &[&[u8]]) -> Vec<Finding> {
    let mut handed: Vec<Finding> = exchange.new_findings().to_vec();
    match exchange.reads_events() {
        Some(true) => {
            let mut reader = EventReader::new(MAX_EVENT);
            let mut event = |exchange: &mut Exchange, e: mcp_envelope::transport::sse::Event<'_>| {
                let place = Place::Response { line: e.line, offset: e.offset };
                if !e.id.is_empty() {
                    exchange.event_id();
                }
                match (e.message(), e.body) {
                    (Some(data), _) => exchange.message(place, &parser.parse(data)),
                    (None, Body::Oversized { .. } | Body::Cut) => exchange.unreadable(),
                    (None, Body::Data(_)) => {}
                }
            };
            for chunk in chunks {
                reader.feed(chunk, |e| event(exchange, e));
                handed.extend_from_slice(exchange.new_findings());
            }
            reader.finish(|e| event(exchange, e));
        }
        Some(false) if !body.is_empty() => {
            exchange.message(Place::Response { line: 1, offset: 0 }, &parser.parse(body));
        }
        Some(false) => {}
        None => exchange.body_bytes(body.len()),
    }
    exchange.end();
    handed.extend_from_slice(exchange.new_findings());
    handed
}

/// Input: a byte for the revision and what was negotiated, a byte for the
/// chunking (whose top bit says the server has shown it speaks
/// 2026-07-28), then four parts separated by NUL: the request's method
/// line and header lines (`name: value`), its body, the response's status
/// line and header lines, its body.
pub fn exchange(input: &[u8]) {
    let _ = exchange_findings(input);
}

/// As [`exchange`], and the findings of the exchange read whole (for the
/// seed corpus, whose files are held to the findings they were written
/// for).
pub fn exchange_findings(input: &[u8]) -> Vec<Finding> {
    let [config, seed, rest @ ..] = input else { return Vec::new() };
    let revisions = Revision::ALL;
    let revision = revisions.get(usize::from(*config) % revisions.len()).copied().unwrap_or_default();
    let negotiated = revisions.get(usize::from(*config / 16) % (revisions.len() + 1)).copied();
    // The seed's top bit: whether the server has shown it speaks 2026-07-28.
    let conversation = Conversation { revision, negotiated, modern: *seed >= 0x80 };
    let mut parts = rest.splitn(4, |&b| b == 0);
    let (request_head, body) = (parts.next().unwrap_or_default(), parts.next().unwrap_or_default());
    let (response_head, response_body) = (parts.next().unwrap_or_default(), parts.next().unwrap_or_default());
    let (method, request_pairs) = lines(request_head);
    let (status, response_pairs) = lines(response_head);
    let request_headers = Headers::from_pairs(request_pairs.iter().copied());
    let response_headers = Headers::from_pairs(response_pairs.iter().copied());
    let method = core::str::from_utf8(method).unwrap_or("POST");
    let status = core::str::from_utf8(status).ok().and_then(|s| s.trim().parse().ok()).unwrap_or(200);

    let rules = conversation.in_force_for(&request_headers);
    let mut parser = Parser::new(rules);
    let parsed = parser.parse(body);
    let mut exchange = if method.eq_ignore_ascii_case("POST") {
        Exchange::post(&conversation, &request_headers, body, &parsed)
    } else {
        Exchange::other(&conversation, method, &request_headers)
    };
    let request_findings = exchange.findings().len();
    exchange.response(status, &response_headers);
    let mut chunked = exchange.clone();

    let whole = respond(&mut exchange, &mut parser, response_body, &[response_body]);
    let mut sizes = Sizes::new(u32::from(*seed));
    let chunks = split(response_body, &mut sizes, 2 * MAX_EVENT);
    let pieces = respond(&mut chunked, &mut parser, response_body, &chunks);
    assert_eq!(exchange.findings(), chunked.findings(), "chunking the response changed the findings");
    assert_eq!(whole, exchange.findings(), "findings handed out more than once, or never");
    assert_eq!(pieces, chunked.findings(), "findings handed out more than once, or never (chunked)");

    let request_id = match &parsed {
        Ok(Envelope::Single(message)) => message.id().cloned(),
        _ => None,
    };
    for (i, finding) in exchange.findings().iter().enumerate() {
        let by_request = i < request_findings;
        let (inside, side) = match finding.place {
            Place::RequestHeader(_) => (true, Side::Client),
            Place::RequestBody(offset) => (offset <= body.len(), Side::Client),
            Place::ResponseHeader(_) | Place::Status | Place::End => (true, Side::Server),
            Place::Response { offset, .. } => {
                (usize::try_from(offset).is_ok_and(|o| o <= response_body.len()), Side::Server)
            }
        };
        assert!(inside, "{finding:?} lies outside what was sent");
        assert_eq!(finding.rule.side(), side, "{finding:?} is blamed on the wrong side");
        assert_eq!(by_request, side == Side::Client, "{finding:?} came at the wrong step");
        let Some(error) = finding.reply() else { continue };
        assert!(error.offset() <= body.len(), "{finding:?}: the reply's offset is outside the body");
        let mut reply = Vec::new();
        assert!(write::error_for(&mut reply, error), "{finding:?}: no reply written");
        let read = Parser::new(Revision::V2026_07_28).parse(&reply);
        let Ok(Envelope::Single(Message::Error(answer))) = read else {
            panic!("{finding:?}: the reply is not an error response: {read:?}")
        };
        assert_eq!(answer.error.code, -32020, "{finding:?}");
        assert_eq!(answer.id.as_ref(), request_id.as_ref(), "{finding:?}: the reply does not answer the request");
    }
    flights(rules, &parsed, body, response_body);
    exchange.findings().to_vec()
}

/// The conversation's ids: a request posted once is in flight until a
/// message of the response answers it, and then no longer.
fn flights(revision: Revision, parsed: &Result<Envelope<'_>, mcp_envelope::Error<'_>>, body: &[u8], response: &[u8]) {
    let mut flights = Flights::new(revision);
    let Ok(Envelope::Single(Message::Request(request))) = parsed else { return };
    let posted = Message::Request(request.clone());
    assert!(flights.posted(&posted, body).is_none(), "a first request is no reuse");
    assert!(flights.awaits(&request.id) || request.id == mcp_envelope::Id::Null, "a posted request is in flight");
    let mut parser = Parser::new(revision);
    let Ok(Envelope::Single(message)) = parser.parse(response) else { return };
    let _ = flights.sent(&message, Place::End, false);
    if matches!(&message, Message::Result(r) if r.id == request.id) {
        assert!(!flights.awaits(&request.id), "an answered request is no longer in flight");
    }
}
