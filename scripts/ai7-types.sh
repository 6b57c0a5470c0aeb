#!/usr/bin/env bash
# Type test against `ai` 7: what it passes to a tool's `execute` must be what a mounted agent tool
# takes (test/types/ai7-call-options.ts). `ai` 7 needs Node >= 22 to run, not to type-check, so it
# is installed into .cache/ai7 (no project dependency; `ai` 6 stays the one the tests run) and
# compiled with the project's own TypeScript.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f .cache/ai7/node_modules/ai/dist/index.d.ts ]; then
  npm install --prefix .cache/ai7 --no-save --no-audit --no-fund --no-package-lock ai@7 zod@4 > /dev/null
fi
npx tsc -p test/types/tsconfig.ai7.json
echo "ai 7 execute options: type test passed"
