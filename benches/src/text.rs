//! Text that looks like what tools return: words, code, some non-ASCII,
//! quotes and newlines (so payloads carry escapes), and base64 images.

use crate::Rng;

const WORDS: &[&str] = &[
    "the",
    "issue",
    "pull",
    "request",
    "repository",
    "branch",
    "commit",
    "merge",
    "review",
    "fix",
    "error",
    "when",
    "parsing",
    "messages",
    "server",
    "client",
    "returns",
    "null",
    "instead",
    "of",
    "empty",
    "list",
    "tool",
    "call",
    "timeout",
    "after",
    "retry",
    "config",
    "value",
    "update",
    "docs",
    "test",
    "failing",
    "on",
    "main",
    "release",
    "café",
    "naïve",
    "日本語",
    "überprüfen",
    "🚀",
    "✅",
    "\"quoted\"",
    "path\\to\\file",
    "tab\tseparated",
];

const CODE: &[&str] = &[
    "fn main() {\n    println!(\"hello\");\n}\n",
    "let x = parse(&input)?;\n",
    "if (a < b && c > d) { return \"ok\"; }\n",
    "    // TODO: handle the \\u escape case\n",
    "SELECT id, name FROM users WHERE id = $1;\n",
    "<div class=\"note\">é</div>\n",
];

/// About `len` bytes of prose.
pub fn prose(rng: &mut Rng, len: usize) -> String {
    let mut out = String::with_capacity(len + 16);
    while out.len() < len {
        out.push_str(rng.pick::<&str>(WORDS));
        out.push(if rng.chance(8) {
            '\n'
        } else if rng.chance(10) {
            '.'
        } else {
            ' '
        });
    }
    out
}

/// Prose of a length drawn from `low..=high`.
pub fn prose_between(rng: &mut Rng, low: usize, high: usize) -> String {
    let len = rng.between(low, high);
    prose(rng, len)
}

/// Code of a length drawn from `low..=high`.
pub fn code_between(rng: &mut Rng, low: usize, high: usize) -> String {
    let len = rng.between(low, high);
    code(rng, len)
}

/// About `len` bytes of source code.
pub fn code(rng: &mut Rng, len: usize) -> String {
    let mut out = String::with_capacity(len + 64);
    while out.len() < len {
        out.push_str(rng.pick::<&str>(CODE));
    }
    out
}

/// A short identifier-like word.
pub fn word(rng: &mut Rng) -> String {
    const PARTS: &[&str] = &["octo", "cat", "mcp", "envelope", "rust", "json", "rpc", "gate", "way", "data", "kit"];
    let mut s = String::new();
    for _ in 0..rng.between(1, 3) {
        s.push_str(rng.pick::<&str>(PARTS));
    }
    s
}

/// Standard base64 of `bytes`.
pub fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// A PNG-looking image of `len` bytes, base64-encoded.
pub fn image(rng: &mut Rng, len: usize) -> String {
    let mut bytes = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    bytes.extend(rng.bytes(len.saturating_sub(bytes.len())));
    base64(&bytes)
}

#[cfg(test)]
mod tests {
    #[test]
    fn base64_matches_the_rfc_4648_vectors() {
        for (input, output) in [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foobar", "Zm9vYmFy")] {
            assert_eq!(super::base64(input.as_bytes()), output);
        }
    }
}
