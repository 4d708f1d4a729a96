// The wake-word detector's C side: dlopen of TensorFlow Lite's C library and of TensorFlow Lite
// Micro's audio front end (from the pymicro-wakeword and pymicro-features wheels), the front end
// set up as microWakeWord models were trained, and the model run on its quantized input.
#include "wake_word.h"

#include <dlfcn.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// TensorFlow Lite Micro's audio front end, as its C headers declare it (frontend.h and the
// headers of its stages).
typedef struct { size_t size_ms; size_t step_size_ms; } fe_window_config;
typedef struct { int num_channels; float upper_band_limit; float lower_band_limit; int output_scale_shift; } fe_filterbank_config;
typedef struct { int smoothing_bits; float even_smoothing; float odd_smoothing; float min_signal_remaining; } fe_noise_reduction_config;
typedef struct { int enable_pcan; float strength; float offset; int gain_bits; } fe_pcan_config;
typedef struct { int enable_log; int scale_shift; } fe_log_scale_config;
typedef struct {
    fe_window_config window;
    fe_filterbank_config filterbank;
    fe_noise_reduction_config noise_reduction;
    fe_pcan_config pcan_gain_control;
    fe_log_scale_config log_scale;
} fe_config;
typedef struct { const uint16_t *values; size_t size; } fe_output;

// TensorFlow Lite's C API (c_api.h).
typedef struct { float scale; int32_t zero_point; } tfl_quantization;

static struct {
    void (*fill_defaults)(fe_config *);
    int (*populate)(const fe_config *, void *state, int sample_rate);
    fe_output (*process)(void *state, const int16_t *samples, size_t count, size_t *read);
    void (*free_state)(void *state);

    void *(*model_from_file)(const char *path);
    void (*model_delete)(void *model);
    void *(*interpreter_create)(const void *model, const void *options);
    void (*interpreter_delete)(void *interpreter);
    int (*allocate_tensors)(void *interpreter);
    int (*invoke)(void *interpreter);
    void *(*input_tensor)(const void *interpreter, int32_t index);
    const void *(*output_tensor)(const void *interpreter, int32_t index);
    int32_t (*tensor_dim)(const void *tensor, int32_t index);
    int32_t (*tensor_num_dims)(const void *tensor);
    int (*tensor_type)(const void *tensor);
    size_t (*tensor_byte_size)(const void *tensor);
    tfl_quantization (*tensor_quantization)(const void *tensor);
    int (*copy_from)(void *tensor, const void *data, size_t size);
    int (*copy_to)(const void *tensor, void *data, size_t size);
    int loaded;  // 1 once every symbol is found
    char error[512];
} api;
static pthread_mutex_t api_lock = PTHREAD_MUTEX_INITIALIZER;

// The features' channels, and the size of the front end's state, which its header declares as a
// struct of its stages' states (about 300 bytes): room to spare.
enum { channels = 40, state_size = 8192, step = 160 };

struct vi_wake_word {
    void *model;
    void *interpreter;
    void *input;
    const void *output;
    int stride;
    tfl_quantization input_quantization, output_quantization;
    int input_signed, output_signed;
    _Alignas(16) unsigned char state[state_size];
    int16_t pending[step];
    size_t pending_count;
    int8_t *window;  // stride × channels quantized features
    int frames;
};

static void set_error(char *error, size_t size, const char *format, ...) {
    if (!error || size == 0) return;
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(error, size, format, arguments);
    va_end(arguments);
}

#define SYMBOL(handle, field, name)                                                                   \
    do {                                                                                              \
        *(void **)&api.field = dlsym(handle, name);                                                   \
        if (!api.field) {                                                                             \
            set_error(api.error, sizeof api.error, "%s lacks %s", path_of_##handle, name);            \
            return 0;                                                                                 \
        }                                                                                             \
    } while (0)

static int load(const vi_wake_word_libraries *libraries) {
    const char *path_of_features = libraries->features_library;
    const char *path_of_tflite = libraries->tflite_library;
    // The features library refers to two of Python's objects (it is a Python extension module);
    // nothing of Python runs, but they must be there for it to load.
    if (!dlopen(libraries->python_library, RTLD_NOW | RTLD_GLOBAL)) {
        set_error(api.error, sizeof api.error, "%s", dlerror());
        return 0;
    }
    void *features = dlopen(path_of_features, RTLD_NOW | RTLD_LOCAL);
    if (!features) {
        set_error(api.error, sizeof api.error, "%s", dlerror());
        return 0;
    }
    void *tflite = dlopen(path_of_tflite, RTLD_NOW | RTLD_LOCAL);
    if (!tflite) {
        set_error(api.error, sizeof api.error, "%s", dlerror());
        return 0;
    }
    SYMBOL(features, fill_defaults, "FrontendFillConfigWithDefaults");
    SYMBOL(features, populate, "FrontendPopulateState");
    SYMBOL(features, process, "FrontendProcessSamples");
    SYMBOL(features, free_state, "FrontendFreeStateContents");
    SYMBOL(tflite, model_from_file, "TfLiteModelCreateFromFile");
    SYMBOL(tflite, model_delete, "TfLiteModelDelete");
    SYMBOL(tflite, interpreter_create, "TfLiteInterpreterCreate");
    SYMBOL(tflite, interpreter_delete, "TfLiteInterpreterDelete");
    SYMBOL(tflite, allocate_tensors, "TfLiteInterpreterAllocateTensors");
    SYMBOL(tflite, invoke, "TfLiteInterpreterInvoke");
    SYMBOL(tflite, input_tensor, "TfLiteInterpreterGetInputTensor");
    SYMBOL(tflite, output_tensor, "TfLiteInterpreterGetOutputTensor");
    SYMBOL(tflite, tensor_dim, "TfLiteTensorDim");
    SYMBOL(tflite, tensor_num_dims, "TfLiteTensorNumDims");
    SYMBOL(tflite, tensor_type, "TfLiteTensorType");
    SYMBOL(tflite, tensor_byte_size, "TfLiteTensorByteSize");
    SYMBOL(tflite, tensor_quantization, "TfLiteTensorQuantizationParams");
    SYMBOL(tflite, copy_from, "TfLiteTensorCopyFromBuffer");
    SYMBOL(tflite, copy_to, "TfLiteTensorCopyToBuffer");
    return 1;
}

// The front end as microWakeWord's models were trained on it: 30 ms windows every 10 ms, 40
// channels from 125 to 7500 Hz, noise reduction, PCAN gain control and a log scale.
static int start_front_end(vi_wake_word *w) {
    fe_config config;
    memset(&config, 0, sizeof config);
    api.fill_defaults(&config);
    config.window.size_ms = 30;
    config.window.step_size_ms = 10;
    config.filterbank.num_channels = channels;
    config.filterbank.lower_band_limit = 125.0f;
    config.filterbank.upper_band_limit = 7500.0f;
    config.noise_reduction.smoothing_bits = 10;
    config.noise_reduction.even_smoothing = 0.025f;
    config.noise_reduction.odd_smoothing = 0.06f;
    config.noise_reduction.min_signal_remaining = 0.05f;
    config.pcan_gain_control.enable_pcan = 1;
    config.pcan_gain_control.strength = 0.95f;
    config.pcan_gain_control.offset = 80.0f;
    config.pcan_gain_control.gain_bits = 21;
    config.log_scale.enable_log = 1;
    config.log_scale.scale_shift = 6;
    memset(w->state, 0, sizeof w->state);
    return api.populate(&config, w->state, 16000);
}

// A streaming model keeps state between runs in its variables: a new interpreter forgets it.
static int start_interpreter(vi_wake_word *w, char *error, size_t error_size) {
    if (w->interpreter) api.interpreter_delete(w->interpreter);
    w->interpreter = api.interpreter_create(w->model, NULL);
    if (!w->interpreter || api.allocate_tensors(w->interpreter) != 0) {
        set_error(error, error_size, "TensorFlow Lite could not make an interpreter for the model");
        return 0;
    }
    w->input = api.input_tensor(w->interpreter, 0);
    w->output = api.output_tensor(w->interpreter, 0);
    return w->input && w->output;
}

vi_wake_word *vi_wake_word_open(
    const vi_wake_word_libraries *libraries, const char *model_path, char *error, size_t error_size) {
    pthread_mutex_lock(&api_lock);
    // Loaded once per process; a failure is tried again next time (the libraries may have been
    // installed since).
    if (!api.loaded) api.loaded = load(libraries);
    int loaded = api.loaded ? 1 : -1;
    pthread_mutex_unlock(&api_lock);
    if (loaded < 0) {
        set_error(error, error_size, "%s", api.error);
        return NULL;
    }
    vi_wake_word *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    w->model = api.model_from_file(model_path);
    if (!w->model) {
        set_error(error, error_size, "TensorFlow Lite could not read the model %s", model_path);
        free(w);
        return NULL;
    }
    if (!start_interpreter(w, error, error_size)) {
        vi_wake_word_close(w);
        return NULL;
    }
    // Input [1, stride, 40] of 8-bit integers; output one 8-bit probability.
    int input_type = api.tensor_type(w->input), output_type = api.tensor_type(w->output);
    if (api.tensor_num_dims(w->input) != 3 || api.tensor_dim(w->input, 2) != channels
        || (input_type != 3 && input_type != 9) || (output_type != 3 && output_type != 9)
        || api.tensor_byte_size(w->output) != 1) {
        set_error(error, error_size, "%s is no microWakeWord model (it takes no 8-bit [1, n, 40] features)",
                  model_path);
        vi_wake_word_close(w);
        return NULL;
    }
    w->stride = api.tensor_dim(w->input, 1);
    w->input_signed = input_type == 9;
    w->output_signed = output_type == 9;
    w->input_quantization = api.tensor_quantization(w->input);
    w->output_quantization = api.tensor_quantization(w->output);
    w->window = calloc((size_t)w->stride * channels, 1);
    if (!w->window || start_front_end(w) != 1) {
        set_error(error, error_size, "the audio front end could not start");
        vi_wake_word_close(w);
        return NULL;
    }
    return w;
}

int vi_wake_word_stride(const vi_wake_word *w) { return w->stride; }

// One feature frame in: quantized as the model's input asks; a run of the model when `stride`
// frames are in. Returns 1 and the probability when it ran.
static int take_frame(vi_wake_word *w, fe_output features, float *probability) {
    for (size_t c = 0; c < features.size && c < channels; c++) {
        // The front end's fixed-point output, as float features (its 1/25.6 scale), then the
        // model's quantization, rounded half to even.
        float value = (float)features.values[c] * 0.0390625f;
        float q = rintf(value / w->input_quantization.scale + (float)w->input_quantization.zero_point);
        int low = w->input_signed ? -128 : 0, high = w->input_signed ? 127 : 255;
        int clamped = q < low ? low : q > high ? high : (int)q;
        w->window[w->frames * channels + c] = (int8_t)(w->input_signed ? clamped : (uint8_t)clamped);
    }
    if (++w->frames < w->stride) return 0;
    w->frames = 0;
    if (api.copy_from(w->input, w->window, (size_t)w->stride * channels) != 0) return 0;
    if (api.invoke(w->interpreter) != 0) return 0;
    unsigned char out = 0;
    if (api.copy_to(w->output, &out, 1) != 0) return 0;
    int value = w->output_signed ? (int)(int8_t)out : (int)out;
    *probability = (float)(value - w->output_quantization.zero_point) * w->output_quantization.scale;
    return 1;
}

size_t vi_wake_word_process(
    vi_wake_word *w, const int16_t *samples, size_t count, float *probabilities, size_t capacity) {
    size_t written = 0;
    size_t offset = 0;
    while (offset < count) {
        // The front end is fed in 10 ms steps, as microWakeWord feeds it.
        size_t take = step - w->pending_count;
        if (take > count - offset) take = count - offset;
        memcpy(w->pending + w->pending_count, samples + offset, take * sizeof(int16_t));
        w->pending_count += take;
        offset += take;
        if (w->pending_count < step) break;
        size_t used = 0;
        while (used < step) {
            size_t read = 0;
            fe_output features = api.process(w->state, w->pending + used, step - used, &read);
            used += read;
            float probability;
            if (features.values && features.size > 0 && take_frame(w, features, &probability)
                && written < capacity) {
                probabilities[written++] = probability;
            }
            if (read == 0) break;
        }
        w->pending_count = 0;
    }
    return written;
}

int vi_wake_word_reset(vi_wake_word *w) {
    api.free_state(w->state);
    w->pending_count = 0;
    w->frames = 0;
    if (start_front_end(w) != 1) return -1;
    return start_interpreter(w, NULL, 0) ? 0 : -1;
}

void vi_wake_word_close(vi_wake_word *w) {
    if (!w) return;
    if (w->window) api.free_state(w->state);
    if (w->interpreter) api.interpreter_delete(w->interpreter);
    if (w->model) api.model_delete(w->model);
    free(w->window);
    free(w);
}
