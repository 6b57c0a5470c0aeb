#!/usr/bin/env bash
# Runs the MCP conformance suite's client scenarios against conformance/client.ts.
# 0.1.13 is the newest release that runs on Node 20 (0.1.14+ needs fs.globSync).
set -euo pipefail
cd "$(dirname "$0")/.."
status=0
for scenario in initialize tools_call sse-retry; do
  npx --no-install conformance client \
    --command "node --import tsx conformance/client.ts" \
    --scenario "$scenario" --timeout 30000 || status=1
done
exit "$status"
