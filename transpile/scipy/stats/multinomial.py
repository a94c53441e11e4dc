"""jax.scipy.stats.multinomial: counts x (integers, last axis the categories) of n draws with
category probabilities p."""
from __future__ import annotations

import numpy as np

from ... import dtypes
from ... import numpy as tnp
from .. import special
from ...numpy._inexact import promote_inexact


def logpmf(x, n, p):
    """log n! + Σ (x_i log p_i - log x_i!); -inf where the counts do not add up to n. The
    result has p's (floating) dtype."""
    p, = promote_inexact(p)
    x, n = tnp.asarray(x), tnp.asarray(n)
    count_dtype = tnp.result_type(x, n)
    if not dtypes.is_int(count_dtype):
        raise ValueError(f"multinomial.logpmf: x and n must be of integer type; got "
                         f"x.dtype={x.dtype}, n.dtype={n.dtype} (cast them with .astype(int))")
    x, n = x.astype(p.dtype), n.astype(p.dtype)
    log_probs = special.gammaln(n + 1) + tnp.sum(special.xlogy(x, p) - special.gammaln(x + 1),
                                                 axis=-1)
    return tnp.where(tnp.sum(x) == n, log_probs, -np.inf)


def pmf(x, n, p):
    return tnp.exp(logpmf(x, n, p))
