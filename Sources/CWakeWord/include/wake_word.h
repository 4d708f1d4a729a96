#ifndef VI_WAKE_WORD_H
#define VI_WAKE_WORD_H

#include <stddef.h>
#include <stdint.h>

/// A microWakeWord model run by TensorFlow Lite's C library, on features from TensorFlow Lite
/// Micro's audio front end, both loaded with dlopen from the libraries the pymicro-wakeword and
/// pymicro-features wheels ship (Scripts/bootstrap.sh installs them).
typedef struct vi_wake_word vi_wake_word;

/// Where the libraries are: TensorFlow Lite's C library; the features library (a Python
/// extension module, whose C functions are used without Python running); a libpython that
/// gives the two Python objects the features library refers to.
typedef struct {
    const char *tflite_library;
    const char *features_library;
    const char *python_library;
} vi_wake_word_libraries;

/// Loads the libraries (once per process) and the model at `model_path` (a .tflite file).
/// On failure returns NULL and writes why into `error`.
vi_wake_word *vi_wake_word_open(
    const vi_wake_word_libraries *libraries, const char *model_path, char *error, size_t error_size);

/// Feature frames (10 ms each) the model takes at once.
int vi_wake_word_stride(const vi_wake_word *wake_word);

/// Feeds 16 kHz 16-bit mono samples; writes the model's probability for each run of it (one
/// every `stride` feature frames) into `probabilities`, up to `capacity`, and returns how many.
/// Samples short of a whole 10 ms step are kept for the next call.
size_t vi_wake_word_process(
    vi_wake_word *wake_word, const int16_t *samples, size_t count, float *probabilities, size_t capacity);

/// Forgets the audio and the model's state, as for a new stream. Returns 0 on success.
int vi_wake_word_reset(vi_wake_word *wake_word);

void vi_wake_word_close(vi_wake_word *wake_word);

#endif
