#!/usr/bin/env bash
# Installs the speech models' folder (Models/: manifest, lexicon, grammars, calibrations) where an
# app built outside this repository finds them: <prefix>/share/voice-intents/Models. The acoustic
# model itself comes from Debian's pocketsphinx-en-us, which the manifest names.
#
#     Scripts/install-models.sh [prefix]      (default: /usr/local)
set -euo pipefail
cd "$(dirname "$0")/.."
prefix="${1:-/usr/local}"
target="$prefix/share/voice-intents/Models"
mkdir -p "$target"
cp -R Models/. "$target/"
echo "installed $target"
