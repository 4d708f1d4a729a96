#!/usr/bin/env bash
# Fetches recordings of rooms and streets from Debian's game-data packages, for
# `evaluate --noise-file`: 16 kHz mono WAV, one file per kind of noise. Only the one sound is kept
# from each package; the packages are downloaded, not installed.
#
#     Scripts/fetch-room-noise.sh [folder] [name...]   (default: ~/.cache/voice-intents/noise, all)
#
# | name        | package (download)         | what                                  | licence      |
# |-------------|----------------------------|---------------------------------------|--------------|
# | restaurant  | supertuxkart-data (630 MB) | a busy restaurant: talk, cutlery      | CC0          |
# | city-street | btanks-data (26 MB)        | distant city traffic                  | GPL-2        |
# | rain        | plee-the-bear-data (32 MB) | rain, some low rumble                 | CC-BY-SA-3.0 |
# | machine-hum | endless-sky-data (70 MB)   | a machine room's hum (30 s of it)     | public domain|
#
# Each package's copyright file is kept beside its sound as NAME.copyright.
set -euo pipefail
out="${1:-${XDG_CACHE_HOME:-$HOME/.cache}/voice-intents/noise}"
shift || true
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(restaurant city-street rain machine-hum)
command -v sox >/dev/null && command -v ffmpeg >/dev/null || { echo "error: needs sox and ffmpeg (Scripts/bootstrap.sh)" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
fetch() {  # fetch NAME PACKAGE PATH-IN-PACKAGE [sox effects...]
    local name="$1" package="$2" path="$3"; shift 3
    if [ -s "$out/$name.wav" ]; then echo "have $out/$name.wav"; return; fi
    echo "fetching $name from $package..." >&2
    (cd "$work" && apt-get download -q "$package" >/dev/null 2>&1) || {
        echo "error: apt-get download $package failed (run apt-get update, or check the network)" >&2; exit 1; }
    dpkg-deb --fsys-tarfile "$work/${package}"_*.deb |
        tar -x -C "$work" "./$path" "./usr/share/doc/$package/copyright"
    # Decoded by ffmpeg (it reads Vorbis and MP3 alike), then made 16 kHz mono without dither.
    ffmpeg -loglevel error -y -i "$work/$path" "$work/$name-decoded.wav"
    sox -R "$work/$name-decoded.wav" -r 16000 -c 1 -b 16 -e signed-integer "$out/$name.wav" "$@"
    cp "$work/usr/share/doc/$package/copyright" "$out/$name.copyright"
    rm -f "$work/${package}"_*.deb
    echo "wrote $out/$name.wav ($(soxi -D "$out/$name.wav") s)"
}
for name in "${names[@]}"; do
    case "$name" in
    # Recorded very loud (many clipped samples), so brought down 6 dB.
    restaurant) fetch restaurant supertuxkart-data usr/share/games/supertuxkart/data/sfx/lenautile_restaurant.ogg vol 0.5 ;;
    city-street) fetch city-street btanks-data usr/share/games/btanks/data/sounds/ambient/city.ogg ;;
    rain) fetch rain plee-the-bear-data usr/share/games/plee-the-bear/sound/weather/rain.ogg ;;
    # The rest of the file has a machine switching on and off, and clunks.
    machine-hum) fetch machine-hum endless-sky-data usr/share/games/endless-sky/sounds/ambient/machinery.mp3 trim 94 30 ;;
    *) echo "error: no noise named $name (restaurant, city-street, rain, machine-hum)" >&2; exit 1 ;;
    esac
done
