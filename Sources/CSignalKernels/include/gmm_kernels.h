#ifndef VI_GMM_KERNELS_H
#define VI_GMM_KERNELS_H

/// Points one PocketSphinx decoder's scoring of Gaussians at the project's, with AVX2, where its
/// acoustic model is phonetically tied (PocketSphinx's `ptm` models, en-us among them).
///
/// The library scores each frame against every density of the codebooks in use, one density
/// and one dimension at a time (its x86-64 build is for the SSE2 baseline). Ours takes eight
/// densities at once with the same float steps in the same order, then ranks them exactly as
/// the library does, so the top densities and the senone scores are the library's bit for bit.
/// The first frames each decoder scores are scored both ways and compared; on any difference,
/// that decoder goes back to the library's for good (`vi_gmm_disagreements` counts them).
///
/// `decoder` is the `ps_decoder_t`; `config`, `features` and `front_end` are what
/// `ps_get_config`, `ps_get_feat` and `ps_get_fe` give for it, checked against the decoder's
/// own before anything is read from it; `topn` and `ds_ratio` are its `-topn` and `-ds`.
/// Returns 1 when the decoder uses ours, 0 when it does not (another kind of model, no AVX2,
/// a library laid out otherwise), or -1 when memory ran out.
int vi_gmm_use_own_kernels(
    void *decoder, const void *config, const void *features, const void *front_end, int topn, int ds_ratio);

/// Turns every decoder pointed at ours to the library's scoring (0) or to ours (1), for a
/// measurement or a check that runs both in one process. Ours run by default in an optimised
/// build only (unoptimised they are slower than the library's). Returns the setting.
int vi_gmm_set_own_kernels(int on);

/// Whether decoders pointed at ours use them now.
int vi_gmm_own_kernels(void);

/// How many decoders went back to the library's scoring because ours differed.
int vi_gmm_disagreements(void);

#endif
