"""Record JAX's values for the jax.scipy.stats distributions and summaries beyond those in
tools/record_jax_names.py (t, laplace, logistic, cauchy, expon, chi2, binom, geom, nbinom,
betabinom, dirichlet, truncnorm, multinomial, vonmises, gumbel_l, gumbel_r, pareto, gennorm,
wrapcauchy, mode, rankdata, sem), as test data for tests/test_scipy_stats_more.py.

JAX is not a dependency of transpile; run with a separate environment that has it:

    /tmp/jaxenv/bin/python tools/record_jax_stats.py tests/data/jax_stats.json

x64 is on; every case is recorded once with float32 and once with float64 arrays (Python
floats among the arguments are weak and take the arrays' dtype). The encoding is
record_jax_names.py's (a case is {"fn", "args", "kwargs", "out"}), so the tests decode it
with tests/jax_names_data.py.
"""
from __future__ import annotations

import json
import math
import os
import sys
from decimal import Decimal, getcontext

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from record_jax_names import FLOATS, PROB, X, arr, encode  # noqa: E402  (turns x64 on)
from record_jax_names import case as jax_case  # noqa: E402

NAN, INF = float("nan"), float("inf")
# Probabilities for quantile functions: JAX's answers at the ends and outside [0, 1] too.
QUANTILES = PROB + [-0.1, 1.5, NAN]
WITH_EDGES = X + [NAN, INF, -INF]


# Where JAX's value loses digits to a difference of gammaln values (t's normalizer at large
# df: 7e-4 in float32, 2e-12 in float64 at df = 1e4, where SciPy's is off by 2e-12 too;
# betabinom through JAX's betaln, off by up to 6e-7 in float64), a more accurate value on the
# same inputs, rounded to the case's dtype, is recorded beside JAX's as "reference": t's from
# 50-digit decimal arithmetic, betabinom's from SciPy in float64 (k floored first, as JAX's
# is; SciPy's gives -inf off the integers). poisson.entropy's too: JAX's sums too few terms
# below mu = 10 and keeps one correction term of the asymptotic series (1e-6 relative error
# at mu = 10 and 100); SciPy's is exact to 1e-13 up to mu = 1000 (not beyond: at 1e5 its
# sum gives half the entropy).
REFERENCED = {"stats.t", "stats.betabinom", "stats.poisson"}
PI_50 = "3.1415926535897932384626433832795028841971693993751"
BERNOULLI = [(1, 6), (-1, 30), (1, 42), (-1, 30), (5, 66), (-691, 2730), (7, 6), (-3617, 510)]


def decimal_lgamma(x):
    """log Γ(x) for x > 0 to about 45 digits: shifted up past 60 by Γ(x + 1) = x Γ(x), then
    Stirling's series."""
    shift = Decimal(0)
    while x < 60:
        shift -= x.ln()
        x += 1
    total = (x - Decimal("0.5")) * x.ln() - x + (2 * Decimal(PI_50)).ln() / 2
    for k, (num, den) in enumerate(BERNOULLI, 1):
        total += Decimal(num) / (den * 2 * k * (2 * k - 1) * x ** (2 * k - 1))
    return total + shift


def exact_t_logpdf(x, df, loc, scale):
    if math.isinf(x) and all(map(math.isfinite, (df, loc, scale))):
        return -math.inf
    if not all(map(math.isfinite, (x, df, loc, scale))):
        return math.nan
    x, df, loc, scale = map(Decimal, (x, df, loc, scale))
    z = (x - loc) / scale
    half = df / 2
    log_norm = decimal_lgamma(half) - decimal_lgamma(half + Decimal("0.5")) \
        + (Decimal(PI_50) * scale * scale * df).ln() / 2
    return float(-(log_norm + (half + Decimal("0.5")) * (1 + z * z / df).ln()))


def reference(fn, args):
    dist, method = fn.split(".")[1:]
    wide = np.broadcast_arrays(*[np.asarray(a, dtype=np.float64) for a in args])
    if dist == "t":
        getcontext().prec = 50
        defaults = (0.0, 1.0)[len(wide) - 2:]               # loc and scale where not given
        values = np.array([exact_t_logpdf(*(tuple(float(w[i]) for w in wide) + defaults))
                           for i in np.ndindex(wide[0].shape)]).reshape(wide[0].shape)
        return values if method == "logpdf" else np.exp(values)
    import scipy.stats
    if dist == "poisson":
        return scipy.stats.poisson.entropy(*wide)
    with np.errstate(all="ignore"):
        return getattr(scipy.stats.betabinom, method)(np.floor(wide[0]), *wide[1:])


def case(fn, *args, **kwargs):
    entry = jax_case(fn, *args, **kwargs)
    if fn.rsplit(".", 1)[0] in REFERENCED:
        dtype = np.asarray(args[0]).dtype
        entry["reference"] = encode(np.asarray(reference(fn, args)).astype(dtype))
    return entry


def continuous_cases(dt):
    x, q = arr(WITH_EDGES, dt), arr(QUANTILES, dt)
    pos = arr([-1.0, 0.0, 1e-3, 0.1, 0.5, 1.0, 2.0, 3.5, 10.0, 50.0, NAN], dt)
    loc, scale = arr([1.5], dt), arr([2.0], dt)
    bad_scale = arr([2.0, -1.0, 0.0, 0.5], dt)
    cases = []
    for fn in ("logpdf", "pdf"):
        cases += [case(f"stats.t.{fn}", x, 3.0), case(f"stats.t.{fn}", x, 0.5, loc, scale),
                  case(f"stats.t.{fn}", x[:4], arr([1.0, 2.5, 30.0, 1e4], dt)),
                  case(f"stats.vonmises.{fn}", x, arr([2.0], dt)),
                  case(f"stats.vonmises.{fn}", arr([0.0, 1.0, 3.0, -2.0, 0.5], dt),
                       arr([0.5, 50.0, 500.0, 0.0, -1.0], dt)),
                  case(f"stats.gennorm.{fn}", x, 1.5), case(f"stats.gennorm.{fn}", x[:13], 8.0),
                  case(f"stats.wrapcauchy.{fn}", arr([-0.5, 0.0, 1.0, 3.0, 2 * math.pi, 7.0,
                                                       NAN], dt), 0.5),
                  case(f"stats.wrapcauchy.{fn}", arr([1.0, 1.0, 1.0, 1.0], dt),
                       arr([0.0, 1.0, 0.99, -0.5], dt))]
    for fn in ("logpdf", "pdf", "cdf"):
        cases += [case(f"stats.laplace.{fn}", x), case(f"stats.laplace.{fn}", x, loc, scale)]
    cases += [case("stats.gennorm.cdf", x[:13], 2.0), case("stats.gennorm.cdf", x, 0.7),
              case("stats.gennorm.logpdf", x[:13], 1.0)]
    for fn in ("logpdf", "pdf", "cdf", "sf"):
        cases += [case(f"stats.logistic.{fn}", x), case(f"stats.logistic.{fn}", x, loc, scale)]
    for fn in ("ppf", "isf"):
        cases += [case(f"stats.logistic.{fn}", q), case(f"stats.logistic.{fn}", q, loc, scale)]
    interior = arr([1e-3, 0.1, 0.3, 0.5, 0.7, 0.9, 0.999], dt)
    for fn in ("logpdf", "pdf", "cdf", "logcdf", "sf", "logsf"):
        cases += [case(f"stats.cauchy.{fn}", x[:13]), case(f"stats.cauchy.{fn}", x, loc, scale),
                  case(f"stats.expon.{fn}", x), case(f"stats.expon.{fn}", x, loc, scale),
                  case(f"stats.chi2.{fn}", pos, 3.0), case(f"stats.chi2.{fn}", pos, 1.0),
                  case(f"stats.chi2.{fn}", pos, 4.5, arr([0.5], dt), scale),
                  case(f"stats.gumbel_r.{fn}", x), case(f"stats.gumbel_r.{fn}", x[:13], 0.5,
                                                         bad_scale[:, None]),
                  case(f"stats.gumbel_l.{fn}", x), case(f"stats.gumbel_l.{fn}", x[:13], 0.5,
                                                         bad_scale[:, None]),
                  case(f"stats.pareto.{fn}", pos, 2.0), case(f"stats.pareto.{fn}", x, 3.0, loc,
                                                             scale)]
        cases += [case(f"stats.truncnorm.{fn}", x, -1.0, 2.0),
                  case(f"stats.truncnorm.{fn}", x, 1.0, 3.0, loc, scale),
                  case(f"stats.truncnorm.{fn}", x[:13], -6.0, -3.0),
                  case(f"stats.truncnorm.{fn}", arr([0.5, 0.5, 0.5], dt),
                       arr([0.0, 1.0, 2.0], dt), arr([1.0, 1.0, 1.0], dt))]
    cases += [case("stats.cauchy.ppf", interior), case("stats.cauchy.isf", interior, loc, scale),
              case("stats.expon.ppf", q), case("stats.expon.ppf", q, loc, scale)]
    cases += [case("stats.gumbel_r.ppf", q), case("stats.gumbel_r.ppf", q, loc, scale),
              case("stats.gumbel_l.ppf", q), case("stats.gumbel_l.ppf", q, loc, scale),
              case("stats.pareto.ppf", q, 2.0), case("stats.pareto.ppf", q, 3.0, loc, scale)]
    return cases


def discrete_cases(dt):
    cases = []
    k = arr([-1.0, 0.0, 1.0, 2.0, 3.0, 5.0, 10.0, 11.0, 2.5, NAN], dt)
    for fn in ("logpmf", "pmf"):
        cases += [case(f"stats.binom.{fn}", k, 10.0, 0.3),
                  case(f"stats.binom.{fn}", k, 10.0, 0.3, 1.0),
                  case(f"stats.binom.{fn}", arr([0.0, 0.0, 10.0, 0.0, 5.0], dt),
                       arr([0.0, 10.0, 10.0, 10.0, 10.0], dt),
                       arr([0.5, 0.0, 1.0, 1.0, 0.5], dt)),
                  case(f"stats.geom.{fn}", k, 0.3), case(f"stats.geom.{fn}", k, 1.0, 2.0),
                  case(f"stats.nbinom.{fn}", k, 3.0, 0.4),
                  case(f"stats.nbinom.{fn}", k, 2.5, arr([0.9], dt), 1.0),
                  case(f"stats.betabinom.{fn}", k, 10.0, 2.0, 3.0),
                  case(f"stats.betabinom.{fn}", k, 10.0, 0.5, 0.5, 1.0),
                  case(f"stats.betabinom.{fn}", arr([0.0, 1.0, 1.0, 1.0], dt),
                       arr([0.0, -1.0, 5.0, 5.0], dt), arr([1.0, 1.0, -1.0, 1.0], dt),
                       arr([1.0, 1.0, 1.0, 0.0], dt))]
    cases += [case("stats.poisson.entropy",
                   arr([0.0, 0.5, 3.0, 9.9, 10.0, 50.0, 99.0, 100.0, 499.0, 500.0, 1e3], dt)),
              case("stats.poisson.entropy", arr([[2.0], [700.0]], dt), arr([0.0, 1.0], dt))]
    # Far out, JAX's one-term series is as good as ours (its error is 1/(24 mu^2)).
    cases += [jax_case("stats.poisson.entropy", arr([1e5, 1e7], dt))]
    simplex = arr([[0.2, 0.5, 0.3, 0.0], [0.3, 0.25, 0.3, 0.5], [0.5, 0.25, 0.5, 0.5]], dt)
    alpha = arr([1.5, 2.0, 0.7], dt)
    counts = arr([[2, 3, 5], [0, 0, 10], [1, 1, 1]], "int32")
    for fn in ("logpdf", "pdf"):
        cases += [case(f"stats.dirichlet.{fn}", simplex, alpha),
                  case(f"stats.dirichlet.{fn}", simplex[:2], alpha),
                  case(f"stats.dirichlet.{fn}", arr([0.2, 0.3, 0.5], dt), arr([1.0, 1.0, 1.0], dt))]
    for fn in ("logpmf", "pmf"):
        cases += [case(f"stats.multinomial.{fn}", counts[0], 10, arr([0.2, 0.3, 0.5], dt)),
                  case(f"stats.multinomial.{fn}", counts[1], 10, arr([0.2, 0.0, 0.8], dt)),
                  case(f"stats.multinomial.{fn}", counts[2], 4, arr([0.2, 0.3, 0.5], dt))]
    return cases


def summary_cases(dt):
    data = arr([[3.0, 1.0, 3.0, 2.0, 3.0, 1.0], [0.5, -2.0, 0.5, 7.0, -2.0, 4.0]], dt)
    with_nan = arr([[1.0, NAN, 2.0], [2.0, 2.0, 1.0]], dt)
    cases = []
    for method in ("average", "min", "max", "dense", "ordinal"):
        cases += [case("stats.rankdata", data, method),
                  case("stats.rankdata", data, method, axis=1),
                  case("stats.rankdata", with_nan, method, axis=1)]
    cases += [case("stats.rankdata", with_nan), case("stats.rankdata", data, axis=0)]
    cases += [case("stats.mode", data), case("stats.mode", data, axis=1),
              case("stats.mode", data, axis=None), case("stats.mode", data, 1, keepdims=True),
              case("stats.mode", arr([[1, 2, 2, 7], [4, 4, 1, 1]], "int32"), axis=-1)]
    cases += [case("stats.sem", data), case("stats.sem", data, axis=1),
              case("stats.sem", data, axis=None, ddof=0),
              case("stats.sem", data, 1, keepdims=True),
              case("stats.sem", with_nan, 1, nan_policy="omit")]
    return cases


def main(path):
    cases = []
    for dt in FLOATS:
        cases += continuous_cases(dt) + discrete_cases(dt) + summary_cases(dt)
    with open(path, "w") as f:
        json.dump({"jax_version": __import__("jax").__version__, "cases": cases}, f,
                  separators=(",", ":"))
        f.write("\n")
    print(f"{len(cases)} cases -> {path}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/data/jax_stats.json")
