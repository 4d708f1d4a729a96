// SpeexDSP's preprocessor (noise suppression, automatic gain) for Swift.
#ifndef VOICE_INTENTS_CSPEEXDSP_H
#define VOICE_INTENTS_CSPEEXDSP_H

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

#endif
