// WebRTC's audio processing (noise suppression, automatic gain, high-pass filter, echo
// cancellation) behind a small C interface, so that Swift can use the C++ library Debian ships as
// libwebrtc-audio-processing 0.3.
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

/// One stream's echo cancellation: what is played (the render side) is taken out of what the
/// microphone hears (the capture side). 16 kHz mono, 10 ms frames (160 samples) on both sides.
typedef struct vi_webrtc_echo vi_webrtc_echo;

/// What the echo canceller does.
typedef struct {
    /// How hard what is left of the echo is suppressed after the adaptive filter: 0 (low) to 2
    /// (high).
    int suppression_level;
    /// Whether the delay between the two sides is found from the signals themselves instead of
    /// trusting the delay given with each capture frame.
    int delay_agnostic;
    /// Whether the adaptive filter is long (reverberant rooms, delays that move) rather than
    /// WebRTC's short default.
    int extended_filter;
} vi_webrtc_echo_settings;

/// What the echo canceller has measured, each in dB (or -100 when not known yet).
typedef struct {
    /// Echo return loss enhancement: how far the echo was pushed down, over the last second.
    float echo_return_loss_enhancement;
    /// Echo return loss: how far under the played signal its echo arrived.
    float echo_return_loss;
    /// The delay found between the two sides, in ms (-1 when not known yet).
    int delay_median_ms;
} vi_webrtc_echo_metrics;

/// An echo canceller with these settings, or NULL when the library refuses them.
vi_webrtc_echo *vi_webrtc_echo_create(vi_webrtc_echo_settings settings);

/// Frees it.
void vi_webrtc_echo_destroy(vi_webrtc_echo *echo);

/// Hands it one 10 ms frame of what is being played: 0, or the library's error code.
int vi_webrtc_echo_render(vi_webrtc_echo *echo, const int16_t *frame);

/// Takes the echo out of one 10 ms frame of what the microphone heard, in place, `delay_ms` after
/// the frame of the render side that sounds in it was handed over: 0, or the library's error
/// code.
int vi_webrtc_echo_capture(vi_webrtc_echo *echo, int16_t *frame, int delay_ms);

/// What it has measured so far.
vi_webrtc_echo_metrics vi_webrtc_echo_get_metrics(vi_webrtc_echo *echo);

#ifdef __cplusplus
}
#endif

#endif
