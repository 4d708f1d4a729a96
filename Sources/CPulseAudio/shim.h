// PulseAudio's simple API for Swift (PipeWire desktops serve it too).
#ifndef VOICE_INTENTS_CPULSEAUDIO_H
#define VOICE_INTENTS_CPULSEAUDIO_H

#include <pulse/simple.h>
#include <pulse/error.h>

#endif
