"""Matrices whose singular vectors' signs are compared with JAX's (LAPACK's xGESDD): shared by
the recorder (tools/record_jax_svd.py, run with JAX) and the check (tests/test_svd_signs.py).
The shapes take each branch of xGESDD's route for min(m, n) <= 25: QR first (m >= 11 n / 6),
LQ first (n >= 11 m / 6), the direct upper and lower bidiagonalisations, 1 x 1 and one column
or row, with full_matrices off and on. A case is (name, shape, dtype, full_matrices); its
matrix is standard normal from a seed of its own."""
from __future__ import annotations

import zlib

import numpy as np

SHAPES = [(1, 1), (3, 1), (1, 4), (2, 2), (5, 5), (30, 5), (8, 6), (6, 8), (5, 30), (12, 12),
          (25, 25), (40, 25), (3, 3, 3)]


def cases():
    return [(f"{'x'.join(map(str, shape))}_{np.dtype(dtype).name}_{'full' if full else 'reduced'}",
             shape, dtype, full)
            for dtype in (np.float64, np.float32) for shape in SHAPES for full in (False, True)]


def matrix(name, shape, dtype):
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    return rng.standard_normal(shape).astype(dtype)


def signature(u):
    """Each column's sign where it is largest in magnitude: (index, +1/-1) pairs; a batch's
    matrices one after another. Signs are what xGESDD leaves; magnitudes are checked apart."""
    u = np.asarray(u, dtype=np.float64).reshape((-1,) + np.shape(u)[-2:])
    out = []
    for one in u:
        rows = np.argmax(np.abs(one), axis=0)
        out.append([[int(r), int(np.sign(one[r, j]))] for j, r in enumerate(rows)])
    return out
