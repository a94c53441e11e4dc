"""The programs of bench_programs.py as a Numba user would write them for speed (issue 8).

Imported by bench_programs.py only when numba imports. Each function takes the same arguments
as its transpile program (static ones positionally) and returns what NumPy's version returns;
none mutates its inputs.

How they are written, and why:
* `@njit`, never `fastmath`: transpile and NumPy give IEEE results, so Numba must too (without
  reassociation a reduction along a row does not vectorise: that is Numba's real cost).
* Explicit loops where that is how Numba code is written (stencils, solves, factorizations,
  element updates, reductions, softmax), `parallel=True` with `prange` over the independent
  outer loop where a Numba user would parallelise. Loops with a carried dependence stay
  serial, and so do those whose prange version measured slower on the 2-core benchmark
  machine (each says why): as a user who times their code would leave them.
* `@` on 2-D operands where a Numba user would call BLAS (Numba calls SciPy's BLAS for it).
"""
from __future__ import annotations

import numpy as np
from numba import njit, prange


@njit(parallel=True)
def jacobi(a, steps=100):
    """Double-buffered stencil: every step reads the old grid, as NumPy's slice assignment."""
    old, new = a.copy(), a.copy()            # both hold the fixed boundary
    rows, cols = a.shape
    for _ in range(steps):
        for i in prange(1, rows - 1):
            for j in range(1, cols - 1):
                new[i, j] = 0.25 * (old[i - 1, j] + old[i + 1, j]
                                    + old[i, j - 1] + old[i, j + 1])
        old, new = new, old
    return old


@njit
def forward_substitution(lower, b):
    """Row by row: x[i] needs every x before it, so the outer loop is serial."""
    n = b.shape[0]
    x = np.zeros_like(b)
    for i in range(n):
        s = b[i]
        for k in range(i):
            s -= lower[i, k] * x[k]
        x[i] = s / lower[i, i]
    return x


@njit
def cholesky(a):
    """Outer-product Cholesky on U = L.T (row-major, so every update runs along memory): row k
    of U is scaled, then subtracted from each row below it. The subtraction is a separate
    function on 1-D rows because that is how LLVM vectorises it (checking at run time that
    the rows do not overlap); written inline on the 2-D array, or as dot products along rows
    (which need reassociation to vectorise), it measured 1.5-2x slower. Serial: a prange over
    the rows is one parallel region per column, 400 short ones, slower on 2 cores."""
    n = a.shape[0]
    upper = np.triu(a)
    for k in range(n):
        upper[k, k:] /= np.sqrt(upper[k, k])
        for i in range(k + 1, n):
            _subtract_scaled(upper[i, i:], upper[k, i], upper[k, i:])
    return np.ascontiguousarray(upper.T)


@njit
def _subtract_scaled(y, factor, x):
    """y -= factor * x, element by element (1-D)."""
    for j in range(y.shape[0]):
        y[j] -= factor * x[j]


@njit
def matmul_chain(a, b, c):
    return a @ b @ c


@njit
def vecmat(y, a):
    return y @ a


@njit
def matvec(a, x):
    return a @ x


@njit
def mlp(x, w1, b1, w2, b2):
    """Products through BLAS; bias and ReLU, then bias and softmax, fused into row loops.
    Serial: these loops are small (65k and 2.5k elements), and a prange region right after a
    BLAS call waits for OpenBLAS's spinning threads (20-50 ms per call on 2 cores, against
    about 1 ms serial)."""
    h = x @ w1
    for i in range(h.shape[0]):
        for j in range(h.shape[1]):
            h[i, j] = max(h[i, j] + b1[j], 0.0)
    logits = h @ w2
    for i in range(logits.shape[0]):
        for j in range(logits.shape[1]):
            logits[i, j] += b2[j]
        _softmax_row(logits[i])
    return logits


@njit
def _softmax_row(row):
    """row <- softmax(row), in place. The sum accumulates in float64 (Numba's type for a
    float literal); a float32 row stores float32 results."""
    top = row[0]
    for j in range(1, row.shape[0]):
        top = max(top, row[j])
    total = 0.0
    for j in range(row.shape[0]):
        row[j] = np.exp(row[j] - top)
        total += row[j]
    for j in range(row.shape[0]):
        row[j] /= total


@njit(parallel=True)
def conv2d(img, w):
    """'valid' correlation, one output row per parallel iteration; each tap is added along the
    row (the inner loop vectorises), in the order NumPy's version adds its shifted slices."""
    kh, kw = w.shape
    h, wd = img.shape[0] - kh + 1, img.shape[1] - kw + 1
    out = np.zeros((h, wd), dtype=img.dtype)
    for i in prange(h):
        for p in range(kh):
            for q in range(kw):
                tap = w[p, q]
                for j in range(wd):
                    out[i, j] += tap * img[i + p, j + q]
    return out


@njit
def column_sum(x):
    """Each row added into the column sums: the inner loop runs along memory and vectorises
    without reassociation. Serial: the loop is memory-bound, and parallel versions (blocks of
    columns, or bands of rows with partial sums) measured no faster on 2 cores."""
    rows, cols = x.shape
    out = np.zeros(cols, dtype=x.dtype)
    for i in range(rows):
        for j in range(cols):
            out[j] += x[i, j]
    return out


@njit(parallel=True)
def softmax(x):
    out = x.copy()
    for i in prange(x.shape[0]):
        _softmax_row(out[i])
    return out


@njit
def element_updates(a, steps):
    a = a.copy()
    for i in range(steps):
        a[i, i] = a[i, i] * 2.0 + 1.0
    return a


# bench_programs.py finds a row's Numba version by its transpile program's name.
BY_PROGRAM = {f.__name__: f for f in (
    jacobi, forward_substitution, cholesky, matmul_chain, vecmat, matvec, mlp, conv2d,
    column_sum, softmax, element_updates)}
