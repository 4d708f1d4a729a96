# Sourced by the scripts that read data the repository does not hold: the full collection of
# people's recordings (the repository's Tests/Recordings has only the clips the tests hear),
# training data, wake-word negatives. They live in one folder, with `recordings/`, `training/`
# and `wake-word-negatives/` in it: $VOICE_INTENTS_SHARED, else the folder `shared` beside the
# repository. No test reads it.
#
#     source Scripts/shared-data.sh
#     digits="$(shared_data recordings/spoken-digits)"    # fails, saying what to set, if missing
shared="${VOICE_INTENTS_SHARED:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/shared}"

shared_data() {  # shared_data PATH: prints $shared/PATH, or fails saying where it belongs
    local path="$shared/$1"
    if [ ! -e "$path" ]; then
        echo "error: $path is missing: set VOICE_INTENTS_SHARED to the folder that holds recordings/, training/ and wake-word-negatives/ (default: shared beside the repository), with $1 in it" >&2
        return 1
    fi
    printf '%s\n' "$path"
}
