// WebRTC's audio processing (noise suppression, automatic gain, high-pass filter) behind a small C
// interface, so that Swift can use the C++ library Debian ships as libwebrtc-audio-processing 0.3.
#ifndef VOICE_INTENTS_WEBRTC_AUDIO_PROCESSING_SHIM_H
#define VOICE_INTENTS_WEBRTC_AUDIO_PROCESSING_SHIM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One stream's audio processing.
typedef struct vi_webrtc_processing vi_webrtc_processing;

/// What the processing does.
typedef struct {
    /// Whether WebRTC's high-pass filter runs.
    int high_pass;
    /// Noise suppression: -1 for none, or 0 (low) to 3 (very high).
    int noise_suppression;
    /// Whether adaptive digital gain control runs.
    int automatic_gain;
    /// The level the gain control aims at, in dB under full scale (0 to 31).
    int target_level_dbfs;
    /// The most the gain control adds, in dB (0 to 90).
    int compression_gain_db;
} vi_webrtc_processing_settings;

/// Processing of 16 kHz mono audio with these settings, or NULL when the library refuses them.
vi_webrtc_processing *vi_webrtc_processing_create(vi_webrtc_processing_settings settings);

/// Frees it.
void vi_webrtc_processing_destroy(vi_webrtc_processing *processing);

/// Processes one 10 ms frame (160 samples) in place: 0, or the library's error code.
int vi_webrtc_processing_run(vi_webrtc_processing *processing, int16_t *frame);

#ifdef __cplusplus
}
#endif

#endif
