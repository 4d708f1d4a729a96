#include "webrtc_audio_processing_shim.h"

#include <memory>

#include <webrtc/modules/audio_processing/include/audio_processing.h>

// The int16 interface takes an AudioFrame, whose header Debian's package cannot compile (it needs
// a video header it does not ship), so frames go through the float interface.
struct vi_webrtc_processing {
    std::unique_ptr<webrtc::AudioProcessing> processing;
    float samples[160];  // one 10 ms frame at 16 kHz
};

namespace {
constexpr int sample_rate = 16000;
constexpr size_t frame_length = sample_rate / 100;
}

extern "C" vi_webrtc_processing *vi_webrtc_processing_create(vi_webrtc_processing_settings settings) {
    auto result = std::make_unique<vi_webrtc_processing>();
    result->processing.reset(webrtc::AudioProcessing::Create());
    if (!result->processing) return nullptr;
    auto &processing = *result->processing;
    if (processing.Initialize(sample_rate, sample_rate, sample_rate, webrtc::AudioProcessing::kMono,
                              webrtc::AudioProcessing::kMono, webrtc::AudioProcessing::kMono) != 0)
        return nullptr;
    if (processing.high_pass_filter()->Enable(settings.high_pass != 0) != 0) return nullptr;
    if (settings.noise_suppression >= 0) {
        if (settings.noise_suppression > 3) return nullptr;
        auto level = static_cast<webrtc::NoiseSuppression::Level>(settings.noise_suppression);
        if (processing.noise_suppression()->set_level(level) != 0) return nullptr;
        if (processing.noise_suppression()->Enable(true) != 0) return nullptr;
    }
    if (settings.automatic_gain) {
        auto gain = processing.gain_control();
        if (gain->set_mode(webrtc::GainControl::kAdaptiveDigital) != 0) return nullptr;
        if (gain->set_target_level_dbfs(settings.target_level_dbfs) != 0) return nullptr;
        if (gain->set_compression_gain_db(settings.compression_gain_db) != 0) return nullptr;
        if (gain->enable_limiter(true) != 0) return nullptr;
        if (gain->Enable(true) != 0) return nullptr;
    }
    return result.release();
}

extern "C" void vi_webrtc_processing_destroy(vi_webrtc_processing *processing) { delete processing; }

extern "C" int vi_webrtc_processing_run(vi_webrtc_processing *processing, int16_t *samples) {
    float *channel = processing->samples;
    for (size_t index = 0; index < frame_length; ++index) channel[index] = samples[index] / 32768.0f;
    webrtc::StreamConfig config(sample_rate, 1);
    int error = processing->processing->ProcessStream(&channel, config, config, &channel);
    if (error != 0) return error;
    for (size_t index = 0; index < frame_length; ++index) {
        float value = channel[index] * 32768.0f;
        samples[index] = static_cast<int16_t>(value > 32767.0f ? 32767.0f : value < -32768.0f ? -32768.0f : value);
    }
    return 0;
}
