// SpeexDSP's preprocessor (noise suppression, automatic gain) and echo canceller for Swift.
#ifndef VOICE_INTENTS_CSPEEXDSP_H
#define VOICE_INTENTS_CSPEEXDSP_H

#include <speex/speex_echo.h>
#include <speex/speex_preprocess.h>

/// Sets an integer setting of the preprocessor (`speex_preprocess_ctl` takes a `void *`).
static inline int vi_speex_set_int(SpeexPreprocessState *state, int request, int value) {
    spx_int32_t v = value;
    return speex_preprocess_ctl(state, request, &v);
}

/// Sets a float setting of the preprocessor.
static inline int vi_speex_set_float(SpeexPreprocessState *state, int request, float value) {
    float v = value;
    return speex_preprocess_ctl(state, request, &v);
}

/// Sets the echo canceller's sample rate (`speex_echo_ctl` takes a `void *`).
static inline int vi_speex_echo_set_rate(SpeexEchoState *state, int rate) {
    spx_int32_t v = rate;
    return speex_echo_ctl(state, SPEEX_ECHO_SET_SAMPLING_RATE, &v);
}

/// Has the preprocessor suppress what the echo canceller left of the echo.
static inline int vi_speex_set_echo_state(SpeexPreprocessState *state, SpeexEchoState *echo) {
    return speex_preprocess_ctl(state, SPEEX_PREPROCESS_SET_ECHO_STATE, echo);
}

#endif
