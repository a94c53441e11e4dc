"""Functions differentiated both by JAX (tools/record_jax_grad.py records its answers in
tests/data/jax_grad.json) and by transpile (tests/test_grad_jax.py): written once against
a NumPy-like module `np_` and a lax-like module `lax_`, so both sides run the same code."""
from __future__ import annotations


def cases(np_, lax_):
    """name -> (function of x, input as nested lists, argument)."""
    x3 = [0.3, -1.2, 2.5]
    m23 = [[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]]
    pos = [0.4, 1.3, 2.2]
    unit = [-0.7, 0.1, 0.6]
    return {
        "sin_sum": (lambda x: np_.sum(np_.sin(x) * x), x3),
        "exp_log": (lambda x: np_.sum(np_.log(np_.exp(x) + 1.0)), x3),
        "tanh_sq": (lambda x: np_.sum(np_.tanh(x) ** 2), x3),
        "sqrt_pos": (lambda x: np_.sum(np_.sqrt(x) / (1.0 + x)), pos),
        "pow_float": (lambda x: np_.sum(x ** 2.5), pos),
        "pow_xy": (lambda x: np_.sum(x ** x), pos),
        "abs_sign": (lambda x: np_.sum(np_.abs(x) * 3.0 - x), x3),
        "abs_at_zero": (lambda x: np_.sum(np_.abs(x)), [0.0, -1.0, 2.0]),
        "max_ties": (lambda x: np_.sum(np_.maximum(x, 0.5) + np_.minimum(x, x[::-1])),
                     [0.5, 1.0, 0.5]),
        "reduce_max_ties": (lambda x: np_.max(x) + np_.min(x), [2.0, -1.0, 2.0, -1.0]),
        "reduce_max_axis": (lambda x: np_.sum(np_.max(x, axis=1) * np_.array([1.0, 2.0])),
                            [[1.0, 3.0, 3.0], [4.0, 0.0, 4.0]]),
        "prod": (lambda x: np_.prod(x), [1.5, -2.0, 0.5, 3.0, 1.1]),
        "prod_zero": (lambda x: np_.prod(x), [1.5, 0.0, 0.5, 3.0]),
        "prod_axis": (lambda x: np_.sum(np_.prod(x, axis=0)), m23),
        "mean_var": (lambda x: np_.mean(x) * np_.var(x), [1.0, 2.0, 4.5, -3.0]),
        "matmul": (lambda x: np_.sum(np_.tanh(x @ np_.transpose(x))), m23),
        "dot_vec": (lambda x: np_.dot(x, np_.array([1.0, -2.0, 0.5])) ** 2, x3),
        "broadcast": (lambda x: np_.sum(x[:, None] * x[None, :] + x), x3),
        "reshape_transpose": (lambda x: np_.sum(np_.reshape(x, (3, 2)).T ** 3
                                                * np_.arange(6.0).reshape(2, 3)), m23),
        "slicing": (lambda x: np_.sum(x[1:, ::2] ** 2) + x[0, 1], m23),
        "concat": (lambda x: np_.sum(np_.concatenate([x, x * 2.0, np_.sin(x)]) ** 2), x3),
        "where": (lambda x: np_.sum(np_.where(x > 0, x ** 2, np_.exp(x))), x3),
        "clip": (lambda x: np_.sum(np_.clip(x, -1.0, 1.0) * x), x3),
        "atan2": (lambda x: np_.sum(np_.arctan2(x, x[::-1] + 0.5)), x3),
        "hypot": (lambda x: np_.sum(np_.hypot(x, 2.0)), x3),
        "logaddexp": (lambda x: np_.sum(np_.logaddexp(x, 2.0 * x)), x3),
        "trig": (lambda x: np_.sum(np_.tan(x) + np_.arcsin(x) + np_.arccos(x) * 2.0
                                   + np_.arctan(x)), unit),
        "hyperbolic": (lambda x: np_.sum(np_.sinh(x) * np_.cosh(x) + np_.arcsinh(x)
                                         + np_.arctanh(x)), unit),
        "logs": (lambda x: np_.sum(np_.log2(x) + np_.log10(x) + np_.log1p(x) + np_.expm1(x)
                                   + np_.exp2(x)), pos),
        "reciprocal_cbrt": (lambda x: np_.sum(1.0 / x + np_.cbrt(x)), pos),
        "integer_pow": (lambda x: np_.sum(x ** 3 - x ** -2), pos),
        "erf": (lambda x: np_.sum(lax_.erf(x) + lax_.erfc(x * 2.0)), x3),
        "lgamma": (lambda x: np_.sum(lax_.lgamma(x)), pos),
        "erf_inv": (lambda x: np_.sum(lax_.erf_inv(x)), unit),
        "sort": (lambda x: np_.sum(np_.sort(x) * np_.array([1.0, 2.0, 3.0, 4.0])),
                 [0.3, -1.0, 2.0, 0.1]),
        "cumsum": (lambda x: np_.sum(np_.cumsum(x) ** 2), [0.3, -1.0, 2.0, 0.1]),
        "cumprod": (lambda x: np_.sum(np_.cumprod(x)), [0.3, -1.0, 2.0, 0.1]),
        "gather": (lambda x: np_.sum(x[np_.array([2, 0, 2, 1])] ** 2), x3),
        "take_axis1": (lambda x: np_.sum(np_.take(x, np_.array([2, 0]), axis=1) * 3.0), m23),
        "at_set": (lambda x: np_.sum(x.at[1].set(x[0] * 5.0) ** 2), x3),
        "at_add": (lambda x: np_.sum(x.at[np_.array([0, 0, 2])].add(x[1]) ** 2), x3),
        "at_mul": (lambda x: np_.sum(x.at[1].multiply(3.0) ** 2), x3),
        "at_max": (lambda x: np_.sum(x.at[np_.array([0, 1])].max(np_.array([0.3, 5.0]))), x3),
        "dynamic_slice": (lambda x: np_.sum(lax_.dynamic_slice(x, (1,), (2,)) ** 2), x3),
        "dynamic_update": (lambda x: np_.sum(lax_.dynamic_update_slice(
            x, np_.sin(x[:2]), (1,)) ** 2), x3),
        "softmax_xent": (lambda x: -np_.sum(x[0] - np_.log(np_.sum(np_.exp(x)))), x3),
        "logsumexp_stable": (lambda x: np_.max(x) + np_.log(np_.sum(np_.exp(x - np_.max(x)))),
                             x3),
        "norm": (lambda x: np_.sqrt(np_.sum(x * x)), x3),
        "astype": (lambda x: np_.sum(x.astype(np_.float32).astype(np_.float64) * x), x3),
        "floor_rem": (lambda x: np_.sum(np_.floor(x) * x + np_.remainder(x, 0.7)), x3),
        "fmax": (lambda x: np_.sum(np_.fmax(x, 0.3) + np_.fmin(x, 0.3)), x3),
        "copysign": (lambda x: np_.sum(np_.copysign(x, -1.0) * x), x3),
        "stop_gradient": (lambda x: np_.sum(lax_.stop_gradient(x) * x ** 2), x3),
        "cond": (lambda x: lax_.cond(x[0] > 0, lambda v: np_.sum(np_.sin(v) * v),
                                     lambda v: np_.sum(v ** 3), x), x3),
        "switch": (lambda x: lax_.switch(1, [lambda v: np_.sum(v), lambda v: np_.sum(v * v)],
                                         x), x3),
        "scan": (lambda x: lax_.scan(lambda c, xi: (np_.tanh(c * xi + 0.5), c * xi), 0.3, x)[0]
                 + np_.sum(lax_.scan(lambda c, xi: (c + xi, c * xi), 1.0, x)[1]), x3),
        "scan_reverse": (lambda x: np_.sum(lax_.scan(lambda c, xi: (c * xi + 1.0, np_.sin(c)),
                                                     0.5, x, reverse=True)[1]), x3),
        "fori": (lambda x: lax_.fori_loop(0, 3, lambda i, c: c * x[1] + np_.sin(c), x[0]), x3),
        "det": (lambda x: np_.linalg.det(x[:, :2] @ x[:, :2].T + np_.eye(2)), m23),
        "inv": (lambda x: np_.sum(np_.linalg.inv(x[:, :2] + 2.0 * np_.eye(2)) ** 2), m23),
        "solve": (lambda x: np_.sum(np_.linalg.solve(x[:, :2] + 2.0 * np_.eye(2), x[:, 2])), m23),
        "slogdet": (lambda x: np_.linalg.slogdet(x[:, :2] + 2.0 * np_.eye(2))[1], m23),
        "cholesky": (lambda x: np_.sum(np_.linalg.cholesky(x[:, :2] @ x[:, :2].T + np_.eye(2))
                                       * np_.array([[1.0, 0.0], [2.0, 3.0]])), m23),
        "eigh": (lambda x: np_.sum(np_.linalg.eigh(x @ x.T)[0] * np_.array([1.0, 2.0]))
                 + np_.sum(np_.abs(np_.linalg.eigh(x @ x.T + np_.eye(2))[1])
                           * np_.array([[1.0, 2.0], [3.0, 4.0]])), m23),
        "svd": (lambda x: np_.sum(np_.linalg.svd(x, compute_uv=False) * np_.array([1.0, 3.0]))
                + np_.sum(np_.abs(np_.linalg.svd(x, full_matrices=False)[0])
                          * np_.array([[1.0, 2.0], [3.0, 4.0]])), m23),
        "qr": (lambda x: np_.sum(np_.abs(np_.linalg.qr(x.T)[1]) * np_.array([[1.0, 2.0],
                                                                             [3.0, 4.0]])),
               m23),
        "norm_fro": (lambda x: np_.linalg.norm(x), m23),
        "square_mlp": (lambda x: np_.sum(np_.tanh(np_.reshape(x, (2, 3)) @
                                                  np_.array([[1.0, 2.0], [0.5, -1.0],
                                                             [0.1, 0.3]])) ** 2), m23),
    }
