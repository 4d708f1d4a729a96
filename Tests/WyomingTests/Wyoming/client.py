"""A Wyoming client for the tests, on the `wyoming` package from PyPI.

    client.py tcp://127.0.0.1:10700 describe [other-type …]   (events of other types sent first)
    client.py tcp://127.0.0.1:10700 recognize "turn the garage light on"
    client.py tcp://127.0.0.1:10700 transcribe recording.wav
    client.py tcp://127.0.0.1:10700 transcribe-16k recording.wav   (converted to 16 kHz first)
    client.py tcp://127.0.0.1:10700 synthesize "hello" reply.wav
    client.py tcp://127.0.0.1:10700 synthesize-ssml "<speak>hello</speak>" reply.wav   (text_format: ssml)
    client.py tcp://127.0.0.1:10700 synthesize-streaming reply.wav "Hel" "lo. Good" "bye."
        (the text in pieces; how many audio streams came back, and whether the first came
        before the last piece was sent)
    client.py tcp://127.0.0.1:10700 transcribe-streaming recording.wav
        (in real time; every transcript event, and how much audio had gone before each piece)
    client.py tcp://127.0.0.1:10700 handle "turn the garage light on"      (as Home Assistant's agent asks)
    client.py tcp://127.0.0.1:10700 transcribe-together a.wav b.wav …   (one connection each, at once)
    client.py tcp://127.0.0.1:10700 send-garbage                        (a line that is not an event)
    client.py tcp://127.0.0.1:10700 send-blank-lines                    (2 MB of newlines, then describe)
    client.py tcp://127.0.0.1:10700 send-slow-audio                     (audio at 1 Hz: 1 MB of it)
    client.py tcp://127.0.0.1:10700 detect hey_mycroft recording.wav    (wake words: what it answers)
    client.py tcp://127.0.0.1:10700 converse replies.wav line1.wav line2.wav …
        (a satellite: run-pipeline, then its microphone streamed in real time, saying the next
        line once the last reply has played; the replies are written to replies.wav)
    client.py tcp://127.0.0.1:10700 converse-together N replies line1.wav …   (N satellites at once)
    client.py tcp://127.0.0.1:10700 converse-wake hey_mycroft replies.wav line1.wav …
        (the same from the wake stage: the server hears the wake word; its detections are listed)
    client.py tcp://127.0.0.1:10700 timers SECONDS line1.wav line2.wav …
        (a satellite saying each line as a command of its own, one pipeline each on one
        connection, then listening SECONDS more: what was heard, and the timer events it was sent)
    client.py tcp://127.0.0.1:10700 drain PID recording.wav
        (SIGTERM to the server PID while one connection is idle and another half way through
        an utterance: which are closed, and whether the utterance is still heard)

Prints one JSON object per line: what the server answered, as the package parsed it.
"""
import asyncio
import json
import os
import signal
import sys
import wave

from wyoming.asr import Transcribe, Transcript, TranscriptChunk, TranscriptStart
from wyoming.audio import AudioChunk, AudioChunkConverter, AudioStart, AudioStop, wav_to_chunks
from wyoming.client import AsyncClient
from wyoming.event import Event
from wyoming.handle import Handled, NotHandled
from wyoming.info import Describe, Info
from wyoming.intent import Intent, IntentsStart, IntentsStop, NotRecognized, Recognize
from wyoming.pipeline import PipelineStage, RunPipeline
from wyoming.snd import Played
from wyoming.timer import TimerCancelled, TimerFinished, TimerStarted, TimerUpdated
from wyoming.tts import (
    Synthesize,
    SynthesizeChunk,
    SynthesizeStart,
    SynthesizeStop,
    SynthesizeStopped,
    SynthesizeTextFormat,
)
from wyoming.wake import Detect, Detection, NotDetected


async def next_event(client):
    event = await asyncio.wait_for(client.read_event(), timeout=60)
    if event is None:
        raise SystemExit("the server closed the connection")
    return event


async def transcribe(uri, path, rate=None, context=None):
    """The transcript of a WAV file, sent as it is or, with `rate`, converted as a satellite
    converts its microphone's audio (16-bit mono at `rate`); `context` goes with the request."""
    converter = AudioChunkConverter(rate=rate, width=2, channels=1) if rate else None
    async with AsyncClient.from_uri(uri) as client:
        await client.write_event(Transcribe(language="en", context=context).event())
        with wave.open(path, "rb") as recording:
            for message in wav_to_chunks(recording, samples_per_chunk=1024,
                                         start_event=True, stop_event=True):
                if converter and isinstance(message, AudioChunk):
                    message = converter.convert(message)
                elif converter and isinstance(message, AudioStart):
                    message = AudioStart(rate=rate, width=2, channels=1)
                await client.write_event(message.event())
        # A server that streams its transcript sends pieces first (transcript-start, -chunk).
        while True:
            event = await next_event(client)
            if Transcript.is_type(event.type):
                return Transcript.from_event(event)


async def transcribe_streaming(uri, path):
    """Every transcript event the server sends for a recording, in order, with how much of the
    audio had been sent when each came; the audio goes in real time, as a satellite sends it."""
    async with AsyncClient.from_uri(uri) as client:
        await client.write_event(Transcribe(language="en").event())
        events = []
        sent = 0.0

        async def read():
            while True:
                event = await next_event(client)
                if TranscriptChunk.is_type(event.type):
                    events.append({"type": event.type, "text": TranscriptChunk.from_event(event).text,
                                   "sent": round(sent, 2)})
                elif TranscriptStart.is_type(event.type):
                    events.append({"type": event.type,
                                   "language": TranscriptStart.from_event(event).language})
                elif Transcript.is_type(event.type):
                    events.append({"type": event.type, "text": Transcript.from_event(event).text})
                else:
                    events.append({"type": event.type})
                if event.type in ("transcript-stop", "error"):
                    return

        reader = asyncio.create_task(read())
        with wave.open(path, "rb") as recording:
            for message in wav_to_chunks(recording, samples_per_chunk=1024,
                                         start_event=True, stop_event=True):
                await client.write_event(message.event())
                if isinstance(message, AudioChunk):
                    sent += len(message.audio) / (2 * message.rate)
                    await asyncio.sleep(len(message.audio) / (2 * message.rate))
        await asyncio.wait_for(reader, timeout=60)
        for event in events:
            print(json.dumps(event))


async def synthesize_streaming(uri, pieces, path):
    """Text sent in pieces, as a streaming client sends it (synthesize-start, a chunk per piece,
    the whole text for servers that take no pieces, synthesize-stop), and the audio until
    synthesize-stopped: how many audio streams came, whether the first came before the last piece
    was sent, and the audio, written to `path`."""
    async with AsyncClient.from_uri(uri) as client:
        await client.write_event(SynthesizeStart().event())
        streams = 0
        audio = bytearray()
        rate = None
        first_audio_before_last_piece = None
        for index, piece in enumerate(pieces):
            await client.write_event(SynthesizeChunk(text=piece).event())
            if index == len(pieces) - 2:
                # Before the last piece: has audio started (the sentences before it are whole)?
                try:
                    event = await asyncio.wait_for(client.read_event(), timeout=10)
                except asyncio.TimeoutError:
                    event = None
                first_audio_before_last_piece = event is not None and AudioStart.is_type(event.type)
                if first_audio_before_last_piece:
                    rate = AudioStart.from_event(event).rate
                    streams += 1
        await client.write_event(Synthesize(text="".join(pieces)).event())
        await client.write_event(SynthesizeStop().event())
        while True:
            event = await next_event(client)
            if SynthesizeStopped.is_type(event.type):
                break
            if AudioStart.is_type(event.type):
                rate = AudioStart.from_event(event).rate
                streams += 1
            elif AudioChunk.is_type(event.type):
                audio += AudioChunk.from_event(event).audio
            elif not AudioStop.is_type(event.type):
                print(json.dumps({"event": event.type, "data": event.data}))
        with wave.open(path, "wb") as reply:
            reply.setframerate(rate or 22050)
            reply.setsampwidth(2)
            reply.setnchannels(1)
            reply.writeframes(bytes(audio))
        print(json.dumps({"streams": streams, "bytes": len(audio),
                          "before_last_piece": first_audio_before_last_piece}))


async def microphone(client, to_say):
    """A satellite's microphone, until cancelled: the speech put in `to_say` (16 kHz 16-bit mono
    PCM), one piece after another, and silence between, sent in real time."""
    chunk_samples = 1024
    silence = bytes(2 * chunk_samples)
    speech = b""
    loop = asyncio.get_running_loop()
    started = loop.time()
    sent = 0
    while True:
        if not speech and not to_say.empty():
            speech = to_say.get_nowait()
        piece, speech = (speech[:len(silence)], speech[len(silence):]) if speech else (silence, b"")
        piece = piece.ljust(len(silence), b"\0")
        await client.write_event(AudioChunk(rate=16000, width=2, channels=1, audio=piece).event())
        sent += chunk_samples
        await asyncio.sleep(max(0, started + sent / 16000 - loop.time()))


async def converse(uri, replies_path, lines, wake_word=None):
    """A satellite's conversation: `lines` (16 kHz 16-bit mono WAVs) said one after another into
    a microphone streamed in real time, each once the reply before it has been played. With
    `wake_word`, the satellite streams from the wake stage and asks the server to hear it."""
    to_say = asyncio.Queue()
    said, heard, replies, woke = [], [], [], []
    with wave.open(lines[0], "rb") as first:
        to_say.put_nowait(first.readframes(first.getnframes()))
    async with AsyncClient.from_uri(uri) as client:
        if wake_word:
            run = RunPipeline(start_stage=PipelineStage.WAKE, end_stage=PipelineStage.TTS,
                              wake_word_name=wake_word)
        else:
            run = RunPipeline(start_stage=PipelineStage.ASR, end_stage=PipelineStage.TTS)
        await client.write_event(run.event())
        await client.write_event(AudioStart(rate=16000, width=2, channels=1).event())

        streaming = asyncio.create_task(microphone(client, to_say))
        try:
            next_line = 1
            audio = bytearray()
            rate = 22050
            while True:
                event = await next_event(client)
                if Synthesize.is_type(event.type):
                    said.append(Synthesize.from_event(event).text)
                elif AudioStart.is_type(event.type):
                    rate = AudioStart.from_event(event).rate
                    audio = bytearray()
                elif AudioChunk.is_type(event.type):
                    audio += AudioChunk.from_event(event).audio
                elif AudioStop.is_type(event.type):
                    replies.append(bytes(audio))
                    # The reply plays, then the person answers.
                    await asyncio.sleep(len(audio) / 2 / rate)
                    await client.write_event(Played().event())
                    if next_line < len(lines):
                        with wave.open(lines[next_line], "rb") as line:
                            to_say.put_nowait(line.readframes(line.getnframes()))
                        next_line += 1
                elif Detection.is_type(event.type):
                    woke.append(Detection.from_event(event).name)
                elif Transcript.is_type(event.type):
                    heard.append(Transcript.from_event(event).text)
                    break
                elif event.type == "error":
                    raise SystemExit(f"the server said: {event.data}")
        finally:
            streaming.cancel()
        await client.write_event(AudioStop().event())
    with wave.open(replies_path, "wb") as out:
        out.setframerate(rate)
        out.setsampwidth(2)
        out.setnchannels(1)
        out.writeframes(bytes(int(rate * 0.7) * 2).join(replies))
    return {"said": said, "heard": heard} | ({"woke": woke} if wake_word else {})


async def timers(uri, lines, linger):
    """A satellite on one connection saying each of `lines` (16 kHz 16-bit mono WAVs) as a
    command of its own (a pipeline from `asr` each, its microphone streamed in real time), then
    staying connected `linger` seconds: what was heard, and every timer event, as the `wyoming`
    package parses it, with the seconds since the first line when it came."""
    heard, events = [], []
    loop = asyncio.get_running_loop()
    began = loop.time()

    def timer_event(event):
        for kind in (TimerStarted, TimerUpdated, TimerCancelled, TimerFinished):
            if kind.is_type(event.type):
                parsed = kind.from_event(event)
                events.append({"type": event.type, "at": round(loop.time() - began, 2)}
                              | {k: v for k, v in vars(parsed).items() if v is not None})
                return True
        return False

    async with AsyncClient.from_uri(uri) as client:
        for path in lines:
            with wave.open(path, "rb") as line:
                speech = line.readframes(line.getnframes())
            await client.write_event(
                RunPipeline(start_stage=PipelineStage.ASR, end_stage=PipelineStage.TTS).event())
            await client.write_event(AudioStart(rate=16000, width=2, channels=1).event())
            to_say = asyncio.Queue()
            to_say.put_nowait(speech)
            streaming = asyncio.create_task(microphone(client, to_say))
            try:
                while True:
                    event = await next_event(client)
                    if timer_event(event):
                        continue
                    if AudioStop.is_type(event.type):
                        await client.write_event(Played().event())
                    elif Transcript.is_type(event.type):
                        heard.append(Transcript.from_event(event).text)
                        break
                    elif event.type == "error":
                        raise SystemExit(f"the server said: {event.data}")
            finally:
                streaming.cancel()
            await client.write_event(AudioStop().event())
        until = loop.time() + linger
        while (left := until - loop.time()) > 0:
            try:
                event = await asyncio.wait_for(client.read_event(), timeout=left)
            except asyncio.TimeoutError:
                break
            if event is None:
                break
            timer_event(event)
    return {"heard": heard, "timers": events}


async def drain(uri, pid, path):
    """What graceful shutdown does to the connections open: one idle, one streaming `path`
    (16 kHz 16-bit mono), SIGTERM sent half way through it."""
    with wave.open(path, "rb") as recording:
        chunks = list(wav_to_chunks(recording, samples_per_chunk=1024, start_event=True, stop_event=True))
    half = len(chunks) // 2
    idle = AsyncClient.from_uri(uri)
    await idle.connect()
    await idle.write_event(Describe().event())
    Info.from_event(await next_event(idle))
    async with AsyncClient.from_uri(uri) as streaming:
        await streaming.write_event(Transcribe(language="en").event())
        for message in chunks[:half]:
            await streaming.write_event(message.event())
        await asyncio.sleep(0.5)
        os.kill(pid, signal.SIGTERM)
        idle_closed = await asyncio.wait_for(idle.read_event(), timeout=10) is None
        await asyncio.sleep(0.5)
        try:
            host, port = uri[len("tcp://"):].rsplit(":", 1)
            _, writer = await asyncio.open_connection(host, int(port))
            writer.close()
            refused = False
        except OSError:
            refused = True
        for message in chunks[half:]:
            await streaming.write_event(message.event())
        transcript = None
        while transcript is None:  # after the transcript's pieces
            event = await next_event(streaming)
            if Transcript.is_type(event.type):
                transcript = Transcript.from_event(event).text
        # The pieces' end, then nothing: the connection is closed.
        event = await asyncio.wait_for(streaming.read_event(), timeout=10)
        if event is not None and event.type == "transcript-stop":
            event = await asyncio.wait_for(streaming.read_event(), timeout=10)
        closed = event is None
    await idle.disconnect()
    return {"idle_closed": idle_closed, "refused": refused, "transcript": transcript, "closed": closed}


async def main(uri, command, *arguments):
    if command == "drain":
        print(json.dumps(await drain(uri, int(arguments[0]), arguments[1])))
        return
    if command == "converse-wake":  # converse-wake WAKE_WORD replies.wav line1.wav …
        print(json.dumps(await converse(uri, arguments[1], arguments[2:], wake_word=arguments[0])))
        return
    if command == "converse":
        print(json.dumps(await converse(uri, arguments[0], arguments[1:])))
        return
    if command == "timers":  # timers SECONDS line1.wav …
        print(json.dumps(await timers(uri, arguments[1:], float(arguments[0]))))
        return
    if command == "converse-together":
        count, prefix, lines = int(arguments[0]), arguments[1], arguments[2:]
        results = await asyncio.gather(
            *(converse(uri, f"{prefix}-{index}.wav", lines) for index in range(count)))
        print(json.dumps({"conversations": list(results)}))
        return
    if command in ("transcribe-together", "transcribe-together-16k"):
        rate = 16000 if command.endswith("16k") else None
        transcripts = await asyncio.gather(*(transcribe(uri, path, rate) for path in arguments))
        print(json.dumps({"transcripts": [transcript.text for transcript in transcripts]}))
        return
    if command == "transcribe-streaming":
        await transcribe_streaming(uri, arguments[0])
        return
    if command == "synthesize-streaming":  # synthesize-streaming reply.wav piece1 piece2 …
        await synthesize_streaming(uri, arguments[1:], arguments[0])
        return
    if command in ("transcribe", "transcribe-16k"):  # transcribe PATH [CONTEXT-JSON]
        rate = 16000 if command.endswith("16k") else None
        context = json.loads(arguments[1]) if len(arguments) > 1 else None
        transcript = await transcribe(uri, arguments[0], rate, context)
        print(json.dumps({"transcript": transcript.text, "context": transcript.context}))
        return
    if command == "send-garbage":
        host, port = uri[len("tcp://"):].rsplit(":", 1)
        reader, writer = await asyncio.open_connection(host, int(port))
        writer.write(b"not json\n")
        await writer.drain()
        header = json.loads(await asyncio.wait_for(reader.readline(), timeout=30))
        data = json.loads(await reader.readexactly(header["data_length"]))
        closed = await asyncio.wait_for(reader.read(), timeout=30) == b""
        print(json.dumps({"error": data.get("text"), "closed": closed}))
        return
    if command in ("send-blank-lines", "send-slow-audio"):
        host, port = uri[len("tcp://"):].rsplit(":", 1)
        reader, writer = await asyncio.open_connection(host, int(port))
        if command == "send-blank-lines":
            writer.write(b"\n" * (2 << 20) + b'{"type": "describe"}\n')
        else:
            format = {"rate": 1, "width": 1, "channels": 1}
            writer.write(json.dumps({"type": "audio-start", "data": format}).encode() + b"\n")
            chunk = json.dumps({"type": "audio-chunk", "data": format, "payload_length": 1 << 20})
            writer.write(chunk.encode() + b"\n" + bytes(1 << 20))
        await writer.drain()
        header = json.loads(await asyncio.wait_for(reader.readline(), timeout=60))
        data = json.loads(await reader.readexactly(header.get("data_length", 0)) or b"{}")
        writer.close()
        print(json.dumps({"type": header["type"], "text": data.get("text")}))
        return
    async with AsyncClient.from_uri(uri) as client:
        if command == "describe":
            if arguments:  # events of other types first, which the server is to ignore
                for other in arguments:
                    await client.write_event(Event(type=other))
            await client.write_event(Describe().event())
            info = Info.from_event(await next_event(client))
            print(json.dumps({
                "asr": [model.name for program in info.asr for model in program.models],
                "asr_programs": [program.name for program in info.asr],
                "intent": [model.name for program in info.intent for model in program.models],
                "tts": [voice.name for program in info.tts for voice in program.voices],
                "wake": [model.name for program in info.wake for model in program.models],
            }))
        elif command == "recognize":  # recognize TEXT [CONTEXT-JSON]
            context = json.loads(arguments[1]) if len(arguments) > 1 else None
            await client.write_event(Recognize(text=arguments[0], context=context).event())
            event = await next_event(client)
            if IntentsStart.is_type(event.type):
                intents = []
                while not IntentsStop.is_type((event := await next_event(client)).type):
                    intent = Intent.from_event(event)
                    intents.append({"intent": intent.name,
                                    "entities": {e.name: e.value for e in intent.entities}})
                print(json.dumps({"intents": intents}))
            elif Intent.is_type(event.type):
                intent = Intent.from_event(event)
                print(json.dumps({"intent": intent.name,
                                  "entities": {e.name: e.value for e in intent.entities},
                                  "context": intent.context}))
            elif NotRecognized.is_type(event.type):
                print(json.dumps({"intent": None, "context": NotRecognized.from_event(event).context}))
            else:
                print(json.dumps({"event": event.type, "data": event.data}))
        elif command == "handle":  # handle TEXT [CONTEXT-JSON]
            context = json.loads(arguments[1]) if len(arguments) > 1 else None
            await client.write_event(Transcript(text=arguments[0], context=context).event())
            event = await next_event(client)
            if Handled.is_type(event.type):
                handled = Handled.from_event(event)
                print(json.dumps({"handled": True, "text": handled.text, "context": handled.context}))
            elif NotHandled.is_type(event.type):
                missed = NotHandled.from_event(event)
                print(json.dumps({"handled": False, "text": missed.text, "context": missed.context}))
            else:
                print(json.dumps({"event": event.type, "data": event.data}))
        elif command == "detect":
            # As Home Assistant's wake-word stream: detect, then the recording's audio as it is.
            await client.write_event(Detect(names=[arguments[0]]).event())
            with wave.open(arguments[1], "rb") as recording:
                for message in wav_to_chunks(recording, samples_per_chunk=1024,
                                             start_event=True, stop_event=True):
                    await client.write_event(message.event())
            # The server answers in order: every detection, or not-detected, comes before info.
            await client.write_event(Describe().event())
            while True:
                event = await next_event(client)
                if Info.is_type(event.type):
                    break
                if Detection.is_type(event.type):
                    detection = Detection.from_event(event)
                    print(json.dumps({"detection": detection.name, "timestamp": detection.timestamp}))
                elif NotDetected.is_type(event.type):
                    print(json.dumps({"detection": None}))
                else:  # an error: what follows is the audio heard as no wake-word stream
                    print(json.dumps({"event": event.type, "data": event.data}))
                    break
        elif command in ("synthesize", "synthesize-ssml"):
            text_format = SynthesizeTextFormat.SSML if command == "synthesize-ssml" else None
            await client.write_event(Synthesize(text=arguments[0], text_format=text_format).event())
            start = AudioStart.from_event(await next_event(client))
            audio = bytearray()
            # Whether each chunk's time is where its samples fall in the stream.
            timed = True
            while True:
                event = await next_event(client)
                if AudioStop.is_type(event.type):
                    AudioStop.from_event(event)  # as Home Assistant reads it
                    break
                chunk = AudioChunk.from_event(event)
                timed = timed and chunk.timestamp == len(audio) // 2 * 1000 // start.rate
                audio += chunk.audio
            with wave.open(arguments[1], "wb") as reply:
                reply.setframerate(start.rate)
                reply.setsampwidth(start.width)
                reply.setnchannels(start.channels)
                reply.writeframes(bytes(audio))
            print(json.dumps({"rate": start.rate, "bytes": len(audio), "timed": timed}))


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:]))
