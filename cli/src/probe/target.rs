//! What to probe: a stdio server (a command, its environment) or a
//! Streamable HTTP endpoint, and for a census what names each (the tags a
//! targets file gives it: its package, family, version).

use std::path::Path;
use std::sync::Arc;

use serde_json::Value;

use crate::net::Endpoint;

/// A server to probe.
#[derive(Clone)]
pub enum Target {
    /// A command to run, with variables added to its environment.
    Stdio {
        command: Vec<String>,
        env: Vec<(String, String)>,
    },
    Http(Arc<Endpoint>),
}

impl Target {
    /// How the scorecard names it: the URL, or `stdio: COMMAND`.
    pub fn shown(&self) -> String {
        match self {
            Target::Stdio { command, .. } => format!("stdio: {}", command.join(" ")),
            Target::Http(endpoint) => endpoint.to_string(),
        }
    }

    pub fn transport(&self) -> &'static str {
        match self {
            Target::Stdio { .. } => "stdio",
            Target::Http(_) => "http",
        }
    }
}

/// A target of a census, and the tags that go on each of its lines.
#[derive(Clone)]
pub struct Listed {
    pub target: Target,
    pub tags: Vec<(String, String)>,
}

/// Reads a target as the command line or a targets file gives it: a URL,
/// or `stdio: COMMAND ARGS` (split on whitespace).
pub fn parse(text: &str, ca: Option<&Path>) -> Result<Target, String> {
    if let Some(command) = text.trim().strip_prefix("stdio:") {
        let command: Vec<String> = command.split_whitespace().map(str::to_owned).collect();
        return if command.is_empty() {
            Err("stdio: names no command".into())
        } else {
            Ok(Target::Stdio { command, env: Vec::new() })
        };
    }
    let endpoint =
        Endpoint::parse(text.trim(), ca).map_err(|e| format!("{}: {e}", crate::net::redacted(text.trim())))?;
    Ok(Target::Http(Arc::new(endpoint)))
}

/// The targets of a file, one a line, `#` for comments: a URL, `stdio:
/// COMMAND`, or a JSON object with `url` or `stdio` (the command, an array
/// of its words), `env` (an object of variables for a stdio server) and
/// any other string members as tags (`name`, `package`, `family`...).
pub fn file(text: &str, ca: Option<&Path>) -> Result<Vec<Listed>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let listed = if line.starts_with('{') {
            object(line, ca)
        } else {
            parse(line, ca).map(|target| Listed { target, tags: Vec::new() })
        };
        out.push(listed.map_err(|e| format!("line {}: {e}", n + 1))?);
    }
    Ok(out)
}

fn object(line: &str, ca: Option<&Path>) -> Result<Listed, String> {
    let value: Value = serde_json::from_str(line).map_err(|e| format!("not a JSON object: {e}"))?;
    let words = |key: &str| -> Option<Vec<String>> {
        Some(value.get(key)?.as_array()?.iter().filter_map(Value::as_str).map(str::to_owned).collect())
    };
    let target = match (value.get("url").and_then(Value::as_str), words("stdio")) {
        (Some(url), None) => parse(url, ca)?,
        (None, Some(command)) if !command.is_empty() => {
            let env = value
                .get("env")
                .and_then(Value::as_object)
                .map(|vars| vars.iter().filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_owned()))).collect())
                .unwrap_or_default();
            Target::Stdio { command, env }
        }
        _ => return Err("give \"url\" or \"stdio\" (a non-empty array of words), not both".into()),
    };
    let tags = value
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(key, _)| !matches!(key.as_str(), "url" | "stdio" | "env"))
        .filter_map(|(key, v)| Some((key.clone(), v.as_str()?.to_owned())))
        .collect();
    Ok(Listed { target, tags })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_targets_file_reads_urls_stdio_commands_and_json_objects_with_tags() {
        let text = "# servers\nhttp://127.0.0.1:1/mcp\nstdio: node server.js --x\n\
                    {\"stdio\": [\"uvx\", \"mcp-server-time\"], \"env\": {\"TZ\": \"UTC\"}, \"family\": \"python-sdk\", \"package\": \"mcp-server-time\"}\n";
        let listed = file(text, None).unwrap_or_default();
        assert_eq!(listed.len(), 3);
        assert_eq!(listed[0].target.shown(), "http://127.0.0.1:1/mcp");
        assert_eq!(listed[1].target.shown(), "stdio: node server.js --x");
        let Target::Stdio { command, env } = &listed[2].target else { panic!("not stdio") };
        assert_eq!(command, &["uvx", "mcp-server-time"]);
        assert_eq!(env, &[("TZ".to_owned(), "UTC".to_owned())]);
        assert_eq!(
            listed[2].tags,
            [("family".to_owned(), "python-sdk".to_owned()), ("package".to_owned(), "mcp-server-time".to_owned())]
        );
    }

    #[test]
    fn a_target_line_that_names_nothing_to_probe_is_refused_with_its_line() {
        for bad in ["stdio:", "{\"family\": \"x\"}", "{\"url\": \"http://a/\", \"stdio\": [\"b\"]}", "{not json"] {
            let err = file(&format!("# one\n{bad}\n"), None).err().unwrap_or_default();
            assert!(err.starts_with("line 2: "), "{bad}: {err}");
        }
    }
}
