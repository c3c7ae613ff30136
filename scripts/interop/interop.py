"""Real sessions, run directly and through the tap, between the official
Python SDK's client and two real servers (the TypeScript reference server
and a Python SDK server): over Streamable HTTP through `mcp-envelope tap
--http` (the servers in event-stream and JSON modes), and over stdio
through `mcp-envelope tap`. Fails on any difference between the two
runs, any finding or invalid message in the tap's log, or a log whose
message lines are not the messages an independent recorder counted, per
direction and HTTP method (the one shortfall allowed, and shown, is what a
server wrote on a GET stream the client had closed: see compare()). The
`tap --http` transcripts docs/tap.md quotes (marked `<!-- interop: ... -->`)
are held to what this run's tap printed and logged, event ids and ports
aside: a change in the tap's output fails here until the page shows it.

Usage: interop.py --bin MCP_ENVELOPE --everything DIST_INDEX_JS --out DIR [--capture DIR] [--capture-stdio DIR]
(run with the Python that has `mcp` installed; scripts/interop.sh sets it all up)."""
import argparse
import difflib
import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time

import h11

HERE = os.path.dirname(os.path.abspath(__file__))
DOCS_TAP = os.path.join(HERE, "..", "..", "docs", "tap.md")
EVENTLESS = {"empty-data", "other-event", "cut"}


def is_message(entry):
    """Whether a log line is a message's (not a finding, a note, or an
    event that carried none)."""
    return "kind" in entry and entry["kind"] not in EVENTLESS


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(port, what, proc, seconds=30):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if proc.poll() is not None:
            sys.exit(f"interop: {what} exited with {proc.returncode} before listening")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    sys.exit(f"interop: {what} did not listen on {port} within {seconds} s")


def stop(proc):
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def sse_messages(body):
    """The message events of an event stream, read the WHATWG way (an
    independent reading: not the tap's, not the SDK's)."""
    text = body.decode("utf-8", "replace")
    if text.startswith("\ufeff"):
        text = text[1:]
    events, data, kind = [], None, "message"
    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        if line == "":
            if data is not None and kind == "message" and "\n".join(data) != "":
                events.append("\n".join(data))
            data, kind = None, "message"
            continue
        if line.startswith(":"):
            continue
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        if name == "data":
            data = (data or []) + [value]
        elif name == "event":
            kind = value or "message"
    return events


def quoted(marker):
    """The lines of the fenced block after `<!-- interop: MARKER -->` in
    docs/tap.md, or None."""
    text = open(DOCS_TAP, encoding="utf-8").read()
    found = re.search(r"<!-- interop: " + re.escape(marker) + r" -->\n+```[a-z]*\n(.*?)\n```", text, re.S)
    return found.group(1).split("\n") if found else None


def volatile(line):
    """A line with what changes from run to run made constant: the event
    ids the server makes up, and the ports."""
    line = re.sub(r'"event_id":"[^"]*"', '"event_id":"ID"', line)
    return re.sub(r"127\.0\.0\.1:[0-9]+", "127.0.0.1:PORT", line)


def renumbered(lines):
    """The lines with their exchange numbers replaced by 1, 2, 3... in the
    order the exchanges first appear: for a log whose left-out exchange
    (the GET stream) may take its number before or after another's."""
    order = {}

    def rank(found):
        return '"exchange":%d' % order.setdefault(found.group(1), len(order) + 1)
    return [re.sub(r'"exchange":([0-9]+)', rank, line) for line in lines]


def transcript_failures(marker, lines, normal=lambda lines: lines):
    """How docs/tap.md's block MARKER differs from what this run printed
    (both read through NORMAL first)."""
    shown = quoted(marker)
    if shown is None:
        return [f"docs/tap.md: no block marked <!-- interop: {marker} -->"]
    want, got = normal([volatile(line) for line in shown]), normal([volatile(line) for line in lines])
    if want == got:
        return []
    diff = "\n".join(difflib.unified_diff(want, got, "docs/tap.md", "this run", lineterm=""))
    return [f"docs/tap.md, {marker}: the page is not what the tap wrote:\n{diff}"]


def header_mismatch(args, py):
    """docs/tap.md's -32020 example, run: a 2026-07-28 `tools/call` of echo
    whose Mcp-Name header says get_me, posted through the tap to a Python
    SDK server, which must answer 400. The failures, and the log's lines."""
    port, tport = free_port(), free_port()
    log = os.path.join(args.out, "header-mismatch.jsonl")
    server = subprocess.Popen([py, os.path.join(HERE, "py_server.py"), str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(port, "py-sdk-sse", server)
        tap = subprocess.Popen([args.bin, "tap", "--http", "--listen", f"127.0.0.1:{tport}",
                                "--upstream", f"http://127.0.0.1:{port}/mcp", "--log", log], stderr=subprocess.DEVNULL)
        try:
            wait_for(tport, "the tap", tap)
            body = json.dumps({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                               "params": {"name": "echo", "arguments": {"text": "hi"},
                                          "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}}}, separators=(",", ":"))
            connection = http.client.HTTPConnection("127.0.0.1", tport, timeout=30)
            connection.request("POST", "/mcp", body, {
                "Content-Type": "application/json", "Accept": "application/json, text/event-stream",
                "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "get_me"})
            response = connection.getresponse()
            status, answer = response.status, response.read()
            connection.close()
            time.sleep(0.3)
        finally:
            stop(tap)
    finally:
        stop(server)
    failures = [] if status == 400 else [f"header mismatch: the server answered {status}, not 400: {answer!r}"]
    return failures, open(log).read().splitlines()


def exchanges(record_dir):
    """Every (request, response) the recorder saw: method, headers, body."""
    out = []
    names = sorted({n.split(".")[0] for n in os.listdir(record_dir)}, key=int)
    for n in names:
        c2s = open(os.path.join(record_dir, f"{n}.c2s"), "rb").read()
        s2c_path = os.path.join(record_dir, f"{n}.s2c")
        s2c = open(s2c_path, "rb").read() if os.path.exists(s2c_path) else b""
        server_side = h11.Connection(h11.SERVER)
        server_side.receive_data(c2s)
        server_side.receive_data(b"")
        requests, current = [], None
        while True:
            try:
                event = server_side.next_event()
            except h11.RemoteProtocolError:
                break
            if event in (h11.NEED_DATA, h11.PAUSED) or isinstance(event, h11.ConnectionClosed):
                if event is h11.PAUSED and server_side.our_state is h11.SEND_RESPONSE:
                    # Pretend to answer, to read the next request.
                    server_side.send(h11.Response(status_code=200, headers=[("content-length", "0")]))
                    server_side.send(h11.EndOfMessage())
                    server_side.start_next_cycle()
                    continue
                break
            if isinstance(event, h11.Request):
                current = {"method": event.method.decode(), "target": event.target.decode(),
                           "headers": {k.decode().lower(): v.decode() for k, v in event.headers}, "body": b""}
            elif isinstance(event, h11.Data):
                current["body"] += event.data
            elif isinstance(event, h11.EndOfMessage):
                requests.append(current)
        client_side = h11.Connection(h11.CLIENT)
        client_side.receive_data(s2c)
        client_side.receive_data(b"")
        for request in requests:
            client_side.send(h11.Request(method=request["method"], target=request["target"],
                                         headers=[("host", "x"), ("content-length", str(len(request["body"])))]))
            client_side.send(h11.Data(data=request["body"]))
            client_side.send(h11.EndOfMessage())
            response = {"status": None, "headers": {}, "body": b""}
            while True:
                try:
                    event = client_side.next_event()
                except h11.RemoteProtocolError:
                    break
                if event in (h11.NEED_DATA, h11.PAUSED) or isinstance(event, h11.ConnectionClosed):
                    break
                if isinstance(event, h11.Response):
                    response["status"] = event.status_code
                    response["headers"] = {k.decode().lower(): v.decode() for k, v in event.headers}
                elif isinstance(event, h11.Data):
                    response["body"] += event.data
                elif isinstance(event, h11.EndOfMessage):
                    break
            out.append((request, response))
            if client_side.our_state is h11.DONE and client_side.their_state is h11.DONE:
                client_side.start_next_cycle()
            else:
                break
    return out


def count(pairs):
    """Messages each way, per HTTP method, as the recorder's bytes say."""
    counts = {}
    for request, response in pairs:
        method = request["method"]
        if method == "POST" and request["body"].strip():
            counts[("client", method)] = counts.get(("client", method), 0) + 1
        kind = response["headers"].get("content-type", "")
        server = 0
        if kind.startswith("text/event-stream"):
            server = len(sse_messages(response["body"]))
        elif kind.startswith("application/json") and response["body"].strip():
            server = 1
        counts[("server", method)] = counts.get(("server", method), 0) + server
    return counts


def logged_counts(messages):
    counts = {}
    for e in messages:
        key = (e["direction"], e["http_method"])
        counts[key] = counts.get(key, 0) + 1
    return counts


def compare(counted, logged, entries):
    """Where the log and the recorder differ, as failures, and how many
    server messages were never delivered. A GET stream the client closed
    is the one allowed shortfall: the server may write to it as the client
    leaves, and what the tap never read it could not relay (its log says
    `client-gone` for that stream)."""
    left = any(e.get("note") == "client-gone" and e.get("http_method") == "GET" for e in entries)
    failures, undelivered = [], 0
    for key in sorted(set(counted) | set(logged)):
        c, l = counted.get(key, 0), logged.get(key, 0)
        if key == ("server", "GET") and left and l < c:
            undelivered = c - l
        elif c != l:
            failures.append(f"{key[0]} messages on {key[1]}: logged {l}, counted {c}")
    return failures, undelivered


def totals(counts):
    return (sum(n for (side, _), n in counts.items() if side == "client"),
            sum(n for (side, _), n in counts.items() if side == "server"))


def session(py, url, mode, tool, args):
    run = subprocess.run([py, os.path.join(HERE, "session.py"), url, mode, tool, args],
                         capture_output=True, text=True, timeout=120)
    if run.returncode != 0:
        sys.exit(f"interop: session {url} {mode} {tool} failed:\n{run.stderr}")
    return run.stdout.strip()


def stdio_counts(record_dir):
    """Lines each way, as the stdio recorder's bytes say."""
    def lines(name):
        path = os.path.join(record_dir, name)
        data = open(path, "rb").read() if os.path.exists(path) else b""
        return sum(1 for line in data.split(b"\n") if line.strip())
    return lines("c2s"), lines("s2c")


def negotiated(record_dir):
    """The protocolVersion of each initialize result the server sent."""
    versions = set()
    with open(os.path.join(record_dir, "s2c"), "rb") as f:
        for line in f:
            try:
                result = json.loads(line).get("result")
            except ValueError:
                continue
            if isinstance(result, dict) and isinstance(result.get("protocolVersion"), str):
                versions.add(result["protocolVersion"])
    return sorted(versions) or ["-"]


def stdio_session(args, py, number, name, command, mode, tool, tool_args):
    """One stdio session directly, then through `mcp-envelope tap` with the
    recorder between the tap and the server: its row and its failures."""
    direct = session(py, "stdio:" + json.dumps(command), mode, tool, tool_args)
    record_dir = os.path.join(args.out, f"{number}-stdio-{name}-{mode}")
    log = os.path.join(args.out, f"{number}-stdio-{name}-{mode}.jsonl")
    tapped = [args.bin, "tap", "--backend", "both", "--log", log, "--",
              py, os.path.join(HERE, "stdio_recorder.py"), record_dir, *command]
    through = session(py, "stdio:" + json.dumps(tapped), mode, tool, tool_args)
    entries = [json.loads(line) for line in open(log)]
    messages = [e for e in entries if "kind" in e]
    findings = [e for e in entries if "id_rule" in e]
    invalid = [e for e in messages if "reason" in e or e.get("disagreement") or "cut" in e]
    unanswered = [e for e in entries if e.get("note") == "never-answered"]
    counted = stdio_counts(record_dir)
    logged = (sum(e["direction"] == "client" for e in messages), sum(e["direction"] == "server" for e in messages))
    row = {"session": f"stdio {name} {mode} {tool}", "versions": negotiated(record_dir), "counted": counted, "logged": logged,
           "undelivered": 0, "findings": len(findings), "invalid": len(invalid), "same": direct == through}
    failures = [f"{row['session']}: {what}: {detail}" for what, bad, detail in (
        ("results differ", direct != through, (direct, through)), ("findings", findings, findings),
        ("invalid messages", invalid, invalid), ("requests never answered", unanswered, unanswered),
        ("log lines are not the messages counted", logged != counted, f"logged {logged}, counted {counted}; see {log}"),
    ) if bad]
    if args.capture_stdio:
        os.makedirs(args.capture_stdio, exist_ok=True)
        for side in ("c2s", "s2c"):
            with open(os.path.join(record_dir, side), "rb") as f, \
                    open(os.path.join(args.capture_stdio, f"{name}-{mode}.{side}.jsonl"), "wb") as g:
                g.write(f.read())
    return row, failures


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--everything", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--capture")
    parser.add_argument("--capture-stdio")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    py = sys.executable
    servers = {
        "ts-everything": lambda port: (["node", args.everything, "streamableHttp"], {"PORT": str(port)}),
        "py-sdk-sse": lambda port: ([py, os.path.join(HERE, "py_server.py"), str(port)], {}),
        "py-sdk-json": lambda port: ([py, os.path.join(HERE, "py_server.py"), str(port), "json"], {}),
    }
    sessions = [
        ("ts-everything", "auto", "echo", '{"message": "hi"}'),
        ("ts-everything", "legacy", "trigger-long-running-operation", '{"duration": 1, "steps": 3}'),
        ("py-sdk-sse", "auto", "echo", '{"text": "hi"}'),
        ("py-sdk-sse", "legacy", "echo", '{"text": "h\u00e9, \\"quoted\\"\\nline"}'),
        ("py-sdk-json", "auto", "echo", '{"text": "hi"}'),
        ("py-sdk-json", "legacy", "echo", '{"text": "hi"}'),
    ]
    rows, failures = [], []
    for number, (name, mode, tool, tool_args) in enumerate(sessions, 1):
        port = free_port()
        command, env = servers[name](port)
        server = subprocess.Popen(command, env={**os.environ, **env}, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            wait_for(port, name, server)
            direct = session(py, f"http://127.0.0.1:{port}/mcp", mode, tool, tool_args)
            record_dir = os.path.join(args.out, f"{number}-{name}-{mode}")
            log = os.path.join(args.out, f"{number}-{name}-{mode}.jsonl")
            rport, tport = free_port(), free_port()
            recorder = subprocess.Popen([py, os.path.join(HERE, "recorder.py"), str(rport), str(port), record_dir])
            tap = subprocess.Popen([args.bin, "tap", "--http", "--listen", f"127.0.0.1:{tport}",
                                    "--upstream", f"http://127.0.0.1:{rport}/mcp", "--backend", "both", "--log", log],
                                   stderr=subprocess.PIPE, text=True)
            try:
                wait_for(rport, "the recorder", recorder)
                wait_for(tport, "the tap", tap)
                through = session(py, f"http://127.0.0.1:{tport}/mcp", mode, tool, tool_args)
                time.sleep(0.3)
            finally:
                stop(tap)
                stop(recorder)
        finally:
            stop(server)
        lines = open(log).read().splitlines()
        entries = [json.loads(line) for line in lines]
        if number == 1:
            # docs/tap.md quotes this session (run with the default backend
            # there; `both` logs the same lines when the backends agree).
            # What the GET stream carries is a matter of timing: whether the
            # server sends its tools/list_changed there while the stream is
            # open, and whether the tap sees the client close it before the
            # tap is stopped. Its lines are left out, and its messages out of
            # the summary's count. The client posts notifications/initialized
            # and opens the GET stream at once, so which of the two takes
            # exchange 3 is timing too: the exchanges are compared renumbered
            # in order. The rest of the page must match.
            on_get = [e.get("http_method") == "GET" for e in entries]
            get_messages = sum(get and is_message(e) for get, e in zip(on_get, entries))
            summary = [re.sub(r"(\d+) messages", lambda m: f"{int(m.group(1)) - get_messages} messages", line)
                       for line in tap.stderr.read().splitlines()]
            failures += transcript_failures(f"{name} {mode} {tool}, standard error", summary)
            rest = [line for line, get in zip(lines, on_get) if not get]
            failures += transcript_failures(f"{name} {mode} {tool}, log", rest, renumbered)
        messages = [e for e in entries if is_message(e)]
        findings = [e for e in entries if "finding" in e]
        invalid = [e for e in messages if "reason" in e or e.get("disagreement")]
        by_method = count(exchanges(record_dir))
        mismatches, undelivered = compare(by_method, logged_counts(messages), entries)
        counted, logged = totals(by_method), totals(logged_counts(messages))
        versions = sorted({r["headers"].get("mcp-protocol-version", "-") for r, _ in exchanges(record_dir)})
        same = direct == through
        row = {"session": f"{name} {mode} {tool}", "versions": versions, "counted": counted, "logged": logged,
               "undelivered": undelivered, "findings": len(findings), "invalid": len(invalid), "same": same}
        rows.append(row)
        for what, bad, detail in (("results differ", not same, (direct, through)), ("findings", findings, findings),
                                  ("invalid messages", invalid, invalid),
                                  ("log lines are not the messages counted", mismatches,
                                   f"{'; '.join(mismatches)}; see {log}")):
            if bad:
                failures.append(f"{row['session']}: {what}: {detail}")
        if args.capture:
            os.makedirs(args.capture, exist_ok=True)
            streams = [resp["body"] for _, resp in exchanges(record_dir)
                       if resp["headers"].get("content-type", "").startswith("text/event-stream") and resp["body"]]
            for i, body in enumerate(streams, 1):
                with open(os.path.join(args.capture, f"{name}-{mode}-{i}.sse"), "wb") as f:
                    f.write(body)
    stdio_servers = {
        "ts-everything": ["node", args.everything, "stdio"],
        "py-sdk": [py, os.path.join(HERE, "py_server.py"), "stdio"],
    }
    stdio_sessions = [
        ("ts-everything", "auto", "echo", '{"message": "hi"}'),
        ("ts-everything", "legacy", "trigger-long-running-operation", '{"duration": 1, "steps": 3}'),
        ("py-sdk", "auto", "echo", '{"text": "hi"}'),
        ("py-sdk", "legacy", "echo", '{"text": "h\u00e9, \\"quoted\\"\\nline"}'),
    ]
    for number, (name, mode, tool, tool_args) in enumerate(stdio_sessions, len(sessions) + 1):
        row, found = stdio_session(args, py, number, name, stdio_servers[name], mode, tool, tool_args)
        rows.append(row)
        failures.extend(found)
    found, lines = header_mismatch(args, py)
    failures += found + transcript_failures("py-sdk header mismatch, log", lines)
    print("| session | MCP-Protocol-Version sent (stdio: negotiated) | messages counted (client, server) | log lines | "
          "written after the client left | findings | invalid | same result |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['session']} | {' '.join(r['versions'])} | {r['counted'][0]}, {r['counted'][1]} | "
              f"{r['logged'][0]}, {r['logged'][1]} | {r['undelivered']} | {r['findings']} | {r['invalid']} | "
              f"{'yes' if r['same'] else 'NO'} |")
    total = [sum(r["counted"][0] + r["counted"][1] for r in rows)]
    print("\nThe tap --http transcripts of docs/tap.md: checked against this run (3 blocks).")
    print(f"\n{len(rows)} sessions, {total[0]} messages, {len(failures)} failures")
    for failure in failures:
        print(f"interop: {failure}", file=sys.stderr)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    # backchannel.py and tls.py import the helpers above.
    main()
