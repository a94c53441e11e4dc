"""Matrix products in fori_loop bodies bounded by the loop index (codegen/loop_ranges.py):
the contraction stops where both operands are still zero, rows nobody reads are not
computed. Values must equal NumPy's and the interpreter's; the bounds must appear exactly
when the facts hold (never when one operand only is zero, or when every row is read)."""
from __future__ import annotations

import numpy as np

import transpile as tp
import transpile.numpy as tnp
from transpile import lax

N = 40


def _spd(n=N):
    m = np.random.default_rng(3).standard_normal((n, n))
    return m @ m.T / n + np.eye(n)


def cholesky(a):
    n = a.shape[0]
    rows = tnp.arange(n)

    def step(j, low):
        v = a[:, j] - low @ low[j]
        return low.at[:, j].set(tnp.where(rows >= j, v / tnp.sqrt(v[j]), 0.0))
    return lax.fori_loop(0, n, step, tnp.zeros_like(a))


def _bounds(fn, *args):
    src = tp.jit(fn).lower(*args).source
    return "const int64_t depth" in src, "const int64_t first" in src


def test_cholesky_loop_is_bounded_and_exact():
    a = _spd()
    got = tp.jit(cholesky)(a)
    np.testing.assert_allclose(got, np.linalg.cholesky(a), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(got, tp.jit(cholesky, backend="interpret")(a), rtol=1e-13,
                               atol=1e-13)
    assert _bounds(cholesky, a) == (True, True)


def test_nonzero_start_keeps_the_whole_contraction():
    def build(a):
        def step(j, low):
            v = a[:, j] - low @ low[j] / 1000.0
            return low.at[:, j].set(v)
        return lax.fori_loop(0, a.shape[0], step, tnp.ones_like(a))

    def reference(a):
        low = np.ones_like(a)
        for j in range(a.shape[0]):
            low[:, j] = a[:, j] - low @ low[j] / 1000.0
        return low
    a = _spd()
    np.testing.assert_allclose(tp.jit(build)(a), reference(a), rtol=1e-12)
    assert _bounds(build, a) == (False, False)


def test_one_zero_operand_does_not_cut_the_sum():
    """x is zero beyond i, but the row of `low` is not: inf * 0 must still make NaN."""
    def solve(low, b):
        def step(i, x):
            return x.at[i].set((b[i] - low @ x)[i] / low[i, i])
        return lax.fori_loop(0, b.shape[0], step, tnp.zeros_like(b))
    low = np.tril(_spd()) + np.triu(np.full((N, N), np.inf), 1)
    b = np.ones(N)
    x = np.zeros(N)
    with np.errstate(invalid="ignore"):
        for i in range(N):
            x[i] = (b[i] - low @ x)[i] / low[i, i]
        got = tp.jit(solve)(low, b)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(x))
    assert np.isnan(got[1:]).all()
    assert not _bounds(solve, low, b)[0]


def test_rows_read_in_full_are_all_computed():
    """The product's rows above j also feed a sum carried out of the loop."""
    def build(a):
        n = a.shape[0]
        rows = tnp.arange(n)

        def step(j, state):
            low, total = state
            v = a[:, j] - low @ low[j]
            column = tnp.where(rows >= j, v / tnp.sqrt(v[j]), 0.0)
            return low.at[:, j].set(column), total + v.sum()
        return lax.fori_loop(0, n, step, (tnp.zeros_like(a), 0.0))

    a = _spd()
    low, total = tp.jit(build)(a)
    ref_low, ref_total = tp.jit(build, backend="interpret")(a)
    np.testing.assert_allclose(low, ref_low, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(total, ref_total, rtol=1e-12)
    assert _bounds(build, a) == (True, False)


def test_a_print_in_the_body_reads_every_row():
    """debug.print has no outputs and reads its operand in full: no row bound."""
    def build(a):
        n = a.shape[0]
        rows = tnp.arange(n)

        def step(j, low):
            v = a[:, j] - low @ low[j]
            tp.debug.print("{}", v[0])
            return low.at[:, j].set(tnp.where(rows >= j, v / tnp.sqrt(v[j]), 0.0))
        return lax.fori_loop(0, n, step, tnp.zeros_like(a))
    a = _spd(4)
    np.testing.assert_allclose(tp.jit(build)(a), np.linalg.cholesky(a), rtol=1e-12)
    assert _bounds(build, a) == (True, False)
