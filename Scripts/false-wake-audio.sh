#!/usr/bin/env bash
# Gathers audio with no wake word in it, for `speech-benchmark --false-wakes`: people's speech,
# people saying other wake words (near-misses), music, room noise and synthesized speech, each
# as 16 kHz mono WAV in a folder of its own. Run it once; the benchmark mixes the speech with the
# noises itself.
#
#     Scripts/false-wake-audio.sh [folder]     (default: ~/.cache/voice-intents/false-wakes)
#
# | folder        | what                                                        | from                                   | licence                 |
# |---------------|-------------------------------------------------------------|----------------------------------------|-------------------------|
# | near-misses/  | people saying "amelia", "athena", "computer", "hey computer", "hey chatterbox" | $VOICE_INTENTS_SHARED/wake-word-negatives | public domain (waivers in licenses/) |
# | other-words/  | people saying words and short sentences that are no wake word | $VOICE_INTENTS_SHARED/wake-word-negatives/not-wake-words | public domain |
# | an4/          | CMU's AN4: 84 people spelling, saying numbers and commands  | $VOICE_INTENTS_SHARED/training/an4     | CMU's BSD-style licence |
# | music/        | hold music, two game soundtracks                            | Debian: asterisk-moh-opsound-wav, hyperrogue-music, drascula-music | hold music CC-BY-SA-3.0; HyperRogue's tracks CC-BY-SA-3.0/4.0 and others (its copyright file, track by track); Drascula's freely given by Alcachofa Soft |
# | synthesized/  | eSpeak NG reading Debian's licence texts in six voices (not people) | espeak-ng, /usr/share/common-licenses | the texts' own |
#
# The room noises and the babble come from Scripts/fetch-room-noise.sh and Scripts/make-babble.sh
# (~/.cache/voice-intents/noise), which this runs when they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-${XDG_CACHE_HOME:-$HOME/.cache}/voice-intents/false-wakes}"
source Scripts/shared-data.sh
negatives="$(shared_data wake-word-negatives)"
an4="$(shared_data training/an4)"
for tool in sox ffmpeg espeak-ng; do
    command -v "$tool" >/dev/null || { echo "error: needs $tool (Scripts/bootstrap.sh installs it)" >&2; exit 1; }
done
packages=(asterisk-moh-opsound-wav hyperrogue-music drascula-music)
missing=()
for package in "${packages[@]}"; do dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package"); done
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing ${missing[*]}..." >&2
    apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
fi

convert() {  # convert FOLDER FILE...: each file as FOLDER/NAME.wav, 16 kHz mono 16-bit
    local folder="$1"; shift
    mkdir -p "$folder"
    local file name
    for file in "$@"; do
        name="$(basename "${file%.*}")"
        [ -s "$folder/$name.wav" ] && continue
        decode "$file" "$folder/$name.wav"
    done
}
decode() {  # decode FILE OUT.wav: with sox, else ffmpeg; a file neither reads is left out, said so
    sox -R "$1" -r 16000 -c 1 -b 16 -e signed-integer "$2" 2>/dev/null ||
        ffmpeg -loglevel quiet -y -i "$1" -ar 16000 -ac 1 -sample_fmt s16 "$2" ||
        { rm -f "$2"; echo "left out $1: neither sox nor ffmpeg reads it" >&2; }
}
step() { echo "$1..." >&2; }

step "near-misses"
for word in amelia athena computer heycomputer heychatterbox; do
    mapfile -t files < <(find "$negatives/$word" -name '*.flac' -o -name '*.wav' | sort)
    convert "$out/near-misses/$word" "${files[@]}"
done
step "other words"
mapfile -t files < <(find "$negatives/not-wake-words" -name '*.flac' -o -name '*.wav' | sort)
convert "$out/other-words" "${files[@]}"
step "AN4"
mapfile -t files < <(find "$an4/wav" -name '*.flac' -o -name '*.wav' | sort)
convert "$out/an4" "${files[@]}"
step "music"
mkdir -p "$out/music"
convert "$out/music" /usr/share/asterisk/moh/*.wav
mapfile -t files < <(dpkg -L hyperrogue-music | grep -E '\.ogg$' | sort)
convert "$out/music" "${files[@]}"
# Drascula ships each track once per language folder: one copy of each.
declare -A seen=()
tracks=()
while read -r sum file; do
    [ -n "${seen[$sum]:-}" ] && continue
    seen[$sum]=1
    tracks+=("$file")
done < <(dpkg -L drascula-music | grep -E '\.ogg$' | sort | xargs md5sum)
mkdir -p "$out/music"
for file in "${tracks[@]}"; do
    name="drascula-$(basename "$(dirname "$file")")-$(basename "${file%.*}")"
    [ -s "$out/music/$name.wav" ] || decode "$file" "$out/music/$name.wav"
done
step "synthesized speech (eSpeak NG)"
mkdir -p "$out/synthesized"
voices=(en-us en-us+f2 en+m7 en-us+m3 en-us+f4 en-gb)
texts=(GPL-3 Apache-2.0 GPL-2 LGPL-2.1 MPL-2.0 Artistic)
for index in "${!voices[@]}"; do
    name="${texts[$index]}-${voices[$index]}"
    [ -s "$out/synthesized/$name.wav" ] && continue
    espeak-ng -v "${voices[$index]}" -s 165 -f "/usr/share/common-licenses/${texts[$index]}" -w "$out/synthesized/$name-22k.wav"
    sox "$out/synthesized/$name-22k.wav" -r 16000 -c 1 -b 16 "$out/synthesized/$name.wav"
    rm "$out/synthesized/$name-22k.wav"
done
noise="${XDG_CACHE_HOME:-$HOME/.cache}/voice-intents/noise"
[ -s "$noise/people-babble.wav" ] || Scripts/make-babble.sh "$noise/people-babble.wav"
Scripts/fetch-room-noise.sh "$noise" >&2
for folder in near-misses other-words an4 music synthesized; do
    seconds=$(find "$out/$folder" -name '*.wav' -exec soxi -D {} + | paste -sd+ | bc)
    printf '%-12s %6.1f minutes\n' "$folder" "$(echo "$seconds / 60" | bc -l)"
done
echo "wrote $out"
