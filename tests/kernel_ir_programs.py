"""Programs that reach every kind of kernel and statement of the kernel IR (codegen/kernel_ir.py):
elementwise, reductions (full, row, column, arg), products, scans, loops (interchanged and
not), while, cond, scatters, sorts, factorizations, FFT, random numbers, debug prints.
Shared by the tests that walk lowered Programs (test_kernel_ir_structure.py)."""
from __future__ import annotations

import numpy as np

import transpile as tp
import transpile.numpy as tnp
from transpile import lax

F64 = np.linspace(-1.0, 1.0, 48).reshape(6, 8)
F32 = F64.astype(np.float32)


def _softmax(x):
    e = tnp.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _scan(x):
    def step(c, row):
        c = c * 0.9 + row
        return c, c.sum()
    return lax.scan(step, tnp.zeros(x.shape[1]), x, reverse=True)


def _fori(x, n):
    return lax.fori_loop(0, n, lambda i, c: c * 0.5 + tnp.sin(c) + i, x)


def _fori_rows(x, n):
    return lax.fori_loop(0, n, lambda i, c: c.at[i % 6].set(c.sum(axis=0)), x)


def _while(x):
    return lax.while_loop(lambda c: c.sum() < 100.0, lambda c: c * 2.0 + 1.0, x)


def _cond(x, k):
    return lax.cond(k > 0, lambda v: v.sum(axis=0), lambda v: v.max(axis=0), x)


def _switch(x, k):
    return lax.switch(k, [lambda v: v + 1.0, lambda v: v * 3.0, lambda v: -v], x)


def _scatter(x, idx, upd):
    return x.at[idx].add(upd), x.at[idx].max(upd)


def _random(key):
    return tp.random.normal(key, (5, 7)), tp.random.uniform(key, (3,))


def _debug(x):
    tp.debug.print("x sums to {}", x.sum())
    return x * 2.0


def _linalg(a, b):
    spd = a @ a.T + 6.0 * tnp.eye(6)
    return tnp.linalg.solve(spd, b), tnp.linalg.cholesky(spd), tnp.linalg.det(spd)


def _matmuls(a, b, c):
    return a @ b, tnp.einsum("bij,bjk->bik", c, c), a.T @ a


def _fori_matmul(a, n):
    return lax.fori_loop(0, n, lambda i, m: m @ a * 0.5, a)


KEY = tp.random.PRNGKey(3)
IDX = np.array([0, 2, 2, 5])
UPD = np.arange(4 * 8, dtype=np.float64).reshape(4, 8)
SQUARE = F64[:, :6] + np.eye(6)

# name -> (function, arguments): each lowered once per test.
PROGRAMS = {
    "elementwise": (lambda x, y: tnp.tanh(x) * 0.9 + y[:, ::-1] ** 2, (F64, F64)),
    "elementwise_f32_casts": (lambda x: (x.astype(np.int32) % 3).astype(np.float32) + 0.9,
                              (F32,)),
    "reductions": (lambda x: (x.sum(), x.sum(axis=0), x.max(axis=1), x.argmax(axis=1),
                              x.min(), tnp.prod(x, axis=0), (x > 0).any(axis=1)), (F64,)),
    "softmax_f32": (_softmax, (F32,)),
    "complex": (lambda x: (tnp.exp(1j * x).sum(axis=0), tnp.abs(x + 2j)), (F64,)),
    "matmul": (_matmuls, (F64, F64.T.copy(), F64.reshape(3, 4, 4))),
    "matmul_in_loop": (_fori_matmul, (np.eye(6) + 0.1, 4)),
    "scan": (_scan, (F64,)),
    "cumsum_concat": (lambda x: tnp.concatenate([tnp.cumsum(x, axis=1), x[:2]]), (F64,)),
    "fori_interchanged": (_fori, (F64, 5)),
    "fori_rows": (_fori_rows, (F64, 7)),
    "while": (_while, (F64,)),
    "cond": (_cond, (F64, 1)),
    "switch": (_switch, (F64, 2)),
    "scatter": (_scatter, (F64, IDX, UPD)),
    "gather_dynamic_slice": (lambda x, i: (x[i], lax.dynamic_slice(x, (i, 1), (2, 3))),
                             (F64, 2)),
    "sort": (lambda x: (tnp.sort(x, axis=1), tnp.argsort(x, axis=0)), (F64,)),
    "linalg": (_linalg, (SQUARE, F64[:, :2].copy())),
    "fft": (lambda x: tnp.fft.rfft(x, axis=1), (F64,)),
    "random": (_random, (KEY,)),
    "debug_print": (_debug, (F64,)),
    "where_iota": (lambda x: tnp.where(tnp.arange(8) < 3, x, 0.0), (F64,)),
}


def lowered(name: str, backend: str = "cpu"):
    fun, args = PROGRAMS[name]
    return tp.jit(fun, backend=backend).lower(*args)
