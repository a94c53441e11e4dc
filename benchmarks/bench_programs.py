"""Real-program benchmark (issue 8): loops that update arrays, solves, factorizations,
matrix products, a small network, a convolution, reductions.

Usage:  python benchmarks/bench_programs.py [--quick] [--only NAME ...]
                                            [--save FILE.json] [--before FILE.json]

Method
------
* Each pattern is written once against `transpile.numpy` / `lax` (jitted) and once as the
  natural eager NumPy program (Python loops where NumPy has no loop primitive, in-place
  slice assignment where NumPy users would write it). JAX runs the transpile program itself
  (jax.numpy swapped in); Numba runs the version in programs_numba.py, written as a Numba user
  would (explicit loops, prange where parallel, BLAS through `@`, no fastmath). Their columns
  print "not installed" when the library does not import.
* All implementations run in this one process on the same inputs, after a warm-up call
  that compiles and whose answer is checked against NumPy's.
* A sample is `inner` back-to-back calls (calibrated to last about `sample_seconds`, at
  least one call); samples of the implementations are interleaved, each after its own
  untimed calls (harness.settle: another library's idle threads stop spinning); the table shows the
  MEDIAN per-call time, and speed-up = NumPy time / transpile time. A pattern whose single
  call is slow gets fewer samples (a time budget per pattern), never fewer than 3.
* `--save` writes the medians as JSON; `--before` adds that file's transpile times as a
  "before" column (how the numbers in the README and the issue notes were produced: once on
  the old commit with --save, once on the new with --before).
* `--cpu-time` times the calling thread's CPU time (run it with OMP_NUM_THREADS=1 and
  OPENBLAS_NUM_THREADS=1; it puts Numba on one thread itself): on a machine loaded by other
  jobs, wall-clock medians swing by several times, single-thread CPU time hardly moves. JAX
  is not timed then: XLA computes on threads of its own, whose time this clock misses.
* The element-update loop runs at two trip counts: its time should grow linearly with the
  trip count (one store per step), not with trip count x array size.
"""
from __future__ import annotations

import argparse
import gc
import json
import math
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time

import numpy as np

import transpile as tp
import transpile.numpy as tnp
from transpile import lax

from harness import prepare, settle  # benchmarks/harness.py, beside this script

try:
    import jax
    import jax.numpy as jnp
    # The programs are float64 (as NumPy computes them): without x64 JAX would silently run
    # them in float32 and fail the answer check.
    jax.config.update("jax_enable_x64", True)
except Exception:          # not installed (or broken): its column says so
    jax = jnp = None
try:
    import numba
    import programs_numba      # benchmarks/programs_numba.py: the Numba versions
except Exception:
    numba = programs_numba = None

TARGET_EACH = 1.0          # every pattern at least as fast as eager NumPy
TARGET_GEOMEAN = 2.0       # geometric mean of the speed-ups


# -- the programs, transpile and NumPy side by side -------------------------------------------

def jacobi(a, steps=100):
    def step(_, a):
        return a.at[1:-1, 1:-1].set(0.25 * (a[:-2, 1:-1] + a[2:, 1:-1]
                                            + a[1:-1, :-2] + a[1:-1, 2:]))
    return lax.fori_loop(0, steps, step, a)


def np_jacobi(a, steps=100):
    a = a.copy()
    for _ in range(steps):
        a[1:-1, 1:-1] = 0.25 * (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:])
    return a


def forward_substitution(lower, b):
    """Solve lower @ x = b; `lower` travels through the loop unchanged, as a carry."""
    def step(i, state):
        low, x = state
        return low, x.at[i].set((b[i] - tnp.dot(low[i], x)) / low[i, i])
    return lax.fori_loop(0, b.shape[0], step, (lower, tnp.zeros_like(b)))[1]


def np_forward_substitution(lower, b):
    x = np.zeros_like(b)
    for i in range(b.shape[0]):
        x[i] = (b[i] - lower[i] @ x) / lower[i, i]
    return x


def cholesky(a):
    """Left-looking Cholesky: column j from the columns before it (L is zero beyond them)."""
    n = a.shape[0]
    rows = tnp.arange(n)

    def step(j, low):
        v = a[:, j] - low @ low[j]
        column = tnp.where(rows >= j, v / tnp.sqrt(v[j]), 0.0)
        return low.at[:, j].set(column)
    return lax.fori_loop(0, n, step, tnp.zeros_like(a))


def np_cholesky(a):
    n = a.shape[0]
    low = np.zeros_like(a)
    for j in range(n):
        v = a[j:, j] - low[j:, :j] @ low[j, :j]
        low[j:, j] = v / np.sqrt(v[0])
    return low


def matmul_chain(a, b, c):
    return a @ b @ c


def vecmat(y, a):
    return y @ a


def matvec(a, x):
    return a @ x


def mlp(x, w1, b1, w2, b2):
    h = tnp.maximum(x @ w1 + b1, 0.0)
    logits = h @ w2 + b2
    e = tnp.exp(logits - logits.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def np_mlp(x, w1, b1, w2, b2):
    h = np.maximum(x @ w1 + b1, 0.0)
    logits = h @ w2 + b2
    e = np.exp(logits - logits.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def conv2d(img, w):
    """'valid' 3x3 correlation written with slicing (the Python loops unroll)."""
    kh, kw = w.shape
    h, wd = img.shape[0] - kh + 1, img.shape[1] - kw + 1
    out = None
    for p in range(kh):
        for q in range(kw):
            term = w[p, q] * img[p:p + h, q:q + wd]
            out = term if out is None else out + term
    return out


def column_sum(x):
    return x.sum(axis=0)


def softmax(x):
    e = tnp.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def np_softmax(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def element_updates(a, steps):
    def step(i, a):
        return a.at[i, i].set(a[i, i] * 2.0 + 1.0)
    return lax.fori_loop(0, steps, step, a)


def np_element_updates(a, steps):
    a = a.copy()
    for i in range(steps):
        a[i, i] = a[i, i] * 2.0 + 1.0
    return a


def float_remainder(x, y):
    """NumPy's float `%`: the sign of the divisor (issue 23: was 11x slower than XLA's)."""
    return x % y


def seidel_sweeps(a, steps, n):
    """NPBench's seidel_2d in its JAX form: per row, a vector update of the row from its
    neighbours, then a serial left-to-right sweep; each step is a few small kernels."""
    def row(i, a):
        a = a.at[i, 1:-1].set(a[i, 1:-1] + (a[i - 1, :-2] + a[i - 1, 1:-1] + a[i - 1, 2:]
                                            + a[i, 2:] + a[i + 1, :-2] + a[i + 1, 1:-1]
                                            + a[i + 1, 2:]))

        def column(j, a):
            return a.at[i, j].set((a[i, j] + a[i, j - 1]) / 9.0)
        return lax.fori_loop(1, n - 1, column, a)
    return lax.fori_loop(0, steps - 1, lambda _, a: lax.fori_loop(1, n - 1, row, a), a)


def np_seidel_sweeps(a, steps, n):
    a = a.copy()
    for _ in range(steps - 1):
        for i in range(1, n - 1):
            a[i, 1:-1] += (a[i - 1, :-2] + a[i - 1, 1:-1] + a[i - 1, 2:] + a[i, 2:]
                           + a[i + 1, :-2] + a[i + 1, 1:-1] + a[i + 1, 2:])
            for j in range(1, n - 1):
                a[i, j] = (a[i, j] + a[i, j - 1]) / 9.0
    return a


def jacobi_pair(a, b, steps):
    """NPBench's jacobi_2d: two dependent 5-point updates per time step."""
    def step(_, ab):
        a, b = ab
        b = b.at[1:-1, 1:-1].set(0.2 * (a[1:-1, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:]
                                        + a[2:, 1:-1] + a[:-2, 1:-1]))
        a = a.at[1:-1, 1:-1].set(0.2 * (b[1:-1, 1:-1] + b[1:-1, :-2] + b[1:-1, 2:]
                                        + b[2:, 1:-1] + b[:-2, 1:-1]))
        return a, b
    return lax.fori_loop(1, steps, step, (a, b))


def np_jacobi_pair(a, b, steps):
    a, b = a.copy(), b.copy()
    for _ in range(1, steps):
        b[1:-1, 1:-1] = 0.2 * (a[1:-1, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:] + a[2:, 1:-1]
                               + a[:-2, 1:-1])
        a[1:-1, 1:-1] = 0.2 * (b[1:-1, 1:-1] + b[1:-1, :-2] + b[1:-1, 2:] + b[2:, 1:-1]
                               + b[:-2, 1:-1])
    return a, b


def vertical_advection(utens_stage, u_stage, wcon, u_pos, utens, dtr_stage):
    """NPBench's vadv (a gt4py weather stencil) as its JAX version writes it: a Thomas
    solve down every (i, j) column, one fori_loop step per level k updating (I, J) slabs
    strided along k, then the back substitution; BET_M = BET_P = 0.5."""
    depth = utens_stage.shape[2]

    def forward(k, cd):
        ccol, dcol = cd
        gav = -0.25 * (wcon[1:, :, k] + wcon[:-1, :, k])
        gcv = 0.25 * (wcon[1:, :, k + 1] + wcon[:-1, :, k + 1])
        acol = gav * 0.5
        ccol = ccol.at[:, :, k].set(gcv * 0.5)
        bcol = dtr_stage - acol - ccol[:, :, k]
        correction = -(gav * 0.5) * (u_stage[:, :, k - 1] - u_stage[:, :, k]) \
            - (gcv * 0.5) * (u_stage[:, :, k + 1] - u_stage[:, :, k])
        dcol = dcol.at[:, :, k].set(dtr_stage * u_pos[:, :, k] + utens[:, :, k]
                                    + utens_stage[:, :, k] + correction)
        divided = 1.0 / (bcol - ccol[:, :, k - 1] * acol)
        ccol = ccol.at[:, :, k].set(ccol[:, :, k] * divided)
        dcol = dcol.at[:, :, k].set((dcol[:, :, k] - dcol[:, :, k - 1] * acol) * divided)
        return ccol, dcol

    gcv = 0.25 * (wcon[1:, :, 1] + wcon[:-1, :, 1])
    divided = 1.0 / (dtr_stage - gcv * 0.5)
    ccol = tnp.zeros_like(utens_stage).at[:, :, 0].set(gcv * 0.5 * divided)
    dcol = tnp.zeros_like(utens_stage).at[:, :, 0].set(
        (dtr_stage * u_pos[:, :, 0] + utens[:, :, 0] + utens_stage[:, :, 0]
         - gcv * 0.5 * (u_stage[:, :, 1] - u_stage[:, :, 0])) * divided)
    ccol, dcol = lax.fori_loop(1, depth - 1, forward, (ccol, dcol))
    k = depth - 1
    gav = -0.25 * (wcon[1:, :, k] + wcon[:-1, :, k])
    acol = gav * 0.5
    last = dtr_stage * u_pos[:, :, k] + utens[:, :, k] + utens_stage[:, :, k] \
        - acol * (u_stage[:, :, k - 1] - u_stage[:, :, k])
    last = (last - dcol[:, :, k - 1] * acol) / (dtr_stage - acol - ccol[:, :, k - 1] * acol)
    out = utens_stage.at[:, :, k].set(dtr_stage * (last - u_pos[:, :, k]))

    def backward(step, state):
        data, out = state
        k = depth - 2 - step
        data = dcol[:, :, k] - ccol[:, :, k] * data
        return data, out.at[:, :, k].set(dtr_stage * (data - u_pos[:, :, k]))
    return lax.fori_loop(0, depth - 1, backward, (last, out))[1]


def np_vertical_advection(utens_stage, u_stage, wcon, u_pos, utens, dtr_stage):
    depth = utens_stage.shape[2]
    ccol, dcol = np.zeros_like(utens_stage), np.zeros_like(utens_stage)
    out = utens_stage.copy()
    for k in range(depth):
        gav = -0.25 * (wcon[1:, :, k] + wcon[:-1, :, k]) if k > 0 else 0.0
        gcv = 0.25 * (wcon[1:, :, k + 1] + wcon[:-1, :, k + 1]) if k < depth - 1 else 0.0
        acol, ccol[:, :, k] = gav * 0.5, gcv * 0.5
        d = dtr_stage * u_pos[:, :, k] + utens[:, :, k] + utens_stage[:, :, k]
        if k > 0:
            d = d - acol * (u_stage[:, :, k - 1] - u_stage[:, :, k])
        if k < depth - 1:
            d = d - gcv * 0.5 * (u_stage[:, :, k + 1] - u_stage[:, :, k])
        b = dtr_stage - acol - ccol[:, :, k]
        if k > 0:
            b = b - ccol[:, :, k - 1] * acol
            d = d - dcol[:, :, k - 1] * acol
        ccol[:, :, k] /= b
        dcol[:, :, k] = d / b
    data = dcol[:, :, -1]
    out[:, :, -1] = dtr_stage * (data - u_pos[:, :, -1])
    for k in range(depth - 2, -1, -1):
        data = dcol[:, :, k] - ccol[:, :, k] * data
        out[:, :, k] = dtr_stage * (data - u_pos[:, :, k])
    return out


def cavity_flow(u, v, p, nt, nit):
    """NPBench's cavity_flow (Barba & Forsyth's CFD Python, step 11) in its JAX form: a time
    scan whose body builds the source term, runs a nested scan of pressure sweeps and
    updates both velocities, each followed by boundary rows and columns set one by one."""
    ny, nx = u.shape
    dx, dy, dt, rho, nu = 2.0 / (nx - 1), 2.0 / (ny - 1), 0.1 / ((nx - 1) * (ny - 1)), 1.0, 0.1

    def time_step(state, _):
        u, v, p = state
        du_dx = (u[1:-1, 2:] - u[1:-1, :-2]) / (2 * dx)
        dv_dy = (v[2:, 1:-1] - v[:-2, 1:-1]) / (2 * dy)
        src = tnp.zeros((ny, nx)).at[1:-1, 1:-1].set(
            rho * (1 / dt * (du_dx + dv_dy) - du_dx**2
                   - 2 * ((u[2:, 1:-1] - u[:-2, 1:-1]) / (2 * dy)
                          * (v[1:-1, 2:] - v[1:-1, :-2]) / (2 * dx)) - dv_dy**2))

        def pressure_sweep(p, _):
            p = p.at[1:-1, 1:-1].set(((p[1:-1, 2:] + p[1:-1, :-2]) * dy**2
                                      + (p[2:, 1:-1] + p[:-2, 1:-1]) * dx**2)
                                     / (2 * (dx**2 + dy**2))
                                     - dx**2 * dy**2 / (2 * (dx**2 + dy**2)) * src[1:-1, 1:-1])
            p = p.at[:, -1].set(p[:, -2])
            p = p.at[0, :].set(p[1, :])
            p = p.at[:, 0].set(p[:, 1])
            return p.at[-1, :].set(0.0), None

        p = lax.scan(pressure_sweep, p, tnp.arange(nit))[0]
        c = (slice(1, -1), slice(1, -1))
        u_new = u.at[c].set(u[c] - u[c] * dt / dx * (u[c] - u[1:-1, :-2])
                            - v[c] * dt / dy * (u[c] - u[:-2, 1:-1])
                            - dt / (2 * rho * dx) * (p[1:-1, 2:] - p[1:-1, :-2])
                            + nu * (dt / dx**2 * (u[1:-1, 2:] - 2 * u[c] + u[1:-1, :-2])
                                    + dt / dy**2 * (u[2:, 1:-1] - 2 * u[c] + u[:-2, 1:-1])))
        v_new = v.at[c].set(v[c] - u[c] * dt / dx * (v[c] - v[1:-1, :-2])
                            - v[c] * dt / dy * (v[c] - v[:-2, 1:-1])
                            - dt / (2 * rho * dy) * (p[2:, 1:-1] - p[:-2, 1:-1])
                            + nu * (dt / dx**2 * (v[1:-1, 2:] - 2 * v[c] + v[1:-1, :-2])
                                    + dt / dy**2 * (v[2:, 1:-1] - 2 * v[c] + v[:-2, 1:-1])))
        u_new = u_new.at[0, :].set(0.0).at[:, 0].set(0.0).at[:, -1].set(0.0).at[-1, :].set(1.0)
        v_new = v_new.at[0, :].set(0.0).at[-1, :].set(0.0).at[:, 0].set(0.0).at[:, -1].set(0.0)
        return (u_new, v_new, p), None

    return lax.scan(time_step, (u, v, p), tnp.arange(nt))[0]


def np_cavity_flow(u, v, p, nt, nit):
    u, v, p = u.copy(), v.copy(), p.copy()
    ny, nx = u.shape
    dx, dy, dt, rho, nu = 2.0 / (nx - 1), 2.0 / (ny - 1), 0.1 / ((nx - 1) * (ny - 1)), 1.0, 0.1
    src = np.zeros((ny, nx))
    for _ in range(nt):
        un, vn = u.copy(), v.copy()
        du_dx = (u[1:-1, 2:] - u[1:-1, :-2]) / (2 * dx)
        dv_dy = (v[2:, 1:-1] - v[:-2, 1:-1]) / (2 * dy)
        src[1:-1, 1:-1] = rho * (1 / dt * (du_dx + dv_dy) - du_dx**2
                                 - 2 * ((u[2:, 1:-1] - u[:-2, 1:-1]) / (2 * dy)
                                        * (v[1:-1, 2:] - v[1:-1, :-2]) / (2 * dx)) - dv_dy**2)
        for _ in range(nit):
            pn = p.copy()
            p[1:-1, 1:-1] = (((pn[1:-1, 2:] + pn[1:-1, :-2]) * dy**2
                              + (pn[2:, 1:-1] + pn[:-2, 1:-1]) * dx**2)
                             / (2 * (dx**2 + dy**2))
                             - dx**2 * dy**2 / (2 * (dx**2 + dy**2)) * src[1:-1, 1:-1])
            p[:, -1] = p[:, -2]
            p[0, :] = p[1, :]
            p[:, 0] = p[:, 1]
            p[-1, :] = 0
        c = (slice(1, -1), slice(1, -1))
        u[c] = (un[c] - un[c] * dt / dx * (un[c] - un[1:-1, :-2])
                - vn[c] * dt / dy * (un[c] - un[:-2, 1:-1])
                - dt / (2 * rho * dx) * (p[1:-1, 2:] - p[1:-1, :-2])
                + nu * (dt / dx**2 * (un[1:-1, 2:] - 2 * un[c] + un[1:-1, :-2])
                        + dt / dy**2 * (un[2:, 1:-1] - 2 * un[c] + un[:-2, 1:-1])))
        v[c] = (vn[c] - un[c] * dt / dx * (vn[c] - vn[1:-1, :-2])
                - vn[c] * dt / dy * (vn[c] - vn[:-2, 1:-1])
                - dt / (2 * rho * dy) * (p[2:, 1:-1] - p[:-2, 1:-1])
                + nu * (dt / dx**2 * (vn[1:-1, 2:] - 2 * vn[c] + vn[1:-1, :-2])
                        + dt / dy**2 * (vn[2:, 1:-1] - 2 * vn[c] + vn[:-2, 1:-1])))
        u[0, :], u[:, 0], u[:, -1], u[-1, :] = 0, 0, 0, 1
        v[0, :], v[-1, :], v[:, 0], v[:, -1] = 0, 0, 0, 0
    return u, v, p


def _deriche_coefficients(alpha):
    e, e2 = math.exp(-alpha), math.exp(-2.0 * alpha)
    k = (1.0 - e) ** 2 / (1.0 + alpha * e - math.exp(2.0 * alpha))
    return k, k * e * (alpha - 1.0), k * e * (alpha + 1.0), -k * e2, 2.0 ** -alpha, -e2


def deriche(img, alpha):
    """NPBench's deriche in its JAX form: four second-order recursive filters (left to
    right, right to left, top to bottom, bottom to top), one fori_loop step per column or
    row, each step a small vector update of the carry."""
    a1, a2, a3, a4, b1, b2 = _deriche_coefficients(alpha)
    w, h = img.shape

    def forward(src, x):        # along axis 1 of `x` (columns)
        y = tnp.zeros_like(x).at[:, 0].set(a1 * x[:, 0])
        y = y.at[:, 1].set(a1 * x[:, 1] + a2 * x[:, 0] + b1 * y[:, 0])
        return lax.fori_loop(2, src, lambda j, y: y.at[:, j].set(
            a1 * x[:, j] + a2 * x[:, j - 1] + b1 * y[:, j - 1] + b2 * y[:, j - 2]), y)

    def backward(src, x):
        y = tnp.zeros_like(x).at[:, -2].set(a3 * x[:, -1])

        def step(j, y):
            i = src - 3 - j
            return y.at[:, i].set(a3 * x[:, i + 1] + a4 * x[:, i + 2]
                                  + b1 * y[:, i + 1] + b2 * y[:, i + 2])
        return lax.fori_loop(0, src - 2, step, y)

    out = forward(h, img) + backward(h, img)
    t = out.T
    return (forward(w, t) + backward(w, t)).T


def np_deriche(img, alpha):
    a1, a2, a3, a4, b1, b2 = _deriche_coefficients(alpha)

    def forward(x):
        y = np.zeros_like(x)
        y[:, 0] = a1 * x[:, 0]
        y[:, 1] = a1 * x[:, 1] + a2 * x[:, 0] + b1 * y[:, 0]
        for j in range(2, x.shape[1]):
            y[:, j] = a1 * x[:, j] + a2 * x[:, j - 1] + b1 * y[:, j - 1] + b2 * y[:, j - 2]
        return y

    def backward(x):
        y = np.zeros_like(x)
        y[:, -2] = a3 * x[:, -1]
        for i in range(x.shape[1] - 3, -1, -1):
            y[:, i] = a3 * x[:, i + 1] + a4 * x[:, i + 2] + b1 * y[:, i + 1] + b2 * y[:, i + 2]
        return y

    out = forward(img) + backward(img)
    return (forward(out.T) + backward(out.T)).T


def _spd(n, rng):
    m = rng.standard_normal((n, n))
    return m @ m.T / n + np.eye(n)


def cases(quick: bool) -> list[dict]:
    rng = np.random.default_rng(0)
    f64 = np.float64
    n_tri = 500
    lower = np.tril(rng.standard_normal((n_tri, n_tri))) + n_tri * np.eye(n_tri)
    chain = [rng.standard_normal((512, 512)) for _ in range(3)]
    a_vec = rng.standard_normal((2000, 2000))
    x_mlp = rng.standard_normal((256, 784)).astype(np.float32)
    w1 = (rng.standard_normal((784, 256)) / 28).astype(np.float32)
    w2 = (rng.standard_normal((256, 10)) / 16).astype(np.float32)
    b1, b2 = np.zeros(256, np.float32), np.zeros(10, np.float32)
    diag = rng.standard_normal((1000, 1000))
    rows = [
        dict(name="jacobi 500^2 x100", tp=jacobi, np=np_jacobi,
             args=(rng.standard_normal((500, 500)),), rtol=1e-9),
        dict(name="forward subst. 500", tp=forward_substitution, np=np_forward_substitution,
             args=(lower, rng.standard_normal(n_tri)), rtol=1e-9),
        dict(name="cholesky 400 (loop)", tp=cholesky, np=np_cholesky,
             args=(_spd(400, rng),), rtol=1e-8),
        dict(name="A @ B @ C 512 f64", tp=matmul_chain, np=matmul_chain, args=tuple(chain),
             rtol=1e-9),
        dict(name="y @ A 2000 f64", tp=vecmat, np=vecmat,
             args=(rng.standard_normal(2000), a_vec), rtol=1e-9),
        dict(name="A @ x 2000 f64", tp=matvec, np=matvec,
             args=(a_vec, rng.standard_normal(2000)), rtol=1e-9),
        dict(name="MLP 256x784 f32", tp=mlp, np=np_mlp, args=(x_mlp, w1, b1, w2, b2),
             rtol=1e-4),
        dict(name="conv2d 3x3 on 1024^2", tp=conv2d, np=conv2d,
             args=(rng.standard_normal((1024, 1024)), rng.standard_normal((3, 3))), rtol=1e-9),
        dict(name="column sum 2000^2", tp=column_sum, np=column_sum,
             args=(rng.standard_normal((2000, 2000)),), rtol=1e-9),
        dict(name="row softmax 1000^2", tp=softmax, np=np_softmax,
             args=(rng.standard_normal((1000, 1000)),), rtol=1e-9),
        dict(name="x % y 65k f32", tp=float_remainder, np=float_remainder,
             args=tuple((rng.standard_normal((2, 65536)) * [[100], [3]]).astype(np.float32)),
             rtol=0),
        dict(name="x % y 65k f64", tp=float_remainder, np=float_remainder,
             args=tuple(rng.standard_normal((2, 65536)) * [[100], [3]]), rtol=0),
        # NPBench preset S sizes (bench_info/*.json), NPBench's initial values.
        dict(name="seidel_2d S (8, 50)", tp=seidel_sweeps, np=np_seidel_sweeps,
             args=(np.fromfunction(lambda i, j: (i * (j + 2) + 2) / 50, (50, 50)), 8, 50),
             static=("steps", "n"), rtol=1e-9),
        dict(name="jacobi_2d S (50, 150)", tp=jacobi_pair, np=np_jacobi_pair,
             args=(np.fromfunction(lambda i, j: i * (j + 2) / 150 + 2, (150, 150)),
                   np.fromfunction(lambda i, j: i * (j + 3) / 150 + 3, (150, 150)), 50),
             static=("steps",), rtol=1e-9),
        dict(name="vadv S (60, 60, 40)", tp=vertical_advection, np=np_vertical_advection,
             args=(*rng.random((2, 60, 60, 40)), rng.random((61, 60, 40)),
                   *rng.random((2, 60, 60, 40)), 3.0 / 20.0), static=("dtr_stage",),
             rtol=1e-9),
        dict(name="cavity_flow S (61^2, 25, 5)", tp=cavity_flow, np=np_cavity_flow,
             args=(*np.zeros((3, 61, 61)), 25, 5), static=("nt", "nit"), rtol=1e-9),
        dict(name="deriche S (400, 200)", tp=deriche, np=np_deriche,
             args=(rng.random((400, 200)), 0.25), static=("alpha",), rtol=1e-9),
        dict(name="A[i,i] updates x250", tp=element_updates, np=np_element_updates,
             args=(diag, 250), static=("steps",), rtol=1e-12),
        dict(name="A[i,i] updates x1000", tp=element_updates, np=np_element_updates,
             args=(diag, 1000), static=("steps",), rtol=1e-12),
    ]
    for row in rows:
        row.setdefault("static", ())
        assert all(a.dtype in (f64, np.float32) for a in row["args"] if hasattr(a, "dtype"))
    return rows


# -- timing -----------------------------------------------------------------------------------

CLOCK = time.perf_counter     # --cpu-time: time.thread_time (see parse_args)


def calibrate(call, sample_seconds: float) -> tuple[int, float]:
    """(calls per sample of about `sample_seconds`, seconds of one call)."""
    n, start = 0, CLOCK()
    while (elapsed := CLOCK() - start) < sample_seconds:
        call()
        n += 1
    return max(1, round(n * sample_seconds / elapsed)), elapsed / n


def median_seconds(calls: dict, cfg) -> dict:
    """Median per-call seconds of each warmed-up call, samples interleaved."""
    inner, one = {}, {}
    for name, call in calls.items():
        inner[name], one[name] = calibrate(call, cfg.sample_seconds)
    round_seconds = sum(inner[k] * one[k] for k in calls)
    repeats = max(3, min(cfg.repeats, int(cfg.budget_seconds / max(round_seconds, 1e-9))))
    samples = {name: [] for name in calls}
    gc.collect()
    gc.disable()
    try:
        for _ in range(repeats):
            for name, call in calls.items():
                settle(call)
                start = CLOCK()
                for _ in range(inner[name]):
                    call()
                samples[name].append((CLOCK() - start) / inner[name])
    finally:
        gc.enable()
    return {name: statistics.median(s) for name, s in samples.items()}


def _split(case):
    """(positional array args, static keyword args) of a case."""
    names = case["static"]
    arrays = case["args"][:len(case["args"]) - len(names)]
    statics = dict(zip(names, case["args"][len(arrays):]))
    return arrays, statics


def transpile_call(case):
    arrays, statics = _split(case)
    f = tp.jit(case["tp"], static_argnames=tuple(statics))
    return lambda: f(*arrays, **statics)


def jax_call(case):
    arrays, statics = _split(case)
    # The programs above are jax.numpy-compatible: run them under JAX by swapping the modules
    # they read (`tnp`, `lax`) while JAX traces them (once: shapes and statics stay fixed).
    saved = {"tnp": tnp, "lax": lax}
    globals().update(tnp=jnp, lax=jax.lax)
    try:
        f = jax.jit(case["tp"], static_argnames=tuple(statics))
        dev = [jnp.asarray(a) for a in arrays]
        jax.block_until_ready(f(*dev, **statics))
    finally:
        globals().update(saved)
    return lambda: jax.block_until_ready(f(*dev, **statics))


def numba_call(case):
    """The row's Numba version on the same arguments (statics passed positionally)."""
    version = programs_numba.BY_PROGRAM[case["tp"].__name__]
    return lambda: version(*case["args"])


def run_cases(cfg) -> list[dict]:
    rows = []
    for case in cases(cfg.quick):
        if cfg.only and not any(s in case["name"] for s in cfg.only):
            continue
        expected = case["np"](*case["args"])
        makers = {"transpile": lambda: transpile_call(case),
                  "numpy": lambda: (lambda: case["np"](*case["args"]))}
        row = {"name": case["name"], "jax": "not installed", "numba": "not installed"}
        if jax is not None and cfg.cpu_time:
            # XLA computes on its own threads: the calling thread's clock would read ~0.
            row["jax"] = "not timed (--cpu-time)"
        elif jax is not None:
            makers["jax"] = lambda: jax_call(case)
        if numba is not None:
            makers["numba"] = lambda: numba_call(case)
        calls = {}
        for name, make in makers.items():
            call = prepare(make, expected, case)
            if isinstance(call, str):
                row[name] = call
            else:
                calls[name] = call
        row.update(median_seconds(calls, cfg))
        rows.append(row)
        print(f"  measured {case['name']}", file=sys.stderr, flush=True)
    return rows


# -- report -----------------------------------------------------------------------------------

def fmt(value) -> str:
    if isinstance(value, str):
        return value
    return f"{value * 1e3:.3f} ms" if value < 1.0 else f"{value:.2f} s"


def ratio(num, den):
    return num / den if isinstance(num, float) and isinstance(den, float) else None


def versus_numpy(row, who) -> str:
    """A JAX or Numba cell: its time and its speed-up over NumPy, or why there is none."""
    s = ratio(row.get("numpy"), row.get(who))
    return f"{fmt(row[who])} ({s:.2f}x)" if s else fmt(row.get(who, "-"))


def geometric_mean(values) -> float:
    return math.exp(sum(map(math.log, values)) / len(values))


def print_table(rows, before: dict) -> None:
    head = ["pattern", "transpile", "numpy", "speed-up", "jax", "numba"]
    if before:
        head[1:1] = ["before"]
        head.insert(5, "before speed-up")
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    speedups = []
    for row in rows:
        s = ratio(row.get("numpy"), row.get("transpile"))
        if s:
            speedups.append(s)
        cells = [row["name"], fmt(row.get("transpile", "-")), fmt(row.get("numpy", "-")),
                 f"{s:.2f}x" if s else "-"]
        cells += [versus_numpy(row, "jax"), versus_numpy(row, "numba")]
        if before:
            old = before.get(row["name"], {})
            cells.insert(1, fmt(old.get("transpile", "-")))
            s_old = ratio(old.get("numpy"), old.get("transpile"))
            cells.insert(5, f"{s_old:.2f}x" if s_old else "-")
        print("| " + " | ".join(cells) + " |")
    if speedups:
        geo = geometric_mean(speedups)
        worst = min(speedups)
        print(f"\ngeometric mean speed-up vs NumPy: {geo:.2f}x (target >= {TARGET_GEOMEAN}x: "
              f"{'PASS' if geo >= TARGET_GEOMEAN else 'FAIL'}); slowest pattern {worst:.2f}x "
              f"(target >= {TARGET_EACH}x: {'PASS' if worst >= TARGET_EACH else 'FAIL'})")
    for who in ("jax", "numba"):
        theirs = [ratio(r.get("numpy"), r.get(who)) for r in rows]
        if theirs and all(theirs):
            print(f"{who}: geometric mean speed-up vs NumPy {geometric_mean(theirs):.2f}x")
    old = [ratio(before.get(r["name"], {}).get("numpy"),
                 before.get(r["name"], {}).get("transpile")) for r in rows] if before else []
    if old and all(old):
        print(f"before: geometric mean {geometric_mean(old):.2f}x")
    by_name = {r["name"]: r for r in rows}
    small, big = by_name.get("A[i,i] updates x250", {}), by_name.get("A[i,i] updates x1000", {})
    for who in ("transpile", "numpy", "jax", "numba"):
        if isinstance(small.get(who), float) and isinstance(big.get(who), float):
            # Both runs copy the 1000x1000 input once; the difference is 750 steps.
            step = (big[who] - small[who]) / 750
            print(f"element-update loop, {who}: {step * 1e6:.2f} us per extra step "
                  f"(linear growth: a constant cost per step, not a pass over the array)")


def print_environment(cfg) -> None:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    print(f"bench_programs: {platform.python_implementation()} {platform.python_version()}, "
          f"numpy {np.__version__}, {os.cpu_count()} CPUs, OMP_NUM_THREADS="
          f"{os.environ.get('OMP_NUM_THREADS', 'unset')}, OMP_WAIT_POLICY="
          f"{os.environ.get('OMP_WAIT_POLICY', 'unset')}, GOMP_SPINCOUNT="
          f"{os.environ.get('GOMP_SPINCOUNT', 'unset')} (after the run), load average "
          f"{load:.2f}; "
          f"jax {'not installed' if jax is None else jax.__version__}, "
          f"numba {'not installed' if numba is None else numba.__version__}")


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="fewer, shorter samples")
    p.add_argument("--only", nargs="*", default=[], help="patterns whose name contains these")
    p.add_argument("--save", help="write the medians to this JSON file")
    p.add_argument("--before", help="JSON from an earlier --save: adds a 'before' column")
    p.add_argument("--cpu-time", action="store_true",
                   help="time with the calling thread's CPU time instead of the wall clock: "
                        "immune to other jobs on a loaded machine, but only meaningful with "
                        "one thread (OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1)")
    cfg = p.parse_args(argv)
    if cfg.cpu_time:
        global CLOCK
        CLOCK = time.thread_time
        if numba is not None:
            # Numba ignores OMP_NUM_THREADS: without this its prange loops would run partly
            # on threads whose CPU time the clock does not count.
            numba.set_num_threads(1)
    cfg.repeats = 7 if cfg.quick else 21
    cfg.sample_seconds = 0.01 if cfg.quick else 0.02
    cfg.budget_seconds = 2.0 if cfg.quick else 6.0
    return cfg


def main(argv=None) -> None:
    cfg = parse_args(argv)
    root = tempfile.mkdtemp(prefix="tp-bench-cache-")
    saved = os.environ.get("TRANSPILE_CACHE_DIR")
    os.environ["TRANSPILE_CACHE_DIR"] = root
    try:
        rows = run_cases(cfg)
        print_environment(cfg)
    finally:
        if saved is None:
            os.environ.pop("TRANSPILE_CACHE_DIR", None)
        else:
            os.environ["TRANSPILE_CACHE_DIR"] = saved
        shutil.rmtree(root, ignore_errors=True)
    before = {}
    if cfg.before:
        with open(cfg.before) as f:
            before = json.load(f)
    print_table(rows, before)
    if cfg.save:
        with open(cfg.save, "w") as f:
            json.dump({r["name"]: r for r in rows}, f, indent=1)


if __name__ == "__main__":
    main()
