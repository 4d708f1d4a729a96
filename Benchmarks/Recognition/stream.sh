#!/usr/bin/env bash
# People's commands and other people's speech in one long stream, with a room's noise under all
# of it, heard by `listen --input` as a user would run it: how many commands were heard word for
# word and answered, how many utterances the stream was cut into, and how much of the other
# speech was answered. Compares the end-of-speech detectors.
#
#     Benchmarks/Recognition/stream.sh [noise.wav] [noise peak, dBFS] [-- listen flags]
#
# The stream: each of HomeLights' 49 recordings (rhasspy-test-en), and after every other one a
# recording that is no command of the app (speech-to-phrase-en's, LibriVox's), 1.5 s of room
# between clips; the noise (default: the recorded street of Scripts/fetch-room-noise.sh) looped
# under the whole stream, its peak at the given level (default −40 dBFS; the commands' loudest
# 50 ms average −13 dBFS). Needs a release build (swift build -c release --product voice-intents).
set -euo pipefail
cd "$(dirname "$0")/../.."
noise="${1:-${XDG_CACHE_HOME:-$HOME/.cache}/voice-intents/noise/city-street.wav}"
level="${2:--40}"
shift $(( $# >= 2 ? 2 : $# )) || true
[ "${1:-}" = "--" ] && shift
recordings=../shared/recordings
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

others=("$recordings"/speech-to-phrase-en/*.wav /usr/share/pocketsphinx/test/data/librivox/*.wav)
sox -n -r 16000 -c 1 -b 16 "$work/gap.wav" trim 0 1.5
parts=("$work/gap.wav")
expected=()
index=0
for clip in "$recordings"/rhasspy-test-en/*.wav; do
    sox "$clip" -r 16000 -c 1 -b 16 "$work/c$index.wav"
    parts+=("$work/c$index.wav" "$work/gap.wav")
    expected+=("$(basename "$clip" .wav | tr _ ' ')")
    if (( index % 2 == 1 )); then
        other="${others[$(( index / 2 % ${#others[@]} ))]}"
        sox "$other" -r 16000 -c 1 -b 16 "$work/o$index.wav"
        parts+=("$work/o$index.wav" "$work/gap.wav")
    fi
    index=$(( index + 1 ))
done
sox "${parts[@]}" "$work/speech.wav"
length=$(soxi -D "$work/speech.wav")
sox "$noise" -r 16000 -c 1 -b 16 "$work/noise-once.wav"
sox "$work/noise-once.wav" "$work/noise.wav" repeat 200 trim 0 "$length" norm "$level"
sox -m "$work/speech.wav" "$work/noise.wav" "$work/stream.wav"

.build/release/voice-intents listen --app home-lights --input "$work/stream.wav" --mute --voice-only "$@" \
    > "$work/transcript.txt" 2> "$work/log.txt"
heard=$(grep -c '^>' "$work/transcript.txt" || true)
answered=$(grep -c '^<' "$work/transcript.txt" || true)
# Compared without apostrophes and a leading hesitation ("> uh what's the temperature").
sed -e "s/'//g" -e 's/^> u[hm] />/' "$work/transcript.txt" > "$work/plain.txt"
right=0
for sentence in "${expected[@]}"; do
    # Heard word for word and answered (the next line is a reply).
    if grep -A1 -x -i "> $sentence" "$work/plain.txt" | grep -q '^<'; then right=$(( right + 1 )); fi
done
echo "stream $(printf %.0f "$length") s, noise $(basename "$noise") at $level dBFS, listen $*"
echo "commands heard word for word and answered: $right of ${#expected[@]}"
echo "utterances: $heard, answered: $answered (clips: ${#expected[@]} commands + $(( ${#expected[@]} / 2 )) other speech)"
