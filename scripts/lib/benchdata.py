#!/usr/bin/env python3
"""Benchmark results: collect, tabulate, compare, chart, keep history.

Standard library only. Used by scripts/bench.sh, scripts/bench-compare.sh
and scripts/workbench.sh.

  collect --criterion DIR... [--gungraun DIR] [--verdicts FILE] --out FILE
  table RESULTS
  compare BASE HEAD [--threshold PCT] [--noise PCT] --out REPORT.md  (exit 1 on a regression)
  chart RESULTS --out CHART.svg
  history-append RESULTS --history FILE --commit SHA
  history-chart --history FILE --out CHART.svg
"""

import argparse
import json
import os
import statistics
import sys
from datetime import datetime, timezone

OURS = ("mcp-envelope-reference", "mcp-envelope-serde", "mcp-envelope-simd")
# Each library's own ceiling and the floor: they classify nothing.
CEILINGS = ("serde_json-ignoredany", "simd-json-tape", "utf8-floor")


# ---------------------------------------------------------------- collect

def criterion_runs(root):
    """{bench id: {"ns": median ns, "lo": .., "hi": .., "bytes": n, "elements": n}} of one criterion folder."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        if os.path.basename(dirpath) != "new" or "estimates.json" not in filenames:
            continue
        with open(os.path.join(dirpath, "benchmark.json")) as f:
            bench = json.load(f)
        with open(os.path.join(dirpath, "estimates.json")) as f:
            est = json.load(f)
        parts = [bench["group_id"], bench.get("function_id"), bench.get("value_str")]
        bench_id = "/".join(p for p in parts if p)
        throughput = bench.get("throughput") or {}
        bytes_, elements = None, None
        if "ElementsAndBytes" in throughput:
            bytes_ = throughput["ElementsAndBytes"]["bytes"]
            elements = throughput["ElementsAndBytes"]["elements"]
        elif "Bytes" in throughput:
            bytes_ = throughput["Bytes"]
        elif "Elements" in throughput:
            elements = throughput["Elements"]
        median = est["median"]
        out[bench_id] = {
            "ns": median["point_estimate"],
            "lo": median["confidence_interval"]["lower_bound"],
            "hi": median["confidence_interval"]["upper_bound"],
            "bytes": bytes_,
            "elements": elements,
        }
    return out


def gungraun_counts(root):
    """{bench id: instructions} from gungraun summary.json files."""
    out = {}
    for dirpath, _, filenames in os.walk(root):
        if "summary.json" not in filenames:
            continue
        with open(os.path.join(dirpath, "summary.json")) as f:
            summary = json.load(f)
        name = "instructions/" + summary_name(summary, dirpath, root)
        count = find_instructions(summary)
        if count is not None:
            out[name] = count
    return out


def summary_name(summary, dirpath, root):
    function = summary.get("function_name")
    bench_id = summary.get("id")
    if function:
        return f"{function}/{bench_id}" if bench_id else function
    return os.path.relpath(dirpath, root).replace(os.sep, "/")


def find_instructions(node):
    """The first total instruction count (callgrind `Ir`) in a gungraun summary."""
    if isinstance(node, dict):
        for key in ("Ir", "Instructions"):
            value = node.get(key)
            if isinstance(value, dict) and isinstance(value.get("values"), dict):
                value = value["values"]
            if isinstance(value, dict):
                for inner in ("Both", "Left", "Int", "new"):
                    if inner in value:
                        got = number(value[inner])
                        if got is not None:
                            return got
            elif number(value) is not None:
                return number(value)
        for value in node.values():
            got = find_instructions(value)
            if got is not None:
                return got
    elif isinstance(node, list):
        for value in node:
            got = find_instructions(value)
            if got is not None:
                return got
    return None


def number(value):
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    if isinstance(value, dict):
        for inner in ("Int", "Float"):
            if inner in value:
                return value[inner]
    if isinstance(value, list) and value:
        return number(value[0])
    return None


def collect(args):
    rounds = [criterion_runs(d) for d in args.criterion if os.path.isdir(d)]
    times = {}
    for run in rounds:
        for bench_id, r in run.items():
            times.setdefault(bench_id, []).append(r)
    results = {"meta": meta(), "time": {}, "instructions": {}, "verdicts": {}}
    for bench_id, runs in times.items():
        results["time"][bench_id] = {
            "ns": statistics.median(r["ns"] for r in runs),
            "rounds": [r["ns"] for r in runs],
            "lo": min(r["lo"] for r in runs),
            "hi": max(r["hi"] for r in runs),
            "bytes": runs[0]["bytes"],
            "elements": runs[0]["elements"],
        }
    if args.gungraun and os.path.isdir(args.gungraun):
        results["instructions"] = gungraun_counts(args.gungraun)
    if args.verdicts and os.path.isfile(args.verdicts):
        with open(args.verdicts) as f:
            results["verdicts"] = json.load(f)
    with open(args.out, "w") as f:
        json.dump(results, f, indent=1, sort_keys=True)


def meta():
    cpu = "unknown cpu"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "cpu": cpu,
        "cores": os.cpu_count(),
        "commit": os.environ.get("BENCH_COMMIT", ""),
    }


# ---------------------------------------------------------------- format

def human_time(ns):
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= scale:
            return f"{ns / scale:.3g} {unit}"
    return f"{ns:.3g} ns"


def rate(r):
    """Throughput of one timing: MB/s and messages/s."""
    seconds = r["ns"] / 1e9
    mb = r["bytes"] / seconds / 1e6 if r.get("bytes") else None
    msgs = r["elements"] / seconds if r.get("elements") else None
    return mb, msgs


def fmt_rate(mb, msgs):
    parts = []
    if mb is not None:
        parts.append(f"{mb:,.0f} MB/s")
    if msgs is not None:
        parts.append(f"{msgs:,.0f} msg/s")
    return ", ".join(parts) or "-"


def split(bench_id):
    """(group, contender, input) of a bench id."""
    parts = bench_id.split("/")
    group = parts[0]
    contender = parts[1] if len(parts) > 1 else ""
    value = "/".join(parts[2:])
    return group, contender, value


def table(args):
    with open(args.results) as f:
        results = json.load(f)
    print(render_tables(results))


def render_tables(results):
    lines = []
    m = results.get("meta", {})
    lines.append(f"Machine: {m.get('cpu')}, {m.get('cores')} cores; {m.get('date')}; commit {m.get('commit') or 'working tree'}.")
    lines.append("Medians of one run; ratios are to mcp-envelope-serde in the same group and run.")
    lines.append("")
    groups = {}
    for bench_id, r in results["time"].items():
        group, contender, value = split(bench_id)
        key = f"{group} {value}".strip()
        groups.setdefault(key, {})[contender] = r
    lines.append("| group | contender | median | throughput | vs ours (serde) | reads differently |")
    lines.append("|---|---|---|---|---|---|")
    verdicts = results.get("verdicts", {})
    for key in sorted(groups, key=group_order):
        row = groups[key]
        base = row.get("mcp-envelope-serde")
        for contender in sorted(row, key=contender_order):
            r = row[contender]
            ratio = f"{r['ns'] / base['ns']:.2f}x time" if base else "-"
            lines.append(f"| {key} | {contender} | {human_time(r['ns'])} | {fmt_rate(*rate(r))} | {ratio} | {difference(verdicts, key, contender)} |")
    if results.get("instructions"):
        lines.append("")
        lines.append("| instructions (callgrind) | count |")
        lines.append("|---|---|")
        for name, count in sorted(results["instructions"].items()):
            lines.append(f"| {name} | {count:,} |")
    return "\n".join(lines)


def difference(verdicts, key, contender):
    if contender in OURS or contender in CEILINGS:
        return ""
    group, _, value = key.partition(" ")
    if group == "adversarial":
        got = verdicts.get("adversarial", {}).get(f"{contender}/{value}")
    else:
        got = verdicts.get(group, {}).get(contender)
    if not got:
        return ""
    n, of = got
    return f"{n} of {of}" if n else "0"


def group_order(key):
    order = ["realistic-small", "realistic-medium", "realistic-large", "adversarial", "scaling-size", "scaling-depth"]
    group, _, value = key.partition(" ")
    rank = order.index(group) if group in order else len(order)
    digits = "".join(ch for ch in value if ch.isdigit())
    return (rank, int(digits) if digits and group.startswith("scaling") else 0, value)


def contender_order(name):
    order = list(OURS) + ["serde_json-rawvalue-struct", "sonic-rs-lazyvalue", "sonic-rs-value", "serde_json-value",
                          "rmcp-untyped", "rmcp-typed", "serde_json-ignoredany", "simd-json-tape", "utf8-floor"]
    return order.index(name) if name in order else len(order)


# ---------------------------------------------------------------- compare

def compare(args):
    with open(args.base) as f:
        base = json.load(f)
    with open(args.head) as f:
        head = json.load(f)
    lines = [f"# Benchmark comparison: {base['meta'].get('commit', 'base')} → {head['meta'].get('commit', 'head')}", ""]
    lines.append(f"Machine: {head['meta'].get('cpu')}, {head['meta'].get('cores')} cores. Both commits built and run in one session, alternating.")
    lines.append(f"Wall-clock verdicts need a change beyond the spread of the rounds and at least {args.noise:g} %; "
                 f"instruction counts decide where they exist, with a threshold of {args.threshold:g} %.")
    lines.append("")
    regressions = []
    if base["instructions"] or head["instructions"]:
        lines.append("## Instructions (callgrind)")
        lines.append("")
        lines.append("| bench | base | head | ratio | verdict |")
        lines.append("|---|---|---|---|---|")
        for name in sorted(set(base["instructions"]) | set(head["instructions"])):
            b, h = base["instructions"].get(name), head["instructions"].get(name)
            if b is None or h is None:
                lines.append(f"| {name} | {b or '-'} | {h or '-'} | - | {'new' if b is None else 'gone'} |")
                continue
            ratio = h / b if b else float("inf")
            change = (ratio - 1) * 100
            if change > args.threshold:
                verdict = "**slower**"
                regressions.append(f"{name}: +{change:.2f} % instructions")
            elif change < -args.threshold:
                verdict = "faster"
            else:
                verdict = "within noise"
            lines.append(f"| {name} | {b:,} | {h:,} | {ratio:.4f} | {verdict} |")
        lines.append("")
    lines.append("## Wall clock (median of rounds)")
    lines.append("")
    lines.append("| bench | base | head | ratio | verdict |")
    lines.append("|---|---|---|---|---|")
    for name in sorted(set(base["time"]) | set(head["time"]), key=lambda n: (group_order(f"{split(n)[0]} {split(n)[2]}"), contender_order(split(n)[1]))):
        b, h = base["time"].get(name), head["time"].get(name)
        if b is None or h is None:
            lines.append(f"| {name} | {human_time(b['ns']) if b else '-'} | {human_time(h['ns']) if h else '-'} | - | {'new' if b is None else 'gone'} |")
            continue
        ratio = h["ns"] / b["ns"]
        lines.append(f"| {name} | {human_time(b['ns'])} | {human_time(h['ns'])} | {ratio:.3f} | {time_verdict(b, h, args.noise)} |")
    lines.append("")
    if regressions:
        lines.append(f"**{len(regressions)} regression(s) beyond {args.threshold:g} % of instructions:** " + "; ".join(regressions))
    else:
        lines.append(f"No benchmark regressed beyond {args.threshold:g} % of instructions.")
    with open(args.out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 1 if regressions else 0


def time_verdict(b, h, noise):
    """faster / slower only when the medians differ by more than `noise`
    percent, criterion's confidence intervals do not overlap, and with at
    least two rounds a side, every head round is beyond every base round.
    Anything less on a shared machine is noise."""
    ratio = h["ns"] / b["ns"]
    if abs(ratio - 1) * 100 < noise:
        return "within noise"
    if min(len(b["rounds"]), len(h["rounds"])) < 2:
        return "within noise (1 round)"
    if max(h["rounds"]) < min(b["rounds"]) and h["hi"] < b["lo"]:
        return "faster"
    if min(h["rounds"]) > max(b["rounds"]) and h["lo"] > b["hi"]:
        return "slower"
    return "within noise"


# ---------------------------------------------------------------- charts

PALETTE = ["#1b6ca8", "#5aa9e6", "#e07a5f", "#f2cc8f", "#81b29a", "#9d8189", "#3d405b", "#bbbbbb"]


def svg_bars(title, categories, series, unit, subtitle=""):
    """A grouped horizontal bar chart: one block per category, one bar per series."""
    width, left, bar, gap = 920, 220, 14, 18
    names = [name for name, _ in series]
    height = 88 + len(categories) * (len(series) * bar + gap) + 20 * ((len(series) + 2) // 3)
    top = max((v for _, values in series for v in values.values() if v), default=1)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="12">',
           f'<rect width="100%" height="100%" fill="white"/>',
           f'<text x="10" y="22" font-size="15" font-weight="bold">{escape(title)}</text>',
           f'<text x="10" y="40" fill="#555555">{escape(subtitle)}</text>']
    y = 62
    for i, name in enumerate(names):
        lx, ly = 10 + (i % 3) * 300, y + (i // 3) * 18
        out.append(f'<rect x="{lx}" y="{ly - 10}" width="12" height="12" fill="{PALETTE[i % len(PALETTE)]}"/>')
        out.append(f'<text x="{lx + 16}" y="{ly}">{escape(name)}</text>')
    y += 18 * ((len(names) + 2) // 3) + 8
    span = width - left - 120
    for category in categories:
        out.append(f'<text x="10" y="{y + len(series) * bar / 2 + 4}" font-weight="bold">{escape(category)}</text>')
        for i, (name, values) in enumerate(series):
            v = values.get(category)
            if v:
                w = max(1, span * v / top)
                out.append(f'<rect x="{left}" y="{y}" width="{w:.1f}" height="{bar - 2}" fill="{PALETTE[i % len(PALETTE)]}"/>')
                out.append(f'<text x="{left + w + 4:.1f}" y="{y + bar - 4}">{v:,.0f} {unit}</text>')
            y += bar
        y += gap
    out.append("</svg>")
    return "\n".join(out)


def escape(s):
    return str(s).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def chart(args):
    with open(args.results) as f:
        results = json.load(f)
    categories = ["realistic-small", "realistic-medium", "realistic-large"]
    series = {}
    floor = {}
    for bench_id, r in results["time"].items():
        group, contender, value = split(bench_id)
        if group in categories and not value:
            mb, _ = rate(r)
            # The UTF-8 floor is 10 to 20 times faster than any parser: it
            # would squash every other bar, so it goes into the title.
            (floor if contender == "utf8-floor" else series.setdefault(contender, {}))[group] = mb
    ordered = sorted(series.items(), key=lambda kv: contender_order(kv[0]))
    floors = ", ".join(f"{floor[c]:,.0f}" for c in categories if c in floor)
    title = "Throughput per backend and peer (MB/s, higher is better)"
    m = results["meta"]
    subtitle = f"{m.get('cpu')}, {m.get('cores')} cores, commit {m.get('commit') or '?'}; UTF-8 validation alone: {floors} MB/s"
    with open(args.out, "w") as f:
        f.write(svg_bars(title, categories, ordered, "MB/s", subtitle))


def history_append(args):
    with open(args.results) as f:
        results = json.load(f)
    with open(args.history, "a") as f:
        for bench_id, r in sorted(results["time"].items()):
            mb, msgs = rate(r)
            f.write(json.dumps({"commit": args.commit, "date": results["meta"]["date"], "bench": bench_id,
                                "ns": r["ns"], "mb_per_s": mb, "msgs_per_s": msgs}) + "\n")
        for name, count in sorted(results["instructions"].items()):
            f.write(json.dumps({"commit": args.commit, "date": results["meta"]["date"], "bench": name, "instructions": count}) + "\n")


def history_chart(args):
    """Instructions of our backends on the realistic corpus, commit after commit."""
    rows = []
    with open(args.history) as f:
        for line in f:
            if line.strip():
                rows.append(json.loads(line))
    commits = []
    for row in rows:
        if row["commit"] not in commits:
            commits.append(row["commit"])
    tracked = sorted({row["bench"] for row in rows if "instructions" in row
                      and row["bench"].startswith("instructions/mcp_envelope") and "realistic" in row["bench"]})
    width, height, left, right, top, bottom = 920, 380, 80, 260, 40, 70
    values = {(row["commit"], row["bench"]): row["instructions"] for row in rows if "instructions" in row}
    peak = max((values[k] for k in values if k[1] in tracked), default=1) * 1.1
    plot_w, plot_h = width - left - right, height - top - bottom
    y_of = lambda v: top + plot_h * (1 - v / peak)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="11">',
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="10" y="20" font-size="14" font-weight="bold">Instructions per realistic corpus file, commit by commit (lower is better)</text>']
    for i in range(5):
        v = peak * i / 4
        y = y_of(v)
        out.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + plot_w}" y2="{y:.1f}" stroke="#dddddd"/>')
        out.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{v / 1e6:.0f} M</text>')
    xs = {c: left + plot_w * (i / max(1, len(commits) - 1)) for i, c in enumerate(commits)}
    for c, x in xs.items():
        out.append(f'<text x="{x:.0f}" y="{height - bottom + 16}" transform="rotate(30 {x:.0f} {height - bottom + 16})">{escape(c[:10])}</text>')
    for i, bench in enumerate(tracked):
        points = [(xs[c], y_of(values[(c, bench)])) for c in commits if (c, bench) in values]
        color = PALETTE[i % len(PALETTE)]
        dash = ' stroke-dasharray="6 3"' if "simd" in bench else ""
        if len(points) > 1:
            out.append(f'<polyline fill="none" stroke="{color}" stroke-width="2"{dash} points="{" ".join(f"{x:.1f},{y:.1f}" for x, y in points)}"/>')
        for x, y in points:
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{color}"/>')
        label = bench.replace("instructions/mcp_envelope_", "").replace("/realistic_", " ")
        ly = top + 16 * i + 10
        out.append(f'<line x1="{width - right + 20}" y1="{ly - 4}" x2="{width - right + 44}" y2="{ly - 4}" stroke="{color}" stroke-width="2"{dash}/>')
        out.append(f'<text x="{width - right + 50}" y="{ly}">{escape(label)}</text>')
    out.append("</svg>")
    with open(args.out, "w") as f:
        f.write("\n".join(out))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("collect")
    p.add_argument("--criterion", nargs="+", default=[])
    p.add_argument("--gungraun")
    p.add_argument("--verdicts")
    p.add_argument("--out", required=True)
    p = sub.add_parser("table")
    p.add_argument("results")
    p = sub.add_parser("compare")
    p.add_argument("base")
    p.add_argument("head")
    p.add_argument("--threshold", type=float, default=5.0)
    p.add_argument("--noise", type=float, default=3.0)
    p.add_argument("--out", required=True)
    p = sub.add_parser("chart")
    p.add_argument("results")
    p.add_argument("--out", required=True)
    p = sub.add_parser("history-append")
    p.add_argument("results")
    p.add_argument("--history", required=True)
    p.add_argument("--commit", required=True)
    p = sub.add_parser("history-chart")
    p.add_argument("--history", required=True)
    p.add_argument("--out", required=True)
    args = parser.parse_args()
    handler = {"collect": collect, "table": table, "compare": compare, "chart": chart,
               "history-append": history_append, "history-chart": history_chart}[args.command]
    sys.exit(handler(args) or 0)


if __name__ == "__main__":
    main()
