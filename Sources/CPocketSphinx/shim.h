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
#include <sphinxbase/fe.h>
#include <sphinxbase/ckd_alloc.h>
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

/// Reads (`set` 0) or writes (`set` 1) all of the live cepstral mean's state: the mean, the sum
/// of the frames it came from and their count. A decoder fresh from its model starts with a mean
/// that the first speech replaces; writing back the state read then makes it fresh again.
static inline void vi_cepstral_state(ps_decoder_t *ps, mfcc_t *mean, mfcc_t *sum, int32 *frames, int set) {
    feat_t *features = ps_get_feat(ps);
    if (!features || !features->cmn_struct) return;
    cmn_t *cmn = features->cmn_struct;
    for (int32 i = 0; i < cmn->veclen; i++) {
        if (set) { cmn->cmn_mean[i] = mean[i]; cmn->sum[i] = sum[i]; }
        else { mean[i] = cmn->cmn_mean[i]; sum[i] = cmn->sum[i]; }
    }
    if (set) cmn->nframe = *frames; else *frames = cmn->nframe;
}

/// Brings the live cepstral mean up to date with every frame heard so far. PocketSphinx does so
/// itself only once 800 frames have gathered, or when an utterance ends while the voice activity
/// detector still hears speech: an utterance that ends in silence (almost every one) leaves the
/// mean where it was.
static inline void vi_update_cepstral_mean(ps_decoder_t *ps) {
    feat_t *features = ps_get_feat(ps);
    if (features && features->cmn_struct) cmn_live_update(features->cmn_struct);
}

/// Teaches the live cepstral mean `count` samples of an utterance without decoding them: the
/// decoder's own front end turns them into cepstra, which go into the mean as a decoding would
/// put them, and the mean is brought up to date. Costs a few percent of a decoding. Call only
/// between utterances; returns the number of frames learnt, or -1 when the front end failed.
static inline int32 vi_learn_cepstral_mean(ps_decoder_t *ps, const int16 *samples, size_t count) {
    fe_t *fe = ps_get_fe(ps);
    feat_t *features = ps_get_feat(ps);
    if (!fe || !features || !features->cmn_struct) return -1;
    enum { block = 64 };
    mfcc_t **cepstra = (mfcc_t **)ckd_calloc_2d(block, fe_get_output_size(fe), sizeof(mfcc_t));
    int32 learnt = 0;
    if (fe_start_utt(fe) < 0) { ckd_free_2d(cepstra); return -1; }
    const int16 *next = samples;
    size_t left = count;
    while (left > 0) {
        size_t before = left;
        int32 frames = block;
        if (fe_process_frames(fe, &next, &left, cepstra, &frames, NULL) < 0) {
            ckd_free_2d(cepstra);
            return -1;
        }
        if (frames > 0) cmn_live(features->cmn_struct, cepstra, 0, frames);
        learnt += frames;
        if (left == before && frames == 0) break;
    }
    int32 last = 0;
    fe_end_utt(fe, cepstra[0], &last);
    if (last > 0) cmn_live(features->cmn_struct, cepstra, 0, last);
    learnt += last;
    cmn_live_update(features->cmn_struct);
    ckd_free_2d(cepstra);
    return learnt;
}

#endif
