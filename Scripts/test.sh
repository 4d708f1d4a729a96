#!/usr/bin/env bash
# The test command: installs what is needed, builds everything and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
source Scripts/bootstrap.sh
Scripts/format.sh --lint || { echo "error: formatting differs; run Scripts/format.sh" >&2; exit 1; }
swift build --build-tests
swift test --skip-build --parallel
