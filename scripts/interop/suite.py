"""The official conformance suite beside `mcp-envelope probe`, on the same
servers: the suite's newest 0.2 pre-release (`--requirements 2026-07-28`,
on Node 22) and the probe under 2026-07-28 against the Python SDK's server,
the TypeScript SDK v2's and the TypeScript reference server, over
Streamable HTTP. For each of the suite's transport and envelope checks,
the probe check that asks the same, and both verdicts per server. The
table must be the one docs/probe.md shows (its block marked
`<!-- suite: side by side -->`): a change in what a server answers, in
what the suite or the probe says of it, fails here until the page shows
it (and says why where they disagree).

Usage: suite.py --bin MCP_ENVELOPE --node NODE22 --suite CONFORMANCE_JS
                --everything DIST_INDEX_JS --ts2 TS2_SERVER_MJS --out DIR
(run from the repository's root with the Python that has `mcp`)."""
import argparse
import difflib
import glob
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import interop  # noqa: E402

DOCS_PROBE = os.path.join(HERE, "..", "..", "docs", "probe.md")

# The suite's checks on the rules the probe covers (transport and
# envelope), each with the probe checks that ask the same, or None and
# why the probe does not ask it.
CHECKS = [
    ("sep-2575-request-meta-invalid-missing-meta", ["meta-missing"]),
    ("sep-2575-request-meta-invalid-missing-protocol-version", ["meta-protocol-version-missing"]),
    ("sep-2575-request-meta-invalid-missing-client-capabilities", ["meta-client-capabilities-missing"]),
    ("sep-2575-http-server-meta-invalid-400",
     ["meta-missing", "meta-protocol-version-missing", "meta-client-capabilities-missing"]),
    ("sep-2575-http-server-error-jsonrpc-id",
     ["meta-missing", "meta-protocol-version-missing", "meta-client-capabilities-missing", "unsupported-version-32022"]),
    ("sep-2575-request-meta-client-info-optional", ["meta-client-info-optional"]),
    ("sep-2575-server-implements-discover", ["discover-result"]),
    ("sep-2575-server-identifies-in-result-meta", ["discover-server-info"]),
    ("sep-2575-server-declares-prompts-in-discover", ["discover-capabilities"]),
    ("sep-2575-discover-capabilities-match-handlers", ["discover-capabilities"]),
    ("sep-2575-server-unsupported-version-error", ["unsupported-version-32022"]),
    ("sep-2575-http-server-unsupported-version-400", ["unsupported-version-32022"]),
    ("sep-2575-http-server-header-mismatch-400", ["protocol-version-mismatch"]),
    ("sep-2575-http-server-method-not-found-404-initialize", ["removed-initialize"]),
    ("sep-2575-http-server-method-not-found-404-ping", ["removed-ping"]),
    ("sep-2575-http-server-method-not-found-404-logging-setlevel", ["removed-logging-set-level"]),
    ("sep-2575-http-server-method-not-found-404-resources-subscribe", ["removed-resources-subscribe"]),
    ("sep-2575-http-server-method-not-found-404-resources-unsubscribe", ["removed-resources-unsubscribe"]),
    ("sep-2575-http-server-method-not-found-404", ["unknown-method"]),
    ("sep-2575-server-sends-subscription-ack", ["listen-acknowledged-first"]),
    ("sep-2575-server-tags-subscription-id", ["listen-subscription-id"]),
    ("sep-2575-server-rejects-undeclared-capability", None),
    ("sep-2575-missing-capability-http-400", None),
    ("sep-2575-http-server-no-independent-requests-on-stream", None),
    ("sep-2575-server-no-log-without-loglevel", None),
    ("sep-2575-server-honors-notification-filter", None),
    ("sep-2243-server-reject-invalid-headers",
     ["mcp-method-mismatch", "mcp-method-missing", "mcp-name-mismatch", "mcp-name-missing", "mcp-method-case"]),
    ("sep-2243-server-reject-error-code",
     ["mcp-method-mismatch", "mcp-method-missing", "mcp-name-mismatch", "mcp-name-missing", "mcp-method-case"]),
    ("sep-2243-server-accepts-whitespace-header-value", ["header-value-whitespace"]),
    ("sep-2243-header-name-case-insensitive", ["header-name-case"]),
    ("localhost-host-rebinding-rejected", ["origin-and-host-foreign", "origin-foreign"]),
    ("sep-2549-tools-list-caching-hints", ["tools-list-caching"]),
    ("sep-2549-prompts-list-caching-hints", ["prompts-list-caching"]),
    ("sep-2549-resources-list-caching-hints", ["resources-list-caching"]),
    ("sep-2549-resources-templates-list-caching-hints", ["resource-templates-list-caching"]),
    ("sep-2549-resources-read-caching-hints", ["resource-read-caching"]),
    ("sep-2549-ttl-non-negative", ["tools-list-caching", "prompts-list-caching", "resources-list-caching"]),
    ("sep-2549-cache-scope-valid", ["tools-list-caching", "prompts-list-caching", "resources-list-caching"]),
    ("server-accepts-multiple-post-streams", ["ids-in-flight-answered-once"]),
]

# The worst of a check's statuses where the suite reports one several times.
SUITE_RANK = {"SUCCESS": 0, "INFO": 0, "SKIPPED": 0, "WARNING": 1, "FAILURE": 2}
SUITE_WORD = {"SUCCESS": "pass", "INFO": "pass", "SKIPPED": "skip", "WARNING": "warn", "FAILURE": "fail"}
PROBE_RANK = {"pass": 0, "skip": 0, "warn": 1, "fail": 2}


def suite_verdicts(node, suite, url, out):
    """What the suite says of each of its checks, and its run's exit."""
    run = subprocess.run([node, suite, "server", "--url", url, "--requirements", "2026-07-28", "-o", out],
                         capture_output=True, text=True, timeout=600)
    with open(out + ".log", "w", encoding="utf-8") as f:
        f.write(run.stdout + run.stderr)
    verdicts = {}
    for path in glob.glob(os.path.join(out, "*", "checks.json")):
        for check in json.load(open(path, encoding="utf-8")):
            status = check.get("status", "")
            known = verdicts.get(check["id"])
            if known is None or SUITE_RANK.get(status, 0) > SUITE_RANK.get(known, 0):
                verdicts[check["id"]] = status
    return verdicts


def probe_verdicts(binary, url, out):
    """What the probe says under 2026-07-28, by check; None when it could
    not probe the server under that revision at all (and why)."""
    run = subprocess.run([binary, "probe", "--revision", "2026-07-28", "--format", "json", url],
                         capture_output=True, text=True, timeout=600)
    with open(out, "w", encoding="utf-8") as f:
        f.write(run.stdout + run.stderr)
    if run.returncode not in (0, 1):
        return None, run.stderr.strip()
    verdicts = {}
    for line in run.stdout.splitlines():
        value = json.loads(line)
        if "check" in value:
            verdicts[value["check"]] = value["verdict"]
    return verdicts, ""


def worst(verdicts, checks):
    found = [verdicts[c] for c in checks if c in verdicts]
    if not found:
        return "-"
    return max(found, key=lambda v: PROBE_RANK.get(v, 0))


def table(servers):
    """The side-by-side table, one row per suite check."""
    head = "| the suite's check | the probe's | " + " | ".join(f"{name}: suite / probe" for name, _, _ in servers) + " |"
    rows = [head, "|" + "---|" * (2 + len(servers))]
    for check, probe_checks in CHECKS:
        cells = []
        for _, suite, (probe, why) in servers:
            said = SUITE_WORD.get(suite.get(check, ""), "-")
            if probe_checks is None:
                ours = "not asked"
            elif probe is None:
                ours = "not probed"
            else:
                ours = worst(probe, probe_checks)
            cells.append(f"{said} / {ours}")
        mapped = "not asked" if probe_checks is None else ", ".join(f"`{c}`" for c in probe_checks)
        rows.append(f"| `{check}` | {mapped} | " + " | ".join(cells) + " |")
    return rows


def quoted():
    text = open(DOCS_PROBE, encoding="utf-8").read()
    found = re.search(r"<!-- suite: side by side -->\n+(\|.*?)\n\n", text, re.S)
    return found.group(1).split("\n") if found else None


def main():
    parser = argparse.ArgumentParser()
    for option in ("--bin", "--node", "--suite", "--everything", "--ts2", "--out"):
        parser.add_argument(option, required=True)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    py = os.path.relpath(sys.executable)
    ports = {name: interop.free_port() for name in ("py", "ts2", "everything")}
    started = {
        "py": subprocess.Popen([py, os.path.join(HERE, "py_server.py"), str(ports["py"])],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL),
        "ts2": subprocess.Popen([args.node, args.ts2, str(ports["ts2"])],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL),
        "everything": subprocess.Popen(["node", args.everything, "streamableHttp"],
                                       env={**os.environ, "PORT": str(ports["everything"])},
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL),
    }
    names = {"py": "Python SDK 2.3.0", "ts2": "TypeScript SDK 2.4.0", "everything": "reference server 2026.8.31"}
    servers, failures = [], []
    try:
        for name, process in started.items():
            interop.wait_for(ports[name], name, process)
            url = f"http://127.0.0.1:{ports[name]}/mcp"
            suite = suite_verdicts(args.node, args.suite, url, os.path.join(args.out, f"suite-{name}"))
            probe = probe_verdicts(args.bin, url, os.path.join(args.out, f"probe-{name}.jsonl"))
            servers.append((names[name], suite, probe))
    finally:
        for process in started.values():
            interop.stop(process)
    rows = table(servers)
    print("\n".join(rows))
    disagreements = sum(
        1 for row in rows[2:] for cell in row.split(" | ")[2:]
        if " / " in cell and "not" not in cell and "-" not in cell.split(" / ")
        and len(set(cell.strip(" |").split(" / "))) > 1
    )
    shown = quoted()
    if shown is None:
        failures.append("docs/probe.md: no table marked <!-- suite: side by side -->")
    elif shown != rows:
        diff = "\n".join(difflib.unified_diff(shown, rows, "docs/probe.md", "this run", lineterm=""))
        failures.append(f"docs/probe.md, the suite beside the probe: the page is not what this run found:\n{diff}")
    print(f"\nsuite: {len(CHECKS)} of its checks beside the probe's on {len(servers)} servers, "
          f"{disagreements} cells that differ, {len(failures)} failures")
    for failure in failures:
        print(f"interop: {failure}", file=sys.stderr)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
