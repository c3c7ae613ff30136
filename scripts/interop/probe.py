"""`mcp-envelope probe` against the real peers: the TypeScript reference
server over stdio and Streamable HTTP (the revision it takes: 2025-11-25),
and a Python SDK server (py_server.py) over stdio and Streamable HTTP in
both eras (2026-07-28 and 2025-11-25). Each scorecard must be the one
docs/probe.md quotes (its block marked `<!-- probe: NAME -->`), ports
aside: a change in what a peer answers, or in how the probe grades it,
fails here until the page shows it. Prints the time each probe took.

Usage: probe.py --bin MCP_ENVELOPE --everything DIST_INDEX_JS --out DIR
(run from the repository's root, with the Python that has `mcp`
installed: the stdio commands are quoted as they are run)."""
import argparse
import difflib
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import interop  # noqa: E402

DOCS_PROBE = os.path.join(HERE, "..", "..", "docs", "probe.md")


def quoted(marker):
    """The lines of the fenced block after `<!-- probe: MARKER -->`."""
    text = open(DOCS_PROBE, encoding="utf-8").read()
    found = re.search(r"<!-- probe: " + re.escape(marker) + r" -->\n+```[a-z]*\n(.*?)\n```", text, re.S)
    return found.group(1).split("\n") if found else None


def volatile(line):
    return re.sub(r"127\.0\.0\.1:[0-9]+", "127.0.0.1:PORT", line)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--everything", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    py = os.path.relpath(sys.executable)
    server = os.path.relpath(os.path.join(HERE, "py_server.py"))
    ts_port, py_port = interop.free_port(), interop.free_port()
    ts = subprocess.Popen(["node", args.everything, "streamableHttp"], env={**os.environ, "PORT": str(ts_port)},
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    pysrv = subprocess.Popen([py, server, str(py_port)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    cards = [
        ("ts-everything stdio", ["--", "node", args.everything, "stdio"]),
        ("ts-everything http", [f"http://127.0.0.1:{ts_port}/mcp"]),
        ("py-sdk stdio 2026-07-28", ["--revision", "2026-07-28", "--", py, server, "stdio"]),
        ("py-sdk stdio 2025-11-25", ["--revision", "2025-11-25", "--", py, server, "stdio"]),
        ("py-sdk http 2026-07-28", ["--revision", "2026-07-28", f"http://127.0.0.1:{py_port}/mcp"]),
        ("py-sdk http 2025-11-25", ["--revision", "2025-11-25", f"http://127.0.0.1:{py_port}/mcp"]),
    ]
    failures, rows = [], []
    try:
        interop.wait_for(ts_port, "ts-everything", ts)
        interop.wait_for(py_port, "py-sdk", pysrv)
        for name, probe_args in cards:
            started = time.perf_counter()
            run = subprocess.run([args.bin, "probe", *probe_args], capture_output=True, text=True, timeout=300)
            elapsed = time.perf_counter() - started
            with open(os.path.join(args.out, name.replace(" ", "-") + ".txt"), "w", encoding="utf-8") as f:
                f.write(run.stdout)
            if run.returncode not in (0, 1):
                failures.append(f"{name}: the probe exited {run.returncode}: {run.stderr.strip()}")
                continue
            lines = run.stdout.rstrip("\n").split("\n")
            rows.append((name, lines[-1], elapsed))
            shown = quoted(name)
            if shown is None:
                failures.append(f"docs/probe.md: no block marked <!-- probe: {name} -->")
                continue
            want, got = [volatile(line) for line in shown], [volatile(line) for line in lines]
            if want != got:
                diff = "\n".join(difflib.unified_diff(want, got, "docs/probe.md", "this run", lineterm=""))
                failures.append(f"docs/probe.md, {name}: the page is not what the probe printed:\n{diff}")
    finally:
        interop.stop(ts)
        interop.stop(pysrv)
    print("| peer | scorecard | seconds (server start-up included) |")
    print("|---|---|---|")
    for name, summary, elapsed in rows:
        print(f"| {name} | {summary} | {elapsed:.2f} |")
    print(f"\nprobe: {len(rows)} scorecards of the real peers, {len(failures)} failures")
    for failure in failures:
        print(f"interop: {failure}", file=sys.stderr)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
