"""The official conformance suite through the tap: the tap must never
change a session. Against the conforming fixture server (suite_server.py,
the Python SDK), the suite's newest release (0.1.16, its default revision)
and its newest 0.2 pre-release (`--requirements 2026-07-28`), both on
Node 22,
each run RUNS times directly and RUNS times through `tap --http`: every
run must report the same scenarios and the same status for each of their
checks as the first direct run, and the tap's log must hold no finding
against the server above a warning (the suite's own faults, sent on
purpose, are the client's).

Usage: suite_tap.py --bin MCP_ENVELOPE --node NODE22 --suite CONFORMANCE_0_2_JS
                    --stable CONFORMANCE_0_1_JS --out DIR [--runs N]
(run from the repository's root with the Python that has `mcp`)."""
import argparse
import collections
import glob
import json
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import interop  # noqa: E402


def outcome(node, suite, url, extra, out):
    """What one run of the suite reported: each scenario's checks and
    their statuses, keyed by scenario and check id."""
    run = subprocess.run([node, suite, "server", "--url", url, *extra, "-o", out],
                         capture_output=True, text=True, timeout=900)
    with open(out + ".log", "w", encoding="utf-8") as f:
        f.write(run.stdout + run.stderr)
    found = {}
    for path in sorted(glob.glob(os.path.join(out, "*", "checks.json"))):
        # server-<scenario>-<ISO timestamp>: the scenario without its time.
        scenario = re.sub(r"-\d{4}-\d{2}-\d{2}T.*$", "", os.path.basename(os.path.dirname(path)))
        for check in json.load(open(path, encoding="utf-8")):
            found[(scenario, check["id"])] = check.get("status", "")
    return found


def tap_findings(log):
    """The findings of a tap's log, counted by side and severity."""
    counted = collections.Counter()
    for line in open(log, encoding="utf-8"):
        entry = json.loads(line)
        if "finding" in entry:
            counted[(entry["side"], entry["severity"], entry["finding"])] += 1
    return counted


def differences(first, other):
    """What another run reported otherwise than the first: (scenario, check)
    each with both statuses."""
    keys = sorted(set(first) | set(other))
    return [(k, first.get(k, "absent"), other.get(k, "absent")) for k in keys if first.get(k) != other.get(k)]


def main():
    parser = argparse.ArgumentParser()
    for option in ("--bin", "--node", "--suite", "--stable", "--out"):
        parser.add_argument(option, required=True)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    port = interop.free_port()
    server = subprocess.Popen([sys.executable, os.path.join(HERE, "suite_server.py"), str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    suites = [
        ("0.1.16", args.node, args.stable, []),
        ("0.2.0-alpha.12", args.node, args.suite, ["--requirements", "2026-07-28"]),
    ]
    failures, rows = [], []
    server_findings = collections.Counter()
    try:
        interop.wait_for(port, "the fixture server", server)
        direct_url = f"http://127.0.0.1:{port}/mcp"
        for version, node, suite, extra in suites:
            first, same, ran = None, 0, 0
            scored = collections.Counter()
            for run in range(args.runs):
                for way in ("direct", "tap"):
                    name = f"{version}-{way}-{run + 1}"
                    out = os.path.join(args.out, name)
                    if way == "direct":
                        found = outcome(node, suite, direct_url, extra, out)
                    else:
                        tport, log = interop.free_port(), out + ".tap.jsonl"
                        tap = subprocess.Popen([args.bin, "tap", "--http", "--listen", f"127.0.0.1:{tport}",
                                                "--upstream", direct_url, "--log", log],
                                               stderr=subprocess.DEVNULL)
                        try:
                            interop.wait_for(tport, "the tap", tap)
                            found = outcome(node, suite, f"http://127.0.0.1:{tport}/mcp", extra, out)
                        finally:
                            time.sleep(0.3)
                            interop.stop(tap)
                        for (side, severity, rule), n in tap_findings(log).items():
                            if side == "server" and severity == "violation":
                                server_findings[(version, rule)] += n
                    ran += 1
                    if not found:
                        failures.append(f"{version}, {name}: the suite reported no check (see {out}.log)")
                    if first is None:
                        first = found
                        scored = collections.Counter(status for status in found.values())
                    changed = differences(first, found)
                    if changed:
                        shown = "; ".join(f"{s} {c}: {a} then {b}" for (s, c), a, b in changed[:6])
                        failures.append(f"{version}, {name}: {len(changed)} checks differ from the first run: {shown}")
                    else:
                        same += 1
            rows.append((version, ran, same, len({s for s, _ in first}), scored))
    finally:
        interop.stop(server)
    print("| suite | runs (direct and through the tap) | same outcome as the first | scenarios | checks: "
          "success, failure, warning, other |")
    print("|---|---|---|---|---|")
    for version, ran, same, scenarios, scored in rows:
        other = sum(n for s, n in scored.items() if s not in ("SUCCESS", "FAILURE", "WARNING"))
        print(f"| {version} | {ran} | {same} | {scenarios} | {scored['SUCCESS']}, {scored['FAILURE']}, "
              f"{scored['WARNING']}, {other} |")
    for (version, rule), n in sorted(server_findings.items()):
        failures.append(f"{version}: the tap found the conforming server breaking {rule} ({n} times)")
    total = sum(r[1] for r in rows)
    print(f"\nsuite through the tap: {total} runs on the fixture server, "
          f"{sum(r[2] for r in rows)} with the first run's outcome; "
          f"{sum(server_findings.values())} server findings above a warning, {len(failures)} failures")
    for failure in failures:
        print(f"interop: {failure}", file=sys.stderr)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
