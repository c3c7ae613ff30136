//! What 2026-07-28's results carry: `resultType` on every one;
//! `server/discover`'s supported versions, capabilities and caching hints,
//! and the server's name and version in its `_meta` (a SHOULD); the
//! caching hints (`ttlMs`, `cacheScope`) on every list result.

use mcp_envelope::Id;
use mcp_envelope_grade::{Answer, Outcome, Verdict};
use serde_json::{Value, json};

use crate::probe::subject::{Subject, result_of};
use crate::probe::wire::Message;

/// Every result the server sent under 2026-07-28 carries `resultType`.
pub async fn result_type(s: &mut Subject) -> Outcome {
    if let Err(e) = s.alive().await {
        return Outcome::skip(format!("no result to read: {e}"));
    }
    let results = s.results.clone();
    let missing = results.iter().find(|r| {
        let v: Value = serde_json::from_slice(r).unwrap_or_default();
        v.pointer("/result/resultType").and_then(Value::as_str).is_none()
    });
    let got = missing.map_or_else(
        || format!("{} results, each with it", results.len()),
        |r| mcp_envelope_grade::clip(&String::from_utf8_lossy(r), 160),
    );
    let outcome = Outcome {
        verdict: Verdict::Pass,
        sent: "server/discover and ping".into(),
        expected: "resultType on every result".into(),
        got,
        why: None,
    };
    match missing {
        Some(_) => outcome.judge(Verdict::Fail, "a result without resultType"),
        None => outcome,
    }
}

/// `server/discover`'s result, as the handshake got it: what every one
/// must hold (the schema's `DiscoverResult`: `supportedVersions`,
/// `capabilities`, and the caching hints, which server/utilities/caching
/// requires of `server/discover` too; its `resultType` is the `result-type`
/// check's).
pub async fn discover_result(s: &mut Subject) -> Outcome {
    let Some(result) = s.discovered.clone() else {
        return Outcome::skip("no server/discover result to read");
    };
    let outcome = Outcome {
        verdict: Verdict::Pass,
        sent: "server/discover".into(),
        expected: "supportedVersions, capabilities, ttlMs and cacheScope".into(),
        got: mcp_envelope_grade::clip(&result.to_string(), 160),
        why: None,
    };
    let versions = result.get("supportedVersions").and_then(Value::as_array);
    let mut faults = Vec::new();
    match versions {
        None => faults.push("no supportedVersions list".to_owned()),
        Some(list) if list.is_empty() || !list.iter().all(Value::is_string) => {
            faults.push("supportedVersions is not a list of versions".to_owned());
        }
        Some(_) => {}
    }
    if !result.get("capabilities").is_some_and(Value::is_object) {
        faults.push("no capabilities object".to_owned());
    }
    faults.extend(caching_faults(&result));
    match faults.is_empty() {
        true => outcome,
        false => outcome.judge(Verdict::Fail, faults.join("; ")),
    }
}

/// The server's name and version in `server/discover`'s `_meta`: "Servers
/// SHOULD include this field".
pub async fn discover_server_info(s: &mut Subject) -> Outcome {
    let Some(result) = s.discovered.clone() else {
        return Outcome::skip("no server/discover result to read");
    };
    let info = result.pointer("/_meta/io.modelcontextprotocol~1serverInfo");
    let outcome = Outcome {
        verdict: Verdict::Pass,
        sent: "server/discover".into(),
        expected: "_meta[\"io.modelcontextprotocol/serverInfo\"] with name and version".into(),
        got: info.map_or_else(|| "none".to_owned(), |i| mcp_envelope_grade::clip(&i.to_string(), 160)),
        why: None,
    };
    // A name and a version to tell: empty strings tell nothing.
    let told = |i: &Value, key: &str| i.get(key).and_then(Value::as_str).is_some_and(|v| !v.is_empty());
    let named = info.is_some_and(|i| told(i, "name") && told(i, "version"));
    if named { outcome } else { outcome.judge(Verdict::Warn, "no serverInfo with a name and a version in _meta") }
}

pub async fn tools_list_caching(s: &mut Subject) -> Outcome {
    list_caching(s, "tools/list", "tools").await
}

pub async fn prompts_list_caching(s: &mut Subject) -> Outcome {
    list_caching(s, "prompts/list", "prompts").await
}

pub async fn resources_list_caching(s: &mut Subject) -> Outcome {
    list_caching(s, "resources/list", "resources").await
}

pub async fn resource_templates_list_caching(s: &mut Subject) -> Outcome {
    list_caching(s, "resources/templates/list", "resources").await
}

/// The first resource `resources/list` lists, read: its result carries
/// the caching hints too (`resources/read` is among the operations the
/// caching page names).
pub async fn resource_read_caching(s: &mut Subject) -> Outcome {
    if !s.declares("resources") {
        return Outcome::skip("the server declares no resources capability");
    }
    let id = s.id();
    let listing = s.wire.message(Some(json!(id)), "resources/list", None);
    let listed = s.call(&listing, &Id::Int(id as i64)).await;
    let first = result_of(&listed, &Id::Int(id as i64), s.revision())
        .and_then(|r| serde_json::from_slice::<Value>(&r).ok())
        .and_then(|v| v.pointer("/result/resources/0/uri").and_then(Value::as_str).map(str::to_owned));
    let Some(uri) = first else {
        return Outcome::skip("resources/list listed no resource to read");
    };
    let id = s.id();
    let message = s.wire.message(Some(json!(id)), "resources/read", Some(json!({"uri": uri})));
    let answer = s.call(&message, &Id::Int(id as i64)).await;
    caching(s, &message, &answer, id, "resources/read")
}

/// What the server declares in `server/discover` against what its lists
/// answer: "Servers that support prompts MUST declare the prompts
/// capability", and a list it does not declare is a method it does not
/// offer (-32601, as the schema's `MethodNotFoundError` says of a
/// capability not advertised).
pub async fn discover_capabilities(s: &mut Subject) -> Outcome {
    if s.discovered.is_none() {
        return Outcome::skip("no server/discover result to read");
    }
    let (mut faults, mut loose) = (Vec::new(), Vec::new());
    let mut got = Vec::new();
    for (method, capability) in [("tools/list", "tools"), ("prompts/list", "prompts"), ("resources/list", "resources")]
    {
        let id = s.id();
        let message = s.wire.message(Some(json!(id)), method, None);
        let answer = s.call(&message, &Id::Int(id as i64)).await;
        if let Some(failure) = &answer.failure {
            return Outcome::new(method.into(), "each list answered as its capability says", &answer)
                .judge(Verdict::Fail, failure.clone());
        }
        let result = result_of(&answer, &Id::Int(id as i64), s.revision());
        // How many the list holds: a server that lists none offers none.
        let items = result
            .as_ref()
            .and_then(|bytes| serde_json::from_slice::<Value>(bytes).ok())
            .and_then(|v| v.pointer(&format!("/result/{capability}")).and_then(Value::as_array).map(Vec::len));
        let declared = s.declares(capability);
        got.push(match (&result, items) {
            (None, _) => format!("{method}: no result"),
            (Some(_), Some(n)) => format!("{method}: a result listing {n}"),
            (Some(_), None) => format!("{method}: a result"),
        });
        if result.is_some() && !declared {
            // "Servers that support prompts MUST declare the prompts
            // capability": one that lists some supports them; an empty
            // list is the schema's "not available" said less plainly.
            match items {
                Some(0) => loose.push(format!("{method} answers an empty list, where {capability} is not declared")),
                _ => faults.push(format!("{method} answers, and {capability} is not declared")),
            }
        }
        let not_found = answer.read(s.revision()).iter().any(|r| {
            matches!(r, mcp_envelope_grade::Read::Message(mcp_envelope::Message::Error(e)) if e.error.code == -32601)
        });
        if declared && not_found {
            faults.push(format!("{capability} is declared, and {method} is not found"));
        }
    }
    let outcome = Outcome {
        verdict: Verdict::Pass,
        sent: "tools/list, prompts/list, resources/list".into(),
        expected: "a result where the capability is declared, method not found where it is not".into(),
        got: got.join("; "),
        why: None,
    };
    match (faults.is_empty(), loose.is_empty()) {
        (false, _) => outcome.judge(Verdict::Fail, faults.join("; ")),
        (true, false) => outcome.judge(Verdict::Warn, loose.join("; ")),
        (true, true) => outcome,
    }
}

/// A list result, of a capability the server declared: "Servers MUST
/// include caching hints on results with resultType: complete" of every
/// list (server/utilities/caching).
async fn list_caching(s: &mut Subject, method: &str, capability: &str) -> Outcome {
    if !s.declares(capability) {
        return Outcome::skip(format!("the server declares no {capability} capability"));
    }
    let id = s.id();
    let message = s.wire.message(Some(json!(id)), method, None);
    let answer = s.call(&message, &Id::Int(id as i64)).await;
    caching(s, &message, &answer, id, method)
}

/// The caching hints of the result answering `id`.
fn caching(s: &Subject, message: &Message, answer: &Answer, id: u64, method: &str) -> Outcome {
    let outcome =
        Outcome::new(String::from_utf8_lossy(&message.body).into_owned(), "a result with ttlMs and cacheScope", answer);
    if let Some(failure) = &answer.failure {
        return outcome.judge(Verdict::Fail, failure.clone());
    }
    let Some(result) = result_of(answer, &Id::Int(id as i64), s.revision()) else {
        return outcome.judge(Verdict::Fail, format!("{method} was not answered with a result"));
    };
    let value: Value = serde_json::from_slice(&result).unwrap_or_default();
    let faults = caching_faults(value.get("result").unwrap_or(&Value::Null));
    if faults.is_empty() { outcome } else { outcome.judge(Verdict::Fail, faults.join("; ")) }
}

/// What a result's caching hints lack: `ttlMs` an integer of at least 0,
/// `cacheScope` `public` or `private`.
fn caching_faults(result: &Value) -> Vec<String> {
    let mut faults = Vec::new();
    if result.get("ttlMs").and_then(Value::as_u64).is_none() {
        faults.push("no ttlMs of 0 or more".to_owned());
    }
    if !matches!(result.get("cacheScope").and_then(Value::as_str), Some("public" | "private")) {
        faults.push("no cacheScope of public or private".to_owned());
    }
    faults
}
