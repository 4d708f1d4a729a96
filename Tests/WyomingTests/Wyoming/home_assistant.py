"""Home Assistant's own Wyoming integration, from PyPI, against a server.

    home_assistant.py tcp://127.0.0.1:10700 recording.wav reply.wav "text to say" [wake.wav WAKE_WORD]
    home_assistant.py … --command "turn the garage light on"   (also through the conversation agent)

Runs the integration's code as Home Assistant runs it when a Wyoming service is added: the
config flow's check of the service's info, its speech-to-text entity on a 16 kHz recording, and
its text-to-speech entity (the audio is written to reply.wav); with wake.wav (16 kHz), its
wake-word entity listening for WAKE_WORD in it; with --command, its conversation agent (Home
Assistant 2024.6 and later) given the command as text. Prints one JSON object.
"""
import asyncio
import json
import sys
import wave

# Imported first, as Home Assistant's start-up does: its modules import each other in a circle.
import homeassistant.components.persistent_notification  # noqa: F401
from homeassistant.components import stt
from homeassistant.components.wyoming.data import WyomingService
from homeassistant.components.wyoming.stt import WyomingSttProvider
from homeassistant.components.wyoming.tts import WyomingTtsProvider
from homeassistant.components.wyoming.wake_word import WyomingWakeWordProvider


class ConfigEntry:
    """What the entities read of their config entry."""

    entry_id = "voice-intents"


async def converse(service, command):
    """The integration's conversation agent given `command`: what it answers."""
    from homeassistant.components import conversation
    from homeassistant.components.wyoming.conversation import WyomingConversationEntity
    from homeassistant.core import Context

    agent = WyomingConversationEntity(ConfigEntry(), service)
    result = await agent.async_process(conversation.ConversationInput(
        text=command, context=Context(), conversation_id=None, device_id=None, language="en",
        agent_id="voice-intents"))
    response = result.response
    return {
        "conversation_speech": response.speech.get("plain", {}).get("speech"),
        "conversation_error": response.error_code.value if response.error_code else None,
    }


async def main(uri, recording, reply, text, wake=None, wake_word=None, command=None):
    host, port = uri[len("tcp://"):].rsplit(":", 1)
    service = await WyomingService.create(host, int(port))
    if service is None:
        raise SystemExit("Home Assistant could not read the service's info")

    speech_to_text = WyomingSttProvider(ConfigEntry(), service)
    metadata = stt.SpeechMetadata(
        language="en", format=stt.AudioFormats.WAV, codec=stt.AudioCodecs.PCM,
        bit_rate=stt.AudioBitRates.BITRATE_16, sample_rate=stt.AudioSampleRates.SAMPLERATE_16000,
        channel=stt.AudioChannels.CHANNEL_MONO)

    async def microphone():
        with wave.open(recording, "rb") as audio:
            while chunk := audio.readframes(1024):
                yield chunk

    heard = await speech_to_text.async_process_audio_stream(metadata, microphone())

    text_to_speech = WyomingTtsProvider(ConfigEntry(), service)
    kind, audio = await text_to_speech.async_get_tts_audio(text, "en", {})
    if audio:
        with open(reply, "wb") as out:
            out.write(audio)

    detected = {}
    if wake:
        # A satellite's microphone, as the wake-word entity streams it: 16-bit mono 16 kHz
        # chunks with their times, in real time (the entity stops listening when it ends).
        async def satellite():
            with wave.open(wake, "rb") as audio:
                milliseconds = 0
                while chunk := audio.readframes(1024):
                    yield chunk, milliseconds
                    milliseconds += 64
                    await asyncio.sleep(0.064)

        wake_words = WyomingWakeWordProvider(None, ConfigEntry(), service)
        names = [word.id for word in await wake_words.get_supported_wake_words()]
        result = await wake_words._async_process_audio_stream(satellite(), wake_word)
        detected = {
            "wake_words": names,
            "wake_word": result.wake_word_id if result else None,
            "wake_timestamp": result.timestamp if result else None,
        }

    conversed = await converse(service, command) if command else {}

    print(json.dumps(detected | conversed | {
        "platforms": sorted(platform.value for platform in service.platforms),
        "name": service.get_name(),
        "stt_languages": speech_to_text.supported_languages,
        "transcript": heard.text, "stt_result": heard.result.value,
        "tts_format": kind, "tts_bytes": len(audio or b""),
    }))


if __name__ == "__main__":
    arguments = sys.argv[1:]
    command = None
    if "--command" in arguments:
        at = arguments.index("--command")
        command = arguments[at + 1]
        del arguments[at:at + 2]
    asyncio.run(main(*arguments, command=command))
