#!/usr/bin/env bash
# The main job: installs what is needed, builds, and starts the TravelTracking sample.
# Extra arguments go to the app: Scripts/run.sh --help, Scripts/run.sh shortcuts, ...
set -euo pipefail
cd "$(dirname "$0")/.."
source Scripts/bootstrap.sh
swift build --product travel-tracking >&2
exec .build/debug/travel-tracking "$@"
