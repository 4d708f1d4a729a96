// ALSA's PCM API for Swift, and a quiet error handler that keeps the library's last message.
#ifndef VOICE_INTENTS_CALSA_H
#define VOICE_INTENTS_CALSA_H

#include <alsa/asoundlib.h>
#include <stdarg.h>
#include <stdio.h>

// ALSA prints its own diagnostics ("ALSA lib pcm.c:2666:(snd_pcm_open_noupdate) Unknown PCM x") to
// standard error. Swift cannot define the variadic handler that replaces that, so it lives here:
// it keeps the calling thread's last message, which the Swift side puts into its errors instead.
// (The buffers are function-local: Swift emits those for static inline functions, not file-scope ones.)

/// This thread's last ALSA diagnostic, as written by the handler.
static inline char *voice_intents_alsa_message_buffer(void) {
    static _Thread_local char message[512];
    return message;
}

static void voice_intents_alsa_keep_message(
    const char *file, int line, const char *function, int err, const char *format, ...) {
    (void)file;
    (void)line;
    (void)function;
    (void)err;
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(voice_intents_alsa_message_buffer(), 512, format, arguments);
    va_end(arguments);
}

/// Sends ALSA's diagnostics to `voice_intents_alsa_take_message` instead of standard error.
static inline void voice_intents_alsa_capture_messages(void) {
    snd_lib_error_set_handler(voice_intents_alsa_keep_message);
}

/// The last diagnostic ALSA gave on this thread ("" if none), and forgets it.
static inline const char *voice_intents_alsa_take_message(void) {
    static _Thread_local char taken[512];
    snprintf(taken, sizeof taken, "%s", voice_intents_alsa_message_buffer());
    voice_intents_alsa_message_buffer()[0] = '\0';
    return taken;
}

#endif
