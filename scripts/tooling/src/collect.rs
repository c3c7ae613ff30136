//! Reading what criterion and gungraun wrote into one [`Results`].
//!
//! criterion: each benchmark's `new/benchmark.json` (its id and declared
//! throughput) and `new/estimates.json` (the median with its confidence
//! interval), the files `cargo bench` writes under `CRITERION_HOME`.
//! gungraun: the `summary.json` files of `--save-summary=json`, whose
//! callgrind totals hold the instruction count (`Ir`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::results::{Meta, Results, Timing};

/// Every file called `name` under `root`, in a stable order.
fn files_named(root: &Path, name: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                pending.push(path);
            } else if path.file_name().is_some_and(|n| n == name) {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

fn read_json(path: &Path) -> Result<Value, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// One criterion round: bench id → timing (with itself as its one round).
pub fn criterion_round(root: &Path) -> Result<BTreeMap<String, Timing>, String> {
    let mut out = BTreeMap::new();
    for estimates_path in files_named(root, "estimates.json") {
        let Some(dir) = estimates_path.parent().filter(|d| d.file_name().is_some_and(|n| n == "new")) else {
            continue;
        };
        let bench = read_json(&dir.join("benchmark.json"))?;
        let estimates = read_json(&estimates_path)?;
        let id: Vec<&str> = ["group_id", "function_id", "value_str"]
            .iter()
            .filter_map(|k| bench.get(*k).and_then(Value::as_str))
            .filter(|s| !s.is_empty())
            .collect();
        let throughput = bench.get("throughput").unwrap_or(&Value::Null);
        let (bytes, elements) = if let Some(both) = throughput.get("ElementsAndBytes") {
            (both.get("bytes").and_then(Value::as_f64), both.get("elements").and_then(Value::as_f64))
        } else {
            (throughput.get("Bytes").and_then(Value::as_f64), throughput.get("Elements").and_then(Value::as_f64))
        };
        let median = estimates.get("median").ok_or_else(|| format!("{}: no median", estimates_path.display()))?;
        let field = |path: &[&str]| {
            path.iter()
                .try_fold(median, |v, k| v.get(*k))
                .and_then(Value::as_f64)
                .ok_or_else(|| format!("{}: no median {}", estimates_path.display(), path.join(".")))
        };
        let ns = field(&["point_estimate"])?;
        out.insert(
            id.join("/"),
            Timing {
                ns,
                rounds: vec![ns],
                lo: field(&["confidence_interval", "lower_bound"])?,
                hi: field(&["confidence_interval", "upper_bound"])?,
                bytes,
                elements,
            },
        );
    }
    Ok(out)
}

/// Rounds merged: the median of the rounds' medians, the widest interval.
pub fn merge_rounds(rounds: &[BTreeMap<String, Timing>]) -> BTreeMap<String, Timing> {
    let mut all: BTreeMap<String, Vec<&Timing>> = BTreeMap::new();
    for round in rounds {
        for (id, timing) in round {
            all.entry(id.clone()).or_default().push(timing);
        }
    }
    all.into_iter()
        .filter_map(|(id, timings)| {
            let first = *timings.first()?;
            let mut medians: Vec<f64> = timings.iter().map(|t| t.ns).collect();
            medians.sort_by(f64::total_cmp);
            let mid = medians.len() / 2;
            let ns = if medians.len() % 2 == 1 {
                medians.get(mid).copied()?
            } else {
                (medians.get(mid - 1)? + medians.get(mid)?) / 2.0
            };
            let timing = Timing {
                ns,
                rounds: timings.iter().map(|t| t.ns).collect(),
                lo: timings.iter().map(|t| t.lo).fold(f64::INFINITY, f64::min),
                hi: timings.iter().map(|t| t.hi).fold(f64::NEG_INFINITY, f64::max),
                bytes: first.bytes,
                elements: first.elements,
            };
            Some((id, timing))
        })
        .collect()
}

/// The total instruction count (callgrind's `Ir`) in a gungraun summary:
/// the first `Ir` (or `Instructions`) metric found, read from its `new`
/// value or its `Both`/`Left` form.
pub fn instructions_in(summary: &Value) -> Option<u64> {
    fn number(v: &Value) -> Option<u64> {
        match v {
            Value::Number(n) => n.as_u64().or_else(|| n.as_f64().map(|f| f as u64)),
            Value::Object(o) => o.get("Int").or_else(|| o.get("Float")).and_then(number),
            Value::Array(a) => a.first().and_then(number),
            _ => None,
        }
    }
    match summary {
        Value::Object(object) => {
            for key in ["Ir", "Instructions"] {
                let Some(mut metric) = object.get(key) else { continue };
                if let Some(values) = metric.get("values").filter(|v| v.is_object()) {
                    metric = values;
                }
                if let Value::Object(forms) = metric {
                    if let Some(n) = ["Both", "Left", "Int", "new"].iter().find_map(|k| forms.get(*k).and_then(number))
                    {
                        return Some(n);
                    }
                } else if let Some(n) = number(metric) {
                    return Some(n);
                }
            }
            object.values().find_map(instructions_in)
        }
        Value::Array(items) => items.iter().find_map(instructions_in),
        _ => None,
    }
}

/// bench name → instructions, from every gungraun summary under `root`.
pub fn gungraun_counts(root: &Path) -> Result<BTreeMap<String, u64>, String> {
    let mut out = BTreeMap::new();
    for path in files_named(root, "summary.json") {
        let summary = read_json(&path)?;
        let function = summary.get("function_name").and_then(Value::as_str).unwrap_or_default();
        let id = summary.get("id").and_then(Value::as_str).unwrap_or_default();
        let name = match (function, id) {
            ("", _) => path
                .parent()
                .and_then(|d| d.strip_prefix(root).ok())
                .map(|d| d.to_string_lossy().replace('\\', "/"))
                .unwrap_or_default(),
            (f, "") => f.to_owned(),
            (f, i) => format!("{f}/{i}"),
        };
        if let Some(count) = instructions_in(&summary) {
            out.insert(format!("instructions/{name}"), count);
        }
    }
    Ok(out)
}

/// The machine, from `/proc/cpuinfo` where there is one.
pub fn meta(commit: String, date: String) -> Meta {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_owned())
        })
        .unwrap_or_else(|| "unknown cpu".to_owned());
    let cores = std::thread::available_parallelism().ok().map(|n| n.get() as u64);
    Meta { date, cpu, cores, commit }
}

/// Everything one run wrote.
pub fn collect(
    criterion: &[PathBuf],
    gungraun: Option<&Path>,
    verdicts: Option<&Path>,
    meta: Meta,
) -> Result<Results, String> {
    let rounds: Vec<_> =
        criterion.iter().filter(|d| d.is_dir()).map(|d| criterion_round(d)).collect::<Result<_, _>>()?;
    let instructions = match gungraun {
        Some(dir) if dir.is_dir() => gungraun_counts(dir)?,
        _ => BTreeMap::new(),
    };
    let verdicts = match verdicts {
        Some(path) if path.is_file() => {
            serde_json::from_value(read_json(path)?).map_err(|e| format!("{}: {e}", path.display()))?
        }
        _ => BTreeMap::new(),
    };
    Ok(Results { meta, time: merge_rounds(&rounds), instructions, verdicts })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A criterion folder with one benchmark, as `cargo bench` writes it.
    fn criterion_dir(root: &Path, id: &[&str], median: f64, throughput: &str) {
        let dir = root.join(id.join("_")).join("new");
        std::fs::create_dir_all(&dir).unwrap_or_default();
        let bench = serde_json::json!({
            "group_id": id[0], "function_id": id.get(1), "value_str": id.get(2),
            "throughput": serde_json::from_str::<Value>(throughput).unwrap_or(Value::Null),
        });
        let estimates = serde_json::json!({"median": {"point_estimate": median,
            "confidence_interval": {"lower_bound": median * 0.9, "upper_bound": median * 1.1}}});
        std::fs::write(dir.join("benchmark.json"), bench.to_string()).unwrap_or_default();
        std::fs::write(dir.join("estimates.json"), estimates.to_string()).unwrap_or_default();
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("tooling-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn criterion_rounds_merge_into_the_median_of_their_medians_and_the_widest_interval() {
        let root = scratch("criterion");
        let rounds: Vec<_> = [100.0, 300.0, 200.0]
            .iter()
            .enumerate()
            .map(|(i, median)| {
                let dir = root.join(format!("round-{i}"));
                criterion_dir(
                    &dir,
                    &["realistic-small", "mcp-envelope-serde"],
                    *median,
                    r#"{"ElementsAndBytes":{"elements":10,"bytes":4000}}"#,
                );
                criterion_dir(&dir, &["adversarial", "mcp-envelope-serde", "bom"], 5.0, r#"{"Bytes":64}"#);
                criterion_round(&dir).unwrap_or_default()
            })
            .collect();
        let merged = merge_rounds(&rounds);
        let t = &merged["realistic-small/mcp-envelope-serde"];
        assert_eq!((t.ns, t.rounds.clone(), t.lo, t.hi), (200.0, vec![100.0, 300.0, 200.0], 90.0, 330.0));
        assert_eq!((t.bytes, t.elements), (Some(4000.0), Some(10.0)));
        assert_eq!(merged["adversarial/mcp-envelope-serde/bom"].bytes, Some(64.0));
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn instruction_counts_are_read_from_the_forms_gungraun_writes() {
        let both = serde_json::json!({"callgrind": {"Ir": {"Both": [{"Int": 2460000}, {"Int": 2500000}]}}});
        assert_eq!(instructions_in(&both), Some(2460000));
        let values = serde_json::json!({"x": [{"Ir": {"values": {"Left": {"Int": 7}}}}]});
        assert_eq!(instructions_in(&values), Some(7));
        assert_eq!(instructions_in(&serde_json::json!({"Instructions": 9})), Some(9));
    }

    #[test]
    fn gungraun_summaries_are_named_by_function_and_id() {
        let root = scratch("gungraun");
        let dir = root.join("instructions/realistic");
        std::fs::create_dir_all(&dir).unwrap_or_default();
        let summary = serde_json::json!({"function_name": "mcp_envelope_serde", "id": "realistic_small",
            "callgrind": {"Ir": {"Both": [{"Int": 42}]}}});
        std::fs::write(dir.join("summary.json"), summary.to_string()).unwrap_or_default();
        let counts = gungraun_counts(&root).unwrap_or_default();
        assert_eq!(counts.get("instructions/mcp_envelope_serde/realistic_small"), Some(&42));
        let _ = std::fs::remove_dir_all(&root);
    }
}
