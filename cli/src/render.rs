//! Output: one readable line per message for people, or one JSON object per
//! message for programs.

use std::borrow::Cow;
use std::io::{self, Write};

use mcp_envelope::transport::exchange::{Finding, Place as ExchangePlace, Severity};
use mcp_envelope::write;
use serde::Serialize;

use crate::input::Tag;
use crate::summary::{IdValue, Invalid, Summary};

/// How far either side of a fault the excerpt reaches, in bytes.
const EXCERPT_REACH: usize = 36;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// One line per message, with an excerpt under faults.
    Text,
    /// One JSON object per message, one per line.
    Json,
}

/// Where a message is, and its bytes when they were read.
pub struct Place<'a> {
    pub file: &'a str,
    pub line: u64,
    pub bytes: Option<&'a [u8]>,
    /// The event that carried it, in an event stream.
    pub event: Option<Tag<'a>>,
}

/// An event's type and id as the output shows them: text (lossy), and no
/// id as `null`.
fn tag_fields(tag: Option<Tag<'_>>) -> (Option<Cow<'_, str>>, Option<Option<Cow<'_, str>>>) {
    match tag {
        Some(Tag { event_type, id }) => {
            (Some(String::from_utf8_lossy(event_type)), Some((!id.is_empty()).then(|| String::from_utf8_lossy(id))))
        }
        None => (None, None),
    }
}

/// The verdict to print: one, or each backend's when they differ.
pub enum Verdict<'s> {
    One(&'s Summary),
    Disagreement(&'s [(&'static str, Summary)]),
}

impl IdValue {
    fn text(&self) -> String {
        match self {
            IdValue::Str(s) => format!("{s:?}"),
            IdValue::Int(n) => n.to_string(),
            IdValue::Null => "null".into(),
        }
    }
}

impl Serialize for IdValue {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            IdValue::Str(v) => s.serialize_str(v),
            IdValue::Int(n) => s.serialize_i64(*n),
            IdValue::Null => s.serialize_none(),
        }
    }
}

/// One message (or batch item) as the JSON output shows it; the members
/// are written in this order.
#[derive(Serialize)]
struct Verdictline<'s> {
    /// In `tap --http`: the exchange's number.
    #[serde(skip_serializing_if = "Option::is_none")]
    exchange: Option<u64>,
    /// In `tap`: who sent the message, `client` or `server`.
    #[serde(skip_serializing_if = "Option::is_none")]
    direction: Option<&'static str>,
    /// In `tap --http`: the request's method, the response's status and
    /// the body's content type.
    #[serde(skip_serializing_if = "Option::is_none")]
    http_method: Option<&'s str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    status: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    content_type: Option<&'s str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<&'s str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<u64>,
    /// In an event stream: the event's type, and its last event id.
    #[serde(skip_serializing_if = "Option::is_none")]
    event: Option<Cow<'s, str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    event_id: Option<Option<Cow<'s, str>>>,
    kind: &'static str,
    id: Option<&'s IdValue>,
    method: Option<&'s str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    code: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'static str>,
    /// On invalid messages: `violation` (a MUST broken) or `warning` (a
    /// rule the texts leave open, or this reader's own limit).
    #[serde(skip_serializing_if = "Option::is_none")]
    severity: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    offset: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hint: Option<&'static str>,
    /// On invalid messages: the error response to send, or `null` when
    /// none is due.
    #[serde(skip_serializing_if = "Option::is_none")]
    reply: Option<Option<&'s serde_json::value::RawValue>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    items: Option<Vec<Verdictline<'s>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    disagreement: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    backends: Option<Backends<'s>>,
    /// In `tap`: what the id rules found (a reused request id, a response
    /// to an id not in flight).
    #[serde(skip_serializing_if = "Option::is_none")]
    id_rule: Option<&'s [String]>,
    /// With `id_rule`: `violation`, as every id rule is a MUST or MUST NOT
    /// (the exchange findings of `tap --http` carry theirs).
    #[serde(skip_serializing_if = "Option::is_none")]
    id_severity: Option<&'static str>,
    /// In `tap`, for a line too large to hold: the kind and id its head
    /// and tail showed.
    #[serde(skip_serializing_if = "Option::is_none")]
    glimpse: Option<&'s Glimpsed>,
    /// In `tap`: why the line ended before its newline.
    #[serde(skip_serializing_if = "Option::is_none")]
    cut: Option<&'static str>,
}

/// What the head and tail of a line too large to hold showed.
#[derive(Serialize, Debug, Default)]
pub struct Glimpsed {
    pub kind: Option<&'static str>,
    pub id: Option<IdValue>,
}

impl<'s> Verdictline<'s> {
    fn of(summary: &'s Summary) -> Verdictline<'s> {
        let empty = Verdictline {
            exchange: None,
            direction: None,
            http_method: None,
            status: None,
            content_type: None,
            file: None,
            line: None,
            event: None,
            event_id: None,
            kind: "invalid",
            id: None,
            method: None,
            code: None,
            reason: None,
            severity: None,
            message: None,
            offset: None,
            hint: None,
            reply: None,
            items: None,
            disagreement: None,
            backends: None,
            id_rule: None,
            id_severity: None,
            glimpse: None,
            cut: None,
        };
        match summary {
            Summary::Valid { kind, id, method, .. } => {
                Verdictline { kind: kind.name(), id: id.as_ref(), method: method.as_deref(), ..empty }
            }
            Summary::Batch(items) => {
                Verdictline { kind: "batch", items: Some(items.iter().map(Verdictline::of).collect()), ..empty }
            }
            Summary::Invalid(Invalid { reason, offset, id, reply }) => Verdictline {
                id: id.as_ref(),
                // The reply is JSON written by the library: a parse failure
                // here would be a bug, shown as no reply rather than a panic.
                reply: Some(reply.as_deref().and_then(|r| serde_json::from_str(r).ok())),
                code: Some(reason.code()),
                reason: Some(reason.name()),
                severity: Some(reason.severity().name()),
                message: Some(reason.message()),
                offset: Some(*offset),
                hint: reason.hint(),
                ..empty
            },
        }
    }
}

/// Each backend's verdict, in a fixed order.
struct Backends<'s>(&'s [(&'static str, Summary)]);

impl Serialize for Backends<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (name, summary) in self.0 {
            map.serialize_entry(name, &Verdictline::of(summary))?;
        }
        map.end()
    }
}

/// The entry for `verdict`, with its place filled in by the caller.
fn entry<'s>(verdict: &Verdict<'s>) -> io::Result<Verdictline<'s>> {
    Ok(match verdict {
        Verdict::One(summary) => Verdictline::of(summary),
        Verdict::Disagreement(each) => {
            let first = each.first().map(|(_, s)| s).ok_or_else(|| io::Error::other("no verdicts"))?;
            Verdictline { disagreement: Some(true), backends: Some(Backends(each)), ..Verdictline::of(first) }
        }
    })
}

/// One JSON object, on one line.
pub fn json_line(out: &mut impl Write, place: &Place<'_>, verdict: &Verdict<'_>) -> io::Result<()> {
    let (event, event_id) = tag_fields(place.event);
    let line = Verdictline { file: Some(place.file), line: Some(place.line), event, event_id, ..entry(verdict)? };
    serde_json::to_writer(&mut *out, &line).map_err(io::Error::other)?;
    writeln!(out)
}

/// What an event without a message is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eventless<'a> {
    /// A `message` event with empty data (a priming event), or an event of
    /// another type, with its data.
    NoMessage(&'a [u8]),
    /// The stream ended inside the event.
    Cut,
}

#[derive(Serialize)]
struct EventlessLine<'s> {
    #[serde(skip_serializing_if = "Option::is_none")]
    exchange: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    direction: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    http_method: Option<&'s str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    status: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    content_type: Option<&'s str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    file: Option<&'s str>,
    line: u64,
    event: Cow<'s, str>,
    event_id: Option<Cow<'s, str>>,
    kind: &'static str,
    /// For a cut event: `warning` (a message lost, no rule broken).
    #[serde(skip_serializing_if = "Option::is_none")]
    severity: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    data: Option<Cow<'s, str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    hint: Option<&'static str>,
}

const CUT_HINT: &str = "the stream ended before the event's blank line, so it was never delivered";

/// An event that carries no message: `kind` is `empty-data`, `other-event`
/// (with its `data`) or `cut`.
pub fn eventless(out: &mut impl Write, place: &Place<'_>, what: Eventless<'_>, json: bool) -> io::Result<()> {
    let (event, event_id) = tag_fields(place.event);
    let event = event.unwrap_or(Cow::Borrowed("message"));
    let event_id = event_id.flatten();
    let (kind, data, hint) = eventless_kind(&event, what);
    if json {
        let line = EventlessLine {
            exchange: None,
            direction: None,
            http_method: None,
            status: None,
            content_type: None,
            file: Some(place.file),
            line: place.line,
            event,
            event_id,
            kind,
            severity: (what == Eventless::Cut).then_some("warning"),
            data,
            hint,
        };
        serde_json::to_writer(&mut *out, &line).map_err(io::Error::other)?;
        return writeln!(out);
    }
    write!(out, "{}:{}: {}", place.file, place.line, event_text(&event, event_id.as_deref()))?;
    match (kind, data) {
        ("empty-data", _) => writeln!(out, "no message (empty data, as a priming event sends)"),
        (_, Some(data)) => writeln!(out, "no message (data {data:?})"),
        _ => writeln!(out, "invalid: cut\n  hint: {CUT_HINT}"),
    }
}

/// An eventless event's `kind`, its data when it is shown, and a hint.
fn eventless_kind<'a>(event: &str, what: Eventless<'a>) -> (&'static str, Option<Cow<'a, str>>, Option<&'static str>) {
    match what {
        Eventless::NoMessage(_) if event == "message" => ("empty-data", None, None),
        Eventless::NoMessage(data) => ("other-event", Some(String::from_utf8_lossy(data)), None),
        Eventless::Cut => ("cut", None, Some(CUT_HINT)),
    }
}

/// `tap --http`'s log entry for an event without a message (`kind` as for
/// [`eventless`]); the event's line is in `http.line`.
pub fn http_eventless_line(http: &Http<'_>, what: Eventless<'_>) -> io::Result<Vec<u8>> {
    let (event, event_id) = tag_fields(http.event);
    let event = event.unwrap_or(Cow::Borrowed("message"));
    let (kind, data, hint) = eventless_kind(&event, what);
    let entry = EventlessLine {
        exchange: Some(http.exchange),
        direction: Some(http.direction),
        http_method: Some(http.method),
        status: http.status,
        content_type: http.content_type,
        file: None,
        line: http.line.unwrap_or(1),
        event,
        event_id: event_id.flatten(),
        kind,
        severity: (what == Eventless::Cut).then_some("warning"),
        data,
        hint,
    };
    let mut out = serde_json::to_vec(&entry).map_err(io::Error::other)?;
    out.push(b'\n');
    Ok(out)
}

#[derive(Serialize)]
struct FindingLine {
    exchange: u64,
    finding: &'static str,
    /// `violation` (a MUST broken) or `warning` (a SHOULD).
    severity: &'static str,
    side: &'static str,
    place: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    header: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    line: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    offset: Option<u64>,
    message: &'static str,
    /// The error the server answers with (HTTP 400), for the header faults
    /// of 2026-07-28; absent for the others.
    #[serde(skip_serializing_if = "Option::is_none")]
    reply: Option<Box<serde_json::value::RawValue>>,
}

/// `tap --http`'s log entry for one rule an exchange broke.
pub fn finding_line(exchange: u64, finding: &Finding) -> io::Result<Vec<u8>> {
    let (place, header, line, offset) = match finding.place {
        ExchangePlace::RequestHeader(name) => ("request-header", Some(name), None, None),
        ExchangePlace::ResponseHeader(name) => ("response-header", Some(name), None, None),
        ExchangePlace::Status => ("status", None, None, None),
        ExchangePlace::RequestBody(offset) => ("request-body", None, None, Some(offset as u64)),
        ExchangePlace::Response { line, offset } => ("response", None, Some(line), Some(offset)),
        ExchangePlace::End => ("end", None, None, None),
    };
    let reply = finding.reply().and_then(|error| {
        let mut out = Vec::new();
        // As the library wrote it, member order included.
        let written = write::error_for(&mut out, error).then(|| String::from_utf8(out).ok()).flatten()?;
        serde_json::value::RawValue::from_string(written).ok()
    });
    let entry = FindingLine {
        exchange,
        finding: finding.rule.name(),
        severity: finding.severity().name(),
        side: finding.rule.side().name(),
        place,
        header,
        line,
        offset,
        message: finding.rule.message(),
        reply,
    };
    let mut out = serde_json::to_vec(&entry).map_err(io::Error::other)?;
    out.push(b'\n');
    Ok(out)
}

#[derive(Serialize)]
struct NoteLine<'s> {
    exchange: u64,
    http_method: &'s str,
    note: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    detail: Option<&'s str>,
}

/// `tap --http`'s log entry for what happened to an exchange outside the
/// rules: `note` is a stable name (`upstream-unreachable`,
/// `upstream-failed`, `client-gone`, `request-failed`), `detail` the error.
pub fn note_line(exchange: u64, http_method: &str, note: &'static str, detail: Option<&str>) -> io::Result<Vec<u8>> {
    let mut out = serde_json::to_vec(&NoteLine { exchange, http_method, note, detail }).map_err(io::Error::other)?;
    out.push(b'\n');
    Ok(out)
}

/// What the stdio tap notes outside the messages; serialized with its
/// stable name as `note` (`relay-stopped`, `server-exited`,
/// `never-answered`) and then its fields.
#[derive(Serialize)]
#[serde(tag = "note", rename_all = "kebab-case")]
pub enum StdioNote<'s> {
    /// `direction` stopped relaying before its input ended.
    RelayStopped { direction: &'static str, detail: &'s str },
    /// The server's end: its exit code, or the signal that ended it.
    ServerExited {
        #[serde(skip_serializing_if = "Option::is_none")]
        code: Option<i32>,
        #[serde(skip_serializing_if = "Option::is_none")]
        signal: Option<&'s str>,
    },
    /// The requests `direction` sent that were never answered, and why
    /// the list may be too long.
    NeverAnswered {
        direction: &'static str,
        ids: &'s [IdValue],
        #[serde(skip_serializing_if = "Option::is_none")]
        detail: Option<&'s str>,
    },
}

/// `tap`'s log entry for a [`StdioNote`].
pub fn stdio_note_line(note: &StdioNote<'_>) -> io::Result<Vec<u8>> {
    let mut out = serde_json::to_vec(note).map_err(io::Error::other)?;
    out.push(b'\n');
    Ok(out)
}

/// `event message (id "7"): `, the head of an event's text line.
fn event_text(event: &str, id: Option<&str>) -> String {
    match id {
        Some(id) => format!("event {event} (id {id:?}): "),
        None => format!("event {event}: "),
    }
}

/// Where a stdio message was, and what the tap found of it beyond its
/// verdict.
pub struct TapPlace<'a> {
    pub direction: &'static str,
    /// The line, counted within its direction.
    pub line: u64,
    /// What the id rules found (a reused request id, a response to an id
    /// not in flight).
    pub id_rule: &'a [String],
    pub glimpse: Option<&'a Glimpsed>,
    pub cut: Option<&'static str>,
}

/// `tap`'s log entry: `check --format json`'s fields, `direction` first,
/// then what [`TapPlace`] adds.
pub fn tap_line(place: &TapPlace<'_>, verdict: &Verdict<'_>) -> io::Result<Vec<u8>> {
    let entry = Verdictline {
        direction: Some(place.direction),
        line: Some(place.line),
        id_rule: (!place.id_rule.is_empty()).then_some(place.id_rule),
        id_severity: (!place.id_rule.is_empty())
            .then_some(mcp_envelope::transport::exchange::Severity::Violation.name()),
        glimpse: place.glimpse,
        cut: place.cut,
        ..entry(verdict)?
    };
    let mut out = serde_json::to_vec(&entry).map_err(io::Error::other)?;
    out.push(b'\n');
    Ok(out)
}

/// Where a message of an HTTP exchange was: its exchange, who sent it, the
/// request's method, the response's status and content type (for what the
/// server sent), and the event that carried it.
pub struct Http<'a> {
    pub exchange: u64,
    pub direction: &'static str,
    pub method: &'a str,
    pub status: Option<u16>,
    pub content_type: Option<&'a str>,
    pub line: Option<u64>,
    pub event: Option<Tag<'a>>,
}

/// `tap --http`'s log entry for one message: `check --format json`'s
/// fields, after the exchange's.
pub fn http_line(http: &Http<'_>, verdict: &Verdict<'_>) -> io::Result<Vec<u8>> {
    let (event, event_id) = tag_fields(http.event);
    let entry = Verdictline {
        exchange: Some(http.exchange),
        direction: Some(http.direction),
        http_method: Some(http.method),
        status: http.status,
        content_type: http.content_type,
        line: http.line,
        event,
        event_id,
        ..entry(verdict)?
    };
    let mut out = serde_json::to_vec(&entry).map_err(io::Error::other)?;
    out.push(b'\n');
    Ok(out)
}

fn valid_text(kind: &str, id: Option<&IdValue>, method: Option<&str>) -> String {
    let mut s = kind.to_owned();
    if let Some(id) = id {
        s.push_str(&format!(" id={}", id.text()));
    }
    if let Some(method) = method {
        s.push_str(&format!(" method={method:?}"));
    }
    s
}

/// Line and column (1-based, in bytes) of `offset` within a message that
/// starts at `line`.
fn position(bytes: &[u8], line: u64, offset: usize) -> (u64, usize) {
    let before = bytes.get(..offset.min(bytes.len())).unwrap_or_default();
    let newlines = before.iter().filter(|&&b| b == b'\n').count() as u64;
    let line_start = before.iter().rposition(|&b| b == b'\n').map_or(0, |n| n + 1);
    (line + newlines, offset - line_start + 1)
}

/// A short excerpt of the line holding `offset`, and a caret under it.
fn excerpt(bytes: &[u8], offset: usize) -> (String, String) {
    let offset = offset.min(bytes.len());
    let line_start = bytes.get(..offset).unwrap_or_default().iter().rposition(|&b| b == b'\n').map_or(0, |n| n + 1);
    let line_end =
        bytes.get(offset..).unwrap_or_default().iter().position(|&b| b == b'\n').map_or(bytes.len(), |n| offset + n);
    let mut start = offset.saturating_sub(EXCERPT_REACH).max(line_start);
    // Do not start inside a UTF-8 sequence.
    while start < offset && bytes.get(start).is_some_and(|b| (0x80..0xC0).contains(b)) {
        start += 1;
    }
    let end = (offset + EXCERPT_REACH).min(line_end);
    let show = |b: &[u8]| -> String {
        String::from_utf8_lossy(b).chars().map(|c| if c.is_control() { ' ' } else { c }).collect()
    };
    let lead = if start > line_start { "…" } else { "" };
    let tail = if end < line_end { "…" } else { "" };
    let before = show(bytes.get(start..offset).unwrap_or_default());
    let text = format!("{lead}{before}{}{tail}", show(bytes.get(offset..end).unwrap_or_default()));
    let caret = format!("{}^", " ".repeat(lead.chars().count() + before.chars().count()));
    (text, caret)
}

fn invalid_text(
    out: &mut impl Write,
    head: &str,
    invalid: &Invalid,
    bytes: Option<&[u8]>,
    indent: &str,
) -> io::Result<()> {
    let Invalid { reason, offset, id, reply } = invalid;
    write!(out, "{head}invalid {} {}: {}", reason.code(), reason.name(), reason.message())?;
    // A violation is the rule; only the exception is spelled out.
    if reason.severity() == Severity::Warning {
        write!(out, " (warning)")?;
    }
    if let Some(id) = id {
        write!(out, " (id={})", id.text())?;
    }
    writeln!(out)?;
    if let Some(hint) = reason.hint() {
        writeln!(out, "{indent}  hint: {hint}")?;
    }
    if reply.is_none() {
        writeln!(out, "{indent}  no reply: the message is a response, and responses are never answered")?;
    }
    if let Some(bytes) = bytes.filter(|b| !b.is_empty()) {
        let (text, caret) = excerpt(bytes, *offset);
        writeln!(out, "{indent}  | {text}")?;
        writeln!(out, "{indent}  | {caret}")?;
    }
    Ok(())
}

fn summary_text(out: &mut impl Write, place: &Place<'_>, summary: &Summary) -> io::Result<()> {
    let Place { file, line, bytes, event } = *place;
    let (event_type, event_id) = tag_fields(event);
    let tag = event_type.map(|t| event_text(&t, event_id.flatten().as_deref())).unwrap_or_default();
    match summary {
        Summary::Valid { kind, id, method, .. } => {
            writeln!(out, "{file}:{line}: {tag}{}", valid_text(kind.name(), id.as_ref(), method.as_deref()))
        }
        // An event's data is its `data:` lines joined, so a line and column
        // in the stream would be a guess: the offset is within the data.
        Summary::Invalid(invalid) if event.is_some() => {
            let head = format!("{file}:{line}: {tag}at byte {} of its data: ", invalid.offset);
            invalid_text(out, &head, invalid, bytes, "")
        }
        Summary::Invalid(invalid) => {
            let (line, column) = bytes.map_or((line, 1), |b| position(b, line, invalid.offset));
            invalid_text(out, &format!("{file}:{line}:{column}: "), invalid, bytes, "")
        }
        Summary::Batch(items) => {
            writeln!(out, "{file}:{line}: {tag}batch of {}", items.len())?;
            for (i, item) in items.iter().enumerate() {
                match item {
                    Summary::Valid { kind, id, method, .. } => {
                        writeln!(out, "  [{i}] {}", valid_text(kind.name(), id.as_ref(), method.as_deref()))?;
                    }
                    Summary::Invalid(invalid) => {
                        let head = format!("  [{i}] at byte {}: ", invalid.offset);
                        invalid_text(out, &head, invalid, bytes, "    ")?;
                    }
                    Summary::Batch(_) => writeln!(out, "  [{i}] batch")?,
                }
            }
            Ok(())
        }
    }
}

/// One readable line (or a few, for faults and batches).
pub fn text(out: &mut impl Write, place: &Place<'_>, verdict: &Verdict<'_>) -> io::Result<()> {
    match verdict {
        Verdict::One(summary) => summary_text(out, place, summary),
        Verdict::Disagreement(each) => {
            writeln!(out, "{}:{}: backends disagree", place.file, place.line)?;
            for (name, summary) in each.iter() {
                let label = format!("{}[{name}]", place.file);
                summary_text(out, &Place { file: &label, ..*place }, summary)?;
            }
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_caret_sits_under_the_offending_byte() {
        let (text, caret) = excerpt(br#"{"jsonrpc":"2.0","id":1,"id":2}"#, 24);
        assert_eq!(text, r#"{"jsonrpc":"2.0","id":1,"id":2}"#);
        assert_eq!(caret.len() - 1, 24);
    }

    #[test]
    fn long_lines_are_cut_around_the_fault_without_splitting_characters() {
        let line = format!("{}é{}X{}", "a".repeat(100), "b".repeat(34), "c".repeat(100));
        let at = line.find('X').unwrap_or(0);
        let (text, caret) = excerpt(line.as_bytes(), at);
        assert!(text.starts_with('…') && text.ends_with('…'), "{text}");
        assert_eq!(text.chars().nth(caret.chars().count() - 1), Some('X'));
    }

    #[test]
    fn a_disagreement_shows_each_backend_s_verdict() {
        use mcp_envelope::{Kind, Reason};
        let valid =
            Summary::Valid { kind: Kind::Request, id: Some(IdValue::Int(1)), method: Some("m".into()), payload: None };
        let invalid = Summary::Invalid(Invalid { reason: Reason::InvalidNumber, offset: 3, id: None, reply: None });
        let each = [("serde", valid), ("simd", invalid)];
        let place = Place { file: "f", line: 2, bytes: Some(b"[1e400]"), event: None };
        let mut out = Vec::new();
        json_line(&mut out, &place, &Verdict::Disagreement(&each)).unwrap_or_default();
        let line: serde_json::Value = serde_json::from_slice(&out).unwrap_or_default();
        assert_eq!(line["disagreement"], true);
        assert_eq!(line["kind"], "request");
        assert_eq!(line["backends"]["simd"]["reason"], "invalid-number");
        let mut out = Vec::new();
        text(&mut out, &place, &Verdict::Disagreement(&each)).unwrap_or_default();
        let shown = String::from_utf8_lossy(&out);
        assert!(shown.starts_with("f:2: backends disagree\nf[serde]:2: request id=1"), "{shown}");
        assert!(shown.contains("f[simd]:2:4: invalid -32700 invalid-number"), "{shown}");
    }

    #[test]
    fn positions_count_lines_within_whole_file_messages() {
        assert_eq!(position(b"{\n  \"a\": x\n}", 1, 9), (2, 8));
    }
}
