//! What came back for one thing a prober sent, over either transport, and
//! the readings of it the grading shares.

use mcp_envelope::{Envelope, Id, Message, Parser, Revision};

/// What came back.
#[derive(Clone, Debug, Default)]
pub struct Answer {
    /// HTTP: the status. Stdio: none.
    pub status: Option<u16>,
    /// HTTP: `Content-Type`.
    pub content_type: Option<String>,
    /// HTTP: `Allow` (a 405 names the methods the endpoint serves).
    pub allow: Option<String>,
    /// HTTP: `Mcp-Session-Id`.
    pub session_id: Option<String>,
    /// The messages that came in answer: the lines a stdio server wrote
    /// before it answered the request that followed; an HTTP response's
    /// JSON body or its stream's message events.
    pub messages: Vec<Vec<u8>>,
    /// HTTP: the start of a body that is neither JSON nor an event stream.
    pub text: Option<String>,
    /// The server did not answer at all: what happened (it exited, it
    /// stayed silent, the connection failed).
    pub failure: Option<String>,
}

/// One message of an answer, as the strictest reading sees it.
#[derive(Clone, Debug)]
pub enum Read<'a> {
    /// A valid message.
    Message(Message<'a>),
    /// A batch (read as plain JSON-RPC): its valid items.
    Batch(Vec<Message<'a>>),
    /// No valid message: the parser's reason and offset.
    Invalid(String),
}

impl Answer {
    /// Each message read under `revision` (batches, where a server sends
    /// one, read as plain JSON-RPC).
    #[must_use]
    pub fn read(&self, revision: Revision) -> Vec<Read<'_>> {
        let mut parser = Parser::new(revision);
        let mut batches = Parser::new(Revision::JsonRpc);
        self.messages
            .iter()
            .map(|bytes| match parser.parse(bytes) {
                Ok(Envelope::Single(message)) => Read::Message(message.into_owned()),
                Ok(Envelope::Batch(_)) | Err(_) if bytes.trim_ascii_start().starts_with(b"[") => {
                    match batches.parse(bytes) {
                        Ok(envelope) => Read::Batch(
                            envelope.items().filter_map(Result::ok).map(|m| m.clone().into_owned()).collect(),
                        ),
                        Err(e) => Read::Invalid(format!("{} at byte {}", e.reason().name(), e.offset())),
                    }
                }
                Ok(Envelope::Batch(_)) => Read::Invalid("a batch".into()),
                Err(e) => Read::Invalid(format!("{} at byte {}", e.reason().name(), e.offset())),
            })
            .collect()
    }

    /// Whether the HTTP status is a success.
    #[must_use]
    pub fn success(&self) -> bool {
        self.status.is_some_and(|s| (200..300).contains(&s))
    }

    /// A short account, for the scorecard's `got`.
    #[must_use]
    pub fn describe(&self) -> String {
        if let Some(failure) = &self.failure {
            return failure.clone();
        }
        let mut parts = Vec::new();
        if let Some(status) = self.status {
            parts.push(status.to_string());
        }
        if let Some(text) = &self.text {
            parts.push(format!("{:?}", clip(text, 80)));
        }
        // Notifications answer nothing (a server may send one at any time:
        // a changed tool list), so they are not what came back.
        let mut parser = Parser::new(Revision::JsonRpc);
        let messages: Vec<&Vec<u8>> = self
            .messages
            .iter()
            .filter(|m| !matches!(parser.parse(m), Ok(Envelope::Single(Message::Notification(_)))))
            .collect();
        match messages.as_slice() {
            [] if self.status.is_none() => parts.push("no answer".into()),
            [] => {}
            messages => {
                for m in messages.iter().take(3) {
                    parts.push(clip(&String::from_utf8_lossy(m), 160));
                }
                if messages.len() > 3 {
                    parts.push(format!("and {} more", messages.len() - 3));
                }
            }
        }
        if parts.is_empty() { "nothing".into() } else { parts.join(" ") }
    }
}

/// `text` cut to about `max` bytes, on a character boundary.
#[must_use]
pub fn clip(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_owned();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", text.get(..end).unwrap_or(text))
}

/// An id as JSON text.
#[must_use]
pub fn id_json(id: &Id<'_>) -> String {
    let mut out = Vec::new();
    mcp_envelope::write::id(&mut out, id);
    String::from_utf8(out).unwrap_or_default()
}
