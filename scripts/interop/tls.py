"""Sessions with an https server, directly and through `tap --http
--upstream https://... --upstream-ca CA`: the Python SDK server
(backchannel_server.py) under uvicorn with TLS, a certificate for 127.0.0.1
signed by a CA of the test's own (`test_certs`), trusted by the client
directly and by the tap only through --upstream-ca. Fails on a session that
fails or whose result through the tap differs, on any finding or invalid
message, and on log lines other than the messages the recorder counted (it
sits between the client and the tap here, the one place the bytes are
plain). Then times the tap: sequential `tools/call`s of echo in one session,
directly over https and through the tap, and prints p50 and p99 of the
round trips. Last, sessions with the same server under a certificate made
the way most local https servers have one, `openssl req -x509` (its own
issuer, and a CA), given to the tap as `--upstream-ca` itself (test_certs'
self.pem, made the same way, where openssl is not installed).

Usage: tls.py --bin MCP_ENVELOPE --certs DIR (ca.pem, cert.pem, key.pem,
self.pem, self-key.pem) --out DIR (with the Python that has `mcp`
installed)."""
import argparse
import asyncio
import http.client
import json
import os
import shutil
import ssl
import subprocess
import sys
import time

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import backchannel  # noqa: E402
import interop  # noqa: E402

SESSIONS = 5
WARM_UP, TIMED = 20, 200


async def round_trips(url, verify):
    """Milliseconds per `tools/call` of echo, TIMED of them in one session
    after WARM_UP (the first calls also list the tools)."""
    async with httpx2.AsyncClient(verify=verify if verify else True, timeout=httpx2.Timeout(30, read=300)) as http:
        async with Client(streamable_http_client(url, http_client=http)) as client:
            times = []
            for i in range(WARM_UP + TIMED):
                started = time.perf_counter()
                result = await client.call_tool("echo", {"text": f"ping {i}"})
                elapsed = time.perf_counter() - started
                if result.is_error or result.content[0].text != f"ping {i}":
                    raise RuntimeError(f"echo {i} came back as {result}")
                if i >= WARM_UP:
                    times.append(elapsed * 1000)
    return sorted(times)


def untrusted(bin, out, port):
    """A tap without --upstream-ca, given one initialize: it must refuse the
    server's certificate (answer 502, log why) and send nothing."""
    tport, log = interop.free_port(), os.path.join(out, "untrusted.jsonl")
    tap = subprocess.Popen([bin, "tap", "--http", "--listen", f"127.0.0.1:{tport}", "--upstream",
                            f"https://127.0.0.1:{port}/mcp", "--log", log], stderr=subprocess.DEVNULL)
    try:
        interop.wait_for(tport, "the tap", tap)
        body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "tls.py", "version": "1"}}})
        connection = http.client.HTTPConnection("127.0.0.1", tport, timeout=30)
        connection.request("POST", "/mcp", body, {"Content-Type": "application/json",
                                                  "Accept": "application/json, text/event-stream"})
        status = connection.getresponse().status
        connection.close()
        time.sleep(0.3)
    finally:
        interop.stop(tap)
    notes = [e.get("detail", "") for e in map(json.loads, open(log)) if e.get("note") == "upstream-unreachable"]
    return status, notes


def usual_certificate(certs, out):
    """A self-signed certificate for localhost and 127.0.0.1 as `openssl req
    -x509` makes it: its files, and how it was made."""
    cert, key = os.path.join(out, "openssl-cert.pem"), os.path.join(out, "openssl-key.pem")
    made = subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
                           "-days", "30", "-subj", "/CN=localhost", "-addext",
                           "subjectAltName=IP:127.0.0.1,DNS:localhost"], capture_output=True) \
        if shutil.which("openssl") else None
    if made is not None and made.returncode == 0:
        return cert, key, "openssl req -x509"
    return os.path.join(certs, "self.pem"), os.path.join(certs, "self-key.pem"), "test_certs self.pem"


def self_signed_sessions(bin, certs, out):
    """The first Python configuration, directly and through the tap, with
    the server's own self-signed certificate as the tap's --upstream-ca."""
    cert, key, how = usual_certificate(certs, out)
    port = interop.free_port()
    server = subprocess.Popen([sys.executable, os.path.join(HERE, "backchannel_server.py"), str(port), cert, key],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        interop.wait_for(port, "the https server with a self-signed certificate", server)
        name, _, mode, calls, expected = next(c for c in backchannel.CONFIGURATIONS if c[1] == "py")
        trust = ssl.create_default_context(cafile=cert)
        direct = asyncio.run(backchannel.sessions(f"https://127.0.0.1:{port}/mcp", mode, calls, expected, SESSIONS, 0,
                                                  trust))
        tapped = backchannel.Tapped(bin, out, "https-self-signed", port, https_ca=cert, record="before")
        try:
            through = asyncio.run(backchannel.sessions(tapped.url, mode, calls, expected, SESSIONS, 0))
        finally:
            tapped.stop()
        return backchannel.row_and_failures(f"https {name}, self-signed ({how})", direct, through, tapped.judge())
    finally:
        interop.stop(server)


def percentile(ordered, p):
    """Nearest rank."""
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--certs", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    ca, cert, key = (os.path.join(args.certs, name) for name in ("ca.pem", "cert.pem", "key.pem"))
    trust = ssl.create_default_context(cafile=ca)
    port = interop.free_port()
    server = subprocess.Popen([sys.executable, os.path.join(HERE, "backchannel_server.py"), str(port), cert, key],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    rows, failures = [], []
    try:
        interop.wait_for(port, "the https server", server)
        direct_url = f"https://127.0.0.1:{port}/mcp"
        py = [c for c in backchannel.CONFIGURATIONS if c[1] == "py"]
        for number, (name, _, mode, calls, expected) in enumerate(py, 1):
            direct = asyncio.run(backchannel.sessions(direct_url, mode, calls, expected, SESSIONS, 0, trust))
            tapped = backchannel.Tapped(args.bin, args.out, f"{number}-https-{mode}", port, https_ca=ca,
                                        record="before")
            try:
                through = asyncio.run(backchannel.sessions(tapped.url, mode, calls, expected, SESSIONS, 0))
            finally:
                tapped.stop()
            row, found = backchannel.row_and_failures(f"https {name}", direct, through, tapped.judge())
            rows.append(row)
            failures += found
        direct_times = asyncio.run(round_trips(direct_url, trust))
        # No recorder here: the tap alone between the client and the server.
        tapped = backchannel.Tapped(args.bin, args.out, "latency", port, https_ca=ca, record=None)
        try:
            tap_times = asyncio.run(round_trips(tapped.url, None))
        finally:
            tapped.stop()
        judged = tapped.judge()
        for what, bad in (("findings", judged["findings"]), ("invalid messages", judged["invalid"])):
            if bad:
                failures.append(f"https latency session: {what}: {bad}")
        status, refused = untrusted(args.bin, args.out, port)
        if status != 502 or len(refused) != 1 or "certificate" not in refused[0]:
            failures.append(f"without --upstream-ca: answered {status}, notes {refused}, not 502 and a certificate note")
    finally:
        interop.stop(server)
    row, found = self_signed_sessions(args.bin, args.certs, args.out)
    rows.append(row)
    failures += found
    print("| configuration | MCP-Protocol-Version sent | sessions | ok directly | ok through the tap | identical | "
          "messages counted (client, server) | log lines | findings | invalid | notes |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        notes = ", ".join(f"{k} {v}" for k, v in sorted(r["notes"].items())) or "-"
        print(f"| {r['configuration']} | {' '.join(r['versions'])} | {r['sessions']} | {r['direct_ok']} | "
              f"{r['tap_ok']} | {r['same']} | {r['counted'][0]}, {r['counted'][1]} | "
              f"{r['logged'][0]}, {r['logged'][1]} | {len(r['findings'])} | {len(r['invalid'])} | {notes} |")
    d50, d99, t50, t99 = (percentile(t, p) for t in (direct_times, tap_times) for p in (50, 99))
    print(f"\n{TIMED} tools/call of echo in one session, round trip in ms: directly over https p50 {d50:.2f}, "
          f"p99 {d99:.2f}; through the tap p50 {t50:.2f}, p99 {t99:.2f}; the tap adds p50 {t50 - d50:+.2f}, "
          f"p99 {t99 - d99:+.2f}")
    print(f"Without --upstream-ca: {status}, {'; '.join(refused) or 'no note'}")
    total = sum(r["sessions"] for r in rows)
    findings = sum(len(r["findings"]) for r in rows) + len(judged["findings"])
    invalid = sum(len(r["invalid"]) for r in rows) + len(judged["invalid"])
    print(f"https: {total} sessions each way, {sum(r['same'] for r in rows)} identical, and the timed one; "
          f"{findings} findings, {invalid} invalid, {len(failures)} failures")
    for failure in failures:
        print(f"tls: {failure}", file=sys.stderr)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
