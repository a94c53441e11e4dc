"""JAX's answers as tools/record_jax_extras.py and record_jax_laxapi.py store them (one entry a
pytree leaf: dtype, shape, values; complex values as [re, im] pairs), decoded and compared
with transpile's results: same dtype and shape, values within a few ulp of their own size and
of the result's magnitude (sums computed in another order cancel differently)."""
from __future__ import annotations

import numpy as np

from transpile.pytree import tree_flatten


def decode_leaf(entry) -> np.ndarray:
    values = np.asarray(entry["values"], dtype=np.float64 if entry["dtype"] not in
                        ("int64", "uint64") else entry["dtype"])
    if entry["dtype"].startswith("complex"):
        values = values[..., 0] + 1j * values[..., 1]
    return values.reshape(entry["shape"]).astype(entry["dtype"])


def assert_leaves_like(result, want, name):
    """`result`'s pytree leaves against the recorded entries `want` of case `name`."""
    leaves, _ = tree_flatten(result)
    assert len(leaves) == len(want), (name, len(leaves), len(want))
    for got, entry in zip(leaves, want):
        expected = decode_leaf(entry)
        got = np.asarray(got)
        assert got.dtype == expected.dtype, (name, got.dtype, expected.dtype)
        assert got.shape == expected.shape, (name, got.shape, expected.shape)
        single = expected.dtype in (np.float32, np.complex64)
        finite = np.abs(expected[np.isfinite(expected)]) if expected.dtype.kind in "fc" \
            else np.abs(expected)
        scale = max(1.0, float(finite.max(initial=0)))
        np.testing.assert_allclose(got, expected, rtol=2e-6 if single else 1e-12,
                                   atol=(1e-6 if single else 1e-12) * scale, equal_nan=True,
                                   err_msg=name)
