#!/usr/bin/env bash
# Runs the MCP conformance suite (@modelcontextprotocol/conformance, which needs
# Node 22: taken from npm's `node` package, not from the machine) against
# `notula mcp --http` on a fresh data dir.
set -euo pipefail
cd "$(dirname "$0")/.."
TOOLS="${NOTULA_CONFORMANCE_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/notula-conformance}"
if [ ! -x "$TOOLS/node_modules/.bin/node" ] || [ ! -f "$TOOLS/node_modules/@modelcontextprotocol/conformance/dist/index.js" ]; then
  echo "Installing the MCP conformance suite and Node 22 into $TOOLS" >&2
  mkdir -p "$TOOLS"
  npm install --prefix "$TOOLS" --no-audit --no-fund --no-save node@22 @modelcontextprotocol/conformance@0.1.16 >/dev/null
fi
NODE22="$TOOLS/node_modules/.bin/node"
SUITE="$TOOLS/node_modules/@modelcontextprotocol/conformance/dist/index.js"

DATA="$(mktemp -d)"
OUT="$(mktemp)"
node bin/notula.js admin workspaces create --data-dir "$DATA" --name Conformance >/dev/null
node bin/notula.js mcp --http --data-dir "$DATA" >"$OUT" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true; rm -rf "$DATA" "$OUT"' EXIT
for _ in $(seq 1 100); do grep -q "listening on" "$OUT" && break; sleep 0.1; done
URL="$(grep -o 'http://[^ ]*/mcp' "$OUT")"

failed=0
for scenario in server-initialize ping tools-list dns-rebinding-protection; do
  if "$NODE22" "$SUITE" server --url "$URL" --scenario "$scenario" >"$OUT.log" 2>&1; then
    echo "conformance: $scenario passed"
  else
    echo "conformance: $scenario FAILED" >&2
    cat "$OUT.log" >&2
    failed=1
  fi
done
rm -f "$OUT.log"
exit $failed
