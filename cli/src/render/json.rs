//! JSON objects written by hand, member by member, into a line: how every
//! JSON line of the CLI is built (`check --format json`, the tap's log).
//! Strings go through the parser's own writer, so they are escaped as
//! serde_json escapes them; member names are the CLI's own ASCII names.

use mcp_envelope::write;

use crate::summary::IdValue;

/// An object being written: members in the order they are added.
pub struct Object<'o> {
    out: &'o mut Vec<u8>,
    empty: bool,
}

impl<'o> Object<'o> {
    /// Opens an object at the end of `out`.
    pub fn open(out: &'o mut Vec<u8>) -> Object<'o> {
        out.push(b'{');
        Object { out, empty: true }
    }

    fn name(&mut self, name: &'static str) {
        if !self.empty {
            self.out.push(b',');
        }
        self.empty = false;
        self.out.push(b'"');
        self.out.extend_from_slice(name.as_bytes());
        self.out.extend_from_slice(b"\":");
    }

    pub fn str(&mut self, name: &'static str, value: &str) {
        self.name(name);
        write::string(self.out, value);
    }

    /// Bytes as text, invalid UTF-8 replaced.
    pub fn lossy(&mut self, name: &'static str, value: &[u8]) {
        self.str(name, &String::from_utf8_lossy(value));
    }

    /// A string, or nothing at all when there is none.
    pub fn some_str(&mut self, name: &'static str, value: Option<&str>) {
        if let Some(value) = value {
            self.str(name, value);
        }
    }

    /// A string, or `null`.
    pub fn str_or_null(&mut self, name: &'static str, value: Option<&str>) {
        match value {
            Some(value) => self.str(name, value),
            None => self.null(name),
        }
    }

    pub fn uint(&mut self, name: &'static str, value: u64) {
        self.name(name);
        self.out.extend_from_slice(value.to_string().as_bytes());
    }

    pub fn int(&mut self, name: &'static str, value: i64) {
        self.name(name);
        self.out.extend_from_slice(value.to_string().as_bytes());
    }

    pub fn bool(&mut self, name: &'static str, value: bool) {
        self.name(name);
        self.out.extend_from_slice(if value { b"true" } else { b"false" });
    }

    pub fn null(&mut self, name: &'static str) {
        self.name(name);
        self.out.extend_from_slice(b"null");
    }

    /// JSON text as it is (written by the library, so valid).
    pub fn raw(&mut self, name: &'static str, json: &str) {
        self.name(name);
        self.out.extend_from_slice(json.as_bytes());
    }

    /// An id as the output shows it; none is `null`.
    pub fn id(&mut self, name: &'static str, id: Option<&IdValue>) {
        self.name(name);
        id_value(self.out, id);
    }

    /// A member whose value is an object: write its members, then close it.
    pub fn object(&mut self, name: &'static str) -> Object<'_> {
        self.name(name);
        Object::open(self.out)
    }

    /// As [`Object::object`], for a member whose name is not the CLI's
    /// own (a backend's name): escaped.
    pub fn object_named(&mut self, name: &str) -> Object<'_> {
        if !self.empty {
            self.out.push(b',');
        }
        self.empty = false;
        write::string(self.out, name);
        self.out.push(b':');
        Object::open(self.out)
    }

    /// A string member whose name is not the CLI's own (a tag a targets
    /// file gives): escaped.
    pub fn str_named(&mut self, name: &str, value: &str) {
        if !self.empty {
            self.out.push(b',');
        }
        self.empty = false;
        write::string(self.out, name);
        self.out.push(b':');
        write::string(self.out, value);
    }

    /// A member whose value is an array.
    pub fn array(&mut self, name: &'static str) -> Array<'_> {
        self.name(name);
        self.out.push(b'[');
        Array { out: self.out, empty: true }
    }

    pub fn close(self) {
        self.out.push(b'}');
    }
}

/// An array being written.
pub struct Array<'o> {
    out: &'o mut Vec<u8>,
    empty: bool,
}

impl Array<'_> {
    fn comma(&mut self) {
        if !self.empty {
            self.out.push(b',');
        }
        self.empty = false;
    }

    /// An object item: write its members, then close it.
    pub fn object(&mut self) -> Object<'_> {
        self.comma();
        Object::open(self.out)
    }

    pub fn str(&mut self, value: &str) {
        self.comma();
        write::string(self.out, value);
    }

    pub fn id(&mut self, id: Option<&IdValue>) {
        self.comma();
        id_value(self.out, id);
    }

    pub fn close(self) {
        self.out.push(b']');
    }
}

fn id_value(out: &mut Vec<u8>, id: Option<&IdValue>) {
    match id {
        Some(IdValue::Str(text)) => write::string(out, text),
        Some(IdValue::Int(n)) => out.extend_from_slice(n.to_string().as_bytes()),
        Some(IdValue::Null) | None => out.extend_from_slice(b"null"),
    }
}

/// One object as a line: `members` writes them.
pub fn line(members: impl FnOnce(&mut Object<'_>)) -> Vec<u8> {
    let mut out = Vec::with_capacity(256);
    let mut object = Object::open(&mut out);
    members(&mut object);
    object.close();
    out.push(b'\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_are_written_in_order_with_strings_escaped_as_serde_json_escapes_them() {
        let text = "q\" b\\ nl\n tab\t bell\x07 del\x7f é";
        let written = line(|o| {
            o.str("s", text);
            o.uint("n", 7);
            o.int("i", -3);
            o.bool("b", true);
            o.null("z");
            o.some_str("skipped", None);
            o.str_or_null("none", None);
            o.id("id", Some(&IdValue::Str("a\"b".into())));
            let mut items = o.array("items");
            items.id(Some(&IdValue::Int(-1)));
            items.str("x");
            let mut item = items.object();
            item.raw("r", r#"{"k":[1]}"#);
            item.close();
            items.close();
            let mut named = o.object_named("se\"rde");
            named.id("id", Some(&IdValue::Null));
            named.close();
        });
        // The string as serde_json writes it, the rest as it would.
        let escaped = serde_json::to_string(text).unwrap_or_default();
        let want = format!(
            "{{\"s\":{escaped},\"n\":7,\"i\":-3,\"b\":true,\"z\":null,\"none\":null,\"id\":\"a\\\"b\",\
             \"items\":[-1,\"x\",{{\"r\":{{\"k\":[1]}}}}],\"se\\\"rde\":{{\"id\":null}}}}\n"
        );
        assert_eq!(String::from_utf8_lossy(&written), want);
    }
}
