"""The tap never changes a session's outcome, shown on sessions where the
server calls back to the client (sampling, elicitation) mid-call: the
requests that ride the POST's own stream, the standalone GET stream, and
2026-07-28's input-required rounds.

Two parts:
- The Python SDK's client, with sampling and elicitation callbacks, against
  a Python SDK server (scripts/interop/backchannel_server.py) and the
  TypeScript reference server (trigger-sampling-request and
  trigger-elicitation-request): for each configuration, 50 sessions back to
  back and then 10 at once, all in this process, directly and through
  `tap --http`. Each session carries its number out in the server's request
  and back in the client's answer, so a callback delivered to the wrong
  session would show.
- The TypeScript SDK's client and server (ts_sampling_client.cjs,
  ts_sampling_server.cjs), the server sampling on the standalone GET
  stream: 50 sessions back to back, directly and through the tap. Its
  outcome hangs on the order in which the client's GET and its POST reach
  the server, which a proxy that reorders requests changes.

Fails on a session that fails or whose result through the tap is not the
one it had directly, on any finding or invalid message in the tap's logs,
and on log lines other than the messages that the recorder (between the tap
and the server) counted in the bytes, per direction and HTTP method.

Usage: backchannel.py --bin MCP_ENVELOPE --everything DIST_INDEX_JS
--node-modules DIR --out DIR (with the Python that has `mcp` installed)."""
import argparse
import asyncio
import collections
import contextlib
import json
import os
import subprocess
import sys
import time

import httpx2
from mcp import Client, types
from mcp.client.streamable_http import streamable_http_client

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import interop  # noqa: E402  (its helpers: ports, processes, the recorder's counts)

SEQUENTIAL, CONCURRENT = 50, 10
SESSION_SECONDS = 20


def calls_py(*tools, **extra):
    return lambda n: [(tool, {"n": n, **extra}) for tool in tools]


def calls_ts(n):
    return [("trigger-sampling-request", {"prompt": f"hi {n}", "maxTokens": 5}), ("trigger-elicitation-request", {})]


# What each call's text must hold for session n: the session's own answers.
def expect_py(*tools):
    shown = {"sample": "prompt {n} -> {n}", "ask": "accept: Ada {n}", "resolved": "{n}: prompt {n} -> {n}; Ada {n}"}
    return lambda n: [shown[tool].format(n=n) for tool in tools]


def expect_ts(n):
    return [f"context: hi {n} -> {n}", f"Name: Ada {n}"]


# (name, server, mode, calls, expected texts)
CONFIGURATIONS = [
    ("py-sdk legacy, POST stream", "py", "legacy", calls_py("sample", "ask"), expect_py("sample", "ask")),
    ("py-sdk legacy, GET stream", "py", "legacy", calls_py("sample", "ask", on_get_stream=True),
     expect_py("sample", "ask")),
    ("py-sdk legacy, resolvers (mid-call)", "py", "legacy", calls_py("resolved"), expect_py("resolved")),
    ("py-sdk auto, resolvers (2026-07-28 input required)", "py", "auto", calls_py("resolved"),
     expect_py("resolved")),
    ("ts-everything auto (falls back to 2025-11-25)", "ts", "auto", calls_ts, expect_ts),
    ("ts-everything legacy", "ts", "legacy", calls_ts, expect_ts),
]


def describe(error):
    if isinstance(error, BaseExceptionGroup):
        return "; ".join(describe(e) for e in error.exceptions)
    return f"{type(error).__name__}: {error}"


async def session(url, mode, calls, expected, n, verify=None):
    """One session: connect, make the calls, leave. Its outcome as one JSON
    text (to compare), and whether it did what it should. `verify`, an
    ssl.SSLContext, is what an https session trusts."""
    async def sampling(ctx, params):
        text = params.messages[0].content.text
        return types.CreateMessageResult(role="assistant", content=types.TextContent(type="text", text=f"{text} -> {n}"),
                                         model="m")

    async def elicitation(ctx, params):
        return types.ElicitResult(action="accept", content={"name": f"Ada {n}"})

    async def run():
        kwargs = {} if mode == "auto" else {"mode": mode}
        async with contextlib.AsyncExitStack() as stack:
            server = url
            if verify is not None:
                # The SDK's client is httpx2; its default TLS context trusts
                # SSL_CERT_FILE when set, else the system's store. A client of
                # our own trusts the test CA without touching the environment
                # (the tap's roots would read SSL_CERT_FILE too).
                http = await stack.enter_async_context(
                    httpx2.AsyncClient(verify=verify, timeout=httpx2.Timeout(30, read=300)))
                server = streamable_http_client(url, http_client=http)
            client = await stack.enter_async_context(
                Client(server, sampling_callback=sampling, elicitation_callback=elicitation, **kwargs))
            return [(await client.call_tool(tool, args)).model_dump(mode="json", exclude_none=True)
                    for tool, args in calls(n)]

    try:
        results = await asyncio.wait_for(run(), SESSION_SECONDS)
    except Exception as e:
        return json.dumps({"error": describe(e)}), False
    texts = ["\n".join(c.get("text", "") for c in r.get("content", [])) for r in results]
    ok = (len(texts) == len(expected(n)) and not any(r.get("is_error") for r in results)
          and all(want in text for want, text in zip(expected(n), texts)))
    return json.dumps(results, sort_keys=True), ok


async def sessions(url, mode, calls, expected, sequential=SEQUENTIAL, concurrent=CONCURRENT, verify=None):
    """Sessions back to back, then some at once."""
    out = [await session(url, mode, calls, expected, n, verify) for n in range(sequential)]
    out += await asyncio.gather(*(session(url, mode, calls, expected, sequential + n, verify)
                                  for n in range(concurrent)))
    return out


class Tapped:
    """The tap in front of a server, for one run, with the recorder behind
    it (between the tap and an http server), before it (between the client
    and the tap: an https server's bytes cannot be read) or nowhere."""

    def __init__(self, bin, out, name, port, https_ca=None, record="behind"):
        self.log = os.path.join(out, f"{name}.jsonl")
        self.record_dir = os.path.join(out, name) if record else None
        rport, tport = interop.free_port(), interop.free_port()
        scheme = "https" if https_ca else "http"
        upstream = f"http://127.0.0.1:{rport}/mcp" if record == "behind" else f"{scheme}://127.0.0.1:{port}/mcp"
        self.url = f"http://127.0.0.1:{rport if record == 'before' else tport}/mcp"
        self.recorder = None
        if record:
            target = port if record == "behind" else tport
            self.recorder = subprocess.Popen([sys.executable, os.path.join(HERE, "recorder.py"), str(rport),
                                              str(target), self.record_dir])
        command = [bin, "tap", "--http", "--listen", f"127.0.0.1:{tport}", "--upstream", upstream,
                   "--backend", "both", "--log", self.log]
        if record == "before":
            # The recorder relays the client's bytes as they are: their
            # Host names the recorder, which the tap must be told to take.
            command += ["--allow-host", f"127.0.0.1:{rport}"]
        self.tap = subprocess.Popen(command + (["--upstream-ca", https_ca] if https_ca else []),
                                    stderr=subprocess.DEVNULL)
        interop.wait_for(tport, "the tap", self.tap)
        if self.recorder:
            interop.wait_for(rport, "the recorder", self.recorder)

    def stop(self):
        # Let the last DELETEs and stream ends reach the log first.
        time.sleep(0.3)
        interop.stop(self.tap)
        if self.recorder:
            interop.stop(self.recorder)

    def judge(self):
        """What the log says, checked against the recorder's count."""
        entries = [json.loads(line) for line in open(self.log)]
        messages = [e for e in entries if interop.is_message(e)]
        pairs = interop.exchanges(self.record_dir) if self.record_dir else []
        by_method = interop.count(pairs)
        logged = interop.logged_counts(messages)
        mismatches, undelivered = interop.compare(by_method, logged, entries) if self.record_dir else ([], 0)
        return {
            "counted": interop.totals(by_method) if self.record_dir else None, "logged": interop.totals(logged),
            "undelivered": undelivered, "mismatches": mismatches,
            "findings": [e for e in entries if "finding" in e],
            "invalid": [e for e in messages if "reason" in e or e.get("disagreement")],
            "notes": collections.Counter(e["note"] for e in entries if "note" in e),
            "versions": sorted({r["headers"]["mcp-protocol-version"] for r, _ in pairs
                                if "mcp-protocol-version" in r["headers"]}),
        }


def start_server(args, kind):
    port = interop.free_port()
    if kind == "py":
        command, env = [sys.executable, os.path.join(HERE, "backchannel_server.py"), str(port)], {}
    elif kind == "ts":
        command, env = ["node", args.everything, "streamableHttp"], {"PORT": str(port)}
    else:
        command, env = ["node", os.path.join(HERE, "ts_sampling_server.cjs"), str(port)], {"NODE_PATH": args.node_modules}
    server = subprocess.Popen(command, env={**os.environ, **env}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    interop.wait_for(port, kind, server)
    return server, port


def ts_pair(args, url):
    """The TypeScript SDK pair's sessions: one line each, and K of N."""
    run = subprocess.run(["node", os.path.join(HERE, "ts_sampling_client.cjs"), url, str(SEQUENTIAL)],
                         env={**os.environ, "NODE_PATH": args.node_modules}, capture_output=True, text=True,
                         timeout=300)
    lines = run.stdout.splitlines()
    if run.returncode != 0 or not lines:
        sys.exit(f"backchannel: the TypeScript client failed ({run.returncode}):\n{run.stderr}")
    outcomes = [(line, line.endswith('[{"type":"text","text":"sampled"}]')) for line in lines[:-1]]
    return outcomes, lines[-1]


def row_and_failures(name, direct, through, judged):
    same = sum(d[0] == t[0] for d, t in zip(direct, through))
    row = {"configuration": name, "sessions": len(direct),
           "direct_ok": sum(ok for _, ok in direct), "tap_ok": sum(ok for _, ok in through), "same": same, **judged}
    failures = []
    for i, ((d, d_ok), (t, t_ok)) in enumerate(zip(direct, through)):
        if not d_ok:
            failures.append(f"{name}: session {i} failed directly: {d}")
        if not t_ok:
            failures.append(f"{name}: session {i} failed through the tap: {t}")
        if d != t:
            failures.append(f"{name}: session {i} differs through the tap:\n  direct  {d}\n  the tap {t}")
    if len(direct) != len(through):
        failures.append(f"{name}: {len(direct)} sessions directly, {len(through)} through the tap")
    for what, bad in (("findings", judged["findings"]), ("invalid messages", judged["invalid"]),
                      ("log lines are not the messages counted", judged["mismatches"])):
        if bad:
            failures.append(f"{name}: {what}: {bad}")
    return row, failures


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--everything", required=True)
    parser.add_argument("--node-modules", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    started = time.monotonic()
    rows, failures = [], []
    servers = {}
    try:
        for number, (name, kind, mode, calls, expected) in enumerate(CONFIGURATIONS, 1):
            if kind not in servers:
                servers[kind] = start_server(args, kind)
            port = servers[kind][1]
            direct = asyncio.run(sessions(f"http://127.0.0.1:{port}/mcp", mode, calls, expected))
            tapped = Tapped(args.bin, args.out, f"{number}-{kind}-{mode}", port)
            try:
                through = asyncio.run(sessions(tapped.url, mode, calls, expected))
            finally:
                tapped.stop()
            row, found = row_and_failures(name, direct, through, tapped.judge())
            rows.append(row)
            failures += found
        server, port = start_server(args, "ts-pair")
        try:
            direct, direct_total = ts_pair(args, f"http://127.0.0.1:{port}/mcp")
            tapped = Tapped(args.bin, args.out, f"{len(CONFIGURATIONS) + 1}-ts-pair", port)
            try:
                through, through_total = ts_pair(args, tapped.url)
            finally:
                tapped.stop()
        finally:
            interop.stop(server)
        name = "TypeScript SDK client and server, sampling on the GET stream"
        row, found = row_and_failures(name, direct, through, tapped.judge())
        rows.append(row)
        failures += found
    finally:
        for server, _ in servers.values():
            interop.stop(server)
    print("| configuration | MCP-Protocol-Version sent | sessions | ok directly | ok through the tap | identical | "
          "messages counted (client, server) | log lines | written after the client left | findings | invalid | "
          "notes |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        notes = ", ".join(f"{k} {v}" for k, v in sorted(r["notes"].items())) or "-"
        print(f"| {r['configuration']} | {' '.join(r['versions'])} | {r['sessions']} | {r['direct_ok']} | {r['tap_ok']} | "
              f"{r['same']} | {r['counted'][0]}, {r['counted'][1]} | {r['logged'][0]}, {r['logged'][1]} | "
              f"{r['undelivered']} | {len(r['findings'])} | {len(r['invalid'])} | {notes} |")
    print(f"\nGET-stream sampling, TypeScript SDK client and server: {direct_total} directly, "
          f"{through_total} through the tap")
    total = sum(r["sessions"] for r in rows)
    print(f"back-channel: {len(rows)} configurations, {total} sessions each way, "
          f"{sum(r['same'] for r in rows)} identical, {len(failures)} failures "
          f"({time.monotonic() - started:.0f} s)")
    for failure in failures:
        print(f"backchannel: {failure}", file=sys.stderr)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
