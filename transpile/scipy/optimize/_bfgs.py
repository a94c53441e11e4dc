"""`minimize(fun, x0, args, method="BFGS")`: JAX's `jax.scipy.optimize.minimize` front end
over BFGS (Nocedal and Wright's Algorithm 6.1) with a strong-Wolfe line search (their
Algorithms 3.5 and 3.6: bracket, then zoom by safeguarded cubic interpolation).

Everything is one `lax.while_loop` (the line search is a nested one), so it runs eagerly, under
`jit` and under `vmap` like JAX's. Results are JAX's `OptimizeResults` fields; stopping follows
JAX: the gradient's norm below `gtol` (default 1e-5, infinity norm; `tol` is unused, as in
JAX), at most 200 n iterations; status 0 converged, 1 iteration limit, 3 line search failed.
At convergence `x` agrees with JAX's to the tolerance; the iteration and evaluation counts are
this line search's, which picks trial steps its own way, so they can differ from JAX's.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ... import numpy as tnp
from ...autodiff.api import value_and_grad
from ...lax import while_loop

_C1, _C2 = 1e-4, 0.9          # sufficient decrease, curvature (Nocedal and Wright's values)


class OptimizeResults(NamedTuple):
    x: object
    success: object
    status: object
    fun: object
    jac: object
    hess_inv: object
    nfev: object
    njev: object
    nit: object


class _Search(NamedTuple):
    """Line-search state: the bracket [lo, hi] (step, value, slope at each end) while
    zooming, the previous trial while bracketing, and the accepted step once done."""
    i: object
    zooming: object
    done: object
    a_prev: object
    f_prev: object
    d_prev: object
    a: object
    lo: object
    f_lo: object
    d_lo: object
    hi: object
    f_hi: object
    d_hi: object
    best: object
    f_best: object
    g_best: object


def _cubic_minimiser(a, fa, da, b, fb, db):
    """The minimiser of the cubic through (a, fa, da) and (b, fb, db), kept well inside the
    interval (bisection where the cubic has none there)."""
    # Denominators made safe where they vanish (an empty bracket before zooming starts, a
    # degenerate cubic): those steps are discarded by the test below, without 0/0 warnings.
    gap = tnp.where(a == b, 1.0, a - b)
    d1 = da + db - 3 * (fa - fb) / gap
    disc = d1 * d1 - da * db
    root = tnp.sqrt(tnp.maximum(disc, 0.0))
    d2 = tnp.where(b > a, root, -root)
    denominator = db - da + 2 * d2
    step = b - (b - a) * (db + d2 - d1) / tnp.where(denominator == 0, 1.0, denominator)
    low, high = tnp.minimum(a, b), tnp.maximum(a, b)
    margin = 0.1 * (high - low)
    fine = (disc >= 0) & (denominator != 0) & (a != b) & tnp.isfinite(step) \
        & (step > low + margin) & (step < high - margin)
    return tnp.where(fine, step, 0.5 * (a + b))


def _line_search(value_grad, x, p, f0, g0, first_step, maxiter):
    """A step length a along p meeting the strong Wolfe conditions: (a, f, g, evaluations,
    failed)."""
    d0 = tnp.dot(g0, p)
    zero = tnp.zeros_like(d0)

    def evaluate(a):
        f, g = value_grad(x + a * p)
        return f, g, tnp.dot(g, p)

    def unfinished(s):
        return (~s.done) & (s.i < maxiter)

    def trial(s):
        a = tnp.where(s.zooming, _cubic_minimiser(s.lo, s.f_lo, s.d_lo, s.hi, s.f_hi, s.d_hi),
                      s.a)
        f, g, d = evaluate(a)
        armijo_fails = f > f0 + _C1 * a * d0
        curvature_met = tnp.abs(d) <= -_C2 * d0
        # bracketing (Algorithm 3.5)
        bracket_hi = armijo_fails | ((s.i > 0) & (f >= s.f_prev))
        bracket_flip = (~bracket_hi) & (~curvature_met) & (d >= 0)
        start_zoom = (~s.zooming) & (bracket_hi | bracket_flip)
        # zooming (Algorithm 3.6)
        replaces_hi = armijo_fails | (f >= s.f_lo)
        accepted = (~armijo_fails) & (~(s.zooming & replaces_hi)) & curvature_met \
            & ~(~s.zooming & bracket_hi)
        flip = (~replaces_hi) & (d * (s.hi - s.lo) >= 0)

        # new bracket ends: while zooming, a replaces hi, or becomes lo (old lo -> hi on flip)
        lo_z = tnp.where(replaces_hi, s.lo, a)
        hi_z = tnp.where(replaces_hi, a, tnp.where(flip, s.lo, s.hi))
        f_lo_z = tnp.where(replaces_hi, s.f_lo, f)
        f_hi_z = tnp.where(replaces_hi, f, tnp.where(flip, s.f_lo, s.f_hi))
        d_lo_z = tnp.where(replaces_hi, s.d_lo, d)
        d_hi_z = tnp.where(replaces_hi, d, tnp.where(flip, s.d_lo, s.d_hi))
        # on starting to zoom: [a_prev, a] when a overshot, [a, a_prev] when the slope turned
        lo_b = tnp.where(bracket_hi, s.a_prev, a)
        hi_b = tnp.where(bracket_hi, a, s.a_prev)
        f_lo_b = tnp.where(bracket_hi, s.f_prev, f)
        f_hi_b = tnp.where(bracket_hi, f, s.f_prev)
        d_lo_b = tnp.where(bracket_hi, s.d_prev, d)
        d_hi_b = tnp.where(bracket_hi, d, s.d_prev)
        zooming = s.zooming | start_zoom
        better = (f < s.f_best) & ~armijo_fails
        return _Search(
            i=s.i + 1, zooming=zooming, done=accepted,
            a_prev=a, f_prev=f, d_prev=d, a=tnp.where(zooming, s.a, 2 * a),
            lo=tnp.where(s.zooming, lo_z, tnp.where(start_zoom, lo_b, s.lo)),
            hi=tnp.where(s.zooming, hi_z, tnp.where(start_zoom, hi_b, s.hi)),
            f_lo=tnp.where(s.zooming, f_lo_z, tnp.where(start_zoom, f_lo_b, s.f_lo)),
            f_hi=tnp.where(s.zooming, f_hi_z, tnp.where(start_zoom, f_hi_b, s.f_hi)),
            d_lo=tnp.where(s.zooming, d_lo_z, tnp.where(start_zoom, d_lo_b, s.d_lo)),
            d_hi=tnp.where(s.zooming, d_hi_z, tnp.where(start_zoom, d_hi_b, s.d_hi)),
            best=tnp.where(accepted | better, a, s.best),
            f_best=tnp.where(accepted | better, f, s.f_best),
            g_best=tnp.where(accepted | better, g, s.g_best))

    start = _Search(i=0, zooming=tnp.asarray(False), done=tnp.asarray(False),
                    a_prev=zero, f_prev=f0, d_prev=d0, a=first_step,
                    lo=zero, f_lo=f0, d_lo=d0, hi=zero, f_hi=f0, d_hi=d0,
                    best=zero, f_best=f0, g_best=g0)
    s = while_loop(unfinished, trial, start)
    return s.best, s.f_best, s.g_best, s.i, ~s.done


class _State(NamedTuple):
    k: object
    converged: object
    failed: object
    x: object
    f: object
    g: object
    H: object
    f_before: object
    nfev: object


def _bfgs(fun, x0, maxiter, norm, gtol, line_search_maxiter):
    value_grad = value_and_grad(fun)
    n = x0.shape[0]
    f0, g0 = value_grad(x0)
    H0 = tnp.eye(n, dtype=x0.dtype)

    def not_finished(s):
        return (~s.converged) & (~s.failed) & (s.k < maxiter)

    def iterate(s):
        p = -tnp.dot(s.H, s.g)
        d0 = tnp.dot(s.g, p)
        # the first trial step: the quadratic model's, from the last decrease (as SciPy)
        guess = 1.01 * 2 * (s.f - s.f_before) / d0
        first = tnp.where((guess > 0) & tnp.isfinite(guess), tnp.minimum(1.0, guess), 1.0)
        a, f, g, evaluations, failed = _line_search(value_grad, s.x, p, s.f, s.g,
                                                    first.astype(s.f.dtype), line_search_maxiter)
        step = a * p
        y = g - s.g
        rho = 1.0 / tnp.dot(y, step)
        w = tnp.eye(n, dtype=s.H.dtype) - rho * tnp.outer(step, y)
        H = w @ s.H @ w.T + rho * tnp.outer(step, step)
        H = tnp.where(tnp.isfinite(rho) & (rho > 0), H, s.H)
        converged = tnp.linalg.norm(g, ord=norm) < gtol
        return _State(k=s.k + 1, converged=converged, failed=failed, x=s.x + step, f=f, g=g,
                      H=H, f_before=s.f, nfev=s.nfev + evaluations)

    start = _State(k=0, converged=tnp.linalg.norm(g0, ord=norm) < gtol,
                   failed=tnp.asarray(False), x=x0, f=f0, g=g0, H=H0,
                   f_before=f0 + tnp.linalg.norm(g0) / 2, nfev=1)
    s = while_loop(not_finished, iterate, start)
    status = tnp.where(s.converged, 0, tnp.where(s.k == maxiter, 1, tnp.where(s.failed, 3, -1)))
    return OptimizeResults(x=s.x, success=s.converged & ~s.failed, status=status, fun=s.f,
                           jac=s.g, hess_inv=s.H, nfev=s.nfev, njev=s.nfev, nit=s.k)


def minimize(fun, x0, args=(), *, method, tol=None, options=None):
    """Minimise `fun(x, *args)` over a 1-D `x0` (JAX's jax.scipy.optimize.minimize)."""
    if not isinstance(method, str) or method.lower() != "bfgs":
        raise ValueError(f"minimize: method={method!r} is not supported; transpile has "
                         "method='BFGS'")
    options = dict(options or {})
    known = {"maxiter", "norm", "gtol", "line_search_maxiter"}
    unknown = set(options) - known
    if unknown:
        raise TypeError(f"minimize: unknown options {sorted(unknown)} for BFGS (accepted: "
                        f"{sorted(known)})")
    # `tol` is accepted and, as in JAX 0.10, unused: pass options={"gtol": ...} to tighten.
    if not isinstance(args, tuple):
        raise TypeError(f"minimize: 'args' must be a tuple, got {type(args).__name__}")
    x0 = tnp.asarray(x0)
    if x0.ndim != 1:
        raise ValueError(f"minimize: 'x0' must be a 1-D array, got shape {x0.shape}; ravel it "
                         "(and reshape inside fun)")
    if not tnp.issubdtype(x0.dtype, tnp.floating):
        x0 = x0.astype(tnp.result_type(float))
    maxiter = options.get("maxiter")
    maxiter = 200 * x0.shape[0] if maxiter is None else maxiter
    return _bfgs(lambda x: fun(x, *args), x0, maxiter, options.get("norm", np.inf),
                 options.get("gtol", 1e-5), options.get("line_search_maxiter", 10))


__all__ = ["OptimizeResults", "minimize"]
