//! The revision rules checked against the schema of each revision
//! (vendored in `testdata/mcp-spec/<revision>/schema.json`), so a rule that
//! drifts from its source fails here.

use mcp_envelope::Revision;
use serde_json::Value;

use crate::support::testdata;

fn definitions(revision: Revision) -> Value {
    let path = testdata().join("mcp-spec").join(revision.name()).join("schema.json");
    let schema: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    schema.get("$defs").or_else(|| schema.get("definitions")).cloned().unwrap()
}

fn required(definition: &Value) -> Vec<&str> {
    definition["required"].as_array().unwrap().iter().filter_map(Value::as_str).collect()
}

const MCP: [Revision; 5] =
    [Revision::V2024_11_05, Revision::V2025_03_26, Revision::V2025_06_18, Revision::V2025_11_25, Revision::V2026_07_28];

#[test]
fn batches_exist_exactly_where_the_schema_defines_them() {
    for revision in MCP {
        let defs = definitions(revision);
        assert_eq!(defs.get("JSONRPCBatchRequest").is_some(), revision.allows_batches(), "{revision}");
    }
}

#[test]
fn error_response_id_is_optional_exactly_where_the_schema_says() {
    for revision in MCP {
        let defs = definitions(revision);
        let error = defs.get("JSONRPCErrorResponse").or_else(|| defs.get("JSONRPCError")).unwrap();
        assert_eq!(!required(error).contains(&"id"), revision.allows_error_without_id(), "{revision}");
    }
}

#[test]
fn request_ids_params_and_results_have_the_types_the_schema_gives() {
    for revision in MCP {
        let defs = definitions(revision);
        assert_eq!(defs["RequestId"]["type"], serde_json::json!(["string", "integer"]), "{revision}");
        assert_eq!(defs["JSONRPCRequest"]["properties"]["params"]["type"], "object", "{revision}");
        assert_eq!(required(&defs["JSONRPCRequest"]), ["id", "jsonrpc", "method"], "{revision}");
        assert_eq!(defs["Result"]["type"].as_str().unwrap_or("object"), "object", "{revision}");
        let has_result_type = defs["Result"]["properties"].get("resultType").is_some();
        assert_eq!(has_result_type, revision.has_result_type(), "{revision}");
    }
}
