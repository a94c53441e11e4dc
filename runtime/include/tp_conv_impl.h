/* tp_conv_impl.h: the body of tp_conv.h for one precision (TP_CONV_T, TP_CONV_TAG,
 * TP_CONV_WIDTH: the tile's width, two or four vector registers). Included twice; no guard. */

#define CT TP_CONV_T

/* A vector of TP_CONV_WIDTH / 2 values (GCC's vector extension: the compiler picks the
 * instructions, AVX-512, AVX2 or SSE, from -march; plain C semantics, no fast-math). */
typedef CT TP_CONV_TAG(tp_conv_vec) __attribute__((vector_size(sizeof(CT) * TP_CONV_WIDTH / 2)));
#define VEC TP_CONV_TAG(tp_conv_vec)

/* A full-width tile: `rows` (a constant where it is inlined: TP_CONV_ROWS, or 1 for the
 * last pixels of a run) x TP_CONV_WIDTH columns of c, two vectors per row, held in registers
 * over the whole depth; b's row is loaded once per k for every row of a. */
static inline __attribute__((always_inline)) void TP_CONV_TAG(tp_conv_tile_full)(
        const CT *a, int64_t lda, const CT *b, int64_t ldb, CT *c, int64_t ldc,
        int64_t depth, const int rows) {
    VEC acc[TP_CONV_ROWS][2];
    for (int r = 0; r < rows; r++) {
        memcpy(&acc[r][0], c + r * ldc, sizeof(VEC));
        memcpy(&acc[r][1], c + r * ldc + TP_CONV_WIDTH / 2, sizeof(VEC));
    }
    for (int64_t k = 0; k < depth; k++) {
        VEC b0, b1;
        memcpy(&b0, b + k * ldb, sizeof(VEC));
        memcpy(&b1, b + k * ldb + TP_CONV_WIDTH / 2, sizeof(VEC));
        for (int r = 0; r < rows; r++) {
            const CT av = a[r * lda + k];
            acc[r][0] = TP_CONV_FMA(av, b0, acc[r][0]);
            acc[r][1] = TP_CONV_FMA(av, b1, acc[r][1]);
        }
    }
    for (int r = 0; r < rows; r++) {
        memcpy(c + r * ldc, &acc[r][0], sizeof(VEC));
        memcpy(c + r * ldc + TP_CONV_WIDTH / 2, &acc[r][1], sizeof(VEC));
    }
}

/* c[r][j] += sum_k a[r * lda + k] * b[k * ldb + j] for r < rows, j < width, k < depth. */
static inline void TP_CONV_TAG(tp_conv_tile)(
        const CT *a, int64_t lda, const CT *b, int64_t ldb, CT *c, int64_t ldc,
        int64_t depth, int rows, int width) {
    CT acc[TP_CONV_ROWS][TP_CONV_WIDTH];
    for (int r = 0; r < rows; r++)
        for (int j = 0; j < width; j++) acc[r][j] = c[r * ldc + j];
    for (int64_t k = 0; k < depth; k++) {
        const CT *brow = b + k * ldb;
        for (int r = 0; r < rows; r++) {
            const CT av = a[r * lda + k];
            for (int j = 0; j < width; j++) acc[r][j] += av * brow[j];
        }
    }
    for (int r = 0; r < rows; r++)
        for (int j = 0; j < width; j++) c[r * ldc + j] = acc[r][j];
}

/* The same for a ragged edge (fewer rows or a narrower last column block). */
static __attribute__((noinline)) void TP_CONV_TAG(tp_conv_tile_edge)(
        const CT *a, int64_t lda, const CT *b, int64_t ldb, CT *c, int64_t ldc,
        int64_t depth, int rows, int width) {
    TP_CONV_TAG(tp_conv_tile)(a, lda, b, ldb, c, ldc, depth, rows, width);
}

/* out[px * O + o] += sum_c in[px * in_step + c] w[c * O + o] for the `count` pixels of a
 * run, in their groups of I input channels and O / groups outputs. */
static inline void TP_CONV_TAG(tp_conv_run)(const CT *in, int64_t in_step, const CT *w,
                                            CT *out, int64_t count, int64_t I, int64_t O,
                                            int64_t groups) {
    const int64_t lo = 0, hi = count;
    const int64_t per_group = O / groups;
    for (int64_t g = 0; g < groups; g++) {
        const CT *wg = w + g * per_group, *ing = in + g * I;
        CT *outg = out + g * per_group;
        for (int64_t j = 0; j < per_group; j += TP_CONV_WIDTH) {
            const int width = per_group - j < TP_CONV_WIDTH ? (int)(per_group - j)
                                                            : TP_CONV_WIDTH;
            int64_t px = lo;
            if (width == TP_CONV_WIDTH) {
                for (; px + TP_CONV_ROWS <= hi; px += TP_CONV_ROWS)
                    TP_CONV_TAG(tp_conv_tile_full)(ing + px * in_step, in_step, wg + j, O,
                                                   outg + px * O + j, O, I, TP_CONV_ROWS);
                for (; px < hi; px++)
                    TP_CONV_TAG(tp_conv_tile_full)(ing + px * in_step, in_step, wg + j, O,
                                                   outg + px * O + j, O, I, 1);
            }
            for (; px < hi; px += TP_CONV_ROWS) {
                const int rows = hi - px < TP_CONV_ROWS ? (int)(hi - px) : TP_CONV_ROWS;
                TP_CONV_TAG(tp_conv_tile_edge)(ing + px * in_step, in_step, wg + j, O,
                                               outg + px * O + j, O, I, rows, width);
            }
        }
    }
}

/* The output pixels [lo, hi) whose column ow * SW + kw * RW - PW lies in [0, W). */
static inline void TP_CONV_TAG(tp_conv_span)(int64_t kw, int64_t OW, int64_t W, int64_t SW,
                                             int64_t PW, int64_t RW, int64_t *lo,
                                             int64_t *hi) {
    const int64_t shift = kw * RW - PW;
    const int64_t first = tp_conv_ceil_div(-shift, SW);
    const int64_t end = tp_conv_floor_div(W - 1 - shift, SW) + 1;
    *lo = first < 0 ? 0 : first;
    *hi = end > OW ? OW : end;
}

/* Kernel column kw's contribution to the output pixels [lo, hi) of one row (all inside). */
static inline void TP_CONV_TAG(tp_conv_pixels)(const CT *irow, const CT *wkk, CT *orow,
                                               int64_t lo, int64_t hi, int64_t kw, int64_t C,
                                               int64_t I, int64_t O, int64_t SW, int64_t PW,
                                               int64_t RW, int64_t groups, int depthwise) {
    if (lo >= hi) return;
    const CT *first = irow + (lo * SW + kw * RW - PW) * C;      /* pixel lo's input */
    if (depthwise) {
        for (int64_t ow = lo; ow < hi; ow++) {
            const CT *x = first + (ow - lo) * SW * C;
            CT *y = orow + ow * O;
            for (int64_t c = 0; c < C; c++) y[c] += x[c] * wkk[c];
        }
        return;
    }
    TP_CONV_TAG(tp_conv_run)(first, SW * C, wkk, orow + lo * O, hi - lo, I, O, groups);
}

TP_KERNEL_API void TP_CONV_TAG(tp_conv)(
        const CT *lhs, const CT *rhs, CT *out,
        int64_t N, int64_t D, int64_t H, int64_t W, int64_t C,
        int64_t KD, int64_t KH, int64_t KW, int64_t I, int64_t O,
        int64_t OD, int64_t OH, int64_t OW,
        int64_t SD, int64_t SH, int64_t SW, int64_t PD, int64_t PH, int64_t PW,
        int64_t LD, int64_t LH, int64_t LW, int64_t RD, int64_t RH, int64_t RW,
        int64_t groups) {
    const int64_t rows = N * OD * OH;
    const int depthwise = I == 1 && O == groups;
    const int dense_w = LW == 1;
    const double work = (double)rows * (double)OW * (double)(KD * KH * KW) * (double)I
                        * (double)O;
    (void)work;   /* read only by the OpenMP condition */
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic) if (rows > 1 && work > TP_CONV_PARALLEL_MIN)
#endif
    for (int64_t row = 0; row < rows; row++) {
        const int64_t n = row / (OD * OH), od = row / OH % OD, oh = row % OH;
        CT *orow = out + row * OW * O;
        memset(orow, 0, sizeof(CT) * (size_t)(OW * O));
        for (int64_t kd = 0; kd < KD; kd++) {
            const int64_t id = tp_conv_source(od, kd, SD, PD, LD, RD, D);
            if (id < 0) continue;
            for (int64_t kh = 0; kh < KH; kh++) {
                const int64_t ih = tp_conv_source(oh, kh, SH, PH, LH, RH, H);
                if (ih < 0) continue;
                const CT *irow = lhs + ((n * D + id) * H + ih) * W * C;
                const CT *wk = rhs + (kd * KH + kh) * KW * I * O;
                /* Pixels whose input is inside for every kw: with one group and undilated
                 * columns, their kw x C inputs are contiguous, and so are the kernel's
                 * KW * C rows, so the whole row of offsets is one product of depth KW * C. */
                int64_t inner_lo = 0, inner_hi = OW;
                for (int64_t kw = 0; kw < KW; kw++) {
                    int64_t lo, hi;
                    TP_CONV_TAG(tp_conv_span)(kw, OW, W, SW, PW, RW, &lo, &hi);
                    inner_lo = lo > inner_lo ? lo : inner_lo;
                    inner_hi = hi < inner_hi ? hi : inner_hi;
                }
                const int merged = dense_w && groups == 1 && RW == 1 && inner_lo < inner_hi;
                if (merged)
                    TP_CONV_TAG(tp_conv_run)(irow + (inner_lo * SW - PW) * C, SW * C, wk,
                                             orow + inner_lo * O, inner_hi - inner_lo, KW * C,
                                             O, 1);
                for (int64_t kw = 0; kw < KW; kw++) {
                    const CT *wkk = wk + kw * I * O;
                    if (!dense_w) {                  /* dilated input: test each pixel */
                        for (int64_t ow = 0; ow < OW; ow++) {
                            const int64_t iw = tp_conv_source(ow, kw, SW, PW, LW, RW, W);
                            if (iw >= 0)
                                TP_CONV_TAG(tp_conv_run)(irow + iw * C, 0, wkk,
                                                         orow + ow * O, 1, I, O, groups);
                        }
                        continue;
                    }
                    int64_t lo, hi;
                    TP_CONV_TAG(tp_conv_span)(kw, OW, W, SW, PW, RW, &lo, &hi);
                    if (merged) {   /* only the border pixels are left for this offset */
                        TP_CONV_TAG(tp_conv_pixels)(irow, wkk, orow, lo, inner_lo, kw, C, I,
                                                    O, SW, PW, RW, groups, depthwise);
                        TP_CONV_TAG(tp_conv_pixels)(irow, wkk, orow, inner_hi, hi, kw, C, I,
                                                    O, SW, PW, RW, groups, depthwise);
                    } else {
                        TP_CONV_TAG(tp_conv_pixels)(irow, wkk, orow, lo, hi, kw, C, I, O, SW,
                                                    PW, RW, groups, depthwise);
                    }
                }
            }
        }
    }
}

#undef VEC
#undef CT
