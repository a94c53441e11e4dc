"""Regressions of issue 7: traced indices, .at updates, 0-d constants, fori_loop with traced
bounds, and arange/linspace under jit."""
import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from semantics_check import AT_OPS, BACKENDS, THRESHOLD, check, numpy_at


# -- 3 and E5: traced indices are normalised with their own axis's size, in int64 -------------

@pytest.mark.parametrize("shape", [(2, 5), (3, 300), (2, THRESHOLD // 2 + 1)])
@pytest.mark.parametrize("index_type", [int, np.int8, np.uint8, np.int16, np.uint64])
def test_traced_at_and_getitem_indices_on_every_axis(shape, index_type):
    x = np.arange(np.prod(shape), dtype=np.float64).reshape(shape) - 7.0
    n = shape[1]
    candidates = [0, 1, n - 1, n, n + 3, -1, -2, -n, -n - 1, 200, 299, -127, 255]
    if n > 300:                                    # the large shape: its own edges only
        candidates = [n - 1, n, -1, -n - 1]
    info = np.iinfo(index_type) if index_type is not int else np.iinfo(np.int64)
    for j in [j for j in candidates if info.min <= j <= info.max]:
        j = index_type(j)

        def f(x, j):
            return {op: getattr(x.at[0, j], op)(100.0) for op in AT_OPS} | \
                   {"row": x.at[-1, j].add(1.0), "get": x[1, j]}

        def ref(x, j):
            jj = int(j)
            got = x[1, min(max(jj if jj >= 0 else jj + n, 0), n - 1)]   # reads clamp, as JAX
            return {op: numpy_at(x, (0, jj), op, 100.0) for op in AT_OPS} | \
                   {"row": numpy_at(x, (-1, jj), "add", 1.0), "get": got}
        check(f, ref, x, j)


# -- 6: 0-d literal outputs keep their dtype and are fresh arrays per call --------------------

def zero_d_constants(m, a):
    return {"zeros": m.zeros((), np.uint16), "ones_like": m.ones_like(a, dtype=np.uint64),
            "full": m.full((), 1.5, np.float32), "full_i8": m.full((), -3, np.int8),
            "zeros_like": m.zeros_like(a), "neg_zero": m.full((), -0.0, np.float32),
            "bool": m.ones((), bool), "big": m.full((), 2**64 - 1, np.uint64)}


@pytest.mark.parametrize("a", [np.float64(3.0), np.array(2, np.int32), np.array(True)])
def test_zero_d_literal_outputs_keep_their_dtype(a):
    check(lambda a: zero_d_constants(tnp, a), lambda a: zero_d_constants(np, a), a)


@pytest.mark.parametrize("backend", BACKENDS)
def test_zero_d_literal_outputs_are_fresh_per_call(backend):
    f = tp.jit(lambda: tnp.full((), 7, np.int16), backend=backend)
    first = f()
    first[...] = 1
    second = f()
    assert second.dtype == np.int16 and second == 7 and second is not first


# -- E1: fori_loop with traced bounds and array carries ----------------------------------------

FORI_BODIES = {
    "elementwise": lambda i, c, x: c * 0.5 + i,
    "capture": lambda i, c, x: c + x,
    "reduction": lambda i, c, x: c - c.mean(),
    "roll": lambda i, c, x: tnp.concatenate([c[1:], c[:1]]),
    "at": lambda i, c, x: c.at[i].add(1.0),
}


def numpy_fori(lo, hi, body, x):
    c = x.copy()
    for i in range(int(lo), int(hi)):
        c = body(i, c, x)
    return c


NUMPY_BODIES = {
    "elementwise": lambda i, c, x: c * 0.5 + i,
    "capture": lambda i, c, x: c + x,
    "reduction": lambda i, c, x: c - c.mean(),
    "roll": lambda i, c, x: np.concatenate([c[1:], c[:1]]),
    "at": lambda i, c, x: numpy_at(c, i, "add", 1.0),
}


@pytest.mark.parametrize("n", [6, THRESHOLD + 2])
@pytest.mark.parametrize("bound_type", [np.int32, np.int64, np.uint8])
def test_fori_loop_with_traced_bounds_and_array_carries(n, bound_type):
    from transpile import lax
    x = (np.arange(n, dtype=np.float64) % 11) - 3.0
    for name, body in FORI_BODIES.items():
        for lo, hi in ((1, 4), (3, 3), (2, 0)):
            check(lambda lo, hi, x: lax.fori_loop(lo, hi, lambda i, c: body(i, c, x), x),
                  lambda lo, hi, x: numpy_fori(lo, hi, NUMPY_BODIES[name], x),
                  bound_type(lo), bound_type(hi), x)


# -- E5, E6: arange and linspace are traced under jit -------------------------------------------

SEQUENCES = {
    "arange_int": lambda m: m.arange(7), "arange_float": lambda m: m.arange(300.0),
    "arange_step": lambda m: m.arange(1, 2, 0.1), "arange_neg": lambda m: m.arange(5, -7, -3),
    "arange_f32": lambda m: m.arange(-1.5, 20, 0.7, dtype=np.float32),
    "arange_u8": lambda m: m.arange(3, 250, 7, dtype=np.uint8),
    "arange_big": lambda m: m.arange(THRESHOLD + 5, dtype=np.float64),
    "linspace": lambda m: m.linspace(0, 1, 5), "linspace_open": lambda m: m.linspace(-2, 3, 7,
                                                                                     endpoint=False),
    "linspace_int": lambda m: m.linspace(-3, 10, 9, dtype=np.int32),
    "linspace_f32": lambda m: m.linspace(0.1, 0.7, 13, dtype=np.float32),
    "linspace_one": lambda m: m.linspace(2, 3, 1), "linspace_big": lambda m: m.linspace(
        -1, 1, THRESHOLD + 3),
}


@pytest.mark.parametrize("name", sorted(SEQUENCES))
def test_arange_and_linspace_are_traced_under_jit(name):
    make = SEQUENCES[name]
    n = make(np).size
    for index_type in (int, np.uint8):
        for i in (0, n - 1, min(5, n - 1), -1):
            if index_type is np.uint8 and not 0 <= i < 256:
                continue
            i = index_type(i)

            def f(m, i):
                a = make(m)
                if m is np:
                    updated = a.copy()
                    updated[i] = 7
                    return {"value": a, "get": a[i], "at": updated}
                return {"value": a, "get": a[i], "at": a.at[i].set(7)}
            check(lambda i: f(tnp, i), lambda i: f(np, i), i)


def test_sequences_are_computed_from_an_iota_not_stored():
    for name, make in SEQUENCES.items():
        if make(np).size > 1:
            text = str(tp.make_ir(lambda: make(tnp))())
            assert "iota" in text and text.startswith("{ lambda ; ."), name
