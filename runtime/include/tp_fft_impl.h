/* tp_fft_impl.h: the body of tp_fft.h for one precision. tp_fft.h includes it twice, with
 * TP_FFT_T (the real type), TP_FFT_C (its complex struct) and TP_FFT_TAG (the name suffix)
 * defined; no include guard on purpose. Read tp_fft.h first. */

#define FT TP_FFT_T
#define FC TP_FFT_C
#define PLAN TP_FFT_TAG(tp_fft_plan)

typedef struct PLAN {
    int64_t n;
    int real;          /* 1: a real transform's plan (sub is the complex one it runs) */
    int nfactors;
    int64_t factors[TP_FFT_MAX_FACTORS];
    FC *twiddle;       /* complex: exp(-2 pi i j / n), j < n; real, even n: j <= n/2 */
    int64_t m;         /* Bluestein: the convolution length (0: not Bluestein) */
    struct PLAN *sub;  /* Bluestein: the plan of length m; real: the complex plan it runs */
    FC *chirp;         /* Bluestein: exp(-i pi k^2 / n), k < n */
    FC *kernel;        /* Bluestein: fft_m of the conjugate chirp, divided by m */
    int64_t scratch;   /* complex values of working space one transform needs */
} PLAN;

static inline FC TP_FFT_TAG(tp_fft_cmul)(FC a, FC b) {
    FC r = {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
    return r;
}

/* exp(-2 pi i j / n) for j < count, in double, rounded once to FT. */
static inline void TP_FFT_TAG(tp_fft_unit_roots)(FC *w, int64_t count, int64_t n) {
    for (int64_t j = 0; j < count; j++) {
        const double angle = 2.0 * TP_FFT_PI * (double)j / (double)n;
        w[j].re = (FT)cos(angle);
        w[j].im = (FT)-sin(angle);
    }
}

static inline void TP_FFT_TAG(tp_fft_free_plan)(PLAN *pl) {
    if (!pl) return;
    TP_FFT_TAG(tp_fft_free_plan)(pl->sub);
    free(pl->twiddle);
    free(pl->chirp);
    free(pl->kernel);
    free(pl);
}

static inline void TP_FFT_TAG(tp_fft_run)(const PLAN *pl, FC *data, FC *work);

/* The plan of a complex transform of length n (NULL when out of memory). */
static inline PLAN *TP_FFT_TAG(tp_fft_complex_plan)(int64_t n) {
    PLAN *pl = (PLAN *)calloc(1, sizeof(PLAN));
    if (!pl) return NULL;
    pl->n = n;
    if (n > 1 && tp_fft_wants_bluestein(n)) {
        const int64_t m = tp_fft_smooth_at_least(2 * n - 1);
        pl->m = m;
        pl->sub = TP_FFT_TAG(tp_fft_complex_plan)(m);
        pl->chirp = (FC *)malloc(sizeof(FC) * (size_t)n);
        pl->kernel = (FC *)calloc((size_t)m, sizeof(FC));
        FC *work = (FC *)malloc(sizeof(FC) * (size_t)m);
        if (!pl->sub || !pl->chirp || !pl->kernel || !work) {
            free(work);
            TP_FFT_TAG(tp_fft_free_plan)(pl);
            return NULL;
        }
        for (int64_t k = 0; k < n; k++) {
            /* k^2 mod 2n keeps the angle small, so it stays accurate for large k. */
            const int64_t k2 = (int64_t)(((unsigned __int128)k * (unsigned __int128)k)
                                         % (unsigned __int128)(2 * n));
            const double angle = TP_FFT_PI * (double)k2 / (double)n;
            pl->chirp[k].re = (FT)cos(angle);
            pl->chirp[k].im = (FT)-sin(angle);
        }
        const FT inv_m = (FT)(1.0 / (double)m);
        for (int64_t k = 0; k < n; k++) {
            FC c = {pl->chirp[k].re * inv_m, -pl->chirp[k].im * inv_m};
            pl->kernel[k] = c;
            if (k) pl->kernel[m - k] = c;
        }
        TP_FFT_TAG(tp_fft_run)(pl->sub, pl->kernel, work);
        free(work);
        pl->scratch = 2 * m + pl->sub->scratch;
        return pl;
    }
    pl->nfactors = n > 1 ? tp_fft_factorize(n, pl->factors) : 0;
    pl->twiddle = (FC *)malloc(sizeof(FC) * (size_t)n);
    if (!pl->twiddle) {
        TP_FFT_TAG(tp_fft_free_plan)(pl);
        return NULL;
    }
    TP_FFT_TAG(tp_fft_unit_roots)(pl->twiddle, n, n);
    pl->scratch = n;
    return pl;
}

/* The plan of a real transform of length n: even n runs a complex one of n/2 (and needs
 * the roots of n for untangling), odd n a complex one of n on a copy. */
static inline PLAN *TP_FFT_TAG(tp_fft_real_plan)(int64_t n) {
    PLAN *pl = (PLAN *)calloc(1, sizeof(PLAN));
    if (!pl) return NULL;
    pl->n = n;
    pl->real = 1;
    const int even = n % 2 == 0;
    pl->sub = TP_FFT_TAG(tp_fft_complex_plan)(even ? n / 2 : n);
    if (!pl->sub) {
        free(pl);
        return NULL;
    }
    if (even) {
        pl->twiddle = (FC *)malloc(sizeof(FC) * (size_t)(n / 2 + 1));
        if (!pl->twiddle) {
            TP_FFT_TAG(tp_fft_free_plan)(pl);
            return NULL;
        }
        TP_FFT_TAG(tp_fft_unit_roots)(pl->twiddle, n / 2 + 1, n);
    }
    pl->scratch = (even ? n / 2 : n) + pl->sub->scratch;
    return pl;
}

static PLAN *TP_FFT_TAG(tp_fft_cache)[TP_FFT_CACHE];
static int TP_FFT_TAG(tp_fft_cached);

/* The cached plan for (n, real), built on first use. `*owned` is set when the cache is
 * full and the caller must free the plan. */
static inline PLAN *TP_FFT_TAG(tp_fft_get_plan)(int64_t n, int real, int *owned) {
    PLAN *found = NULL;
    *owned = 0;
#ifdef _OPENMP
#pragma omp critical(tp_fft_plans)
#endif
    {
        for (int i = 0; i < TP_FFT_TAG(tp_fft_cached) && !found; i++) {
            PLAN *pl = TP_FFT_TAG(tp_fft_cache)[i];
            if (pl->n == n && pl->real == real) found = pl;
        }
        if (!found) {
            found = real ? TP_FFT_TAG(tp_fft_real_plan)(n) : TP_FFT_TAG(tp_fft_complex_plan)(n);
            if (found && TP_FFT_TAG(tp_fft_cached) < TP_FFT_CACHE)
                TP_FFT_TAG(tp_fft_cache)[TP_FFT_TAG(tp_fft_cached)++] = found;
            else if (found)
                *owned = 1;
        }
    }
    return found;
}

/* -- Stockham passes: sub-transforms of length N = n / s, radix p, m = N / p. Input
 * x[q + s (j + r m)] (r < p), output y[q + s (p j + k)] = (DFT_p of the r's)[k] * w_N^(j k),
 * where w_N^(j k) = twiddle[j k s]. ------------------------------------------------------ */

static inline void TP_FFT_TAG(tp_fft_pass2)(const FC *tw, int64_t n, int64_t s, const FC *x, FC *y) {
    const int64_t m = n / s / 2;
    for (int64_t j = 0; j < m; j++) {
        const FC w = tw[j * s];
        for (int64_t q = 0; q < s; q++) {
            const FC a = x[q + s * j], b = x[q + s * (j + m)];
            const FC sum = {a.re + b.re, a.im + b.im}, dif = {a.re - b.re, a.im - b.im};
            y[q + s * 2 * j] = sum;
            y[q + s * (2 * j + 1)] = TP_FFT_TAG(tp_fft_cmul)(dif, w);
        }
    }
}

static inline void TP_FFT_TAG(tp_fft_pass4)(const FC *tw, int64_t n, int64_t s, const FC *x, FC *y) {
    const int64_t m = n / s / 4;
    for (int64_t j = 0; j < m; j++) {
        const FC w1 = tw[j * s], w2 = tw[2 * j * s], w3 = tw[3 * j * s];
        for (int64_t q = 0; q < s; q++) {
            const FC a0 = x[q + s * j], a1 = x[q + s * (j + m)];
            const FC a2 = x[q + s * (j + 2 * m)], a3 = x[q + s * (j + 3 * m)];
            const FC t0 = {a0.re + a2.re, a0.im + a2.im}, t1 = {a0.re - a2.re, a0.im - a2.im};
            const FC t2 = {a1.re + a3.re, a1.im + a3.im}, t3 = {a1.re - a3.re, a1.im - a3.im};
            /* forward: W_4 = -i, so -i (t3) = (t3.im, -t3.re) */
            const FC y0 = {t0.re + t2.re, t0.im + t2.im};
            const FC y1 = {t1.re + t3.im, t1.im - t3.re};
            const FC y2 = {t0.re - t2.re, t0.im - t2.im};
            const FC y3 = {t1.re - t3.im, t1.im + t3.re};
            FC *out = y + q + s * 4 * j;
            out[0] = y0;
            out[s] = TP_FFT_TAG(tp_fft_cmul)(y1, w1);
            out[2 * s] = TP_FFT_TAG(tp_fft_cmul)(y2, w2);
            out[3 * s] = TP_FFT_TAG(tp_fft_cmul)(y3, w3);
        }
    }
}

static inline void TP_FFT_TAG(tp_fft_pass3)(const FC *tw, int64_t n, int64_t s, const FC *x, FC *y) {
    const int64_t m = n / s / 3;
    const FT half = (FT)-0.5, sin60 = (FT)0.86602540378443864676372317075293618;
    for (int64_t j = 0; j < m; j++) {
        const FC w1 = tw[j * s], w2 = tw[2 * j * s];
        for (int64_t q = 0; q < s; q++) {
            const FC a0 = x[q + s * j], a1 = x[q + s * (j + m)], a2 = x[q + s * (j + 2 * m)];
            const FC t1 = {a1.re + a2.re, a1.im + a2.im}, d = {a1.re - a2.re, a1.im - a2.im};
            const FC c = {a0.re + half * t1.re, a0.im + half * t1.im};
            /* -i sin60 d, for y1; its negative for y2 */
            const FC r = {sin60 * d.im, -sin60 * d.re};
            const FC y0 = {a0.re + t1.re, a0.im + t1.im};
            const FC y1 = {c.re + r.re, c.im + r.im}, y2 = {c.re - r.re, c.im - r.im};
            FC *out = y + q + s * 3 * j;
            out[0] = y0;
            out[s] = TP_FFT_TAG(tp_fft_cmul)(y1, w1);
            out[2 * s] = TP_FFT_TAG(tp_fft_cmul)(y2, w2);
        }
    }
}

static inline void TP_FFT_TAG(tp_fft_pass5)(const FC *tw, int64_t n, int64_t s, const FC *x, FC *y) {
    const int64_t m = n / s / 5;
    /* W = exp(-2 pi i / 5), W2 = W^2 */
    const FT c1 = (FT)0.30901699437494742410229341718281906,
             s1 = (FT)-0.95105651629515357211643933337938214,
             c2 = (FT)-0.80901699437494742410229341718281906,
             s2 = (FT)-0.58778525229247312916870595463907277;
    for (int64_t j = 0; j < m; j++) {
        const FC w1 = tw[j * s], w2 = tw[2 * j * s], w3 = tw[3 * j * s], w4 = tw[4 * j * s];
        for (int64_t q = 0; q < s; q++) {
            const FC a0 = x[q + s * j], a1 = x[q + s * (j + m)], a2 = x[q + s * (j + 2 * m)];
            const FC a3 = x[q + s * (j + 3 * m)], a4 = x[q + s * (j + 4 * m)];
            const FC t1 = {a1.re + a4.re, a1.im + a4.im}, t2 = {a2.re + a3.re, a2.im + a3.im};
            const FC t3 = {a1.re - a4.re, a1.im - a4.im}, t4 = {a2.re - a3.re, a2.im - a3.im};
            const FC ca = {a0.re + c1 * t1.re + c2 * t2.re, a0.im + c1 * t1.im + c2 * t2.im};
            const FC cb = {a0.re + c2 * t1.re + c1 * t2.re, a0.im + c2 * t1.im + c1 * t2.im};
            /* i (s1 t3 + s2 t4) and i (s2 t3 - s1 t4); i (u + iv) = -v + iu */
            const FC va = {s1 * t3.re + s2 * t4.re, s1 * t3.im + s2 * t4.im};
            const FC vb = {s2 * t3.re - s1 * t4.re, s2 * t3.im - s1 * t4.im};
            const FC sa = {-va.im, va.re}, sb = {-vb.im, vb.re};
            const FC y0 = {a0.re + t1.re + t2.re, a0.im + t1.im + t2.im};
            const FC y1 = {ca.re + sa.re, ca.im + sa.im}, y4 = {ca.re - sa.re, ca.im - sa.im};
            const FC y2 = {cb.re + sb.re, cb.im + sb.im}, y3 = {cb.re - sb.re, cb.im - sb.im};
            FC *out = y + q + s * 5 * j;
            out[0] = y0;
            out[s] = TP_FFT_TAG(tp_fft_cmul)(y1, w1);
            out[2 * s] = TP_FFT_TAG(tp_fft_cmul)(y2, w2);
            out[3 * s] = TP_FFT_TAG(tp_fft_cmul)(y3, w3);
            out[4 * s] = TP_FFT_TAG(tp_fft_cmul)(y4, w4);
        }
    }
}

/* Any odd prime radix p above 5 (at most TP_FFT_MAX_RADIX): inputs r and p - r meet the
 * same cosine and opposite sines, so output pair (k, p - k) costs (p - 1) / 2 real-by-complex
 * products of their sum and of their difference (half the work of the plain sums). */
static inline void TP_FFT_TAG(tp_fft_pass_any)(const FC *tw, int64_t n, int64_t p, int64_t s,
                                               const FC *x, FC *y) {
    const int64_t m = n / s / p, root_step = n / p, half = (p - 1) / 2;
    FC sum[TP_FFT_MAX_RADIX / 2 + 1], dif[TP_FFT_MAX_RADIX / 2 + 1];
    for (int64_t j = 0; j < m; j++)
        for (int64_t q = 0; q < s; q++) {
            const FC a0 = x[q + s * j];
            FC total = a0;
            for (int64_t r = 1; r <= half; r++) {
                const FC a = x[q + s * (j + r * m)], b = x[q + s * (j + (p - r) * m)];
                sum[r].re = a.re + b.re;
                sum[r].im = a.im + b.im;
                dif[r].re = a.re - b.re;
                dif[r].im = a.im - b.im;
                total.re += sum[r].re;
                total.im += sum[r].im;
            }
            y[q + s * p * j] = total;
            for (int64_t k = 1; k <= half; k++) {
                FC even = a0, odd = {0, 0};
                for (int64_t r = 1, e = k; r <= half; r++, e = e + k < p ? e + k : e + k - p) {
                    const FC w = tw[e * root_step];          /* W_p^(r k), e = r k mod p */
                    even.re += w.re * sum[r].re;
                    even.im += w.re * sum[r].im;
                    odd.re += w.im * dif[r].re;
                    odd.im += w.im * dif[r].im;
                }
                /* y_k = even + i odd, y_(p-k) = even - i odd; i (u + iv) = -v + iu */
                const FC yk = {even.re - odd.im, even.im + odd.re};
                const FC yp = {even.re + odd.im, even.im - odd.re};
                y[q + s * (p * j + k)] = TP_FFT_TAG(tp_fft_cmul)(yk, tw[j * k * s]);
                y[q + s * (p * j + p - k)] = TP_FFT_TAG(tp_fft_cmul)(yp, tw[j * (p - k) * s]);
            }
        }
}

/* Bluestein: X_k = chirp_k * sum_j (x_j chirp_j) conj(chirp_(k-j)), a circular
 * convolution of length m done as ifft_m(fft_m(a) * kernel). */
static inline void TP_FFT_TAG(tp_fft_bluestein)(const PLAN *pl, FC *data, FC *work) {
    const int64_t n = pl->n, m = pl->m;
    FC *a = work, *rest = work + m;
    for (int64_t k = 0; k < n; k++) a[k] = TP_FFT_TAG(tp_fft_cmul)(data[k], pl->chirp[k]);
    for (int64_t k = n; k < m; k++) a[k].re = a[k].im = 0;
    TP_FFT_TAG(tp_fft_run)(pl->sub, a, rest);
    for (int64_t k = 0; k < m; k++) {          /* product, conjugated: the inverse follows */
        const FC v = TP_FFT_TAG(tp_fft_cmul)(a[k], pl->kernel[k]);
        a[k].re = v.re;
        a[k].im = -v.im;
    }
    TP_FFT_TAG(tp_fft_run)(pl->sub, a, rest);
    for (int64_t k = 0; k < n; k++) {
        const FC v = {a[k].re, -a[k].im};
        data[k] = TP_FFT_TAG(tp_fft_cmul)(v, pl->chirp[k]);
    }
}

/* The forward complex transform of data[0..n) in place; work holds pl->scratch values. */
static inline void TP_FFT_TAG(tp_fft_run)(const PLAN *pl, FC *data, FC *work) {
    if (pl->m) {
        TP_FFT_TAG(tp_fft_bluestein)(pl, data, work);
        return;
    }
    FC *x = data, *y = work;
    int64_t s = 1;
    for (int f = 0; f < pl->nfactors; f++) {
        const int64_t p = pl->factors[f];
        if (p == 4) TP_FFT_TAG(tp_fft_pass4)(pl->twiddle, pl->n, s, x, y);
        else if (p == 2) TP_FFT_TAG(tp_fft_pass2)(pl->twiddle, pl->n, s, x, y);
        else if (p == 3) TP_FFT_TAG(tp_fft_pass3)(pl->twiddle, pl->n, s, x, y);
        else if (p == 5) TP_FFT_TAG(tp_fft_pass5)(pl->twiddle, pl->n, s, x, y);
        else TP_FFT_TAG(tp_fft_pass_any)(pl->twiddle, pl->n, p, s, x, y);
        FC *t = x;
        x = y;
        y = t;
        s *= p;
    }
    if (x != data) memcpy(data, x, sizeof(FC) * (size_t)pl->n);
}

static inline FT TP_FFT_TAG(tp_fft_scale)(int64_t n, int64_t scale) {
    if (scale == 1) return (FT)(1.0 / (double)n);
    if (scale == 2) return (FT)(1.0 / sqrt((double)n));
    return (FT)1;
}

/* -- one row: x and y contiguous (and distinct unless said) ------------------------------ */

/* y = fft(x) (sign -1: the unscaled inverse, by conjugation) times factor; x may be y. */
static inline void TP_FFT_TAG(tp_fft_c2c_row)(const PLAN *pl, const FC *x, FC *y, FC *work,
                                              FT sign, FT factor) {
    const int64_t n = pl->n;
    for (int64_t k = 0; k < n; k++) {
        y[k].re = x[k].re;
        y[k].im = sign * x[k].im;
    }
    TP_FFT_TAG(tp_fft_run)(pl, y, work);
    for (int64_t k = 0; k < n; k++) {
        y[k].re = y[k].re * factor;
        y[k].im = sign * y[k].im * factor;
    }
}

/* y (n/2 + 1 values) = rfft(x) (n reals) times factor. */
static inline void TP_FFT_TAG(tp_fft_r2c_row)(const PLAN *pl, const FT *x, FC *y, FC *work,
                                              FT factor) {
    const int64_t n = pl->n, h = n / 2, width = h + 1;
    if (n % 2) {                        /* odd: the complex transform of a copy */
        FC *z = work + pl->sub->scratch;
        for (int64_t k = 0; k < n; k++) {
            z[k].re = x[k];
            z[k].im = 0;
        }
        TP_FFT_TAG(tp_fft_run)(pl->sub, z, work);
        for (int64_t k = 0; k < width; k++) {
            y[k].re = z[k].re * factor;
            y[k].im = z[k].im * factor;
        }
        return;
    }
    /* even: z_k = x_2k + i x_2k+1, Z = fft_h(z); X_k = E_k + w^k O_k with
     * E_k = (Z_k + conj Z_(h-k)) / 2 and O_k = -i (Z_k - conj Z_(h-k)) / 2. */
    for (int64_t k = 0; k < h; k++) {
        y[k].re = x[2 * k];
        y[k].im = x[2 * k + 1];
    }
    TP_FFT_TAG(tp_fft_run)(pl->sub, y, work);
    const FC z0 = y[0];
    for (int64_t k = 1; 2 * k <= h; k++) {
        const int64_t j = h - k;
        const FC zk = y[k], zj = y[j];
        const FC e = {(FT)0.5 * (zk.re + zj.re), (FT)0.5 * (zk.im - zj.im)};
        const FC o = {(FT)0.5 * (zk.im + zj.im), (FT)-0.5 * (zk.re - zj.re)};
        const FC oc = {o.re, -o.im};
        const FC wo = TP_FFT_TAG(tp_fft_cmul)(o, pl->twiddle[k]);
        /* X_j: E_j = conj E_k, O_j = conj O_k */
        const FC wj = TP_FFT_TAG(tp_fft_cmul)(oc, pl->twiddle[j]);
        y[k].re = (e.re + wo.re) * factor;
        y[k].im = (e.im + wo.im) * factor;
        y[j].re = (e.re + wj.re) * factor;
        y[j].im = (-e.im + wj.im) * factor;
    }
    y[0].re = (z0.re + z0.im) * factor;
    y[0].im = 0;
    y[h].re = (z0.re - z0.im) * factor;
    y[h].im = 0;
}

/* y (n reals) = the unscaled inverse of the half spectrum x (n/2 + 1 values) times factor.
 * The imaginary parts of the zero (and, n even, the Nyquist) frequency are ignored, as
 * NumPy's irfft does. */
static inline void TP_FFT_TAG(tp_fft_c2r_row)(const PLAN *pl, const FC *x, FT *y, FC *work,
                                              FT factor) {
    const int64_t n = pl->n, h = n / 2, width = h + 1;
    FC *z = work + pl->sub->scratch;
    if (n % 2) {          /* odd: the full Hermitian spectrum, conjugated (inverse) */
        z[0].re = x[0].re;
        z[0].im = 0;
        for (int64_t k = 1; k < width; k++) {
            z[k].re = x[k].re;
            z[k].im = -x[k].im;
            z[n - k].re = x[k].re;
            z[n - k].im = x[k].im;
        }
        TP_FFT_TAG(tp_fft_run)(pl->sub, z, work);
        for (int64_t k = 0; k < n; k++) y[k] = z[k].re * factor;
        return;
    }
    /* even: Z_k = E_k + i O_k with E_k = X_k + conj X_(h-k) and
     * O_k = (X_k - conj X_(h-k)) conj(w^k) (twice the forward halves: the unscaled inverse
     * of length n is twice that of length h), conjugated for the inverse. */
    for (int64_t k = 0; k < h; k++) {
        FC xk = x[k], xj = x[h - k];
        if (k == 0) xk.im = xj.im = 0;
        const FC e = {xk.re + xj.re, xk.im - xj.im};
        const FC d = {xk.re - xj.re, xk.im + xj.im};
        const FC wc = {pl->twiddle[k].re, -pl->twiddle[k].im};
        const FC o = TP_FFT_TAG(tp_fft_cmul)(d, wc);
        z[k].re = e.re - o.im;
        z[k].im = -(e.im + o.re);
    }
    TP_FFT_TAG(tp_fft_run)(pl->sub, z, work);
    for (int64_t k = 0; k < h; k++) {
        y[2 * k] = z[k].re * factor;
        y[2 * k + 1] = -z[k].im * factor;
    }
}

/* -- entry points: arrays of shape (outer, length, inner), transformed along the middle
 * axis. inner == 1: rows, transformed in place in the output. Otherwise TP_FFT_BLOCK
 * neighbouring columns at a time are gathered into contiguous rows (reading whole cache
 * lines), transformed, and scattered back, so no transpose of the array is needed. ----- */

static inline void TP_FFT_TAG(tp_fft_axis)(int kind, const void *in, void *out, int64_t outer,
                                           int64_t n, int64_t inner, int64_t inverse,
                                           int64_t scale) {
    if (outer <= 0 || n <= 0 || inner <= 0) return;
    int owned;
    PLAN *pl = TP_FFT_TAG(tp_fft_get_plan)(n, kind != TP_FFT_C2C, &owned);
    const FT factor = TP_FFT_TAG(tp_fft_scale)(n, scale), sign = inverse ? (FT)-1 : (FT)1;
    /* values per row on each side, in units of the side's type */
    const int64_t in_len = kind == TP_FFT_C2R ? n / 2 + 1 : n;
    const int64_t out_len = kind == TP_FFT_R2C ? n / 2 + 1 : n;
    const int64_t block = inner == 1 ? 1 : TP_FFT_BLOCK;
    const int64_t blocks = (inner + block - 1) / block, tasks = outer * blocks;
    const size_t in_size = kind == TP_FFT_R2C ? sizeof(FT) : sizeof(FC);
    const size_t out_size = kind == TP_FFT_C2R ? sizeof(FT) : sizeof(FC);
    (void)tasks;
#ifdef _OPENMP
#pragma omp parallel if (tasks > 1 && outer * n * inner >= TP_FFT_PARALLEL_MIN)
#endif
    {
        /* scratch for the plan, then (columns only) a block of gathered rows and results */
        const int64_t staged = inner == 1 ? 0 : block * (in_len + out_len);
        FC *work = pl ? (FC *)malloc(sizeof(FC) * (size_t)(pl->scratch + staged)) : NULL;
#ifdef _OPENMP
#pragma omp for schedule(dynamic)
#endif
        for (int64_t t = 0; t < tasks; t++) {
            const int64_t o = t / blocks, i0 = t % blocks * block;
            const int64_t count = inner - i0 < block ? inner - i0 : block;
            const char *src = (const char *)in + (size_t)(o * in_len * inner + i0) * in_size;
            char *dst = (char *)out + (size_t)(o * out_len * inner + i0) * out_size;
            if (!work) {                          /* out of memory: NaN, never garbage */
                for (int64_t k = 0; k < out_len; k++)
                    for (int64_t c = 0; c < count; c++) {
                        FT *v = (FT *)(dst + (size_t)(k * inner + c) * out_size);
                        v[0] = (FT)NAN;
                        if (out_size == sizeof(FC)) v[1] = (FT)NAN;
                    }
                continue;
            }
            /* the rows transformed: in place (inner == 1) or staged after the scratch */
            char *rows_in = inner == 1 ? (char *)src : (char *)(work + pl->scratch);
            char *rows_out = inner == 1 ? dst : (char *)(work + pl->scratch + block * in_len);
            if (inner > 1)
                for (int64_t k = 0; k < in_len; k++)
                    for (int64_t c = 0; c < count; c++)
                        memcpy(rows_in + (size_t)(c * in_len + k) * in_size,
                               src + (size_t)(k * inner + c) * in_size, in_size);
            for (int64_t c = 0; c < count; c++) {
                const char *x = rows_in + (size_t)(c * in_len) * in_size;
                char *y = rows_out + (size_t)(c * out_len) * out_size;
                if (kind == TP_FFT_C2C)
                    TP_FFT_TAG(tp_fft_c2c_row)(pl, (const FC *)x, (FC *)y, work, sign, factor);
                else if (kind == TP_FFT_R2C)
                    TP_FFT_TAG(tp_fft_r2c_row)(pl, (const FT *)x, (FC *)y, work, factor);
                else
                    TP_FFT_TAG(tp_fft_c2r_row)(pl, (const FC *)x, (FT *)y, work, factor);
            }
            if (inner > 1)
                for (int64_t k = 0; k < out_len; k++)
                    for (int64_t c = 0; c < count; c++)
                        memcpy(dst + (size_t)(k * inner + c) * out_size,
                               rows_out + (size_t)(c * out_len + k) * out_size, out_size);
        }
        free(work);
    }
    if (owned) TP_FFT_TAG(tp_fft_free_plan)(pl);
}

/* The three kinds, as the generated code calls them: compiled once into the runtime library
 * (TP_KERNEL_API, tp_kernel_api.h), or into a module of their own where it must hold them. */
TP_KERNEL_API void TP_FFT_TAG(tp_fft_c2c)(const FC *in, FC *out, int64_t outer, int64_t n,
                                          int64_t inner, int64_t inverse, int64_t scale) {
    TP_FFT_TAG(tp_fft_axis)(TP_FFT_C2C, in, out, outer, n, inner, inverse, scale);
}

TP_KERNEL_API void TP_FFT_TAG(tp_fft_r2c)(const FT *in, FC *out, int64_t outer, int64_t n,
                                          int64_t inner, int64_t scale) {
    TP_FFT_TAG(tp_fft_axis)(TP_FFT_R2C, in, out, outer, n, inner, 0, scale);
}

TP_KERNEL_API void TP_FFT_TAG(tp_fft_c2r)(const FC *in, FT *out, int64_t outer, int64_t n,
                                          int64_t inner, int64_t scale) {
    TP_FFT_TAG(tp_fft_axis)(TP_FFT_C2R, in, out, outer, n, inner, 0, scale);
}

#undef FT
#undef FC
#undef PLAN
