//! What `check` prints: one readable line per message (a few for faults
//! and batches, with an excerpt under the fault), or one JSON line.

use std::borrow::Cow;
use std::io::{self, Write};

use mcp_envelope::Severity;

use super::{CUT_HINT, Checked, Context, Eventless, json, message};
use crate::input::Tag;
use crate::summary::{IdValue, Invalid, Summary};

/// How far either side of a fault the excerpt reaches, in bytes.
const EXCERPT_REACH: usize = 36;

/// Where a message is in its file, and its bytes when they were read.
pub struct Source<'a> {
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

impl IdValue {
    fn text(&self) -> String {
        match self {
            IdValue::Str(s) => format!("{s:?}"),
            IdValue::Int(n) => n.to_string(),
            IdValue::Null => "null".into(),
        }
    }
}

/// One JSON object, on one line.
pub fn json_line(out: &mut impl Write, source: &Source<'_>, checked: &Checked<'_>) -> io::Result<()> {
    let context = source.context();
    out.write_all(&json::line(|o| {
        context.write(o);
        message::write(o, checked);
    }))
}

/// An event that carries no message: `kind` is `empty-data`, `other-event`
/// (with its `data`) or `cut`.
pub fn eventless(out: &mut impl Write, source: &Source<'_>, what: Eventless<'_>, json: bool) -> io::Result<()> {
    if json {
        return out.write_all(&super::eventless_line(&source.context(), what));
    }
    let (event, event_id) = tag_fields(source.event);
    let event = event.unwrap_or(Cow::Borrowed("message"));
    write!(out, "{}:{}: {}", source.file, source.line, event_text(&event, event_id.flatten().as_deref()))?;
    match what {
        Eventless::NoMessage(_) if event == "message" => {
            writeln!(out, "no message (empty data, as a priming event sends)")
        }
        Eventless::NoMessage(data) => writeln!(out, "no message (data {:?})", String::from_utf8_lossy(data)),
        Eventless::Cut => writeln!(out, "invalid: cut\n  hint: {CUT_HINT}"),
    }
}

impl Source<'_> {
    fn context(&self) -> Context<'_> {
        Context { file: Some(self.file), line: Some(self.line), event: self.event, ..Context::default() }
    }
}

/// `event message (id "7"): `, the head of an event's text line.
fn event_text(event: &str, id: Option<&str>) -> String {
    match id {
        Some(id) => format!("event {event} (id {id:?}): "),
        None => format!("event {event}: "),
    }
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

fn summary_text(out: &mut impl Write, source: &Source<'_>, summary: &Summary) -> io::Result<()> {
    let Source { file, line, bytes, event } = *source;
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
pub fn text(out: &mut impl Write, source: &Source<'_>, checked: &Checked<'_>) -> io::Result<()> {
    match checked {
        Checked::One(summary) => summary_text(out, source, summary),
        Checked::Disagreement(each) => {
            writeln!(out, "{}:{}: backends disagree", source.file, source.line)?;
            for (name, summary) in each.iter() {
                let label = format!("{}[{name}]", source.file);
                summary_text(out, &Source { file: &label, ..*source }, summary)?;
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
        let source = Source { file: "f", line: 2, bytes: Some(b"[1e400]"), event: None };
        let mut out = Vec::new();
        json_line(&mut out, &source, &Checked::Disagreement(&each)).unwrap_or_default();
        let line: serde_json::Value = serde_json::from_slice(&out).unwrap_or_default();
        assert_eq!(line["disagreement"], true);
        assert_eq!(line["kind"], "request");
        assert_eq!(line["backends"]["simd"]["reason"], "invalid-number");
        let mut out = Vec::new();
        text(&mut out, &source, &Checked::Disagreement(&each)).unwrap_or_default();
        let shown = String::from_utf8_lossy(&out);
        assert!(shown.starts_with("f:2: backends disagree\nf[serde]:2: request id=1"), "{shown}");
        assert!(shown.contains("f[simd]:2:4: invalid -32700 invalid-number"), "{shown}");
    }

    #[test]
    fn positions_count_lines_within_whole_file_messages() {
        assert_eq!(position(b"{\n  \"a\": x\n}", 1, 9), (2, 8));
    }
}
