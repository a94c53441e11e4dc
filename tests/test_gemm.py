"""Matrix products (runtime/include/tp_gemm.h) against NumPy: shapes on both sides of every
blocking threshold, strided/transposed/reversed/broadcast operands read in place, every dtype.

Each test jits ONE function returning many products, so a whole table of shapes costs one
compile; every jitted function is called twice (the second call reuses the loaded code and
must not depend on the first one's buffers)."""
import functools
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from conftest import FLOATS, SIGNED, UNSIGNED

# tp_gemm.h's thresholds: MR/NR tiles (12x32 AVX-512 f32, 6x8 AVX2 f64, ...), the direct loop
# below 32^3 multiply-adds, KC = 512, MC = 144, NC = 3072, threads from 2^20 multiply-adds
# (row bands from 4 x 144 rows per thread, where the rectangles would be bands anyway), no
# packing while both operands fit in 96 KiB.
SHAPES = [
    ((1, 1), (1, 1)), ((1, 5), (5, 1)), ((7, 5), (5, 3)),              # tiny, odd
    ((31, 32), (32, 32)), ((33, 33), (33, 33)),                        # direct | packed
    ((13, 37), (37, 35)), ((25, 3), (3, 65)), ((12, 40), (40, 32)),    # partial / whole tiles
    ((20, 512), (512, 20)), ((20, 513), (513, 20)), ((9, 1100), (1100, 40)),   # KC edges
    ((144, 40), (40, 24)), ((145, 40), (40, 24)), ((300, 41), (41, 17)),       # MC edges
    ((3, 40), (40, 3073)),                                                     # NC edge
    ((101, 103), (103, 107)), ((64, 64), (64, 64)), ((130, 70), (70, 129)),    # threads
    ((70, 600), (600, 90)), ((150, 520), (520, 100)),        # threads, KC/MC edges
    ((1153, 7), (7, 300)), ((2000, 37), (37, 33)),    # tall: row bands taken dynamically
    ((1200, 600), (600, 40)),                         # row bands, B in two KC blocks
    ((1, 300), (300, 200)), ((200, 300), (300, 1)),                            # vecmat, matvec
    ((1, 1100), (1100, 1000)), ((1, 1030), (1030, 1017)),    # vecmat on threads: row bands
    ((1, 2), (2, 600000)),                   # vecmat: fewer rows than threads (empty bands)
    ((205, 300), (300, 1)), ((1037, 1030), (1030, 1)),      # matvec: 8 rows a pass, rest
    ((40, 50), (50, 10)), ((45, 600), (600, 8)), ((300, 700), (700, 16)),  # n <= one vector
    ((50, 60), (60, 17)),                                                  # n just above one
    ((37, 300), (300, 5)), ((25, 1030), (1030, 3)),   # narrow: A read in place, rows packed
    ((32, 128), (128, 128)), ((38, 100), (100, 70)),  # in place (operands <= 96 KiB), edges
    ((40, 160), (160, 150)),                          # just above in place in float32
    ((0, 5), (5, 3)), ((5, 0), (0, 3)), ((5, 3), (3, 0)),                      # empty
]


def _inputs(lowered) -> set:
    """The names of the buffers holding the arguments, in the generated source."""
    return {b.name for b in lowered._prepared.program.inputs}


def _gemm_operands(source):
    """The two operand pointers of every tp_gemm call in generated C."""
    calls = re.findall(r"tp_gemm_\w+\(\d+, \d+, \d+, \d+, ([^,]+), [^,]+, [^,]+, [^,]+, "
                       r"([^,]+),", source)
    return [name.split(" ")[0] for call in calls for name in call]


def _products(pairs):
    return [a @ b for a, b in pairs]


def _operands(shapes, dtype, rng):
    return [tuple(rng.standard_normal(s).astype(dtype) for s in pair) for pair in shapes]


def _assert_close(got, a, b):
    """Within reassociation (and FMA) error: |error| <= c * k * eps * (|a| @ |b|)."""
    expected = a.astype(np.float64) @ b.astype(np.float64)
    assert got.dtype == np.result_type(a, b) and got.shape == expected.shape
    k = a.shape[-1]
    bound = 4 * max(k, 1) * np.finfo(got.dtype).eps * (np.abs(a).astype(np.float64) @
                                                      np.abs(b).astype(np.float64))
    assert np.all(np.abs(got - expected) <= bound + np.finfo(got.dtype).tiny), \
        f"{a.shape} @ {b.shape}: max error {np.max(np.abs(got - expected))}"


@pytest.mark.parametrize("dtype", FLOATS)
def test_float_shapes_across_every_threshold(dtype):
    pairs = _operands(SHAPES, dtype, np.random.default_rng(1))
    f = tp.jit(_products)
    for _ in range(2):
        for got, (a, b) in zip(f(pairs), pairs):
            _assert_close(got, a, b)


def _transposed_products(operands):
    """A^T B, A B^T and A^T B^T, each transposed operand stored the other way round and read
    through a transposed view (the layouts of a backward pass)."""
    return [p for a_t, b, a, b_t in operands for p in (a_t.T @ b, a @ b_t.T, a_t.T @ b_t.T)]


@pytest.mark.parametrize("dtype", FLOATS)
def test_transposed_layouts_across_every_threshold(dtype):
    """The packing routines have one path per layout (tiles transposed in registers where the
    operand's k is contiguous across its rows or columns): every layout on the whole table."""
    pairs = _operands(SHAPES, dtype, np.random.default_rng(8))
    operands = [(a.T.copy(), b, a, b.T.copy()) for a, b in pairs]
    f = tp.jit(_transposed_products)
    lowered = f.lower(operands)
    assert all(name in _inputs(lowered) for name in _gemm_operands(lowered.source))
    for _ in range(2):
        got = f(operands)
        assert len(got) == 3 * len(pairs)
        for i, (a, b) in enumerate(pairs):
            for product in got[3 * i:3 * i + 3]:
                _assert_close(product, a, b)


@pytest.mark.parametrize("flags, threads", [("-mno-avx512f", "2"),
                                            ("-mno-avx512f -mno-avx2 -mno-fma", "2"),
                                            ("", "3")],
                         ids=["avx2-kernel", "portable-kernel", "three-threads"])
def test_other_micro_kernels(flags, threads, tmp_path):
    """The AVX2 and portable micro-kernels and packing tiles (chosen by predefined macros,
    which these flags, added after -march=native, switch off), and uneven splits between
    three threads, on the same table of shapes and layouts, in a fresh process."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    flags = f"{os.environ.get('TRANSPILE_CFLAGS', '')} {flags}".strip()   # e.g. UBSan's too
    env = dict(os.environ, TRANSPILE_CFLAGS=flags, TRANSPILE_CACHE_DIR=str(tmp_path),
               OMP_NUM_THREADS=threads,
               PYTHONPATH=os.pathsep.join([root, os.environ.get("PYTHONPATH", "")]))
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          "-p", "no:xdist", os.path.abspath(__file__), "-k",
                          "across_every_threshold"],
                         cwd=root, env=env, capture_output=True, text=True, timeout=600)
    # 0: tests were collected and all passed (5 would mean none ran).
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]


def _views(a, b, c, v):
    """Operands that are views inside the function: read through strides, never copied."""
    return [a.T @ b, a @ b.T, a[::2, 1::3] @ b[1::3, ::2], a[::-1] @ b[:, ::-1],
            a.T[::-1, 2:] @ c[2:], v @ a, a @ v[:a.shape[1]], c.T @ v, a @ b[:, 1]]


@pytest.mark.parametrize("dtype", FLOATS)
def test_transposed_sliced_reversed_operands(dtype):
    rng = np.random.default_rng(2)
    a, b = rng.standard_normal((90, 90)).astype(dtype), rng.standard_normal((90, 90)).astype(dtype)
    c, v = rng.standard_normal((90, 70)).astype(dtype), rng.standard_normal(90).astype(dtype)
    f = tp.jit(_views)
    lowered = f.lower(a, b, c, v)
    operands = _gemm_operands(lowered.source)    # read in place from the inputs: no copies
    assert len(operands) == 18 and all(name in _inputs(lowered) for name in operands)
    for _ in range(2):
        for got, want in zip(f(a, b, c, v), _views(a, b, c, v)):
            assert got.dtype == want.dtype
            np.testing.assert_allclose(got, want, rtol=1e-4 if dtype == np.float32 else 1e-11,
                                       atol=1e-3 if dtype == np.float32 else 1e-11)


def test_non_contiguous_arguments():
    rng = np.random.default_rng(3)
    big = rng.standard_normal((80, 120))
    a, b = big[::2, ::3], big[1::2, 1:81:2].T         # views passed in from NumPy
    f = tp.jit(lambda x, y: x @ y)
    for _ in range(2):
        np.testing.assert_allclose(f(a, b), a @ b, rtol=1e-12, atol=1e-12)


def _batched(x, y, z, shared):
    return [x @ shared, shared.T @ x, x @ y, z @ y, tnp.matmul(z, shared),
            tnp.broadcast_to(shared, (3, 40, 40)) @ x]


@pytest.mark.parametrize("dtype", FLOATS)
def test_batched_with_broadcast_operands(dtype):
    rng = np.random.default_rng(4)
    x = rng.standard_normal((3, 40, 40)).astype(dtype)          # batch 3
    y = rng.standard_normal((1, 40, 24)).astype(dtype)          # batch broadcast from 1
    z = rng.standard_normal((2, 1, 5, 40)).astype(dtype)        # (2, 1) x (1,) -> (2, 1)
    shared = rng.standard_normal((40, 40)).astype(dtype)
    f = tp.jit(_batched)
    lowered = f.lower(x, y, z, shared)
    source = lowered.source
    # One kernel per product, operands read in place (no copies); the shared matrix is read
    # with batch stride 0, except that a stack of few-row matrices times it is a single
    # product of the stacked rows (z @ shared: 10 rows of 40).
    operands = _gemm_operands(source)
    assert len(operands) == 12 and all(name in _inputs(lowered) for name in operands)
    assert "shared, 0, 40, 1, out0" in source      # x @ shared: shared's batch stride is 0
    assert "(1, 10, 40, 40, z, 0, 40, 1, shared, 0, 40, 1," in source     # z @ shared
    for _ in range(2):
        for got, want in zip(f(x, y, z, shared), _batched(x, y, z, shared)):
            assert got.shape == want.shape
            np.testing.assert_allclose(got, want, rtol=1e-4 if dtype == np.float32 else 1e-11,
                                       atol=1e-3 if dtype == np.float32 else 1e-11)


def _batched_transposed(x, y, z, w):
    swap = functools.partial(tnp.swapaxes, axis1=1, axis2=2)
    return [swap(x) @ y, x @ swap(z), swap(z) @ swap(y), swap(x) @ w,
            tnp.einsum("jbi,bjk->bik", tnp.transpose(x, (1, 0, 2)), y)]


@pytest.mark.parametrize("dtype", FLOATS)
def test_batched_transposed_operands(dtype):
    """Batched products whose matrices are transposed views (the batch axis leading or not,
    one operand shared): read in place, every element within reassociation error."""
    rng = np.random.default_rng(9)
    x, y, z, w = (rng.standard_normal(s).astype(dtype)
                  for s in ((3, 70, 45), (3, 70, 60), (3, 60, 45), (70, 33)))
    f = tp.jit(_batched_transposed)
    lowered = f.lower(x, y, z, w)
    operands = _gemm_operands(lowered.source)
    assert len(operands) == 10 and all(name in _inputs(lowered) for name in operands)
    for _ in range(2):
        for got, want in zip(f(x, y, z, w), _batched_transposed(x, y, z, w)):
            assert got.shape == want.shape
            np.testing.assert_allclose(got, want, rtol=1e-4 if dtype == np.float32 else 1e-11,
                                       atol=1e-3 if dtype == np.float32 else 1e-11)


def test_empty_batch_and_inner_dimension():
    f = tp.jit(lambda a, b: a @ b)
    for sa, sb in [((0, 4, 5), (5, 3)), ((2, 4, 0), (2, 0, 3))]:
        a, b = np.ones(sa), np.ones(sb)
        for _ in range(2):
            got = f(a, b)
            assert got.shape == (a @ b).shape and np.all(got == 0)


def _int_products(a, b, v):
    return [a @ b, a.T @ b[:, ::-1], v @ a, a @ v, tnp.dot(v, v), a[None] @ b]


@pytest.mark.parametrize("dtype", SIGNED + UNSIGNED, ids=str)
def test_integer_matmul_is_exact_and_wraps(dtype):
    info = np.iinfo(dtype)
    rng = np.random.default_rng(5)
    a = rng.integers(info.min, info.max, (37, 37), dtype=dtype, endpoint=True)
    a[0, :4] = [info.max, info.min, info.max, info.max]      # products and sums overflow
    b = rng.integers(info.min, info.max, (37, 37), dtype=dtype, endpoint=True)
    v = rng.integers(info.min, info.max, 37, dtype=dtype, endpoint=True)
    f = tp.jit(_int_products)
    with np.errstate(over="ignore"):
        expected = _int_products(a, b, v)
    for _ in range(2):
        for got, want in zip(f(a, b, v), expected):
            assert got.dtype == want.dtype
            np.testing.assert_array_equal(got, want)


def test_bool_matmul():
    rng = np.random.default_rng(6)
    a, b = rng.random((30, 20)) < 0.1, rng.random((20, 25)) < 0.1
    f = tp.jit(lambda x, y: (x @ y, x.T @ x, tnp.dot(x[0], x[1])))
    for _ in range(2):
        for got, want in zip(f(a, b), (a @ b, a.T @ a, np.dot(a[0], a[1]))):
            assert got.dtype == np.bool_
            np.testing.assert_array_equal(got, want)


def test_mixed_dtypes_promote_like_numpy():
    a = np.arange(12, dtype=np.int16).reshape(3, 4)
    b = np.linspace(0, 1, 20, dtype=np.float32).reshape(4, 5)
    got = tp.jit(lambda x, y: x @ y)(a, b)
    assert got.dtype == (a @ b).dtype
    np.testing.assert_allclose(got, a @ b, rtol=1e-6)


def test_products_inside_loops_and_of_constants():
    """Operands that are loop carries, rows of a traced dynamic_slice, captured constants
    (transposed), and iota-built arrays."""
    from transpile import lax
    rng = np.random.default_rng(7)
    w = rng.standard_normal((16, 16)) * 0.1

    def rnn(x, a):
        return lax.fori_loop(0, 4, lambda i, c: tnp.tanh(c @ w.T + a[i] @ w), x)

    def forward_substitution(low, b):
        def body(i, y):
            row = lax.dynamic_slice(low, (i, 0), (1, 8))
            return y.at[i].set((b[i] - (row @ y[:, None])[0, 0]) / low[i, i])
        return lax.fori_loop(0, 8, body, tnp.zeros(8))

    x, a = rng.standard_normal((3, 16)), rng.standard_normal((4, 3, 16))
    low, b = np.tril(rng.standard_normal((8, 8))) + 4 * np.eye(8), rng.standard_normal(8)
    c, y = x, np.zeros(8)
    for i in range(4):
        c = np.tanh(c @ w.T + a[i] @ w)
    for i in range(8):
        y[i] = (b[i] - low[i] @ y) / low[i, i]
    built = tp.jit(lambda v: tnp.ones((4, 5)) @ v + tnp.arange(20.0).reshape(4, 5) @ v)
    v = rng.standard_normal((5, 3))
    for _ in range(2):
        np.testing.assert_allclose(tp.jit(rnn)(x, a), c, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(tp.jit(forward_substitution)(low, b), y, rtol=1e-12)
        np.testing.assert_allclose(built(v), np.ones((4, 5)) @ v + np.arange(20.0).reshape(4, 5)
                                   @ v, rtol=1e-12, atol=1e-12)
