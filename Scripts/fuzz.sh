#!/usr/bin/env bash
# Fuzzes what reads people's files with libFuzzer. The phrase files: the phrase syntax, the YAML
# catalog and the phrase-test file, each read or refused with an error that says where (line and
# column). Audio input: WAV files, raw 16-bit PCM, the resampler and the conversion to what the
# recognizer hears, each read or refused with an error that names the file and says why. A Wyoming
# peer's bytes: events, or an error after which its connection is closed. A crash, a hang (10 s),
# more than 2 GB, or an error that does not say where or why stops the run and leaves the input
# in Fuzz/Findings/.
#
#     Scripts/fuzz.sh [syntax|catalog|tests|wav|pcm|resampler|recognizer|wyoming|all] [runs per target, default 100000]
#
# Each run starts from the corpus in Fuzz/Corpus/<target>/ and merges back the inputs that
# reached code no earlier input did (commit them); FUZZ_MERGE=0 leaves the corpus as it is (the
# test command's short run). FUZZ_CONFIGURATION=debug builds without optimisation: a third of the
# release build's time, at half the speed, and with Swift's assertions on (the short run).
set -euo pipefail
cd "$(dirname "$0")/.."
targets=${1:-all}
runs=${2:-100000}
[ "$targets" = all ] && targets="syntax catalog tests wav pcm resampler recognizer wyoming"
export VOICE_INTENTS_FUZZ=1
configuration=${FUZZ_CONFIGURATION:-release}
# The program that reads each target, and the variable that tells it which.
program() {
    case "$1" in
    wav | pcm | resampler | recognizer) echo audio-fuzz ;;
    wyoming) echo wyoming-fuzz ;;
    *) echo phrase-fuzz ;;
    esac
}
# (wyoming-fuzz has one target and reads no variable.)
variable() {
    case "$1" in
    wav | pcm | resampler | recognizer) echo AUDIO_FUZZ_TARGET ;;
    wyoming) echo WYOMING_FUZZ_TARGET ;;
    *) echo PHRASE_FUZZ_TARGET ;;
    esac
}
for product in $(for target in $targets; do program "$target"; done | sort -u); do
    echo "building $product with -sanitize=fuzzer ($configuration, in .build-fuzz)"
    swift build -c "$configuration" --scratch-path .build-fuzz --product "$product" \
        -Xswiftc -sanitize=fuzzer -Xswiftc -parse-as-library >/dev/null
done
mkdir -p Fuzz/Findings
for target in $targets; do
    fuzzer=.build-fuzz/$configuration/$(program "$target")
    export "$(variable "$target")=$target"
    mkdir -p "Fuzz/Corpus/$target"
    found=$(mktemp -d)
    log=$(mktemp)
    echo "fuzzing $target: $runs runs"
    status=0
    "$fuzzer" "$found" "Fuzz/Corpus/$target" -runs="$runs" -max_len=4096 \
        -timeout=10 -rss_limit_mb=2048 -artifact_prefix="Fuzz/Findings/$target-" -print_final_stats=1 \
        >"$log" 2>&1 || status=$?
    if [ "$status" -ne 0 ]; then
        grep -E "Fatal error|ERROR|SUMMARY|Test unit written" "$log" >&2 || tail -20 "$log" >&2
        echo "error: $target: a finding in Fuzz/Findings/; $(variable "$target")=$target $fuzzer <file> replays it" >&2
        exit 1
    fi
    grep -E "^Done|number_of_executed_units|average_exec_per_sec|peak_rss_mb" "$log" | sed 's/^/  /'
    if [ "${FUZZ_MERGE:-1}" != 0 ]; then
        "$fuzzer" -merge=1 "Fuzz/Corpus/$target" "$found" >"$log" 2>&1
        echo "  corpus: $(ls "Fuzz/Corpus/$target" | wc -l) inputs"
    fi
    rm -rf "$found" "$log"
done
