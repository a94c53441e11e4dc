"""Loading tests/data/jax_convfft.json (recorded by tools/record_jax_convfft.py) and
comparing a transpile result with a recorded JAX one."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

_PATH = Path(__file__).parent / "data" / "jax_convfft.json"
_cache = {}


def recorded(name: str) -> np.ndarray:
    if not _cache:
        _cache.update(json.loads(_PATH.read_text())["cases"])
    entry = _cache[name]
    values = np.asarray(entry["values"], dtype=np.float64 if entry["dtype"] != "int64"
                        else np.int64)
    if entry["dtype"].startswith("complex"):
        values = values[..., 0] + 1j * values[..., 1]
    return values.reshape(entry["shape"]).astype(entry["dtype"])


def assert_matches(got, name: str, scale_tol: float = 1e-10):
    """Same dtype and shape as JAX's; values within `scale_tol` of the result's magnitude
    (float32 results: 1e-5), as summation orders differ."""
    want = recorded(name)
    got = np.asarray(got)
    assert got.dtype == want.dtype, (name, got.dtype, want.dtype)
    assert got.shape == want.shape, (name, got.shape, want.shape)
    single = want.dtype in (np.float32, np.complex64)
    tol = (1e-5 if single else scale_tol) * max(1.0, float(np.abs(want).max(initial=0)))
    np.testing.assert_allclose(got, want, rtol=0, atol=tol, err_msg=name)
