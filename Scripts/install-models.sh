#!/usr/bin/env bash
# Installs the speech models (Models/<locale>/: manifest, lexicon, grammars, calibrations) where a
# program finds them when it was copied without the models its build put beside it
# (VoiceIntents_VoiceModels.resources): <prefix>/share/voice-intents/Models. The acoustic model
# itself comes from Debian's pocketsphinx-en-us, which the manifest names.
#
#     Scripts/install-models.sh [prefix]      (default: /usr/local)
set -euo pipefail
cd "$(dirname "$0")/.."
prefix="${1:-/usr/local}"
target="$prefix/share/voice-intents/Models"
mkdir -p "$target"
# The locale folders: what a build puts beside its executables too.
for locale in Models/*/; do cp -R "$locale" "$target/"; done
echo "installed $target"
