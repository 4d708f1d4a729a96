#ifndef VI_SIGNAL_KERNELS_H
#define VI_SIGNAL_KERNELS_H

/// The inner loops of the audio stages, in C: a debug build (the tests') runs them many times
/// faster than Swift's SIMD types, which are slow unoptimised.

/// The dot product of `8 * blocks` samples of `signal` with as many `taps`, summed as Swift's
/// `SIMD8<Float>` sums: eight running sums, one per lane, then the lanes in order. The results
/// are bit for bit those of `Resampler`'s SIMD loop.
float vi_dot_product_by_eights(const float *signal, const float *taps, int blocks);

/// `Resampler`'s outputs `first` to `first + count - 1` into `output`: output n reads the padded
/// input from sample n * down / up (`signal` holds it from sample `offset` on) with the filter
/// phase of n * down % up, rounded to one of `phase_count` phases when there are fewer than
/// `up`; each output is `vi_dot_product_by_eights` of `taps_per_phase` taps (a multiple of 8).
void vi_resample_outputs(
    const float *signal, long offset, const float *taps, int taps_per_phase, long up, long down,
    long phase_count, long first, long count, float *output);

#endif
