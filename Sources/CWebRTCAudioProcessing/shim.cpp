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

void to_float(const int16_t *samples, float *channel) {
    for (size_t index = 0; index < frame_length; ++index) channel[index] = samples[index] / 32768.0f;
}

void to_int16(const float *channel, int16_t *samples) {
    for (size_t index = 0; index < frame_length; ++index) {
        float value = channel[index] * 32768.0f;
        samples[index] = static_cast<int16_t>(value > 32767.0f ? 32767.0f : value < -32768.0f ? -32768.0f : value);
    }
}
}  // namespace

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
    to_float(samples, channel);
    webrtc::StreamConfig config(sample_rate, 1);
    int error = processing->processing->ProcessStream(&channel, config, config, &channel);
    if (error != 0) return error;
    to_int16(channel, samples);
    return 0;
}

struct vi_webrtc_echo {
    std::unique_ptr<webrtc::AudioProcessing> processing;
    float samples[160];
};

extern "C" vi_webrtc_echo *vi_webrtc_echo_create(vi_webrtc_echo_settings settings) {
    if (settings.suppression_level < 0 || settings.suppression_level > 2) return nullptr;
    webrtc::Config config;
    config.Set<webrtc::ExtendedFilter>(new webrtc::ExtendedFilter(settings.extended_filter != 0));
    config.Set<webrtc::DelayAgnostic>(new webrtc::DelayAgnostic(settings.delay_agnostic != 0));
    auto result = std::make_unique<vi_webrtc_echo>();
    result->processing.reset(webrtc::AudioProcessing::Create(config));
    if (!result->processing) return nullptr;
    auto &processing = *result->processing;
    if (processing.Initialize(sample_rate, sample_rate, sample_rate, webrtc::AudioProcessing::kMono,
                              webrtc::AudioProcessing::kMono, webrtc::AudioProcessing::kMono) != 0)
        return nullptr;
    auto echo = processing.echo_cancellation();
    if (echo->enable_drift_compensation(false) != 0) return nullptr;
    auto level = static_cast<webrtc::EchoCancellation::SuppressionLevel>(settings.suppression_level);
    if (echo->set_suppression_level(level) != 0) return nullptr;
    if (echo->enable_metrics(true) != 0) return nullptr;
    if (echo->enable_delay_logging(true) != 0) return nullptr;
    if (echo->Enable(true) != 0) return nullptr;
    return result.release();
}

extern "C" void vi_webrtc_echo_destroy(vi_webrtc_echo *echo) { delete echo; }

extern "C" int vi_webrtc_echo_render(vi_webrtc_echo *echo, const int16_t *frame) {
    float *channel = echo->samples;
    to_float(frame, channel);
    webrtc::StreamConfig config(sample_rate, 1);
    return echo->processing->ProcessReverseStream(&channel, config, config, &channel);
}

extern "C" int vi_webrtc_echo_capture(vi_webrtc_echo *echo, int16_t *frame, int delay_ms) {
    float *channel = echo->samples;
    to_float(frame, channel);
    // A delay out of the library's range is clamped by it and answered with a warning, not an
    // error: the frame is still processed.
    int warning = echo->processing->set_stream_delay_ms(delay_ms);
    (void)warning;
    webrtc::StreamConfig config(sample_rate, 1);
    int error = echo->processing->ProcessStream(&channel, config, config, &channel);
    if (error != 0) return error;
    to_int16(channel, frame);
    return 0;
}

extern "C" vi_webrtc_echo_metrics vi_webrtc_echo_get_metrics(vi_webrtc_echo *echo) {
    vi_webrtc_echo_metrics result = {-100, -100, -1};
    auto canceller = echo->processing->echo_cancellation();
    webrtc::EchoCancellation::Metrics metrics;
    if (canceller->GetMetrics(&metrics) == 0) {
        result.echo_return_loss_enhancement = metrics.echo_return_loss_enhancement.instant;
        result.echo_return_loss = metrics.echo_return_loss.instant;
    }
    int median = -1, deviation = 0;
    float poor = 0;
    if (canceller->GetDelayMetrics(&median, &deviation, &poor) == 0) result.delay_median_ms = median;
    return result;
}
