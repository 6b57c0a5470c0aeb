#!/usr/bin/env bash
# Runs the MCP conformance suite (0.1.13, the newest release that runs on Node 20; 0.1.14+ needs
# fs.globSync): its client scenarios against conformance/client.ts, then its tools server
# scenarios against conformance/server.ts directly and through conformance/gateway.ts.
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
for scenario in initialize tools_call sse-retry; do
  npx --no-install conformance client \
    --command "node --import tsx conformance/client.ts" \
    --scenario "$scenario" --timeout 30000 || status=1
done
node --import tsx conformance/server-scenarios.ts || status=1
exit "$status"
