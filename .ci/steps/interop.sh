#!/usr/bin/env bash
# Real peers over Streamable HTTP, directly and through the tap (scripts/interop.sh).
set -euo pipefail
scripts/interop.sh --out "$(mktemp -d)"
