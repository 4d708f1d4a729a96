#ifndef VI_RNNOISE_KERNELS_H
#define VI_RNNOISE_KERNELS_H

/// Points the RNNoise library loaded as `handle` (from `dlopen`) at faster products, with AVX2,
/// for its layers on 8-bit weights. The library's results are unchanged bit for bit; this is
/// checked on made-up layers before anything is pointed. Nothing is pointed where the processor
/// is not x86-64 with AVX2, the library lacks RNNoise 0.2's `rnn_compute_linear_c`, or the
/// results differ. Once pointed, ours are used in an optimised build only (unoptimised, they
/// are slower than the library's); `vi_rnnoise_set_own_kernels` turns them on or off. Returns 1
/// when they are in use, else 0.
int vi_rnnoise_use_own_kernels(void *handle);

/// Turns a library already pointed at ours to its own products (0) or to ours (1), for a
/// measurement or a check that runs both in one process. Returns whether ours are in use.
int vi_rnnoise_set_own_kernels(int on);

/// Whether ours are in use.
int vi_rnnoise_own_kernels(void);

#endif
