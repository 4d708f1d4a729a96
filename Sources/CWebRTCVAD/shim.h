// WebRTC's voice activity detector (a Gaussian mixture model over six frequency bands that adapts
// to the noise), as Debian's libwebrtc-audio-processing builds it into its library.
//
// The package installs no header for it, so its C functions are declared here as the library
// defines them (libwebrtc-audio-processing 0.3, the one Debian 12 ships).
#ifndef VOICE_INTENTS_CWEBRTCVAD_H
#define VOICE_INTENTS_CWEBRTCVAD_H

#include <stddef.h>
#include <stdint.h>

typedef struct WebRtcVadInst VadInst;

/// A new detector, or NULL; `WebRtcVad_Init` must follow.
VadInst *WebRtcVad_Create(void);

/// Frees a detector.
void WebRtcVad_Free(VadInst *handle);

/// Readies a detector (its adaptation starts afresh): 0, or -1.
int WebRtcVad_Init(VadInst *handle);

/// How readily it calls a frame speech: 0 (most readily) to 3 (least): 0, or -1.
int WebRtcVad_set_mode(VadInst *handle, int mode);

/// Whether a frame of 10, 20 or 30 ms at 8, 16, 32 or 48 kHz is speech: 1, 0, or -1 on error.
int WebRtcVad_Process(VadInst *handle, int fs, const int16_t *audio_frame, size_t frame_length);

#endif
