#!/usr/bin/env bash
# The test command: installs what is needed, builds everything (benchmarks included) and runs
# every test.
#
#     Scripts/test.sh          # everything, as CI runs it
#     Scripts/test.sh --fast   # for everyday work: the tests that hear nothing (seconds once built)
set -euo pipefail
cd "$(dirname "$0")/.."
source Scripts/bootstrap.sh
if [ "${1:-}" = --fast ]; then
    # The API, the phrase files and matcher, the WWDC examples and the samples' conversations:
    # no speech, no sound server, no Python peer. The exhaustive matcher checks stay in the full run.
    swift build --build-tests
    exec swift test --skip-build --parallel \
        --filter '^(VoiceIntentsTests|PhraseMatchingTests|WWDCExamplesTests|SampleAppTests)\.' \
        --skip 'CandidateSelectionTests'
fi
# Declares the benchmarks too (Package.swift), so that a change that breaks one fails here.
export VOICE_INTENTS_BENCHMARKS=1
Scripts/format.sh --lint || { echo "error: formatting differs; run Scripts/format.sh" >&2; exit 1; }
# The Python peers of the Wyoming tests, installed while the package builds rather than beside
# the tests that time a live loop.
peers_log=$(mktemp)
Scripts/python-peers.sh >"$peers_log" 2>&1 &
peers=$!
swift build --build-tests
# A package of its own that embeds the loop; built here so that its test finds it current.
# SwiftPM keeps this package's list of files in the example's build plan, and after a file moves
# it looks for the old path: the plan is made afresh (a second or two).
rm -f Examples/EmbeddedLoop/.build/*/debug/description.json
swift build --package-path Examples/EmbeddedLoop
wait "$peers" || { cat "$peers_log" >&2; echo "error: Scripts/python-peers.sh failed (above)" >&2; exit 1; }
rm -f "$peers_log"
# The tests of a loop that listens and speaks in real time (on a private sound server, or in a
# room of the test's own) run after the rest: beside the other tests' decoding on two cores
# (load 5) they fell behind real time, and missed what was said to them.
live='^(SoundServerTests\.|VoiceLoopTests\.EmbeddedLoopTests/)'
swift test --skip-build --parallel --skip "$live"
swift test --skip-build --parallel --filter "$live"
# A short fuzzing of the phrase files and of audio input: the corpus replayed, then new inputs,
# from a debug build (quicker to build than the release build long runs want). The recognizer
# target makes a filter for nearly every input, about 80 a second unoptimised: fewer of them.
FUZZ_MERGE=0 FUZZ_CONFIGURATION=debug Scripts/fuzz.sh "syntax catalog tests wav pcm resampler" 5000
FUZZ_MERGE=0 FUZZ_CONFIGURATION=debug Scripts/fuzz.sh recognizer 500
