#ifndef VI_RNNOISE_KERNELS_H
#define VI_RNNOISE_KERNELS_H

/// Points the RNNoise library loaded as `handle` (from `dlopen`) at faster products, with AVX2,
/// for its layers on 8-bit weights. The library's results are unchanged bit for bit; this is
/// checked on made-up layers before anything is pointed. Returns 1 when they are in use, 0 when
/// the library keeps its own: not x86-64, no AVX2, a library without RNNoise 0.2's
/// `rnn_compute_linear_c`, or results that differ.
int vi_rnnoise_use_own_kernels(void *handle);

/// Turns a library already pointed at ours back to its own products (0), or to ours again (1),
/// for a measurement or a check that runs both in one process. Returns whether ours are in use.
int vi_rnnoise_set_own_kernels(int on);

/// Whether ours are in use.
int vi_rnnoise_own_kernels(void);

#endif
