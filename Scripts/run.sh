#!/usr/bin/env bash
# The main job: installs what is needed, builds, and starts the TravelTracking sample listening
# on the default microphone. Arguments replace `listen`: Scripts/run.sh listen --text,
# Scripts/run.sh run (typed session), Scripts/run.sh --help, ...
set -euo pipefail
cd "$(dirname "$0")/.."
source Scripts/bootstrap.sh
swift build --product travel-tracking >&2
# How the app's hints name it ("Scripts/run.sh listen --text", not "travel-tracking listen --text").
export VOICE_INTENTS_INVOCATION="Scripts/run.sh"
if [ "$#" -eq 0 ]; then set -- listen; fi
exec .build/debug/travel-tracking "$@"
