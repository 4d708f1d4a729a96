#!/usr/bin/env bash
# Makes an adapted acoustic model from scratch: Debian's en-us model MAP-adapted to people's
# speech heard in noisy rooms, through the recognizer's own front end. It takes about 12 minutes
# on two cores, and says how long it took.
# Documentation/decisions/acoustic-adaptation.md says why this recipe, and
# Benchmarks/Recognition/README.md ("An acoustic model adapted to rooms") what it does: it is not
# shipped, because it hears one of the two people's sets worse clean.
#
#     Scripts/adapt-model.sh [output folder]      (default: ~/.cache/voice-intents/en-us-rooms)
#
# Measure it against Debian's model (`evaluate ... --adaptation <folder>` and `--adaptation none`,
# `speech-benchmark --acoustic-models --acoustic-model <folder>`); the manifest's
# `adaptation: <folder>` (relative to Models/en) makes it the default.
#
# Speech (none of it any test's): CMU's AN4 (74 speakers; $VOICE_INTENTS_SHARED/training/an4,
# BSD-style licence) and Asterisk's English prompts (Debian's asterisk-core-sounds-en-g722, one
# speaker, CC BY-SA 3.0). Each clip is heard clean and in two noisy copies: a babble of six AN4
# speakers, a city street, rain and a machine room (Scripts/fetch-room-noise.sh), at 5 to 20 dB.
# None of these noises is one the benchmarks test in. Then `voice-intents adapt` hears every
# clip through the manifest's front end and adapts with Debian's sphinxtrain.
#
# Settings (environment): ADAPT_WORK (scratch folder, default ~/.cache/voice-intents/adapt),
# ADAPT_ARGUMENTS (more arguments for `voice-intents adapt`, e.g. "--tau 5 --passes 2").
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
source Scripts/bootstrap.sh
source Scripts/shared-data.sh
an4="$(shared_data training/an4)"
output="${1:-${XDG_CACHE_HOME:-$HOME/.cache}/voice-intents/en-us-rooms}"
work="${ADAPT_WORK:-${XDG_CACHE_HOME:-$HOME/.cache}/voice-intents/adapt}"
asterisk=/usr/share/asterisk/sounds/en_US_f_Allison
[ -f "$an4/etc/an4_train.transcription" ] || { echo "error: $an4 holds no AN4 corpus (etc/an4_train.transcription)" >&2; exit 1; }
[ -d "$asterisk" ] || { echo "error: $asterisk is missing (Scripts/bootstrap.sh installs it)" >&2; exit 1; }
mkdir -p "$work/speech/an4" "$work/speech/asterisk" "$work/noise"
step() { echo "[$(($(date +%s) - started)) s] $*" >&2; }

step "AN4: the 948 clips of its 74 training speakers"
corpus="$work/corpus.tsv"
: >"$corpus"
# Lines "<s> WORDS </s> (an251-fash-b)"; the file is wav/an4_clstk/<speaker>/<id>.flac.
sed -E 's/<\/?s>//g; s/^ +//' "$an4/etc/an4_train.transcription" | while read -r line; do
    id="${line##*(}"; id="${id%)}"
    words="${line% (*}"
    speaker="${id#*-}"; speaker="${speaker%-*}"
    wav="$work/speech/an4/$id.wav"
    [ -s "$wav" ] || sox "$an4/wav/an4_clstk/$speaker/$id.flac" -b 16 "$wav"
    printf '%s\t%s\n' "$wav" "$(echo "$words" | tr 'A-Z' 'a-z')" >>"$corpus"
done

step "Asterisk's prompts: every one with a transcript of words"
# Lines "name: What is said." (bracketed ones are tones, not speech).
zcat /usr/share/doc/asterisk-core-sounds-en/core-sounds-en.txt.gz | grep -E '^[a-z0-9/_-]+: [^[]' |
    while IFS= read -r line; do
        name="${line%%:*}"
        words="${line#*: }"
        [ -f "$asterisk/$name.g722" ] || continue
        wav="$work/speech/asterisk/${name//\//_}.wav"
        [ -s "$wav" ] || ffmpeg -nostdin -loglevel error -y -i "$asterisk/$name.g722" -ar 16000 -ac 1 "$wav"
        printf '%s\t%s\n' "$wav" "$(echo "$words" | tr -d '.,?!;:"' | tr 'A-Z' 'a-z')" >>"$corpus"
    done

step "noise: AN4 babble, a city street, rain, a machine room"
if [ ! -s "$work/noise/an4-babble.wav" ]; then
    # Six AN4 training speakers, three women and three men, each their clips one after another.
    talkers=()
    for speaker in fash fbbh fclc mblb mblw mcel; do
        sox "$an4"/wav/an4_clstk/$speaker/*.flac -b 16 "$work/noise/talker-$speaker.wav" norm -3 repeat 10 trim 0 60
        talkers+=("$work/noise/talker-$speaker.wav")
    done
    sox -m "${talkers[@]}" "$work/noise/an4-babble.wav" norm -3
    rm -f "${talkers[@]}"
fi
Scripts/fetch-room-noise.sh "$work/noise" city-street rain machine-hum >&2
noises="$work/noise/an4-babble.wav,$work/noise/city-street.wav,$work/noise/rain.wav,$work/noise/machine-hum.wav"

step "building voice-intents"
swift build -c release --product voice-intents >&2
step "adapting on $(wc -l <"$corpus") clips, each clean and in two noisy copies"
# shellcheck disable=SC2086
.build/release/voice-intents adapt --method map --corpus "$corpus" --noise "$noises" --copies 2 --snr 5,10,15,20 \
    --adaptation none --work "$work/work" --output "$output" ${ADAPT_ARGUMENTS:-}
step "done: $output (measure it: evaluate --app home-lights --recorded-only --adaptation $output)"
