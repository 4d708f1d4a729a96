// eSpeak NG for Swift.
#ifndef VOICE_INTENTS_CESPEAKNG_H
#define VOICE_INTENTS_CESPEAKNG_H

#include <espeak-ng/speak_lib.h>

#endif
