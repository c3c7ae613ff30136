//! Structure-aware fuzzing: an arbitrary description of an envelope, written
//! to bytes, with a model of what it must parse to.
//!
//! The writer here is deliberately separate from [`mcp_envelope::write`]: it must
//! also produce what the crate's writer never would (lone surrogates, raw
//! control characters, ids like `1.5`, repeated members, deep nesting). When
//! a sketch is clean (nothing the rules refuse), the model predicts the exact
//! message; whatever the sketch, every backend must agree on its bytes.

use core::fmt::Write as _;
use std::string::{String, ToString};
use std::vec::Vec;

use arbitrary::{Arbitrary, Unstructured};

use crate::{differential, shown};
use mcp_envelope::Limits;
use mcp_envelope::Parser;
use mcp_envelope::Revision;
use mcp_envelope::backend::SerdeJson;
use mcp_envelope::{Envelope, Id, Kind, Message};

/// A message, or a batch of them, then byte-level mutations.
#[derive(Arbitrary, Clone, Debug)]
pub struct Sketch {
    /// The revision the written message is parsed under.
    pub revision: Revision,
    /// What to write.
    pub body: Body,
    /// Whether to put whitespace between tokens.
    pub spaces: bool,
    /// Byte edits applied to the written message.
    pub mutations: Vec<Mutation>,
}

#[derive(Arbitrary, Clone, Debug)]
pub enum Body {
    One(EnvelopeSketch),
    Batch(Vec<EnvelopeSketch>),
}

#[derive(Arbitrary, Clone, Debug)]
pub struct EnvelopeSketch {
    pub version: Version,
    pub id: Option<IdSketch>,
    pub kind: KindSketch,
    /// Members the envelope does not know (their names may collide).
    pub extra: Vec<(Text, Value)>,
    /// Rotates the order of the members.
    pub rotate: u8,
}

#[derive(Arbitrary, Clone, Debug)]
pub enum Version {
    Standard,
    Missing,
    Other(Text),
}

#[derive(Arbitrary, Clone, Debug)]
pub enum IdSketch {
    Int(i64),
    Str(Text),
    Null,
    Number(Number),
    Bool(bool),
    Array,
}

#[derive(Arbitrary, Clone, Debug)]
pub enum KindSketch {
    /// A request with an id, a notification without.
    Call {
        method: Text,
        params: Option<Value>,
    },
    Result(Value),
    Error {
        code: Number,
        message: Text,
        data: Option<Value>,
    },
}

#[derive(Arbitrary, Clone, Debug)]
pub struct Number {
    pub negative: bool,
    pub int: u64,
    pub frac: Option<u16>,
    pub exp: Option<i16>,
}

#[derive(Arbitrary, Clone, Debug)]
pub enum Piece {
    /// Written as itself (escaped if it must be).
    Char(char),
    /// Written as `\uXXXX` (a surrogate pair beyond the BMP).
    Escaped(char),
    /// One of `\" \\ \/ \b \f \n \r \t`.
    Short(u8),
    /// `\uD800`..`\uDFFF` alone: invalid.
    Lone(u16),
    /// A raw control character: invalid.
    RawControl(u8),
}

#[derive(Arbitrary, Clone, Debug)]
pub struct Text(pub Vec<Piece>);

#[derive(Arbitrary, Clone, Debug)]
pub enum Value {
    Null,
    Bool(bool),
    Number(Number),
    /// A number of `digits` digits with exponent `exp`: beyond f64 and u64.
    Big {
        digits: u8,
        exp: i16,
    },
    Str(Text),
    Array(Vec<Value>),
    Object(Vec<(Text, Value)>),
    /// `n` nested arrays.
    Deep(u16),
}

#[derive(Arbitrary, Clone, Debug)]
pub enum Mutation {
    Truncate(u16),
    Insert(u16, u8),
    Delete(u16),
    ByteOrderMark,
    Append(u8),
}

/// What a clean sketch must parse to.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Expected {
    kind: Kind,
    id: Option<Id<'static>>,
    method: Option<String>,
    payload: Option<String>,
}

/// Writes JSON and keeps track of whether the result is clean.
struct Writer {
    out: String,
    bytes: Vec<u8>,
    /// No envelope rule is broken (per message).
    clean: bool,
    /// The JSON itself is valid (for the whole document: one JSON fault
    /// spoils every message of a batch).
    json_ok: bool,
    spaces: bool,
}

const DEEPEST_VALUE: usize = 40;

/// Bytes of fuzzer input a sketch is decoded from. 4 KiB describe batches of
/// dozens of messages and nesting far past the depth limit; libFuzzer grows
/// inputs to 16 KiB, and decoding and writing all of them cost time without
/// reaching anything new.
const MAX_SKETCH_BYTES: usize = 4096;

/// Byte mutations applied to a written message. `mutations` is the sketch's
/// last field, so it takes every byte left over: hundreds of edits, each
/// shifting the whole message, where a few already make any fault (the
/// `parse_*` targets mutate bytes without limit).
const MAX_MUTATIONS: usize = 16;

impl Writer {
    fn json_fault(&mut self) {
        self.clean = false;
        self.json_ok = false;
    }

    fn raw(&mut self, s: &str) {
        self.out.push_str(s);
    }

    fn gap(&mut self) {
        if self.spaces {
            self.out.push_str(" \n\t");
        }
    }

    /// Writes a string; returns what it decodes to.
    fn text(&mut self, text: &Text) -> String {
        let mut decoded = String::new();
        self.write_text(text, Some(&mut decoded));
        decoded
    }

    /// Writes a string, and what it decodes to into `decoded` when given
    /// (strings inside payloads need no decoded copy).
    fn write_text(&mut self, text: &Text, mut decoded: Option<&mut String>) {
        let mut decode = |c: char| {
            if let Some(d) = decoded.as_mut() {
                d.push(c);
            }
        };
        self.out.push('"');
        for piece in &text.0 {
            match *piece {
                Piece::Char(c) => {
                    decode(c);
                    match c {
                        '"' => self.out.push_str("\\\""),
                        '\\' => self.out.push_str("\\\\"),
                        c if u32::from(c) < 0x20 => {
                            let _ = write!(self.out, "\\u{:04x}", u32::from(c));
                        }
                        c => self.out.push(c),
                    }
                }
                Piece::Escaped(c) => {
                    decode(c);
                    let mut units = [0u16; 2];
                    for unit in c.encode_utf16(&mut units) {
                        let _ = write!(self.out, "\\u{unit:04X}");
                    }
                }
                Piece::Short(n) => {
                    const SHORT: [(&str, char); 8] = [
                        ("\\\"", '"'),
                        ("\\\\", '\\'),
                        ("\\/", '/'),
                        ("\\b", '\u{8}'),
                        ("\\f", '\u{c}'),
                        ("\\n", '\n'),
                        ("\\r", '\r'),
                        ("\\t", '\t'),
                    ];
                    let (written, c) = SHORT.get(usize::from(n % 8)).copied().unwrap_or(("\\n", '\n'));
                    self.out.push_str(written);
                    decode(c);
                }
                Piece::Lone(n) => {
                    self.json_fault();
                    let _ = write!(self.out, "\\u{:04x}", 0xD800 + u32::from(n % 0x800));
                }
                Piece::RawControl(n) => {
                    self.json_fault();
                    self.out.push(char::from(n % 0x20));
                }
            }
        }
        self.out.push('"');
    }

    fn number(&mut self, n: &Number) {
        let sign = if n.negative { "-" } else { "" };
        let _ = write!(self.out, "{sign}{}", n.int);
        if let Some(frac) = n.frac {
            let _ = write!(self.out, ".{frac}");
        }
        if let Some(exp) = n.exp {
            let _ = write!(self.out, "e{exp}");
        }
    }

    /// Writes `value` at nesting `level` (its own level); returns the text.
    fn value_text(&mut self, value: &Value, level: usize) -> String {
        let start = self.out.len();
        self.value(value, level);
        self.out.get(start..).unwrap_or_default().to_string()
    }

    /// Writes `value` at nesting `level` (its own level).
    fn value(&mut self, value: &Value, level: usize) {
        if level > Limits::DEFAULT_MAX_DEPTH {
            self.json_fault();
        }
        match value {
            Value::Null => self.raw("null"),
            Value::Bool(b) => self.raw(if *b { "true" } else { "false" }),
            Value::Number(n) => self.number(n),
            Value::Big { digits, exp } => {
                self.raw("1");
                self.raw(&"0".repeat(usize::from(*digits)));
                let _ = write!(self.out, "e{exp}");
            }
            Value::Str(t) => self.write_text(t, None),
            Value::Array(items) if level < DEEPEST_VALUE => {
                self.raw("[");
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        self.raw(",");
                    }
                    self.gap();
                    self.value(item, level + 1);
                }
                self.raw("]");
            }
            Value::Object(members) if level < DEEPEST_VALUE => {
                self.raw("{");
                for (i, (name, item)) in members.iter().enumerate() {
                    if i > 0 {
                        self.raw(",");
                    }
                    self.write_text(name, None);
                    self.raw(":");
                    self.gap();
                    self.value(item, level + 1);
                }
                self.raw("}");
            }
            Value::Array(_) | Value::Object(_) => self.raw("[]"),
            Value::Deep(n) => {
                let n = usize::from(*n % 300) + 1;
                if level + n - 1 > Limits::DEFAULT_MAX_DEPTH {
                    self.json_fault();
                }
                self.raw(&"[".repeat(n));
                self.raw(&"]".repeat(n));
            }
        }
    }

    /// Writes one envelope at `level`; returns its expected message if clean.
    fn envelope(&mut self, e: &EnvelopeSketch, level: usize, revision: Revision) -> Option<Expected> {
        let was_clean = core::mem::replace(&mut self.clean, true);
        let mut members: Vec<(&'static str, Member<'_>)> = Vec::new();
        match &e.version {
            Version::Standard => members.push(("jsonrpc", Member::Version)),
            Version::Missing => self.clean = false,
            Version::Other(t) => members.push(("jsonrpc", Member::Text(t))),
        }
        if let Some(id) = &e.id {
            members.push(("id", Member::Id(id)));
        }
        match &e.kind {
            KindSketch::Call { method, params } => {
                members.push(("method", Member::Text(method)));
                if let Some(p) = params {
                    members.push(("params", Member::Value(p)));
                }
            }
            KindSketch::Result(v) => members.push(("result", Member::Value(v))),
            KindSketch::Error { code, message, data } => {
                members.push(("error", Member::Error(code, message, data.as_ref())))
            }
        }
        let known = members.len();
        let rotate = usize::from(e.rotate) % (known + e.extra.len()).max(1);
        let mut order: Vec<usize> = (0..known + e.extra.len()).collect();
        order.rotate_left(rotate);

        let mut expected = Expected { kind: Kind::Notification, id: None, method: None, payload: None };
        let mut names: Vec<String> = members.iter().map(|(n, _)| (*n).to_string()).collect();
        let mut version_ok = matches!(e.version, Version::Standard);
        self.raw("{");
        for (i, &which) in order.iter().enumerate() {
            if i > 0 {
                self.raw(",");
            }
            self.gap();
            let Some((name, member)) = members.get(which) else {
                let Some((name, value)) = e.extra.get(which - known) else { continue };
                let decoded = self.text(name);
                if names.contains(&decoded) || ENVELOPE_NAMES.contains(&decoded.as_str()) {
                    self.clean = false;
                }
                names.push(decoded);
                self.raw(":");
                self.value(value, level + 1);
                continue;
            };
            self.out.push('"');
            self.out.push_str(name);
            self.out.push_str("\":");
            self.gap();
            match member {
                Member::Version => self.raw("\"2.0\""),
                Member::Text(t) => {
                    let decoded = self.text(t);
                    if *name == "jsonrpc" {
                        version_ok = decoded == "2.0";
                    } else {
                        expected.method = Some(decoded);
                    }
                }
                Member::Id(id) => expected.id = self.id(id, revision),
                Member::Value(v) => {
                    let is_object = matches!(v, Value::Object(_)) && level + 1 < DEEPEST_VALUE;
                    let is_array = matches!(v, Value::Array(_) | Value::Deep(_)) && level + 1 < DEEPEST_VALUE;
                    let allowed = match (*name, revision.is_mcp()) {
                        (_, false) if *name == "params" => is_object || is_array,
                        (_, false) => true,
                        _ => is_object,
                    };
                    let result_type = *name == "result" && revision.has_result_type() && bad_result_type(v);
                    if !allowed || result_type {
                        self.clean = false;
                    }
                    expected.payload = Some(self.value_text(v, level + 1));
                }
                Member::Error(code, message, data) => {
                    self.raw("{\"code\":");
                    self.number(code);
                    if integer(code).is_none() {
                        self.clean = false;
                    }
                    self.raw(",\"message\":");
                    self.text(message);
                    if let Some(d) = data {
                        self.raw(",\"data\":");
                        expected.payload = Some(self.value_text(d, level + 2));
                    }
                    self.raw("}");
                }
            }
        }
        self.gap();
        self.raw("}");

        expected.kind = match (&e.kind, &e.id) {
            (KindSketch::Call { .. }, Some(_)) => Kind::Request,
            (KindSketch::Call { .. }, None) => Kind::Notification,
            (KindSketch::Result(_), _) => Kind::Result,
            (KindSketch::Error { .. }, _) => Kind::Error,
        };
        match (expected.kind, &e.id) {
            (Kind::Result, None) => self.clean = false,
            (Kind::Error, None) if !revision.allows_error_without_id() => self.clean = false,
            (Kind::Error, Some(IdSketch::Null)) => expected.id = None,
            (Kind::Request | Kind::Result, Some(IdSketch::Null)) if !revision.allows_null_request_id() => {
                self.clean = false
            }
            _ => {}
        }
        let clean = self.clean && version_ok;
        self.clean = was_clean && clean;
        clean.then_some(expected)
    }

    fn id(&mut self, id: &IdSketch, revision: Revision) -> Option<Id<'static>> {
        match id {
            IdSketch::Int(n) => {
                let _ = write!(self.out, "{n}");
                Some(Id::Int(*n))
            }
            IdSketch::Str(t) => Some(Id::from(self.text(t))),
            IdSketch::Null => {
                self.raw("null");
                revision.allows_null_request_id().then_some(Id::Null)
            }
            IdSketch::Number(n) => {
                self.number(n);
                let value = integer(n);
                if value.is_none() {
                    self.clean = false;
                }
                value.map(Id::Int)
            }
            IdSketch::Bool(b) => {
                self.clean = false;
                self.raw(if *b { "true" } else { "false" });
                None
            }
            IdSketch::Array => {
                self.clean = false;
                self.raw("[]");
                None
            }
        }
    }
}

enum Member<'s> {
    Version,
    Text(&'s Text),
    Id(&'s IdSketch),
    Value(&'s Value),
    Error(&'s Number, &'s Text, Option<&'s Value>),
}

/// The model's integer rule, kept simple: only plain integers count, so a
/// number with a fraction or an exponent makes the sketch unclean rather
/// than repeating the parser's own arithmetic here.
fn integer(n: &Number) -> Option<i64> {
    if n.frac.is_some() || n.exp.is_some() {
        return None;
    }
    let magnitude = i128::from(n.int);
    i64::try_from(if n.negative { -magnitude } else { magnitude }).ok()
}

/// What `text` decodes to, or `None` if it is not a valid string.
fn decoded(text: &Text) -> Option<String> {
    let mut w = Writer { out: String::new(), bytes: Vec::new(), clean: true, json_ok: true, spaces: false };
    let s = w.text(text);
    w.json_ok.then_some(s)
}

/// A `resultType` member directly in a result object that is not a string
/// (2026-07-28 refuses it; the parser's own tests pin that case).
fn bad_result_type(value: &Value) -> bool {
    let Value::Object(members) = value else { return false };
    members.iter().any(|(name, v)| decoded(name).as_deref() == Some("resultType") && !matches!(v, Value::Str(_)))
}

/// Names the envelope reads: an unknown member by one of these names
/// changes the message, which the model leaves to the parser's tests.
const ENVELOPE_NAMES: [&str; 6] = ["jsonrpc", "id", "method", "params", "result", "error"];

impl Sketch {
    /// The bytes, and the expected messages when the sketch is clean and
    /// unmutated (`None` for a batch item that is not clean).
    fn write(&self) -> (Vec<u8>, Option<Vec<Option<Expected>>>) {
        let out = String::with_capacity(512);
        let mut w = Writer { out, bytes: Vec::new(), clean: true, json_ok: true, spaces: self.spaces };
        let expected = match &self.body {
            Body::One(e) => {
                let one = w.envelope(e, 1, self.revision);
                one.map(|m| std::vec![Some(m)])
            }
            Body::Batch(items) => {
                w.raw("[");
                let mut each = Vec::new();
                for (i, e) in items.iter().enumerate() {
                    if i > 0 {
                        w.raw(",");
                    }
                    let before = w.clean;
                    each.push(w.envelope(e, 2, self.revision));
                    w.clean = before;
                }
                w.raw("]");
                (self.revision.allows_batches() && !items.is_empty()).then_some(each)
            }
        };
        w.bytes = w.out.into_bytes();
        for m in self.mutations.iter().take(MAX_MUTATIONS) {
            let len = w.bytes.len();
            match *m {
                Mutation::Truncate(n) => w.bytes.truncate(usize::from(n) % (len + 1)),
                Mutation::Insert(at, b) => w.bytes.insert(usize::from(at) % (len + 1), b),
                Mutation::Delete(at) if len > 0 => {
                    w.bytes.remove(usize::from(at) % len);
                }
                Mutation::Delete(_) => {}
                Mutation::ByteOrderMark => w.bytes.splice(0..0, *b"\xEF\xBB\xBF").for_each(drop),
                Mutation::Append(b) => w.bytes.push(b),
            }
        }
        let expected = if self.mutations.is_empty() && w.json_ok { expected } else { None };
        (w.bytes, expected)
    }
}

fn summary(m: &Message<'_>) -> Expected {
    Expected {
        kind: m.kind(),
        id: m.id().cloned().map(Id::into_owned),
        method: m.method().map(ToString::to_string),
        payload: m.payload().map(|p| p.get().to_string()),
    }
}

/// Writes the sketch; every backend must agree on the bytes, and a clean
/// sketch must parse to exactly the messages it describes. (The round trip
/// through [`mcp_envelope::write`] is checked by [`crate::parse_serde`] and
/// [`crate::parse_simd`], on every message they accept.)
pub fn structured(sketch: &Sketch) {
    let (bytes, expected) = sketch.write();
    differential(&bytes);
    let Some(expected) = expected else { return };
    let mut parser = Parser::<SerdeJson>::with_backend(sketch.revision);
    let outcome = parser.parse(&bytes);
    let got: Vec<Option<Expected>> = match &outcome {
        Ok(Envelope::Single(m)) => std::vec![Some(summary(m))],
        Ok(Envelope::Batch(items)) => items.iter().map(|i| i.as_ref().ok().map(summary)).collect(),
        Err(_) => Vec::new(),
    };
    let matches = got.len() == expected.len() && got.iter().zip(&expected).all(|(g, e)| e.is_none() || g == e);
    assert!(matches, "under {}, {} parsed to {outcome:?}, expected {expected:?}", sketch.revision, shown(&bytes));
}

/// [`structured`] on a sketch decoded from raw fuzzer bytes, as libFuzzer
/// and the regression files supply them: at most their first 4 KiB.
pub fn structured_bytes(input: &[u8]) {
    let input = input.get(..MAX_SKETCH_BYTES).unwrap_or(input);
    if let Ok(sketch) = Sketch::arbitrary_take_rest(Unstructured::new(input)) {
        structured(&sketch);
    }
}
