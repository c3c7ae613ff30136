//! The headers the exchange rules read, picked from whatever the HTTP
//! library holds (names compared without regard to case, as RFC 9110
//! says), and the forms their values take: media types, visible ASCII,
//! and SEP-2243's Base64 sentinel.

use alloc::vec::Vec;

use crate::span;

/// One header as an exchange sees it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Header<'h> {
    /// Not sent.
    #[default]
    Absent,
    /// Sent once, with this value (optional whitespace around it removed).
    One(&'h [u8]),
    /// Sent more than once: for a header that mirrors the body, two values
    /// are two answers to one question.
    Repeated,
}

impl<'h> Header<'h> {
    fn add(&mut self, value: &'h [u8]) {
        *self = match self {
            Header::Absent => Header::One(trim(value)),
            Header::One(_) | Header::Repeated => Header::Repeated,
        };
    }

    /// The value, when the header was sent once.
    #[must_use]
    pub fn value(self) -> Option<&'h [u8]> {
        match self {
            Header::One(value) => Some(value),
            Header::Absent | Header::Repeated => None,
        }
    }

    /// Whether the header was sent at all.
    #[must_use]
    pub fn is_present(self) -> bool {
        self != Header::Absent
    }
}

/// What an `Accept` header (all its lines) lists of the two types a
/// Streamable HTTP client must accept.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Accepts {
    /// `application/json`, `application/*` or `*/*` is listed.
    pub json: bool,
    /// `text/event-stream`, `text/*` or `*/*` is listed.
    pub event_stream: bool,
}

impl Accepts {
    fn add(&mut self, value: &[u8]) {
        for range in value.split(|&b| b == b',') {
            let range = media_type(range);
            let is = |name: &[u8]| range.eq_ignore_ascii_case(name);
            self.json |= is(b"application/json") || is(b"application/*") || is(b"*/*");
            self.event_stream |= is(b"text/event-stream") || is(b"text/*") || is(b"*/*");
        }
    }
}

/// The headers of one request or response that the rules read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Headers<'h> {
    /// `Content-Type`.
    pub content_type: Header<'h>,
    /// `Accept`, every line of it.
    pub accept: Accepts,
    /// `MCP-Protocol-Version`.
    pub protocol_version: Header<'h>,
    /// `Mcp-Session-Id`.
    pub session_id: Header<'h>,
    /// `Mcp-Method` (SEP-2243).
    pub mcp_method: Header<'h>,
    /// `Mcp-Name` (SEP-2243).
    pub mcp_name: Header<'h>,
    /// `Last-Event-ID`: a GET that resumes a stream.
    pub last_event_id: Header<'h>,
    /// Some `Mcp-Param-{Name}` header (SEP-2243) has no name, or a value
    /// no parameter encodes to: control characters, bytes past ASCII, a
    /// Base64 sentinel that does not decode.
    pub param_malformed: bool,
}

impl<'h> Headers<'h> {
    /// Picks the headers the rules read from every (name, value) pair of a
    /// request or response; the others are passed over.
    ///
    /// ```
    /// use mcp_envelope::transport::exchange::{Header, Headers};
    ///
    /// let headers = Headers::from_pairs([("content-type", &b"application/json"[..]), ("mcp-method", b" tools/call ")]);
    /// assert_eq!(headers.mcp_method, Header::One(b"tools/call"));
    /// assert!(headers.is_json());
    /// ```
    pub fn from_pairs<I>(pairs: I) -> Headers<'h>
    where
        I: IntoIterator<Item = (&'h str, &'h [u8])>,
    {
        let mut headers = Headers::default();
        for (name, value) in pairs {
            let slot = match name.len() {
                6 if name.eq_ignore_ascii_case("accept") => {
                    headers.accept.add(value);
                    continue;
                }
                8 if name.eq_ignore_ascii_case("mcp-name") => &mut headers.mcp_name,
                10 if name.eq_ignore_ascii_case("mcp-method") => &mut headers.mcp_method,
                12 if name.eq_ignore_ascii_case("content-type") => &mut headers.content_type,
                13 if name.eq_ignore_ascii_case("last-event-id") => &mut headers.last_event_id,
                14 if name.eq_ignore_ascii_case("mcp-session-id") => &mut headers.session_id,
                20 if name.eq_ignore_ascii_case("mcp-protocol-version") => &mut headers.protocol_version,
                _ => {
                    let param = name.get(..PARAM.len()).is_some_and(|head| head.eq_ignore_ascii_case(PARAM));
                    if param && (name.len() == PARAM.len() || mirrored(trim(value)) == Mirrored::Malformed) {
                        headers.param_malformed = true;
                    }
                    continue;
                }
            };
            slot.add(value);
        }
        headers
    }

    /// `Content-Type` is `application/json` (parameters such as `charset`
    /// aside).
    #[must_use]
    pub fn is_json(&self) -> bool {
        self.content_type.value().is_some_and(|v| media_type(v).eq_ignore_ascii_case(b"application/json"))
    }

    /// `Content-Type` is `text/event-stream`.
    #[must_use]
    pub fn is_event_stream(&self) -> bool {
        self.content_type.value().is_some_and(|v| media_type(v).eq_ignore_ascii_case(b"text/event-stream"))
    }
}

/// The prefix of SEP-2243's headers for tool parameters.
const PARAM: &str = "mcp-param-";

/// `MCP-Protocol-Version` sent once, naming no MCP revision.
pub(crate) fn names_no_revision(header: Header<'_>) -> bool {
    header.value().is_some_and(|value| {
        !core::str::from_utf8(value).ok().and_then(|v| v.parse::<crate::Revision>().ok()).is_some_and(|r| r.is_mcp())
    })
}

/// A content type that is a web page.
pub(crate) fn is_html(value: &[u8]) -> bool {
    media_type(value).eq_ignore_ascii_case(b"text/html")
}

/// Optional whitespace (space, tab) removed from both ends (RFC 9110).
fn trim(value: &[u8]) -> &[u8] {
    let start = value.iter().position(|&b| b != b' ' && b != b'\t').unwrap_or(value.len());
    let end = value.iter().rposition(|&b| b != b' ' && b != b'\t').map_or(start, |i| i + 1);
    span::within(value, start..end)
}

/// The type of a media type or range, without its parameters.
fn media_type(value: &[u8]) -> &[u8] {
    trim(value.split(|&b| b == b';').next().unwrap_or_default())
}

/// Only visible ASCII (0x21 to 0x7E), and not empty: what a session id
/// may hold.
pub(crate) fn is_visible_ascii(value: &[u8]) -> bool {
    !value.is_empty() && value.iter().all(|&b| (0x21..=0x7E).contains(&b))
}

/// A header value with no control character and nothing past ASCII: a
/// value that needed more is sent Base64-encoded (SEP-2243).
pub(crate) fn is_plain(value: &[u8]) -> bool {
    value.iter().all(|&b| b == b'\t' || (0x20..=0x7E).contains(&b))
}

const SENTINEL_HEAD: &[u8] = b"=?base64?";
const SENTINEL_TAIL: &[u8] = b"?=";

/// What a header value that mirrors a string of the body stands for.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Mirrored<'h> {
    /// Plain text, as it is.
    Plain(&'h [u8]),
    /// `=?base64?...?=`: the bytes it encodes.
    Decoded(Vec<u8>),
    /// Control characters or non-ASCII bytes, or a sentinel that does not
    /// decode.
    Malformed,
}

impl Mirrored<'_> {
    /// Whether this stands for `text`.
    pub(crate) fn is(&self, text: &str) -> bool {
        match self {
            Mirrored::Plain(bytes) => *bytes == text.as_bytes(),
            Mirrored::Decoded(bytes) => bytes.as_slice() == text.as_bytes(),
            Mirrored::Malformed => false,
        }
    }
}

/// Reads a value that may carry the Base64 sentinel (`Mcp-Name`): the
/// markers are case-sensitive, and a value without both is plain text.
pub(crate) fn mirrored(value: &[u8]) -> Mirrored<'_> {
    if !is_plain(value) {
        return Mirrored::Malformed;
    }
    let inner = value.strip_prefix(SENTINEL_HEAD).and_then(|rest| rest.strip_suffix(SENTINEL_TAIL));
    match inner {
        None => Mirrored::Plain(value),
        Some(encoded) => base64(encoded).map_or(Mirrored::Malformed, Mirrored::Decoded),
    }
}

/// Standard Base64 (RFC 4648, section 4) with its padding, strictly: a
/// length that is not a multiple of four, a byte outside the alphabet or
/// padding anywhere but at the end is no Base64.
fn base64(text: &[u8]) -> Option<Vec<u8>> {
    fn sextet(b: u8) -> Option<u32> {
        Some(u32::from(match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        }))
    }
    if !text.len().is_multiple_of(4) {
        return None;
    }
    let padding = text.iter().rev().take_while(|&&b| b == b'=').count();
    if padding > 2 {
        return None;
    }
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let quads = text.len() / 4;
    for (i, quad) in text.chunks(4).enumerate() {
        let last = i + 1 == quads;
        let pad = if last { padding } else { 0 };
        let mut word = 0u32;
        for (j, &b) in quad.iter().enumerate() {
            let bits = if j >= 4 - pad { 0 } else { sextet(b)? };
            word = word * 64 + bits;
        }
        let bytes = word.to_be_bytes();
        out.extend_from_slice(span::within(&bytes, 1..4 - pad));
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_of_the_same_length_as_those_read_are_passed_over() {
        // One decoy for each name length the rules read, with a value that
        // would count if it were taken.
        let decoys = [
            ("cookie", &b"application/json, text/event-stream"[..]),
            ("x-mcp-id", b"get_me"),
            ("user-agent", b"tools/call"),
            ("x-request-id", b"application/json"),
            ("cache-control", b"7"),
            ("content-length", b"abc"),
            ("x-forwarded-protocol", b"2025-11-25"),
        ];
        assert_eq!(Headers::from_pairs(decoys), Headers::default());
        let read = Headers::from_pairs([("ACCEPT", &b"application/json"[..]), ("Mcp-Name", b"x")]);
        assert_eq!((read.mcp_name, read.accept == Headers::default().accept), (Header::One(b"x"), false));
    }

    #[test]
    fn names_are_matched_without_case_and_values_lose_their_surrounding_whitespace() {
        let h = Headers::from_pairs([
            ("MCP-METHOD", &b"\ttools/call  "[..]),
            ("Mcp-Name", b"a b"),
            ("x-other", b"1"),
            ("Mcp-Session-Id", b"s1"),
            ("mcp-session-id", b"s2"),
        ]);
        assert_eq!(h.mcp_method, Header::One(b"tools/call"));
        assert_eq!(h.mcp_name, Header::One(b"a b"));
        assert_eq!(h.session_id, Header::Repeated);
        assert_eq!(h.protocol_version, Header::Absent);
    }

    #[test]
    fn accept_lists_are_read_across_lines_with_wildcards() {
        let both = Headers::from_pairs([("accept", &b"application/json;q=0.9, text/event-stream"[..])]);
        assert_eq!(both.accept, Accepts { json: true, event_stream: true });
        let split = Headers::from_pairs([("Accept", &b"application/json"[..]), ("Accept", b"text/event-stream")]);
        assert_eq!(split.accept, Accepts { json: true, event_stream: true });
        let any = Headers::from_pairs([("accept", &b"*/*"[..])]);
        assert_eq!(any.accept, Accepts { json: true, event_stream: true });
        let json = Headers::from_pairs([("accept", &b"application/json"[..])]);
        assert_eq!(json.accept, Accepts { json: true, event_stream: false });
    }

    #[test]
    fn content_types_are_compared_without_their_parameters() {
        assert!(Headers::from_pairs([("content-type", &b"Application/JSON; charset=utf-8"[..])]).is_json());
        assert!(Headers::from_pairs([("content-type", &b"text/event-stream"[..])]).is_event_stream());
        assert!(!Headers::from_pairs([("content-type", &b"text/html"[..])]).is_json());
    }

    #[test]
    fn the_base64_sentinel_decodes_strictly_and_its_markers_are_case_sensitive() {
        // SEP-2243's vectors.
        assert!(mirrored(b"=?base64?SGVsbG8sIOS4lueVjA==?=").is("Hello, 世界"));
        assert!(mirrored(b"=?base64?IHBhZGRlZCA=?=").is(" padded "));
        assert!(mirrored(b"=?base64?bGluZTEKbGluZTI=?=").is("line1\nline2"));
        assert!(mirrored(b"=?base64?5pel5pys6Kqe?=").is("日本語"));
        assert!(mirrored(b"=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=").is("=?base64?literal?="));
        // Bad padding or characters: malformed; other markers: literal.
        assert_eq!(mirrored(b"=?base64?SGVsbG8?="), Mirrored::Malformed);
        assert_eq!(mirrored(b"=?base64?SGVs!!!bG8=?="), Mirrored::Malformed);
        assert_eq!(mirrored(b"=?base64?S=Vs?="), Mirrored::Malformed);
        assert_eq!(mirrored(b"=?BASE64?SGVsbG8=?="), Mirrored::Plain(b"=?BASE64?SGVsbG8=?="));
        assert_eq!(mirrored(b"SGVsbG8="), Mirrored::Plain(b"SGVsbG8="));
        assert_eq!(mirrored(b"=?base64?SGVsbG8="), Mirrored::Plain(b"=?base64?SGVsbG8="));
        // Control characters and bytes past ASCII are never plain.
        assert_eq!(mirrored(b"a\x01b"), Mirrored::Malformed);
        assert_eq!(mirrored("é".as_bytes()), Mirrored::Malformed);
        assert!(mirrored(b"us west 1").is("us west 1"));
    }

    #[test]
    fn mcp_param_headers_need_a_name_and_a_value_a_parameter_encodes_to() {
        let malformed =
            |pairs: &[(&'static str, &'static [u8])]| Headers::from_pairs(pairs.iter().copied()).param_malformed;
        assert!(!malformed(&[("Mcp-Param-Region", b"us-west1"), ("mcp-param-count", b"42")]));
        assert!(!malformed(&[("MCP-PARAM-Name", b"=?base64?SGVsbG8sIOS4lueVjA==?=")]));
        assert!(malformed(&[("Mcp-Param-Region", b"us\x01west")]));
        assert!(malformed(&[("mcp-param-name", "é".as_bytes())]));
        assert!(malformed(&[("Mcp-Param-Name", b"=?base64?SGVsbG8?=")]));
        assert!(malformed(&[("Mcp-Param-", b"x")]));
        // Other names of the same lengths are not parameters.
        assert!(!malformed(&[("mcp-method", "é".as_bytes()), ("x-mcp-param-a", "é".as_bytes())]));
    }

    #[test]
    fn a_protocol_version_header_names_an_mcp_revision_or_nothing() {
        assert!(!names_no_revision(Header::One(b"2025-06-18")));
        assert!(names_no_revision(Header::One(b"1900-01-01")));
        assert!(names_no_revision(Header::One(b"jsonrpc")), "plain json-rpc is no protocol version of mcp");
        assert!(!names_no_revision(Header::Absent));
        assert!(!names_no_revision(Header::Repeated));
    }

    #[test]
    fn session_ids_are_visible_ascii_only() {
        assert!(is_visible_ascii(b"1868a90c-7b7d-4c1b-9f0e-3d6a6f1b2a4e"));
        assert!(!is_visible_ascii(b"a b"));
        assert!(!is_visible_ascii(b""));
        assert!(!is_visible_ascii("é".as_bytes()));
    }
}
