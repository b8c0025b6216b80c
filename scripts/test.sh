#!/usr/bin/env bash
# npm test: what the tests need (scripts/test-needs.sh), the workspace's
# packages as locked, then every suite (scripts/test-suites.mjs).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/test-needs.sh
npx --yes pnpm@12.4.2 install --frozen-lockfile
exec npx --yes pnpm@12.4.2 run test:all
