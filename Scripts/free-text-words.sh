#!/usr/bin/env bash
# Writes Models/en/free-text.txt, the words a free-text slot of a command is heard as
# (FreeTextWords): the COUNT likeliest words of the unigrams of Debian's en-us language model,
# those the CMU dictionary says, each with its log 10 probability.
#
#     Scripts/free-text-words.sh [COUNT]     # 20000 by default
set -euo pipefail
export LC_ALL=C
cd "$(dirname "$0")/.."
count=${1:-20000}
model=/usr/share/pocketsphinx/model/en-us
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Debian's sphinx_lm_convert (5.0) writes the unigrams, then fails an assertion on this model's
# bigrams, losing what it had not flushed: the last hundred or so words in alphabetical order
# ("zim" on). The unigrams are all that is used; at least 99% of them must be there.
{ sphinx_lm_convert -i "$model/en-us.lm.bin" -o "$work/en-us.arpa" -ofmt arpa >/dev/null 2>&1; } 2>/dev/null || true
declared=$(sed -n 's/^ngram 1=//p' "$work/en-us.arpa")
read=$(awk '/^\\1-grams:/ { on = 1; next } /^\\2-grams:/ { exit } on && NF >= 3 { n++ } END { print n + 0 }' "$work/en-us.arpa")
if [ -z "$declared" ] || [ $((read * 100)) -lt $((declared * 99)) ]; then
    echo "error: sphinx_lm_convert gave $read of ${declared:-?} unigrams" >&2
    exit 1
fi
cut -d' ' -f1 "$model/cmudict-en-us.dict" | sed 's/(.*//' | sort -u >"$work/dictionary"
{
    echo "# The words a free-text slot is heard as (FreeTextWords): the $count likeliest unigrams of"
    echo "# pocketsphinx-en-us's en-us.lm.bin that cmudict-en-us.dict says, with their log 10"
    echo "# probabilities. Made by Scripts/free-text-words.sh; add a word and a probability to hear it."
    awk '/^\\1-grams:/ { on = 1; next } /^\\2-grams:/ { exit } on && NF >= 3 { print $2, $1 }' "$work/en-us.arpa" |
        grep -E "^[a-z][a-z']* " | sort -k1,1 | join - "$work/dictionary" | sort -k2,2 -g -r | awk -v count="$count" 'NR <= count'
} >Models/en/free-text.txt
echo "wrote Models/en/free-text.txt: $(grep -vc '^#' Models/en/free-text.txt) words" >&2
