#!/usr/bin/env bash
# Makes babble noise from people's recordings, for `evaluate --noise-file`: four talkers at once,
# none of them a speaker of the sample apps' commands: the LibriVox reader of PocketSphinx's test
# data, Asterisk's prompt voice, and two speakers of the spoken digits (all ten takes of their
# digits strung together, from recordings/spoken-digits of $VOICE_INTENTS_SHARED, which holds the
# whole collection: Scripts/shared-data.sh). Each talker is levelled, the four are summed; 16 kHz
# mono WAV.
#
#     Scripts/make-babble.sh [output.wav]      (default: ~/.cache/voice-intents/noise/people-babble.wav)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-${XDG_CACHE_HOME:-$HOME/.cache}/voice-intents/noise/people-babble.wav}"
librivox=/usr/share/pocketsphinx/test/data/librivox
asterisk=/usr/share/asterisk/sounds/en_US_f_Allison
source Scripts/shared-data.sh
digits="$(shared_data recordings/spoken-digits)"
for need in "$librivox" "$asterisk"; do
    [ -e "$need" ] || { echo "error: $need is missing (Scripts/bootstrap.sh installs Debian's recordings)" >&2; exit 1; }
done
command -v sox >/dev/null && command -v ffmpeg >/dev/null || { echo "error: needs sox and ffmpeg (Scripts/bootstrap.sh)" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
talker() {  # talker NAME FILE... : the files one after another, 16 kHz mono, levelled, 40 s long
    local name="$1"; shift
    sox "$@" -r 16000 -c 1 -b 16 "$work/$name-once.wav" norm -3
    sox "$work/$name-once.wav" "$work/$name.wav" repeat 20 trim 0 40
}
talker reader "$librivox"/*.wav
prompts=()
for prompt in $(ls "$asterisk"/*.g722 | head -60); do
    ffmpeg -loglevel error -y -i "$prompt" -ar 16000 -ac 1 "$work/prompt-${#prompts[@]}.wav"
    prompts+=("$work/prompt-${#prompts[@]}.wav")
done
talker prompts "${prompts[@]}"
talker george "$digits"/*_george_*.wav
talker theo "$digits"/*_theo_*.wav
mkdir -p "$(dirname "$out")"
sox -m "$work/reader.wav" "$work/prompts.wav" "$work/george.wav" "$work/theo.wav" "$out" norm -3
echo "wrote $out ($(soxi -D "$out") s, four talkers)"
