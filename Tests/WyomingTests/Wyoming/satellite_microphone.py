"""A person at a satellite's microphone, for `wyoming-satellite --mic-command`.

    satellite_microphone.py DIRECTORY line1.wav line2.wav …

Writes raw 16 kHz 16-bit mono audio to standard output in real time, as `arecord` would:
silence, and the lines (16 kHz WAVs) said into it. The first line is said once the satellite
streams (its --streaming-start-command makes DIRECTORY/streaming); each next one once the
reply before it has been played: its --tts-stop-command adds a line to DIRECTORY/tts-stops,
and each reply's audio is in a DIRECTORY/reply-*.raw (22,050 Hz 16-bit mono), so their length
is how long they play.
"""
import os
import sys
import time
import wave

CHUNK = 1024  # samples, 64 ms
RATE = 16000


def main(directory, *lines):
    out = sys.stdout.buffer
    started = time.monotonic()
    sent = 0
    speech = b""
    said = 0
    ready_at = None  # when the next line may be said
    seen_stops, seen_bytes = 0, 0

    def path(name):
        return os.path.join(directory, name)

    while True:
        now = time.monotonic()
        if not speech and said < len(lines):
            if said == 0 and ready_at is None and os.path.exists(path("streaming")):
                ready_at = now + 0.5
            elif said > 0 and ready_at is None and os.path.exists(path("tts-stops")):
                with open(path("tts-stops")) as stops:
                    count = len(stops.read().splitlines())
                if count > seen_stops:
                    time.sleep(0.3)  # the last of the reply reaches the sound program
                    size = sum(os.path.getsize(path(name)) for name in os.listdir(directory)
                               if name.startswith("reply-"))
                    played = (size - seen_bytes) / 2 / 22050
                    seen_stops, seen_bytes = count, size
                    # An answer comes once the question has been heard, never before the
                    # conversation needs it: only as many as the replies so far.
                    if count >= said:
                        ready_at = time.monotonic() + played + 0.5
            if ready_at is not None and time.monotonic() >= ready_at:
                with wave.open(lines[said], "rb") as line:
                    speech = line.readframes(line.getnframes())
                said += 1
                ready_at = None
        piece, speech = speech[: 2 * CHUNK], speech[2 * CHUNK:]
        out.write(piece.ljust(2 * CHUNK, b"\0"))
        out.flush()
        sent += CHUNK
        time.sleep(max(0, started + sent / RATE - time.monotonic()))


if __name__ == "__main__":
    try:
        main(*sys.argv[1:])
    except (BrokenPipeError, KeyboardInterrupt):
        pass
