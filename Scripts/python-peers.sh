#!/usr/bin/env bash
# The Python peers WyomingTests run (the `wyoming` client, wyoming-bench, wyoming-satellite, Home
# Assistant's own Wyoming integration), each in a virtual environment of its own under
# ~/.cache/voice-intents/<package>-<version>, made as `WyomingServerTests.python(with:version:also:)`
# makes them: a `venv`, the packages from PyPI, then an `installed` mark. Scripts/test.sh makes
# them while the package builds, so that installing Home Assistant (minutes of one core on a new
# machine) does not run beside the tests that time a live loop. A test still makes one that is
# missing. Keep the versions here as the tests name them.
#
#     Scripts/python-peers.sh     # makes the ones not yet made; a second run does nothing
set -euo pipefail

make_environment() {
    local package=$1 version=$2
    shift 2
    local folder="$HOME/.cache/voice-intents/$package-$version"
    [ -e "$folder/installed" ] && return 0
    echo "python-peers: installing $package $version into $folder" >&2
    python3 -m venv "$folder"
    "$folder/bin/python" -m pip install --quiet "$package==$version" "$@"
    touch "$folder/installed"
}

make_environment wyoming 1.10.2
# A benchmark of Wyoming speech servers written outside the project (WyomingBenchTests).
make_environment wyoming-bench 2026.10.0
make_environment wyoming-satellite 1.0.0
# 2024.1 is the last Home Assistant that runs on Debian 12's Python 3.11; the others are what it
# installs for its Wyoming integration when it starts.
make_environment homeassistant 2024.1.6 wyoming==1.4.0 hassil==1.5.1 home-assistant-intents==2024.1.2 \
    mutagen==1.47.0 ha-ffmpeg==3.1.0 webrtc-noise-gain==1.2.3
