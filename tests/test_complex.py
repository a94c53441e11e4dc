"""Complex numbers (complex64, complex128, Python complex scalars) against NumPy 2.

Every program runs three ways: eagerly (tnp on NumPy), under jit with backend="interpret",
and under jit compiled to C; each jitted function is called twice (the second call is a
cache hit and must give the same answer).

Comparisons (per real and imaginary part, signed zeros and NaN positions included):
- bit for bit where tp_complex.h reproduces NumPy's algorithm: + - neg conj real imag,
  * (NumPy's SIMD loop: fma products), / (Smith's algorithm), == != isnan isinf isfinite,
  casts, where/select, and exp/log/sqrt in C (the C library's cexp/clog/csqrt, which NumPy
  calls too);
- within 1 ulp for abs (NumPy's SIMD formula, which uses fma only where the CPU has it),
  within 2 ulp for angle (float32 atan2f against NumPy's own vectorised arctan2);
- within 2 ulp for ** (small integer exponents multiply, the rest is the library's cpow);
- relative to the summed magnitudes for sum/prod/mean/matmul (reassociation).
"""
import os
import warnings

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile import lax
from conftest import ALL_DTYPES, DEVICE_LIBM_ULP, assert_same

COMPLEX = [np.dtype(np.complex64), np.dtype(np.complex128)]
REAL_DTYPES = ALL_DTYPES
PARALLEL_THRESHOLD = 1 << 19


def _specials(dt):
    """Every pairing of special parts (zeros of both signs, infinities, NaN, tiny, huge,
    the unit circle's neighbourhood and the branch cut's sides) plus random values."""
    part = np.dtype(dt).type(0).real.dtype
    big = float(np.finfo(part).max)
    values = [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 1e-30, 3e5, big, -big, np.inf, -np.inf, np.nan,
              0.999, 1.001]
    re, im = np.meshgrid(np.array(values, part), np.array(values, part))
    rng = np.random.default_rng(0)
    rand = rng.standard_normal(40) * 10 + 1j * rng.standard_normal(40) * 10
    with np.errstate(all="ignore"):
        grid = re.ravel().astype(dt)
        grid.imag = im.ravel()
    return np.concatenate([grid, rand.astype(dt)])


def assert_complex(actual, expected, max_ulp=0, rtol=None, what=""):
    """Same dtype and shape; each part compared by conftest.assert_same."""
    actual, expected = np.asarray(actual), np.asarray(expected)
    assert actual.dtype == expected.dtype, f"{what}: dtype {actual.dtype} != {expected.dtype}"
    if actual.dtype.kind != "c":
        assert_same(actual, expected, max_ulp=max_ulp, rtol=rtol, what=what)
        return
    assert actual.shape == expected.shape, f"{what}: shape {actual.shape} != {expected.shape}"
    for name in ("real", "imag"):
        assert_same(getattr(actual, name), getattr(expected, name), max_ulp=max_ulp,
                    rtol=rtol, what=f"{what} ({name} part)")


def _numpy(fn, *args):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        return fn(*args)


def _three_ways(fn, *args):
    """(eager, interpret, C) results; each jitted one called twice and checked stable."""
    results = [_numpy(fn, *args)]
    for backend in ("interpret", None):
        jitted = tp.jit(fn, backend=backend)
        first, second = _numpy(jitted, *args), _numpy(jitted, *args)
        for a, b in zip(_leaves(first), _leaves(second)):
            np.testing.assert_array_equal(a, b)
        results.append(first)
    return results


def _leaves(x):
    return list(x) if isinstance(x, (tuple, list)) else [x]


def _check(fn, args, tolerances, expected=None):
    """Compare the three ways with NumPy output by output; `tolerances[i]` is a dict of
    assert_complex keywords for output i (missing: bit for bit)."""
    expected = _leaves(_numpy(fn, *args) if expected is None else expected)
    for how, result in zip(("eager", "interpret", "C"), _three_ways(fn, *args)):
        for i, (got, want) in enumerate(zip(_leaves(result), expected)):
            tolerance = tolerances.get(i, {})
            if how == "C" and DEVICE_LIBM_ULP and np.asarray(want).dtype.kind in "fc":
                # Relative to the value's size, not each part's ulp: a part that cancels
                # (re of z**w near 0.013) magnifies a 1-ulp difference in exp or sin. In
                # the least precise input's ulp: exp of a complex64 is rounded as one.
                eps = max(float(np.finfo(np.asarray(v).dtype).eps)
                          for v in (*args, want) if np.asarray(v).dtype.kind in "fc")
                tolerance = {"rtol": 2 * DEVICE_LIBM_ULP * eps}
            assert_complex(got, want, what=f"{how} output {i}", **tolerance)


# -- elementwise unary ----------------------------------------------------------------------

def _unary_numpy(x):
    return (-x, np.conj(x), np.conjugate(x), np.real(x), np.imag(x), x.real, x.imag, x.conj(),
            np.isnan(x), np.isinf(x), np.isfinite(x), np.abs(x), np.exp(x), np.log(x),
            np.sqrt(x), np.angle(x), x == x, x != x, x.astype(bool))


def _unary_tnp(x):
    return (-x, tnp.conj(x), tnp.conjugate(x), tnp.real(x), tnp.imag(x), x.real, x.imag,
            x.conj(), tnp.isnan(x), tnp.isinf(x), tnp.isfinite(x), tnp.abs(x), tnp.exp(x),
            tnp.log(x), tnp.sqrt(x), tnp.angle(x), x == x, x != x, x.astype(bool))


_ABS, _EXP, _LOG, _SQRT, _ANGLE = 11, 12, 13, 14, 15


@pytest.mark.parametrize("dt", COMPLEX, ids=str)
def test_unary_functions_and_methods_on_special_values(dt):
    x = _specials(dt)
    tol = {_ABS: {"max_ulp": 1}, _EXP: {"max_ulp": 2}, _LOG: {"max_ulp": 2},
           _SQRT: {"max_ulp": 2}, _ANGLE: {"max_ulp": 2}}    # angle: atan2f vs NumPy's SIMD
    _check(_unary_tnp, (x,), tol, expected=_numpy(_unary_numpy, x))


@pytest.mark.skipif(os.environ.get("TRANSPILE_TEST_BACKEND") == "cuda",
                    reason="CUDA has no C library cexp/clog/csqrt: tp_complex.h's own are "
                           "within 2 ulp (test_unary_functions_and_methods_on_special_values)")
def test_exp_log_sqrt_in_c_are_numpys_bit_for_bit():
    """The C backend calls the C library's cexp/clog/csqrt, as NumPy does: no ulp slack,
    branch cuts (signed zero imaginary parts on the negative real axis) included."""
    for dt in COMPLEX:
        x = _specials(dt)
        got = tp.jit(lambda v: (tnp.exp(v), tnp.log(v), tnp.sqrt(v)))(x)
        for g, want in zip(got, _numpy(lambda v: (np.exp(v), np.log(v), np.sqrt(v)), x)):
            assert_complex(g, want, what=str(dt))
    cut = np.array([complex(-4.0, 0.0), complex(-4.0, -0.0), complex(-1.0, -0.0)])
    assert_complex(tp.jit(tnp.sqrt)(cut), np.sqrt(cut))
    assert np.signbit(tp.jit(tnp.sqrt)(cut).imag[1]) and tp.jit(tnp.log)(cut).imag[2] < 0


# -- elementwise binary: arithmetic, comparisons, promotion ----------------------------------

def _binary(a, b):
    return (a + b, b + a, a - b, b - a, a * b, b * a, a / b, b / a, a == b, a != b)


@pytest.mark.parametrize("dt", COMPLEX, ids=str)
def test_arithmetic_with_every_dtype_promotes_as_numpy(dt):
    """One program per complex dtype pairs it with an array of every real and complex dtype
    and with Python scalars; results and dtypes must be NumPy's (NEP 50)."""
    rng = np.random.default_rng(1)
    a = _specials(dt)
    partners = []
    for other in REAL_DTYPES + COMPLEX:
        if other == np.bool_:
            partners.append(rng.integers(0, 2, a.size).astype(bool))
        elif other.kind in "iu":
            partners.append(rng.integers(1, 100, a.size).astype(other))
        else:
            partners.append(_specials(other)[::-1].copy() if other.kind == "c" else
                            rng.standard_normal(a.size).astype(other) * 4)

    def program(a, *others):
        outs = []
        for b in others:
            outs.extend(_binary(a, b))
        for s in (3, 2.5, 1j, -0.5 + 2j, True):
            outs.extend(_binary(a, s))
        return tuple(outs)

    _check(program, (a, *partners), {})


@pytest.mark.parametrize("dt,scalar,want", [
    (np.float32, 1j, np.complex64), (np.float64, 1j, np.complex128),
    (np.int8, 1j, np.complex128), (np.int64, 2 + 0j, np.complex128),
    (np.bool_, 1j, np.complex128), (np.complex64, 2.5, np.complex64),
    (np.complex64, 7, np.complex64), (np.complex64, 1j, np.complex64)])
def test_python_scalars_are_weak(dt, scalar, want):
    x = np.arange(1, 6).astype(dt)
    for fn in (lambda v: v * scalar, lambda v: scalar - v, lambda v: v / scalar):
        results = _three_ways(fn, x)
        for r in results:
            assert r.dtype == want
            assert_complex(r, _numpy(fn, x))
    # A Python complex passed as an argument is a weak complex128 too.
    assert_complex(tp.jit(lambda v, s: v * s)(x, scalar), _numpy(lambda: x * scalar))


def test_division_by_zero_and_inf_follows_numpy():
    a = np.array([1 + 1j, 0j, np.inf + 0j, complex(np.nan, 1), -2 + 0j, 1e300 + 1e300j])
    b = np.array([0j, 0j, 1 + 1j, 2j, complex(0, -0.0), 1e-300 + 0j])
    _check(lambda u, v: (u / v, v / u, u * v), (a, b), {})


@pytest.mark.parametrize("dt", COMPLEX, ids=str)
def test_power(dt):
    """Small integer exponents multiply (NumPy's npy_cpow), others use the library's cpow;
    a zero base gives 0 for a positive real part of the exponent and NaN otherwise."""
    rng = np.random.default_rng(2)
    x = (rng.standard_normal(50) + 1j * rng.standard_normal(50)).astype(dt)
    x[:3] = 0
    e = (rng.integers(-4, 5, 50) + 1j * (rng.random(50) < 0.3) * rng.standard_normal(50)
         ).astype(dt)
    e[:3] = [2, -1, 0.5j]
    program = lambda u, v: (u ** v, u ** 2, u ** 3, u ** -2, u ** 0.5, u ** 7, 2.0 ** u,
                            u ** -1, tnp.reciprocal(u), u ** 2.0, tnp.square(u))
    # ** 2, ** -1, ** 0.5 are NumPy's operator shortcuts (square, reciprocal, sqrt): exact.
    _check(program, (x, e), {i: {"max_ulp": 2} for i in (0, 2, 3, 5, 6, 9)})


# -- reductions and products ------------------------------------------------------------------

def _tolerance(dt):
    return 2e-5 if dt == np.complex64 else 1e-12


@pytest.mark.parametrize("dt", COMPLEX, ids=str)
def test_sum_prod_mean_over_axes(dt):
    rng = np.random.default_rng(3)
    x = (rng.standard_normal((6, 7, 5)) + 1j * rng.standard_normal((6, 7, 5))).astype(dt)

    def program(v):
        return (tnp.sum(v), tnp.sum(v, axis=0), tnp.sum(v, axis=(0, 2)), v.sum(axis=-1),
                tnp.prod(v[:2, :3], axis=1), tnp.mean(v), v.mean(axis=1),
                tnp.sum(v[:, :0]), tnp.prod(v[:0], axis=0), tnp.sum(v[::2, ::-3]))
    expected = _numpy(lambda v: (np.sum(v), np.sum(v, axis=0), np.sum(v, axis=(0, 2)),
                                 v.sum(axis=-1), np.prod(v[:2, :3], axis=1), np.mean(v),
                                 v.mean(axis=1), np.sum(v[:, :0]), np.prod(v[:0], axis=0),
                                 np.sum(v[::2, ::-3])), x)
    _check(program, (x,), {i: {"rtol": _tolerance(dt)} for i in range(10)}, expected)


@pytest.mark.parametrize("dt", COMPLEX, ids=str)
def test_large_arrays_beyond_the_parallel_threshold(dt):
    """Elementwise kernels and full reductions run in parallel from 2^19 elements."""
    rng = np.random.default_rng(4)
    n = PARALLEL_THRESHOLD + 3
    x = (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(dt)
    program = lambda v: (v * (1 - 2j) / (v + 1), tnp.sum(v), tnp.abs(v).astype(dt) * v)
    expected = _numpy(lambda v: (v * (1 - 2j) / (v + 1), np.sum(v), np.abs(v).astype(dt) * v), x)
    rel = {0: {}, 1: {"rtol": _tolerance(dt) * 10}, 2: {"max_ulp": 1}}
    jitted = tp.jit(program)
    for _ in range(2):
        for i, (got, want) in enumerate(zip(jitted(x), expected)):
            assert_complex(got, want, what=f"output {i}", **rel[i])


@pytest.mark.parametrize("lhs_dt,rhs_dt", [
    (np.complex64, np.complex64), (np.complex128, np.complex128),
    (np.complex64, np.float32), (np.float64, np.complex64), (np.int32, np.complex128)])
def test_matmul_and_dot(lhs_dt, rhs_dt):
    rng = np.random.default_rng(5)

    def make(shape, dt):
        v = rng.standard_normal(shape) * 3
        if np.dtype(dt).kind == "c":
            v = v + 1j * rng.standard_normal(shape)
        return v.astype(dt)
    a, b = make((2, 5, 4), lhs_dt), make((2, 4, 3), rhs_dt)
    program = lambda u, v: (u @ v, tnp.dot(u[0], v[1]), u[1].T @ u[1, :, :1].astype(v.dtype),
                            tnp.matmul(u[0, 0], v[0]))
    expected = _numpy(lambda u, v: (u @ v, np.dot(u[0], v[1]), u[1].T @ u[1, :, :1].astype(
        v.dtype), np.matmul(u[0, 0], v[0])), a, b)
    want_dt = np.result_type(lhs_dt, rhs_dt)
    _check(program, (a, b), {i: {"rtol": _tolerance(want_dt)} for i in range(4)}, expected)


# -- creation, selection, casts -----------------------------------------------------------------

@pytest.mark.parametrize("dt", COMPLEX, ids=str)
def test_creation_where_and_select(dt):
    x = _specials(dt)[:40]

    def program(v):
        return (tnp.zeros(3, dt), tnp.ones((2, 2), dtype=dt), tnp.full(4, 1 - 2j, dtype=dt),
                tnp.full(2, 1 + 2j), tnp.array([1 + 2j, 3]), tnp.array([1 + 2j], dtype=dt) * v[:1],
                tnp.where(v.real > 0, v, 1j), tnp.where(tnp.isnan(v), 0, v),
                tnp.select([v.real > 1, v.imag < 0], [v, 2 * v], default=-1j),
                tnp.zeros_like(v), tnp.ones_like(v.real, dtype=dt))
    expected = _numpy(lambda v: (
        np.zeros(3, dt), np.ones((2, 2), dtype=dt), np.full(4, 1 - 2j, dtype=dt),
        np.full(2, 1 + 2j), np.array([1 + 2j, 3]), np.array([1 + 2j], dtype=dt) * v[:1],
        np.where(v.real > 0, v, 1j), np.where(np.isnan(v), 0, v),
        np.select([v.real > 1, v.imag < 0], [v, 2 * v], default=-1j),
        np.zeros_like(v), np.ones_like(v.real, dtype=dt)), x)
    _check(program, (x,), {}, expected)


@pytest.mark.parametrize("dt", COMPLEX, ids=str)
def test_astype_between_complex_and_every_dtype(dt):
    """Complex -> real keeps the real part and warns (ComplexWarning, as NumPy and JAX);
    real -> complex has a zero imaginary part."""
    finite = _specials(dt)
    finite = finite[np.isfinite(finite) & (np.abs(finite.real) < 100)]
    reals = [(np.arange(-3, 3) * 7).astype(t) for t in REAL_DTYPES]

    def program(v, reals):
        outs = [v.astype(other) for other in COMPLEX]
        outs += [v.astype(t) for t in REAL_DTYPES]
        outs += [r.astype(dt) for r in reals]
        return tuple(outs)
    for how, fn in (("eager", program), ("interpret", tp.jit(program, backend="interpret")),
                    ("C", tp.jit(program))):
        with pytest.warns(np.exceptions.ComplexWarning, match="imaginary part"):
            got = fn(finite, reals)
        for i, (g, w) in enumerate(zip(got, _numpy(program, finite, reals))):
            assert_complex(g, w, what=f"{how} output {i}")
    with pytest.warns(np.exceptions.ComplexWarning):
        assert tnp.astype(tnp.asarray(1 + 2j), tnp.float32) == 1


def test_zero_d_empty_and_strided_inputs():
    rng = np.random.default_rng(6)
    big = (rng.standard_normal((8, 6)) + 1j * rng.standard_normal((8, 6))).astype(np.complex64)
    program = lambda u, s, e: (u * s - 1j, tnp.exp(u) / (s + 1), e * s, tnp.abs(e), s.real)
    for args in ((big[::2, ::-3], np.complex64(2 - 1j), np.zeros(0, np.complex64)),
                 (big.T, np.asarray(0.5j), np.zeros((3, 0), np.complex128))):
        _check(program, args, {})


def test_scatters_gathers_and_take_fill():
    """.at[idx] set/add/multiply with duplicate indices (add accumulates, set: the last wins),
    gathers, and take's fill (NaN, as JAX) against the interpreter (NumPy's ufunc.at)."""
    x = (np.arange(12).reshape(3, 4) * (1 - 1j)).astype(np.complex64)
    idx = np.array([0, 2, 0, 1])
    program = lambda a: (a.at[idx].add(1j), a.at[idx].set(2 - 1j), a.at[idx].multiply(1 + 1j),
                         a.at[1, 2].set(7j), a[idx], tnp.take(a, np.array([1, 30]), mode="fill"))
    compiled, reference = tp.jit(program)(x), tp.jit(program, backend="interpret")(x)
    for i, (got, want) in enumerate(zip(compiled, reference)):
        assert_complex(got, want, what=f"output {i}")
    want = x.copy()
    np.add.at(want, idx, np.complex64(1j))
    assert_complex(compiled[0], want)
    assert np.isnan(compiled[5][..., 1]).all()


# -- errors, IR, CUDA ---------------------------------------------------------------------------

def test_ir_prints_complex_types_and_literals():
    text = str(tp.make_ir(lambda v: v.real + 1j)(np.zeros(2, np.complex64)))
    assert "a:c64[2]" in text and "real a" in text and "add b 1j" in text


@pytest.mark.parametrize("dt", COMPLEX, ids=str)
def test_lexicographic_order_max_and_min_are_numpys_bit_for_bit(dt):
    """<, <=, >, >=, maximum/minimum, max/min and argmax/argmin: NumPy's lexicographic order,
    where an imaginary NaN voids a decision by the real parts and the first NaN propagates;
    reductions take their terms in order (of equal values with different zeros, or of NaNs
    with different parts, the first wins)."""
    z = _specials(dt)
    a, b = (v.ravel() for v in np.meshgrid(z, z))
    _check(lambda a, b: (a < b, a <= b, a > b, a >= b, tnp.maximum(a, b), tnp.minimum(a, b),
                         a > 1j, a <= 2.0), (a, b), {})
    rng = np.random.default_rng(1)
    for rows in (7, PARALLEL_THRESHOLD // 3 + 1):
        x = rng.choice(z, size=(rows, 3))
        _check(lambda x: (tnp.max(x), tnp.min(x), tnp.max(x, axis=0), tnp.min(x, axis=1),
                          x.max(axis=1, keepdims=True), tnp.argmax(x), tnp.argmin(x, axis=0),
                          x.argmax(axis=1), tnp.argmin(x[:, ::-1], axis=1)), (x,), {})


def test_unsupported_complex_operations_say_so():
    x = np.array([1 + 1j, 2 - 1j], np.complex64)
    from transpile.codegen.c_ops import op_rule      # every complex ufunc now renders
    with pytest.raises(NotImplementedError, match="complex"):
        op_rule("floor", (np.dtype(np.complex64),))
    with pytest.raises(TypeError, match="complex operand"):
        tp.jit(lambda v: lax.real(v))(np.ones(2))
    np.testing.assert_array_equal(tp.jit(tnp.sort)(x), np.sort(x))   # sorted by its parts
    with pytest.raises(NotImplementedError, match="lexicographically"):
        tp.jit(lambda v: v.at[np.array([0])].max(1j))(x)
    with pytest.raises(NotImplementedError, match="complex"):
        tnp.linalg.det(np.eye(2) * (1 + 1j))      # (solve and inv take complex matrices)
    # NumPy's answers stay available through the interpreter.
    np.testing.assert_array_equal(tp.jit(tnp.sign, backend="interpret")(x), np.sign(x))


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_trigonometric_and_log_family_compile_to_numpys_values(dtype):
    """The C library's csin... and NumPy's formulas for log1p/expm1/exp2/log2/log10: the
    values NumPy gives, special values included."""
    z = np.array([1 + 2j, -3 + 0.5j, 0j, 1e-8 + 1e-9j, 30 + 2j, -30 - 2j, 2 + 30j, 1 + 0j,
                  -1 + 0j, 1j, np.inf + 1j, np.nan + 0j, 700 + 1j], dtype)
    names = ["sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh",
             "arcsinh", "arccosh", "arctanh", "log1p", "expm1", "log2", "log10", "exp2"]
    got = tp.jit(lambda v: [getattr(tnp, n)(v) for n in names])(z)
    with np.errstate(all="ignore"):
        for name, value in zip(names, got):
            want = getattr(np, name)(z)
            assert value.dtype == want.dtype, name
            np.testing.assert_allclose(value, want, rtol=2e-6 if dtype == np.complex64
                                       else 1e-13, err_msg=name)


def test_cuda_kernels_compile_and_run_under_emulation(request):
    from transpile.runtime.nvcc import EmulatedCudaCompiler
    if EmulatedCudaCompiler.from_environment() is None:
        pytest.skip("CUDA emulation needs a C++ compiler (g++)")
    request.getfixturevalue("cuda_emulation")   # skips where the real GPU is in use
    from transpile import api
    rng = np.random.default_rng(7)
    x = (rng.standard_normal(600) + 1j * rng.standard_normal(600)).astype(np.complex64)
    program = lambda v: (v * (2 - 1j) / (v + 1j), tnp.abs(v), tnp.exp(v), tnp.sqrt(v),
                         tnp.log(v), tnp.sum(v), tnp.sum(v.reshape(20, 30), axis=1),
                         v.reshape(20, 30) @ v.reshape(30, 20), v ** 2, v.astype(np.float32))
    got = api.jit(program, backend="cuda")(x)
    for i, (g, want) in enumerate(zip(got, _numpy(program, x))):
        assert_complex(np.asarray(g), want, rtol=2e-5, what=f"output {i}")


def test_cuda_trigonometric_family_under_emulation(request):
    """The C++ (CUDA) formulas of tp_complex.h for sin...atanh, log1p, expm1, exp2, log2 and
    log10, built as host C++ by the emulator, against NumPy."""
    from transpile.runtime.nvcc import EmulatedCudaCompiler
    if EmulatedCudaCompiler.from_environment() is None:
        pytest.skip("CUDA emulation needs a C++ compiler (g++)")
    request.getfixturevalue("cuda_emulation")   # skips where the real GPU is in use
    from transpile import api
    rng = np.random.default_rng(11)
    x = rng.standard_normal(64) * 3 + 1j * rng.standard_normal(64) * 3
    names = ["sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh",
             "arcsinh", "arccosh", "arctanh", "log1p", "expm1", "log2", "log10", "exp2"]
    got = api.jit(lambda v: [getattr(tnp, n)(v) for n in names], backend="cuda")(x)
    for name, value in zip(names, got):
        np.testing.assert_allclose(np.asarray(value), getattr(np, name)(x), rtol=1e-12,
                                   atol=1e-14, err_msg=name)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_cuda_inverse_functions_at_infinities_and_huge_values(request, dtype):
    """tp_complex.h's device formulas square z: beyond sqrt(MAX)/4 and at infinities
    asin...atanh take their asymptotic forms (log 2z, 1/z + i pi/2), which give C99's
    values there, as NumPy's (the formulas alone gave NaN at inf + 1j)."""
    from transpile.runtime.nvcc import EmulatedCudaCompiler
    if EmulatedCudaCompiler.from_environment() is None:
        pytest.skip("CUDA emulation needs a C++ compiler (g++)")
    request.getfixturevalue("cuda_emulation")   # skips where the real GPU is in use
    from transpile import api
    z = np.array([np.inf + 1j, -np.inf + 2j, complex(3, -np.inf), complex(np.inf, np.inf),
                  -1e30 - 5j, complex(-2, 1e20), 1e200 + 1e200j, 700 + 1j], dtype)
    names = ["arcsin", "arccos", "arctan", "arcsinh", "arccosh", "arctanh"]
    with np.errstate(all="ignore"):
        got = api.jit(lambda v: [getattr(tnp, n)(v) for n in names], backend="cuda")(z)
        for name, value in zip(names, got):
            np.testing.assert_allclose(np.asarray(value), getattr(np, name)(z),
                                       rtol=2e-6 if dtype == np.complex64 else 1e-13,
                                       err_msg=name)
