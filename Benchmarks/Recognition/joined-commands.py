#!/usr/bin/env python3
"""Two of a person's recorded commands said in one breath: each recording of an app's phrase
tests joined to others of the same file (the same speaker) by "and", written as WAVs and a
phrase test file whose tests state both intents (`intents:`), for `voice-intents evaluate
--recorded-only --tests` to hear; and the single recordings as they are (single.yaml), to hear
beside them.

    python3 Benchmarks/Recognition/joined-commands.py smart-home [output folder] [--pause 0.1] [--with 3]

The recordings hold no "and" between commands, so the join is the first recording without the
silence after it, a pause, an "and", a pause and the second without the silence before it. The "and" is SmartHome's speaker's own, cut from their "set a
timer for 3 hours and 10 minutes" (1.90 to 2.03 s, where the recognizer places it); for another
app's speaker it is another person's (say so with the figures). Each recording is joined with
the next `--with` recordings of the file in turn, so each is first and second as often. Needs
sox.
"""
import argparse
import os
import re
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))

parser = argparse.ArgumentParser()
parser.add_argument("app")
parser.add_argument("output", nargs="?", default=os.path.expanduser("~/.cache/voice-intents/joined"))
parser.add_argument("--pause", type=float, default=0.1)
parser.add_argument("--with", dest="partners", type=int, default=3)
arguments = parser.parse_args()

tests = os.path.join(root, "Phrases", "en", "tests", arguments.app + ".yaml")
line = re.compile(
    r'^\s*- \{ say: "(?P<say>[^"]*)", intent: (?P<intent>\w+), values: \{(?P<values>[^}]*)\}, '
    r'audio: "(?P<audio>[^"]*)" \}')
commands = []
for text in open(tests, encoding="utf-8"):
    match = line.match(text)
    if match and match["intent"] != "none":
        commands.append(match.groupdict())
if len(commands) < 2:
    sys.exit(f"error: {tests} has fewer than two recorded commands")

folder = os.path.join(arguments.output, arguments.app)
os.makedirs(folder, exist_ok=True)
rate = 16000


def converted(path, trim=None):
    """The recording at 16 kHz mono, in the output folder; with `trim` ("end", "start"), without
    the silence at that end (below 3% of full scale for 50 ms), as one breath has none there."""
    source = os.path.normpath(os.path.join(os.path.dirname(tests), path))
    target = os.path.join(folder, (trim or "single") + "-" + os.path.basename(source))
    if not os.path.exists(target):
        effects = {
            None: [],
            "start": ["silence", "1", "0.05", "3%"],
            "end": ["reverse", "silence", "1", "0.05", "3%", "reverse"],
        }[trim]
        subprocess.run(["sox", source, "-r", str(rate), "-c", "1", "-b", "16", target] + effects, check=True)
    return target


pause = os.path.join(folder, "pause.wav")
subprocess.run(
    ["sox", "-n", "-r", str(rate), "-c", "1", "-b", "16", pause, "trim", "0", str(arguments.pause)], check=True)
joiner = os.path.join(folder, "and.wav")
said = os.path.join(root, "Tests", "Recordings", "speech-to-phrase-en", "set a timer for 3 hours and 10 minutes.wav")
subprocess.run(
    ["sox", said, "-r", str(rate), "-c", "1", "-b", "16", joiner, "trim", "1.90", "=2.03"], check=True)

lines = [
    f"# {arguments.app}'s recorded commands joined two by two by \"and\" with {arguments.pause} s around it"
    " (Benchmarks/Recognition/joined-commands.py).",
    "tests:",
]
count = 0
for index, first in enumerate(commands):
    for step in range(1, arguments.partners + 1):
        second = commands[(index + step) % len(commands)]
        if second is first:
            continue
        name = f"joined-{index:03d}-{step}.wav"
        subprocess.run(
            ["sox", converted(first["audio"], "end"), pause, joiner, pause, converted(second["audio"], "start"),
             os.path.join(folder, name)],
            check=True)
        commands_yaml = ", ".join(
            f'{{ intent: {command["intent"]}, values: {{{command["values"]}}} }}' for command in (first, second))
        lines.append(
            f'  - {{ say: "{first["say"]} and {second["say"]}", intents: [{commands_yaml}], audio: "{name}" }}')
        count += 1
singles = ["tests:"] + [
    f'  - {{ say: "{c["say"]}", intent: {c["intent"]}, values: {{{c["values"]}}}, '
    f'audio: "{os.path.basename(converted(c["audio"]))}" }}'
    for c in commands
]
open(os.path.join(folder, "joined.yaml"), "w", encoding="utf-8").write("\n".join(lines) + "\n")
open(os.path.join(folder, "single.yaml"), "w", encoding="utf-8").write("\n".join(singles) + "\n")
print(f"{count} joined recordings and {len(commands)} single ones in {folder} (joined.yaml, single.yaml)")
