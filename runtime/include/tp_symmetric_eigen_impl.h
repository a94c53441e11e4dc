/* tp_symmetric_eigen_impl.h: eigh of one real symmetric matrix by LAPACK's own route, for one
 * precision. tp_spectral.h includes it twice, with TP_SE_T (the real type), TP_SE_TAG (the
 * name suffix), TP_SE_SQRT/FABS/COPYSIGN (its math functions), TP_SE_EPSILON (its
 * FLT_/DBL_EPSILON) and TP_SE_TINY (FLT_/DBL_MIN) defined; no include guard on purpose.
 *
 * Why LAPACK's route and not any accurate one: eigenvectors are unique only up to sign, and
 * programs use the sign (CMA-ES samples along B D z, PCA projects onto the vectors). JAX and
 * NumPy both call LAPACK's xSYEVD, so following its steps gives the vectors they give, signs
 * included. For a matrix of order n <= 25 xSYEVD is, step for step:
 *   xSYTD2 (lower): Householder reduction to a tridiagonal T = Q^T A Q (reflectors by xLARFG);
 *   xSTEQR ('I'): implicit QL or QR iteration with Wilkinson shifts on T, rotations (xLARTG,
 *                 2x2 blocks by xLAEV2) accumulated into Z from the identity, then a selection
 *                 sort of the eigenvalues ascending;
 *   xORMTR: the vectors Q Z, the reflectors applied last to first (xORM2R, xLARF).
 * Above order 25 xSTEDC divides and conquers instead of calling xSTEQR, so bigger matrices get
 * valid eigenvectors whose signs may differ from LAPACK's. What is left to differ otherwise is
 * rounding in the order of sums (BLAS kernels), far below any sign decision of a well-separated
 * spectrum. Indices below follow LAPACK's 1-based ones where a routine is long (xSTEQR), each
 * array read as x[i - 1]. Machine constants are LAPACK's xLAMCH: eps = EPSILON / 2, safe
 * minimum = TINY. */

#define SE_T TP_SE_T
#define SE_FABS TP_SE_FABS
#define SE_SQRT TP_SE_SQRT
#define SE_SIGN(a, b) TP_SE_COPYSIGN(SE_FABS(a), (b))      /* Fortran SIGN(a, b) */
#define SE_EPS ((SE_T)(TP_SE_EPSILON / 2))
#define SE_SAFMIN ((SE_T)TP_SE_TINY)

/* sqrt(x^2 + y^2) without needless overflow (xLAPY2). */
static inline TP_DEVICE SE_T TP_SE_TAG(tp_se_lapy2)(SE_T x, SE_T y) {
    const SE_T xa = SE_FABS(x), ya = SE_FABS(y);
    const SE_T w = xa > ya ? xa : ya, z = xa < ya ? xa : ya;
    if (z == 0 || w > TP_SPECTRAL_MAX(SE_T)) return w;
    return w * SE_SQRT(1 + (z / w) * (z / w));
}

/* The 2-norm of x[0], x[stride], ... (count entries). A float vector's squares are summed in
 * double, as OpenBLAS's x86-64 snrm2 (the BLAS under JAX's and NumPy's LAPACK) does: the
 * reflectors' rounding then follows LAPACK's closer, and fewer sign decisions go the other
 * way (measured on 30 random float32 matrices per order against JAX 0.10.2: summing in float,
 * 1 of order 10 and 10 of order 17 had an eigenvector of the other sign; in double, 0 and 6;
 * none of order 4 or 6 either way). Doubles are summed scaled against overflow (xNRM2's). */
static inline TP_DEVICE SE_T TP_SE_TAG(tp_se_nrm2)(int64_t count, const SE_T *x, int64_t stride) {
    if (sizeof(SE_T) < sizeof(double)) {
        double sum = 0;
        for (int64_t i = 0; i < count; i++) sum += (double)x[i * stride] * (double)x[i * stride];
        return (SE_T)sqrt(sum);
    }
    SE_T scale = 0, ssq = 1;
    for (int64_t i = 0; i < count; i++) {
        const SE_T a = SE_FABS(x[i * stride]);
        if (a == 0) continue;
        if (scale < a) { ssq = 1 + ssq * (scale / a) * (scale / a); scale = a; }
        else ssq += (a / scale) * (a / scale);
    }
    return scale * SE_SQRT(ssq);
}

/* xLARFG: the reflector H = I - tau v v^T, v = (1, x / (alpha - beta)), with
 * H (alpha, x) = (beta, 0). Overwrites alpha with beta and x with v's tail; returns tau. */
static inline TP_DEVICE SE_T TP_SE_TAG(tp_se_larfg)(int64_t len, SE_T *alpha, SE_T *x,
                                                    int64_t stride) {
    if (len <= 1) return 0;
    SE_T xnorm = TP_SE_TAG(tp_se_nrm2)(len - 1, x, stride);
    if (xnorm == 0) return 0;
    SE_T beta = -SE_SIGN(TP_SE_TAG(tp_se_lapy2)(*alpha, xnorm), *alpha);
    const SE_T safmin = SE_SAFMIN / SE_EPS;
    int knt = 0;
    if (SE_FABS(beta) < safmin) {          /* xnorm, beta may be inaccurate: rescale */
        const SE_T rsafmn = 1 / safmin;
        do {
            knt++;
            for (int64_t i = 0; i < len - 1; i++) x[i * stride] *= rsafmn;
            beta *= rsafmn;
            *alpha *= rsafmn;
        } while (SE_FABS(beta) < safmin && knt < 20);
        xnorm = TP_SE_TAG(tp_se_nrm2)(len - 1, x, stride);
        beta = -SE_SIGN(TP_SE_TAG(tp_se_lapy2)(*alpha, xnorm), *alpha);
    }
    const SE_T tau = (beta - *alpha) / beta;
    const SE_T scal = 1 / (*alpha - beta);
    for (int64_t i = 0; i < len - 1; i++) x[i * stride] *= scal;
    for (int j = 0; j < knt; j++) beta *= safmin;
    *alpha = beta;
    return tau;
}

/* xSYTD2, lower triangle: a (n x n, row-major, a[i * n + j] = A(i, j), i >= j read) becomes
 * tridiagonal d (diagonal), e (subdiagonal), with reflector i's tail below the subdiagonal
 * in column i and its tau in tau[i]. tau[i..n-2] is also the step's working vector, as in
 * LAPACK. */
static inline TP_DEVICE void TP_SE_TAG(tp_se_sytd2)(SE_T *a, SE_T *d, SE_T *e, SE_T *tau,
                                                    int64_t n) {
#define SE_A(i, j) a[(i) * n + (j)]
    for (int64_t i = 0; i < n - 1; i++) {
        SE_T alpha = SE_A(i + 1, i);
        const int64_t len = n - 1 - i;
        const int64_t below = i + 2 < n ? i + 2 : n - 1;
        const SE_T taui = TP_SE_TAG(tp_se_larfg)(len, &alpha, &SE_A(below, i), n);
        e[i] = alpha;
        if (taui != 0) {
            SE_A(i + 1, i) = 1;
            SE_T *v = &SE_A(i + 1, i), *x = tau + i;             /* v: stride n */
            /* x = taui * A22 v (xSYMV on the lower triangle of A(i+1:, i+1:)) */
            for (int64_t r = 0; r < len; r++) x[r] = 0;
            for (int64_t c = 0; c < len; c++) {
                const SE_T t1 = taui * v[c * n];
                SE_T t2 = 0;
                x[c] += t1 * SE_A(i + 1 + c, i + 1 + c);
                for (int64_t r = c + 1; r < len; r++) {
                    x[r] += t1 * SE_A(i + 1 + r, i + 1 + c);
                    t2 += SE_A(i + 1 + r, i + 1 + c) * v[r * n];
                }
                x[c] += taui * t2;
            }
            /* w = x - (taui / 2) (x . v) v */
            SE_T dot = 0;
            for (int64_t r = 0; r < len; r++) dot += x[r] * v[r * n];
            const SE_T alpha2 = -(SE_T)0.5 * taui * dot;
            for (int64_t r = 0; r < len; r++) x[r] += alpha2 * v[r * n];
            /* A22 -= v w^T + w v^T (xSYR2, lower triangle) */
            for (int64_t c = 0; c < len; c++) {
                if (v[c * n] == 0 && x[c] == 0) continue;
                const SE_T t1 = -x[c], t2 = -v[c * n];
                for (int64_t r = c; r < len; r++)
                    SE_A(i + 1 + r, i + 1 + c) += v[r * n] * t1 + x[r] * t2;
            }
            SE_A(i + 1, i) = e[i];
        }
        d[i] = SE_A(i, i);
        tau[i] = taui;
    }
    d[n - 1] = SE_A(n - 1, n - 1);
#undef SE_A
}

/* xLAEV2: [[a, b], [b, c]] = R diag(rt1, rt2) R^T with |rt1| >= |rt2|, (cs1, sn1) the unit
 * eigenvector of rt1. */
static inline TP_DEVICE void TP_SE_TAG(tp_se_laev2)(SE_T a, SE_T b, SE_T c, SE_T *rt1,
                                                    SE_T *rt2, SE_T *cs1, SE_T *sn1) {
    const SE_T sm = a + c, df = a - c, adf = SE_FABS(df), tb = b + b, ab = SE_FABS(tb);
    const SE_T acmx = SE_FABS(a) > SE_FABS(c) ? a : c, acmn = SE_FABS(a) > SE_FABS(c) ? c : a;
    SE_T rt;
    if (adf > ab) rt = adf * SE_SQRT(1 + (ab / adf) * (ab / adf));
    else if (adf < ab) rt = ab * SE_SQRT(1 + (adf / ab) * (adf / ab));
    else rt = ab * SE_SQRT((SE_T)2);
    int sgn1, sgn2;
    if (sm < 0) {
        *rt1 = (SE_T)0.5 * (sm - rt);
        sgn1 = -1;
        *rt2 = (acmx / *rt1) * acmn - (b / *rt1) * b;
    } else if (sm > 0) {
        *rt1 = (SE_T)0.5 * (sm + rt);
        sgn1 = 1;
        *rt2 = (acmx / *rt1) * acmn - (b / *rt1) * b;
    } else {
        *rt1 = (SE_T)0.5 * rt;
        *rt2 = (SE_T)-0.5 * rt;
        sgn1 = 1;
    }
    SE_T cs;
    if (df >= 0) { cs = df + rt; sgn2 = 1; } else { cs = df - rt; sgn2 = -1; }
    if (SE_FABS(cs) > ab) {
        const SE_T ct = -tb / cs;
        *sn1 = 1 / SE_SQRT(1 + ct * ct);
        *cs1 = ct * *sn1;
    } else if (ab == 0) {
        *cs1 = 1;
        *sn1 = 0;
    } else {
        const SE_T tn = -cs / tb;
        *cs1 = 1 / SE_SQRT(1 + tn * tn);
        *sn1 = tn * *cs1;
    }
    if (sgn1 == sgn2) {
        const SE_T tn = *cs1;
        *cs1 = -*sn1;
        *sn1 = tn;
    }
}

/* xLARTG (LAPACK >= 3.10): c, s, r with [c s; -s c] (f, g) = (r, 0), c >= 0. */
static inline TP_DEVICE void TP_SE_TAG(tp_se_lartg)(SE_T f, SE_T g, SE_T *c, SE_T *s, SE_T *r) {
    const SE_T safmax = 1 / SE_SAFMIN;
    const SE_T rtmin = SE_SQRT(SE_SAFMIN), rtmax = SE_SQRT(safmax / 2);
    const SE_T f1 = SE_FABS(f), g1 = SE_FABS(g);
    if (g == 0) {
        *c = 1; *s = 0; *r = f;
    } else if (f == 0) {
        *c = 0; *s = SE_SIGN((SE_T)1, g); *r = g1;
    } else if (f1 > rtmin && f1 < rtmax && g1 > rtmin && g1 < rtmax) {
        const SE_T d = SE_SQRT(f * f + g * g);
        *c = f1 / d;
        *r = SE_SIGN(d, f);
        *s = g / *r;
    } else {
        SE_T u = f1 > g1 ? f1 : g1;
        if (u < SE_SAFMIN) u = SE_SAFMIN;
        if (u > safmax) u = safmax;
        const SE_T fs = f / u, gs = g / u, d = SE_SQRT(fs * fs + gs * gs);
        *c = SE_FABS(fs) / d;
        *r = SE_SIGN(d, f);
        *s = gs / *r;
        *r *= u;
    }
}

/* xLASR('R', 'V', forward or backward): columns first..first+count-1 of z (n x n,
 * column-major here, see tp_se_syevd) rotated by the plane rotations (c[j], s[j]) of columns
 * j, j + 1. */
static inline TP_DEVICE void TP_SE_TAG(tp_se_lasr)(int forward, int64_t n, int64_t count,
                                                   const SE_T *c, const SE_T *s, SE_T *z,
                                                   int64_t first) {
    for (int64_t step = 0; step < count - 1; step++) {
        const int64_t j = forward ? step : count - 2 - step;
        const SE_T ct = c[j], st = s[j];
        if (ct == 1 && st == 0) continue;
        SE_T *left = z + (first + j) * n, *right = left + n;
        for (int64_t i = 0; i < n; i++) {
            const SE_T temp = right[i];
            right[i] = ct * temp - st * left[i];
            left[i] = st * temp + ct * left[i];
        }
    }
}

/* xLASCL('G') on count values: multiply by cto / cfrom without over- or underflow. */
static inline TP_DEVICE void TP_SE_TAG(tp_se_lascl)(SE_T cfrom, SE_T cto, SE_T *x,
                                                    int64_t count) {
    const SE_T smlnum = SE_SAFMIN, bignum = 1 / smlnum;
    SE_T cfromc = cfrom, ctoc = cto;
    int done = 0;
    while (!done) {
        const SE_T cfrom1 = cfromc * smlnum;
        SE_T mul;
        if (cfrom1 == cfromc) {                     /* cfromc is inf */
            mul = ctoc / cfromc;
            done = 1;
        } else {
            const SE_T cto1 = ctoc / bignum;
            if (cto1 == ctoc) {
                mul = ctoc;
                done = 1;
                cfromc = 1;
            } else if (SE_FABS(cfrom1) > SE_FABS(ctoc) && ctoc != 0) {
                mul = smlnum;
                cfromc = cfrom1;
            } else if (SE_FABS(cto1) > SE_FABS(cfromc)) {
                mul = bignum;
                ctoc = cto1;
            } else {
                mul = ctoc / cfromc;
                done = 1;
                if (mul == 1) return;
            }
        }
        for (int64_t i = 0; i < count; i++) x[i] *= mul;
    }
}

/* xSTEQR('I'): eigenvalues (d, ascending) and eigenvectors (columns of z, n x n column-major,
 * started from the identity) of the tridiagonal (d, e). work: 2 (n - 1). Returns 0, or the
 * number of off-diagonal entries left after 30 n iterations (LAPACK's INFO > 0). */
static inline TP_DEVICE int64_t TP_SE_TAG(tp_se_steqr)(int64_t n, SE_T *d, SE_T *e, SE_T *z,
                                                       SE_T *work) {
#define D(i) d[(i) - 1]
#define E(i) e[(i) - 1]
#define WC(i) work[(i) - 1]                 /* cosines: WORK(i) */
#define WS(i) work[n - 1 + (i) - 1]         /* sines:   WORK(N - 1 + i) */
    const SE_T eps = SE_EPS, eps2 = eps * eps, safmin = SE_SAFMIN, safmax = 1 / safmin;
    const SE_T ssfmax = SE_SQRT(safmax) / 3, ssfmin = SE_SQRT(safmin) / eps2;
    for (int64_t i = 0; i < n * n; i++) z[i] = 0;
    for (int64_t i = 0; i < n; i++) z[i * n + i] = 1;
    if (n <= 1) return 0;
    const int64_t nmaxit = n * 30;
    int64_t jtot = 0, l1 = 1, nm1 = n - 1;
    int64_t l, m, lend, lsv, lendsv, iscale;
    SE_T anorm, p, g, r, c, s, f, b, rt1, rt2;

next_block:                                 /* label 10 */
    if (l1 > n) goto sort;
    if (l1 > 1) E(l1 - 1) = 0;
    for (m = l1; m <= nm1; m++) {           /* find a negligible off-diagonal entry */
        const SE_T tst = SE_FABS(E(m));
        if (tst == 0) goto split;
        if (tst <= (SE_SQRT(SE_FABS(D(m))) * SE_SQRT(SE_FABS(D(m + 1)))) * eps) {
            E(m) = 0;
            goto split;
        }
    }
    m = n;
split:                                      /* label 30 */
    l = l1;
    lsv = l;
    lend = m;
    lendsv = lend;
    l1 = m + 1;
    if (lend == l) goto next_block;
    /* scale the block l..lend */
    anorm = 0;
    for (int64_t i = l; i <= lend; i++) if (SE_FABS(D(i)) > anorm) anorm = SE_FABS(D(i));
    for (int64_t i = l; i < lend; i++) if (SE_FABS(E(i)) > anorm) anorm = SE_FABS(E(i));
    iscale = 0;
    if (anorm == 0) goto next_block;
    if (anorm > ssfmax) {
        iscale = 1;
        TP_SE_TAG(tp_se_lascl)(anorm, ssfmax, &D(l), lend - l + 1);
        TP_SE_TAG(tp_se_lascl)(anorm, ssfmax, &E(l), lend - l);
    }
    if (anorm < ssfmin) {
        iscale = 2;
        TP_SE_TAG(tp_se_lascl)(anorm, ssfmin, &D(l), lend - l + 1);
        TP_SE_TAG(tp_se_lascl)(anorm, ssfmin, &E(l), lend - l);
    }
    /* QL if the top end is the larger, else QR */
    if (SE_FABS(D(lend)) < SE_FABS(D(l))) {
        lend = lsv;
        l = lendsv;
    }
    if (lend > l) {
        /* QL iteration: look for a small subdiagonal entry */
ql_next:                                    /* label 40 */
        if (l != lend) {
            for (m = l; m <= lend - 1; m++) {
                const SE_T tst = SE_FABS(E(m)) * SE_FABS(E(m));
                if (tst <= (eps2 * SE_FABS(D(m))) * SE_FABS(D(m + 1)) + safmin) goto ql_found;
            }
        }
        m = lend;
ql_found:                                   /* label 60 */
        if (m < lend) E(m) = 0;
        p = D(l);
        if (m == l) goto ql_eigenvalue;
        if (m == l + 1) {                   /* a 2 x 2 block */
            TP_SE_TAG(tp_se_laev2)(D(l), E(l), D(l + 1), &rt1, &rt2, &c, &s);
            WC(l) = c;
            WS(l) = s;
            TP_SE_TAG(tp_se_lasr)(0, n, 2, &WC(l), &WS(l), z, l - 1);
            D(l) = rt1;
            D(l + 1) = rt2;
            E(l) = 0;
            l += 2;
            if (l <= lend) goto ql_next;
            goto undo_scale;
        }
        if (jtot == nmaxit) goto undo_scale;
        jtot++;
        g = (D(l + 1) - p) / (2 * E(l));     /* the shift */
        r = TP_SE_TAG(tp_se_lapy2)(g, 1);
        g = D(m) - p + (E(l) / (g + SE_SIGN(r, g)));
        s = 1;
        c = 1;
        p = 0;
        for (int64_t i = m - 1; i >= l; i--) {
            f = s * E(i);
            b = c * E(i);
            TP_SE_TAG(tp_se_lartg)(g, f, &c, &s, &r);
            if (i != m - 1) E(i + 1) = r;
            g = D(i + 1) - p;
            r = (D(i) - g) * s + 2 * c * b;
            p = s * r;
            D(i + 1) = g + p;
            g = c * r - b;
            WC(i) = c;
            WS(i) = -s;
        }
        TP_SE_TAG(tp_se_lasr)(0, n, m - l + 1, &WC(l), &WS(l), z, l - 1);
        D(l) = D(l) - p;
        E(l) = g;
        goto ql_next;
ql_eigenvalue:                              /* label 80 */
        D(l) = p;
        l++;
        if (l <= lend) goto ql_next;
        goto undo_scale;
    } else {
        /* QR iteration: look for a small superdiagonal entry */
qr_next:                                    /* label 90 */
        if (l != lend) {
            for (m = l; m >= lend + 1; m--) {
                const SE_T tst = SE_FABS(E(m - 1)) * SE_FABS(E(m - 1));
                if (tst <= (eps2 * SE_FABS(D(m))) * SE_FABS(D(m - 1)) + safmin) goto qr_found;
            }
        }
        m = lend;
qr_found:                                   /* label 110 */
        if (m > lend) E(m - 1) = 0;
        p = D(l);
        if (m == l) goto qr_eigenvalue;
        if (m == l - 1) {                   /* a 2 x 2 block */
            TP_SE_TAG(tp_se_laev2)(D(l - 1), E(l - 1), D(l), &rt1, &rt2, &c, &s);
            WC(m) = c;
            WS(m) = s;
            TP_SE_TAG(tp_se_lasr)(1, n, 2, &WC(m), &WS(m), z, l - 2);
            D(l - 1) = rt1;
            D(l) = rt2;
            E(l - 1) = 0;
            l -= 2;
            if (l >= lend) goto qr_next;
            goto undo_scale;
        }
        if (jtot == nmaxit) goto undo_scale;
        jtot++;
        g = (D(l - 1) - p) / (2 * E(l - 1)); /* the shift */
        r = TP_SE_TAG(tp_se_lapy2)(g, 1);
        g = D(m) - p + (E(l - 1) / (g + SE_SIGN(r, g)));
        s = 1;
        c = 1;
        p = 0;
        for (int64_t i = m; i <= l - 1; i++) {
            f = s * E(i);
            b = c * E(i);
            TP_SE_TAG(tp_se_lartg)(g, f, &c, &s, &r);
            if (i != m) E(i - 1) = r;
            g = D(i) - p;
            r = (D(i + 1) - g) * s + 2 * c * b;
            p = s * r;
            D(i) = g + p;
            g = c * r - b;
            WC(i) = c;
            WS(i) = s;
        }
        TP_SE_TAG(tp_se_lasr)(1, n, l - m + 1, &WC(m), &WS(m), z, m - 1);
        D(l) = D(l) - p;
        E(l - 1) = g;
        goto qr_next;
qr_eigenvalue:                              /* label 130 */
        D(l) = p;
        l--;
        if (l >= lend) goto qr_next;
        goto undo_scale;
    }
undo_scale:                                 /* label 140 */
    if (iscale == 1) {
        TP_SE_TAG(tp_se_lascl)(ssfmax, anorm, &D(lsv), lendsv - lsv + 1);
        TP_SE_TAG(tp_se_lascl)(ssfmax, anorm, &E(lsv), lendsv - lsv);
    } else if (iscale == 2) {
        TP_SE_TAG(tp_se_lascl)(ssfmin, anorm, &D(lsv), lendsv - lsv + 1);
        TP_SE_TAG(tp_se_lascl)(ssfmin, anorm, &E(lsv), lendsv - lsv);
    }
    if (jtot < nmaxit) goto next_block;
    {
        int64_t left = 0;
        for (int64_t i = 1; i <= n - 1; i++) left += E(i) != 0;
        return left;
    }
sort:                                       /* label 160: selection sort, ascending */
    for (int64_t ii = 2; ii <= n; ii++) {
        const int64_t i = ii - 1;
        int64_t k = i;
        p = D(i);
        for (int64_t j = ii; j <= n; j++)
            if (D(j) < p) { k = j; p = D(j); }
        if (k != i) {
            D(k) = D(i);
            D(i) = p;
            for (int64_t row = 0; row < n; row++) {
                const SE_T t = z[(i - 1) * n + row];
                z[(i - 1) * n + row] = z[(k - 1) * n + row];
                z[(k - 1) * n + row] = t;
            }
        }
    }
    return 0;
#undef D
#undef E
#undef WC
#undef WS
}

/* xORMTR('L', 'L', 'N') by xORM2R: z = Q z (z column-major), Q = H(0) ... H(n-2) from
 * tp_se_sytd2's a and tau, applied last to first. */
static inline TP_DEVICE void TP_SE_TAG(tp_se_ormtr)(const SE_T *a, const SE_T *tau, SE_T *z,
                                                    int64_t n) {
    for (int64_t i = n - 2; i >= 0; i--) {
        if (tau[i] == 0) continue;
        const int64_t top = i + 1, len = n - top;       /* rows top..n-1 of z */
        for (int64_t col = 0; col < n; col++) {         /* v = (1, a[top + 1.., i]) */
            SE_T *zc = z + col * n + top;
            SE_T dot = zc[0];                            /* z^T v, then z -= tau v (z^T v) */
            for (int64_t r = 1; r < len; r++) dot += zc[r] * a[(top + r) * n + i];
            const SE_T t = -tau[i] * dot;
            zc[0] += t;
            for (int64_t r = 1; r < len; r++) zc[r] += a[(top + r) * n + i] * t;
        }
    }
}

/* xSYEVD('V', 'L') of the symmetric matrix a (n x n row-major, lower triangle read and
 * overwritten): eigenvalues w ascending, eigenvectors the columns of z (row-major n x n).
 * work: 4 n. Returns 0,
 * or nonzero where the iteration did not converge (the caller reports NaN, as JAX does). */
static inline TP_DEVICE int64_t TP_SE_TAG(tp_se_syevd)(SE_T *a, SE_T *w, SE_T *z, SE_T *work,
                                                       int64_t n) {
    if (n == 0) return 0;
    if (n == 1) {
        w[0] = a[0];
        z[0] = 1;
        return 0;
    }
    /* scale a matrix whose largest entry is too small or large (xSYEVD's RMIN, RMAX) */
    const SE_T smlnum = SE_SAFMIN / (2 * SE_EPS), rmin = SE_SQRT(smlnum);
    const SE_T rmax = SE_SQRT(1 / smlnum);
    SE_T anrm = 0;
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j <= i; j++)
            if (SE_FABS(a[i * n + j]) > anrm) anrm = SE_FABS(a[i * n + j]);
    SE_T sigma = 1;
    const int scaled = (anrm > 0 && anrm < rmin) || anrm > rmax;
    if (scaled) {
        sigma = anrm < rmin ? rmin / anrm : rmax / anrm;
        for (int64_t i = 0; i < n; i++)
            for (int64_t j = 0; j <= i; j++) a[i * n + j] *= sigma;
    }
    SE_T *e = work, *tau = work + n, *rotations = work + 2 * n;
    TP_SE_TAG(tp_se_sytd2)(a, w, e, tau, n);
    /* z column-major while rotated, as LAPACK's: each rotation then updates two separate
     * contiguous columns (rows of a row-major z would sit side by side, which GCC 12's SLP
     * vectoriser fuses into an FMA add-sub even under -ffp-contract=off). */
    const int64_t info = TP_SE_TAG(tp_se_steqr)(n, w, e, z, rotations);
    TP_SE_TAG(tp_se_ormtr)(a, tau, z, n);
    for (int64_t i = 0; i < n; i++)                      /* to row-major */
        for (int64_t j = i + 1; j < n; j++) {
            const SE_T t = z[i * n + j];
            z[i * n + j] = z[j * n + i];
            z[j * n + i] = t;
        }
    if (scaled)
        for (int64_t i = 0; i < n; i++) w[i] *= 1 / sigma;
    return info;
}

#undef SE_T
#undef SE_FABS
#undef SE_SQRT
#undef SE_SIGN
#undef SE_EPS
#undef SE_SAFMIN
