#include "signal_kernels.h"

// Multiplies and adds stay two roundings, as in Swift: no fused multiply-add.
#pragma STDC FP_CONTRACT OFF

float vi_dot_product_by_eights(const float *signal, const float *taps, int blocks) {
    float lane0 = 0, lane1 = 0, lane2 = 0, lane3 = 0, lane4 = 0, lane5 = 0, lane6 = 0, lane7 = 0;
    for (int block = 0; block < blocks; block++, signal += 8, taps += 8) {
        lane0 += signal[0] * taps[0];
        lane1 += signal[1] * taps[1];
        lane2 += signal[2] * taps[2];
        lane3 += signal[3] * taps[3];
        lane4 += signal[4] * taps[4];
        lane5 += signal[5] * taps[5];
        lane6 += signal[6] * taps[6];
        lane7 += signal[7] * taps[7];
    }
    return lane0 + lane1 + lane2 + lane3 + lane4 + lane5 + lane6 + lane7;
}

void vi_resample_outputs(
    const float *signal, long offset, const float *taps, int taps_per_phase, long up, long down,
    long phase_count, long first, long count, float *output) {
    for (long index = 0; index < count; index++) {
        long position = (first + index) * down;
        long start = position / up;
        long phase = position % up;
        if (phase_count != up) {
            phase = (phase * phase_count + up / 2) / up;
            if (phase == phase_count) {
                phase = 0;
                start += 1;
            }
        }
        output[index] = vi_dot_product_by_eights(
            signal + (start - offset), taps + phase * taps_per_phase, taps_per_phase / 8);
    }
}
