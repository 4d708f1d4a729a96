// PocketSphinx and sphinxbase for Swift: the headers, and non-variadic wrappers for the calls
// Swift cannot make directly (cmd_ln_init is variadic).
#ifndef VOICE_INTENTS_CPOCKETSPHINX_H
#define VOICE_INTENTS_CPOCKETSPHINX_H

#include <pocketsphinx.h>
#include <ps_search.h>
#include <sphinxbase/err.h>
#include <sphinxbase/cmd_ln.h>
#include <sphinxbase/feat.h>
#include <sphinxbase/cmn.h>
#include <sphinxbase/ngram_model.h>
#include <sphinxbase/logmath.h>

/// A decoder configuration from command-line style arguments ("-hmm", path, …); NULL when an
/// argument is unknown or a value is malformed.
static inline cmd_ln_t *vi_config_from_arguments(int argc, char *argv[]) {
    return cmd_ln_parse_r(NULL, ps_args(), argc, argv, 1);
}

/// Sends sphinxbase's log to nowhere (NULL) or to a file.
static inline void vi_set_log_file(FILE *file) {
    err_set_logfp(file);
}

/// The length of the decoder's live cepstral mean; 0 when it has none.
static inline int vi_cepstral_mean_length(ps_decoder_t *ps) {
    feat_t *features = ps_get_feat(ps);
    return features && features->cmn_struct ? features->cmn_struct->veclen : 0;
}

/// Reads (`set` 0) or writes (`set` 1) the decoder's live cepstral mean: what it has learnt of the
/// channel from the audio so far.
static inline void vi_cepstral_mean(ps_decoder_t *ps, mfcc_t *mean, int set) {
    feat_t *features = ps_get_feat(ps);
    if (!features || !features->cmn_struct) return;
    if (set) cmn_live_set(features->cmn_struct, mean); else cmn_live_get(features->cmn_struct, mean);
}

#endif
