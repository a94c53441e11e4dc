/* tp_fft.h: discrete Fourier transforms of every length, O(n log n), for the rows of a
 * contiguous batch (jnp.fft; lowered by transpile/codegen/lower_helpers.py).
 *
 * One algorithm, shared by every entry point: a Stockham autosort FFT (out of place, two
 * buffers used in turn, natural order in and out, no bit reversal) over the factors of n,
 * with butterflies written out for radix 4, 2, 3 and 5 and a generic radix-p butterfly for
 * other small primes. A length with a large prime factor (where the generic butterfly's
 * n * p work would lose) goes through Bluestein's chirp-z algorithm: a circular convolution
 * of length m >= 2n - 1, m a product of 2, 3 and 5, done with three smooth FFTs.
 *
 * Real transforms of even length n pack the signal into n/2 complex values, transform those
 * and untangle the halves with one more pass (half the work of a complex transform); odd
 * lengths transform the complex signal with zero imaginary parts.
 *
 * Twiddle factors are computed in double precision (float transforms round them once) and
 * kept in a plan per (length, kind), cached for the life of the process: computing n sines
 * costs more than the transform itself. The cache is guarded by an OpenMP critical section;
 * it holds TP_FFT_CACHE plans per precision and, once full, plans are built per call.
 *
 * The inverse transform conjugates on the way in and out (ifft(x) = conj(fft(conj(x)))), so
 * one kernel serves both directions. Normalisation is the caller's choice of `scale`:
 * 0 none, 1 divide by n, 2 divide by sqrt(n) (NumPy's "backward", "forward", "ortho").
 *
 * Any axis: the entry points take the array as (outer, n, inner) and transform the middle
 * axis; columns (inner > 1) are gathered TP_FFT_BLOCK at a time into rows and scattered
 * back, so a transform along a leading axis needs no transposed copy of the array.
 *
 * Threads: rows (blocks of columns) are independent; OpenMP splits them when there are
 * several and enough work. Each thread allocates its scratch once per call.
 */
#ifndef TRANSPILE_FFT_H
#define TRANSPILE_FFT_H

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tp_complex.h"
#include "tp_kernel_api.h"

#define TP_FFT_CACHE 32
#define TP_FFT_MAX_FACTORS 64
/* The largest prime the generic butterfly takes; larger ones go through Bluestein. */
#define TP_FFT_MAX_RADIX 64
/* Below this many complex values a batch runs on one thread. */
#define TP_FFT_PARALLEL_MIN 32768
#define TP_FFT_PI 3.14159265358979323846264338327950288
/* Columns gathered together when transforming along a non-last axis. */
#define TP_FFT_BLOCK 8
enum { TP_FFT_C2C, TP_FFT_R2C, TP_FFT_C2R };

/* n's factors in the order the passes use them: 4s first (fewest passes), then 2, 3, 5,
 * then the other primes. Returns the count. */
static inline int tp_fft_factorize(int64_t n, int64_t *factors) {
    int count = 0;
    while (n % 4 == 0) { factors[count++] = 4; n /= 4; }
    if (n % 2 == 0) { factors[count++] = 2; n /= 2; }
    for (int64_t p = 3; p * p <= n; p += 2)
        while (n % p == 0) { factors[count++] = p; n /= p; }
    if (n > 1) factors[count++] = n;
    return count;
}

/* The smallest 2^a 3^b 5^c >= n (Bluestein's convolution length). */
static inline int64_t tp_fft_smooth_at_least(int64_t n) {
    int64_t best = 1;
    while (best < n) best *= 2;
    for (int64_t f5 = 1; f5 < best; f5 *= 5)
        for (int64_t f35 = f5; f35 < best; f35 *= 3) {
            int64_t v = f35;
            while (v < n) v *= 2;
            if (v < best) best = v;
        }
    return best;
}

/* Whether the generic butterflies cost more than Bluestein's three smooth transforms. */
static inline int tp_fft_wants_bluestein(int64_t n) {
    int64_t factors[TP_FFT_MAX_FACTORS];
    int count = tp_fft_factorize(n, factors);
    int64_t largest = factors[count - 1];
    if (largest <= 13) return 0;
    if (largest > TP_FFT_MAX_RADIX) return 1;
    double direct = (double)n * (double)largest;
    double m = (double)tp_fft_smooth_at_least(2 * n - 1);
    return direct > 6.0 * m * log2(m) + 4.0 * m;
}

#define TP_FFT_T float
#define TP_FFT_C tp_c64
#define TP_FFT_TAG(name) name##_c64
#include "tp_fft_impl.h"
#undef TP_FFT_T
#undef TP_FFT_C
#undef TP_FFT_TAG

#define TP_FFT_T double
#define TP_FFT_C tp_c128
#define TP_FFT_TAG(name) name##_c128
#include "tp_fft_impl.h"
#undef TP_FFT_T
#undef TP_FFT_C
#undef TP_FFT_TAG

#endif
