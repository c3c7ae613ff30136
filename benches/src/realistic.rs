//! Traffic that looks like a real MCP session: the handshake, `tools/list`
//! with GitHub's 117 real tool definitions, tool calls with arguments drawn
//! from each tool's input schema, results as text, structured content and
//! base64 images (a few KiB to 2 MiB), resource reads, sampling requests,
//! progress and logging notifications, errors, and the 32 envelope examples
//! of MCP 2026-07-28.

use serde_json::{Map, Value, json};

use crate::text::{code, code_between, image, prose, prose_between, word};
use crate::{Rng, SEED, Sample, workspace_root};

fn compact(value: &Value) -> Vec<u8> {
    serde_json::to_vec(value).unwrap_or_default()
}

fn tools() -> Vec<Value> {
    let dir = workspace_root().join("testdata/github-mcp-server-toolsnaps");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "snap"))
        .collect();
    paths.sort();
    paths.iter().filter_map(|p| serde_json::from_slice(&std::fs::read(p).ok()?).ok()).collect()
}

fn spec_examples() -> Vec<Sample> {
    let root = workspace_root().join("testdata/mcp-spec/2026-07-28/examples");
    let mut files: Vec<_> = walk(&root);
    files.sort();
    files
        .into_iter()
        .filter_map(|path| {
            let value: Value = serde_json::from_slice(&std::fs::read(&path).ok()?).ok()?;
            value.get("jsonrpc")?;
            let folder = path.parent()?.file_name()?.to_string_lossy().into_owned();
            Some(Sample::new(format!("spec example ({folder})"), compact(&value)))
        })
        .collect()
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}

/// Arguments for a tool, drawn from its input schema.
fn arguments(rng: &mut Rng, tool: &Value) -> Value {
    let mut args = Map::new();
    let properties = tool.pointer("/inputSchema/properties").and_then(Value::as_object);
    let required: Vec<&str> = tool
        .pointer("/inputSchema/required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    for (name, schema) in properties.into_iter().flatten() {
        if !required.contains(&name.as_str()) && rng.chance(50) {
            continue;
        }
        let value = match schema.get("type").and_then(Value::as_str) {
            Some("number" | "integer") => json!(rng.between(1, 500)),
            Some("boolean") => json!(rng.chance(50)),
            Some("array") => json!((0..rng.between(1, 4)).map(|_| word(rng)).collect::<Vec<_>>()),
            Some("object") => json!({ "key": word(rng) }),
            _ => match schema.get("enum").and_then(Value::as_array) {
                Some(choices) if !choices.is_empty() => rng.pick(choices).clone(),
                _ if name.contains("body") || name.contains("description") => json!(prose_between(rng, 40, 600)),
                _ => json!(word(rng)),
            },
        };
        args.insert(name.clone(), value);
    }
    Value::Object(args)
}

fn structured(rng: &mut Rng, items: usize) -> Value {
    let issues: Vec<Value> = (0..items)
        .map(|n| {
            json!({
                "number": 1000 + n,
                "title": prose_between(rng, 20, 80).trim(),
                "state": if rng.chance(70) { "open" } else { "closed" },
                "labels": (0..rng.between(0, 3)).map(|_| word(rng)).collect::<Vec<_>>(),
                "user": { "login": word(rng), "id": rng.between(1, 9_999_999) },
                "comments": rng.between(0, 40),
                "created_at": format!("2026-{:02}-{:02}T12:00:00Z", rng.between(1, 12), rng.between(1, 28)),
            })
        })
        .collect();
    json!({ "total_count": items, "items": issues })
}

/// One exchange after the handshake: a request, what comes with it, and its
/// answer. `big` allows the rare large payloads.
fn exchange(rng: &mut Rng, id: &mut i64, tools: &[Value], out: &mut Vec<Sample>) {
    *id += 1;
    let id_value = if rng.chance(20) { json!(format!("req-{id}")) } else { json!(*id) };
    match rng.below(100) {
        0..=59 => {
            let tool = rng.pick(tools);
            let name = tool.get("name").cloned().unwrap_or(Value::Null);
            let mut params = json!({ "name": name, "arguments": arguments(rng, tool) });
            let progress = rng.chance(30);
            if progress {
                params["_meta"] = json!({ "progressToken": format!("p{id}") });
            }
            out.push(Sample::new(
                "tools/call request",
                compact(&json!({"jsonrpc":"2.0","id":id_value,"method":"tools/call","params":params})),
            ));
            if progress {
                for step in 1..=rng.between(1, 3) {
                    let n = json!({"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":format!("p{id}"),"progress":step,"total":3,"message":prose(rng, 30).trim()}});
                    out.push(Sample::new("progress notification", compact(&n)));
                }
            }
            let (label, result) = match rng.below(100) {
                0..=49 => (
                    "tools/call result (text)",
                    json!({"content":[{"type":"text","text":prose_between(rng, 80, 3000)}],"isError":false}),
                ),
                50..=69 => (
                    "tools/call result (text)",
                    json!({"content":[{"type":"text","text":prose_between(rng, 4000, 48_000)}]}),
                ),
                70..=84 => {
                    let items = rng.between(1, 40);
                    let s = structured(rng, items);
                    (
                        "tools/call result (structured)",
                        json!({"content":[{"type":"text","text":s.to_string()}],"structuredContent":s}),
                    )
                }
                85..=94 => {
                    let size = *rng.pick(&[4096, 4096, 12_000, 32_768]);
                    (
                        "tools/call result (image)",
                        json!({"content":[{"type":"image","data":image(rng, size),"mimeType":"image/png"}]}),
                    )
                }
                _ => (
                    "tools/call result (tool error)",
                    json!({"content":[{"type":"text","text":"API rate limit exceeded"}],"isError":true}),
                ),
            };
            let mut result = result;
            result["resultType"] = json!("complete");
            out.push(Sample::new(label, compact(&json!({"jsonrpc":"2.0","id":id_value,"result":result}))));
        }
        60..=71 => {
            let uri = format!("file:///src/{}/{}.rs", word(rng), word(rng));
            out.push(Sample::new(
                "resources/read request",
                compact(&json!({"jsonrpc":"2.0","id":id_value,"method":"resources/read","params":{"uri":uri}})),
            ));
            let text = code_between(rng, 200, 40_000);
            let result = json!({"resultType":"complete","contents":[{"uri":uri,"mimeType":"text/x-rust","text":text}]});
            out.push(Sample::new(
                "resources/read result",
                compact(&json!({"jsonrpc":"2.0","id":id_value,"result":result})),
            ));
        }
        72..=79 => {
            let history: Vec<Value> = (0..rng.between(1, 6))
                .map(|n| json!({"role": if n % 2 == 0 { "user" } else { "assistant" }, "content": {"type":"text","text":prose_between(rng, 40, 900)}}))
                .collect();
            let params = json!({"messages":history,"systemPrompt":"You are a helpful assistant.","maxTokens":rng.between(100, 4000),"modelPreferences":{"hints":[{"name":"claude"}],"intelligencePriority":0.8}});
            out.push(Sample::new(
                "sampling/createMessage request",
                compact(&json!({"jsonrpc":"2.0","id":id_value,"method":"sampling/createMessage","params":params})),
            ));
            let result = json!({"resultType":"complete","role":"assistant","content":{"type":"text","text":prose_between(rng, 40, 2000)},"model":"claude-sonnet","stopReason":"endTurn"});
            out.push(Sample::new(
                "sampling/createMessage result",
                compact(&json!({"jsonrpc":"2.0","id":id_value,"result":result})),
            ));
        }
        80..=87 => {
            out.push(Sample::new("ping request", compact(&json!({"jsonrpc":"2.0","id":id_value,"method":"ping"}))));
            out.push(Sample::new(
                "empty result",
                compact(&json!({"jsonrpc":"2.0","id":id_value,"result":{"resultType":"complete"}})),
            ));
        }
        88..=93 => {
            let level = *rng.pick(&["debug", "info", "warning", "error"]);
            let n = json!({"jsonrpc":"2.0","method":"notifications/message","params":{"level":level,"logger":word(rng),"data":{"event":prose(rng, 60).trim(),"attempt":rng.between(1, 5)}}});
            out.push(Sample::new("logging notification", compact(&n)));
        }
        94..=96 => {
            let n = json!({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":*id - 1,"reason":"user cancelled"}});
            out.push(Sample::new("cancelled notification", compact(&n)));
        }
        _ => {
            let (code, message) = *rng.pick(&[
                (-32602, "Unknown tool: nope"),
                (-32601, "Method not found"),
                (-32603, "Internal error"),
                (-32001, "Unauthorized"),
            ]);
            let e = json!({"jsonrpc":"2.0","id":id_value,"error":{"code":code,"message":message,"data":{"detail":prose(rng, 50).trim()}}});
            out.push(Sample::new("error response", compact(&e)));
        }
    }
}

/// The whole realistic corpus, in session order.
pub fn generate() -> Vec<Sample> {
    let mut rng = Rng::new(SEED);
    let tools = tools();
    let mut out = spec_examples();
    let init = json!({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2026-07-28","capabilities":{"sampling":{},"roots":{"listChanged":true},"elicitation":{}},"clientInfo":{"name":"bench-client","version":"1.4.2"}}});
    out.push(Sample::new("initialize request", compact(&init)));
    let init_result = json!({"jsonrpc":"2.0","id":0,"result":{"resultType":"complete","protocolVersion":"2026-07-28","capabilities":{"tools":{"listChanged":true},"resources":{"subscribe":true},"logging":{},"prompts":{}},"serverInfo":{"name":"github-mcp-server","version":"0.30.0"},"instructions":prose(&mut rng, 1500)}});
    out.push(Sample::new("initialize result", compact(&init_result)));
    out.push(Sample::new(
        "initialized notification",
        compact(&json!({"jsonrpc":"2.0","method":"notifications/initialized"})),
    ));
    out.push(Sample::new("tools/list request", compact(&json!({"jsonrpc":"2.0","id":1,"method":"tools/list"}))));
    out.push(Sample::new(
        "tools/list result (all 117)",
        compact(&json!({"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","tools":tools}})),
    ));
    for (page, chunk) in tools.chunks(20).enumerate() {
        let mut result = json!({"resultType":"complete","tools":chunk});
        if (page + 1) * 20 < tools.len() {
            result["nextCursor"] = json!(format!("page-{}", page + 1));
        }
        out.push(Sample::new(
            "tools/list result (page of 20)",
            compact(&json!({"jsonrpc":"2.0","id":format!("page-{page}"),"result":result})),
        ));
    }
    let mut id = 1;
    for _ in 0..400 {
        exchange(&mut rng, &mut id, &tools, &mut out);
    }
    // The rare large payloads: screenshots and big files.
    for size in [256 * 1024, 768 * 1024, 2 * 1024 * 1024] {
        id += 1;
        let result = json!({"resultType":"complete","content":[{"type":"image","data":image(&mut rng, size),"mimeType":"image/png"}]});
        out.push(Sample::new("tools/call result (image)", compact(&json!({"jsonrpc":"2.0","id":id,"result":result}))));
    }
    id += 1;
    let text = code(&mut rng, 300 * 1024);
    let result =
        json!({"resultType":"complete","contents":[{"uri":"file:///src/big.rs","mimeType":"text/x-rust","text":text}]});
    out.push(Sample::new("resources/read result", compact(&json!({"jsonrpc":"2.0","id":id,"result":result}))));
    out
}
