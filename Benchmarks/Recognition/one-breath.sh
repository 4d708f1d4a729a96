#!/usr/bin/env bash
# The wake word and the command in one breath, under noise (issue 67 item 5): the person's "hey
# mycroft" of Rhasspy's precise take (its first 1.45 s), joined to each of HomeLights' 49
# recordings of that person's commands, under people's babble, the restaurant and the street at
# 10 dB (the command's loudest 2048-sample frame over the stretch's; the noise under the whole
# clip, the wake word and the 0.5 s before it included), each heard by `listen --input` with
# `--wake-word hey_mycroft`, with the check too, and the commands alone under the same stretch.
# Prints, per room, the wakes and the commands heard word for word.
#
#     Benchmarks/Recognition/one-breath.sh [voice-intents]   (default: .build/release/voice-intents)
#
# Needs python3 with numpy, sox, and the noise of Scripts/fetch-room-noise.sh and
# Scripts/make-babble.sh in ~/.cache/voice-intents/noise.
set -euo pipefail
cd "$(dirname "$0")/../.."
tool="$(realpath "${1:-.build/release/voice-intents}")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
sox Tests/Recordings/rhasspy-test-en/wake/precise_turn_on_the_living_room_lamp.wav -r 16000 -c 1 \
    "$work/wake.wav" trim 0 1.45
python3 - "$work" <<'PYTHON'
import glob, os, subprocess, sys, wave
import numpy as np
work = sys.argv[1]
def read(path):
    raw = subprocess.run(["sox", path, "-t", "raw", "-r", "16000", "-c", "1", "-b", "16",
                          "-e", "signed-integer", "-"], capture_output=True, check=True).stdout
    return np.frombuffer(raw, dtype=np.int16).astype(np.float64)
def write(path, x):
    with wave.open(path, "wb") as w:
        w.setnchannels(1); w.setsampwidth(2); w.setframerate(16000)
        w.writeframes(np.clip(x, -32768, 32767).astype(np.int16).tobytes())
def loudest(x, n=2048):
    return max(np.sqrt(np.mean(x[i:i + n] ** 2)) for i in range(0, len(x) - n, n // 2))
wake = read(f"{work}/wake.wav")
noise = os.path.expanduser("~/.cache/voice-intents/noise")
rooms = {k: read(f"{noise}/{k}.wav") for k in ["people-babble", "restaurant", "city-street"]}
rng = np.random.default_rng(7)
for kind in ["joined", "alone"]:
    os.makedirs(f"{work}/{kind}")
for path in sorted(glob.glob("Tests/Recordings/rhasspy-test-en/*.wav")):
    name = os.path.basename(path)[:-4]
    command = read(path)
    lead = np.zeros(8000)
    clips = {"joined": np.concatenate([lead, wake, command, np.zeros(16000)]),
             "alone": np.concatenate([lead, np.zeros(len(wake)), command, np.zeros(16000)])}
    for kind, clip in clips.items():
        write(f"{work}/{kind}/{name}__clean.wav", clip)
    for room, sound in rooms.items():
        start = rng.integers(0, len(sound) - len(clips["joined"]))
        stretch = sound[start:start + len(clips["joined"])]
        gain = loudest(command) / loudest(stretch) / 10 ** (10 / 20)
        for kind, clip in clips.items():
            mixed = clip + stretch * gain
            mixed *= min(1, 32767 / np.max(np.abs(mixed)))
            write(f"{work}/{kind}/{name}__{room}.wav", mixed)
PYTHON
hear() {  # hear FOLDER FLAGS...: one line per clip, name|wakes|first words heard
    local folder="$1"; shift
    for clip in "$folder"/*.wav; do
        out="$("$tool" listen --app home-lights --input "$clip" "$@" --mute --voice-only --verbose 2>&1)"
        echo "$(basename "$clip" .wav)|$(grep -c "heard the wake word" <<<"$out" || true)|$(grep -m1 '^> ' <<<"$out" | cut -c3-)"
    done
}
score() {  # score TITLE < lines
    python3 -c '
import collections, sys
rows = collections.defaultdict(lambda: [0, 0, 0])
for line in sys.stdin:
    name, wakes, heard = line.rstrip("\n").split("|")
    sentence, room = name.split("__")
    row = rows[room]
    row[0] += 1; row[1] += int(wakes) > 0; row[2] += heard.strip() == sentence.replace("_", " ")
print(sys.argv[1])
for room in ["clean", "city-street", "restaurant", "people-babble"]:
    n, woke, right = rows[room]
    print(f"  {room}: woke {woke}/{n}, command heard right {right}/{n}")
' "$1"
}
hear "$work/joined" --wake-word hey_mycroft | score "hey mycroft, then the command"
hear "$work/joined" --wake-word hey_mycroft --wake-word-check | score "the same, with --wake-word-check"
hear "$work/alone" | score "the command alone, no wake word"
