// PocketSphinx and sphinxbase for Swift: the headers, and non-variadic wrappers for the calls
// Swift cannot make directly (cmd_ln_init is variadic).
#ifndef VOICE_INTENTS_CPOCKETSPHINX_H
#define VOICE_INTENTS_CPOCKETSPHINX_H

#include <pocketsphinx.h>
#include <ps_search.h>
#include <sphinxbase/err.h>
#include <sphinxbase/cmd_ln.h>

/// A decoder configuration from command-line style arguments ("-hmm", path, …); NULL when an
/// argument is unknown or a value is malformed.
static inline cmd_ln_t *vi_config_from_arguments(int argc, char *argv[]) {
    return cmd_ln_parse_r(NULL, ps_args(), argc, argv, 1);
}

/// Sends sphinxbase's log to nowhere (NULL) or to a file.
static inline void vi_set_log_file(FILE *file) {
    err_set_logfp(file);
}

#endif
