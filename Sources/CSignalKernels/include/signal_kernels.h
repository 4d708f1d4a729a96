#ifndef VI_SIGNAL_KERNELS_H
#define VI_SIGNAL_KERNELS_H

/// The inner loops of the audio stages, in C: a debug build (the tests') runs them many times
/// faster than Swift's SIMD types, which are slow unoptimised.

/// The dot product of `8 * blocks` samples of `signal` with as many `taps`, summed as Swift's
/// `SIMD8<Float>` sums: eight running sums, one per lane, then the lanes in order. The results
/// are bit for bit those of `Resampler`'s SIMD loop.
float vi_dot_product_by_eights(const float *signal, const float *taps, int blocks);

#endif
