#!/usr/bin/env bash
# People's commands and other people's speech in one long stream, with a room's noise under all
# of it, heard by `listen --input` as a user would run it: how many commands were heard word for
# word and answered, how many utterances the stream was cut into, and how much of the other
# speech was answered. Compares the end-of-speech detectors.
#
#     Benchmarks/Recognition/stream.sh [--app home-lights|smart-home] [noise.wav] [noise peak, dBFS] [-- listen flags]
#
# The stream: each of the app's recorded commands, and after every other one a recording that is
# no command of the app, 1.5 s of room between clips. HomeLights (the default): rhasspy-test-en's
# 49 commands, one speaker, with speech-to-phrase-en's and LibriVox's recordings between them.
# SmartHome: speech-to-phrase-en's 31 commands, another speaker, with its out-of-vocabulary clips,
# LibriVox's and rhasspy-test-en's between them. The noise (default: the recorded street of
# Scripts/fetch-room-noise.sh) is looped under the whole stream, its peak at the given level
# (default −40 dBFS; HomeLights' commands' loudest 50 ms average −13 dBFS). Needs a release build
# (swift build -c release --product voice-intents). STREAM_MISSED=1 also prints the commands
# missed and what was heard.
set -euo pipefail
cd "$(dirname "$0")/../.."
app=home-lights
if [ "${1:-}" = "--app" ]; then
    app="$2"
    shift 2
fi
noise="${1:-${XDG_CACHE_HOME:-$HOME/.cache}/voice-intents/noise/city-street.wav}"
level="${2:--40}"
shift $(( $# >= 2 ? 2 : $# )) || true
[ "${1:-}" = "--" ] && shift
recordings=Tests/Recordings
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

case "$app" in
home-lights)
    commands=("$recordings"/rhasspy-test-en/*.wav)
    others=("$recordings"/speech-to-phrase-en/*.wav /usr/share/pocketsphinx/test/data/librivox/*.wav)
    ;;
smart-home)
    commands=()
    for clip in "$recordings"/speech-to-phrase-en/*.wav; do
        case "$(basename "$clip")" in oov_*) ;; *) commands+=("$clip") ;; esac
    done
    others=("$recordings"/speech-to-phrase-en/oov_*.wav /usr/share/pocketsphinx/test/data/librivox/*.wav
        "$recordings"/rhasspy-test-en/*.wav)
    ;;
*)
    echo "stream.sh: no recorded commands for the app \"$app\" (home-lights or smart-home)" >&2
    exit 2
    ;;
esac
sox -n -r 16000 -c 1 -b 16 "$work/gap.wav" trim 0 1.5
parts=("$work/gap.wav")
expected=()
index=0
for clip in "${commands[@]}"; do
    sox "$clip" -r 16000 -c 1 -b 16 "$work/c$index.wav"
    parts+=("$work/c$index.wav" "$work/gap.wav")
    # The file name is the transcript, its numbers in figures.
    expected+=("$(basename "$clip" .wav | tr _ ' ' | sed -e 's/\b3\b/three/; s/\b10\b/ten/; s/\b30\b/thirty/' \
        -e 's/\b5\b/five/; s/\b50\b/fifty/')")
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

.build/release/voice-intents listen --app "$app" --input "$work/stream.wav" --mute --voice-only "$@" \
    > "$work/transcript.txt" 2> "$work/log.txt"
heard=$(grep -c '^>' "$work/transcript.txt" || true)
answered=$(grep -c '^<' "$work/transcript.txt" || true)
# Compared without apostrophes and a leading hesitation ("> uh what's the temperature").
sed -e "s/'//g" -e 's/^> u[hm] /> /' "$work/transcript.txt" > "$work/plain.txt"
right=0
missed=()
for sentence in "${expected[@]}"; do
    sentence="${sentence//\'/}"
    # Heard word for word and answered (the next line is a reply).
    if grep -A1 -x -i "> $sentence" "$work/plain.txt" | grep -q '^<'; then
        right=$(( right + 1 ))
    else
        missed+=("$sentence")
    fi
done
echo "$app: stream $(printf %.0f "$length") s, noise $(basename "$noise") at $level dBFS, listen $*"
echo "commands heard word for word and answered: $right of ${#expected[@]}"
echo "utterances: $heard, answered: $answered (clips: ${#expected[@]} commands + $(( ${#expected[@]} / 2 )) other speech)"
if [ -n "${STREAM_MISSED:-}" ]; then
    printf 'missed: %s\n' "${missed[@]}"
    cat "$work/transcript.txt"
fi
