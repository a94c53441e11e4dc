"""float16 and bfloat16 arrays: stored as 16-bit patterns, computed in float32 and rounded
back after each operation (passes/half_float.py, runtime/include/tp_half.h).

Under NumPy's rules results are NumPy's float16 results bit for bit (ml_dtypes' for
bfloat16); under JAX's rules they are JAX 0.10.2's, recorded by tools/record_jax_half.py
over the cases of tests/half_cases.py. Transcendental functions may differ by one 16-bit step
where the float32 kernels (glibc's, NumPy's SIMD ones, XLA's) differ by an ulp before
rounding. bfloat16 cases need ml_dtypes, which transpile does not depend on."""
from __future__ import annotations

import json
import os
import sys

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import half_cases as cases  # noqa: E402

try:
    import ml_dtypes
except ImportError:      # optional: bfloat16 cases skip (transpile itself never needs it)
    ml_dtypes = None

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "jax_half.json")
NEEDS_ML_DTYPES = pytest.mark.skipif(ml_dtypes is None,
                                     reason="bfloat16 needs ml_dtypes (optional), not installed")
HALVES = ["float16", pytest.param("bfloat16", marks=NEEDS_ML_DTYPES)]


def dtypes_is_half(dt) -> bool:
    return np.dtype(dt).name in cases.HALF_NAMES


def dtype_of(name: str) -> np.dtype:
    return np.dtype(ml_dtypes.bfloat16) if name == "bfloat16" else np.dtype(name)


@pytest.fixture(scope="module")
def jax_data():
    with open(DATA) as f:
        return json.load(f)


def steps_apart(a, b) -> np.ndarray:
    """How many 16-bit values lie between a and b (0: the same bits; NaNs match NaNs)."""
    a, b = np.asarray(a), np.asarray(b)
    nan = np.isnan(a.astype(np.float32)) & np.isnan(b.astype(np.float32))
    # Sign-magnitude bits to a monotonic integer line (both zeros meet at 0 only if equal).
    def line(x):
        bits = x.view(np.uint16).astype(np.int64)
        return np.where(bits & 0x8000, -(bits & 0x7fff) - 1, bits)
    return np.where(nan, 0, np.abs(line(a) - line(b)))


# The sign of max(0.0, -0.0) is each library's own: NumPy's float16 loop returns the first
# operand, its float32 loop (and ml_dtypes, and transpile, which compute in float32) the
# second, JAX the larger by IEEE 754-2019 (+0 > -0). These compare zeros by value.
# Likewise sign(-0.0): NumPy's float16 loop gives +0, ml_dtypes and JAX -0, transpile +0.
# And floor_divide(-0.0, 1.0): -0 from NumPy's float16 scalar loop, +0 from its array loop.
# JAX's remainder gives +0 where NumPy gives the divisor's sign.
ZERO_SIGN_FREE = {"sign", "floor_divide", "remainder", "maximum", "minimum", "fmax", "fmin", "max_all", "max_axis0", "max_axis1",
                  "min_all", "min_axis0", "min_axis1"}


def assert_matches(got, want, op, transcendental=False):
    got, want = np.asarray(got), np.asarray(want)
    if op in ZERO_SIGN_FREE and got.dtype == want.dtype and got.dtype.itemsize == 2:
        got, want = (np.where(v.astype(np.float32) == 0, v.dtype.type(0), v) for v in (got, want))
    assert got.dtype == want.dtype, f"{op}: dtype {got.dtype}, expected {want.dtype}"
    assert got.shape == want.shape, op
    if cases.HALF_NAMES.count(got.dtype.name):
        worst = int(steps_apart(got, want).max(initial=0))
        assert worst <= (1 if transcendental else 0), f"{op}: {worst} steps off\n{got}\n{want}"
    elif got.dtype.kind in "fc":
        np.testing.assert_array_equal(got, want, err_msg=op)
    else:
        assert np.array_equal(got, want), f"{op}: {got} != {want}"


def edge_arrays(name):
    xs, ys = cases.edge_pairs(name)
    dt = dtype_of(name)
    return np.array(xs, dt), np.array(ys, dt)


def numpy_results(x, y, mod):
    with np.errstate(all="ignore"):
        unary = {op: getattr(mod, op)(x) for op in cases.UNARY}
        binary = {op: getattr(mod, op)(x, y) for op in cases.BINARY}
    return unary, binary


def all_ops(x, y):
    return numpy_results(x, y, tnp)


# -- NumPy's rules: NumPy's float16 (ml_dtypes' bfloat16) results, bit for bit -------------

@pytest.mark.parametrize("name", HALVES)
@pytest.mark.parametrize("backend", ["cpu", "interpret"])
def test_elementwise_ops_match_numpy(name, backend):
    x, y = edge_arrays(name)
    with tp.config.settings(transpile_dtype_rules="numpy"):
        got_unary, got_binary = tp.jit(all_ops, backend=backend)(x, y)
    want_unary, want_binary = numpy_results(x, y, np)
    for op in cases.UNARY:
        if name == "bfloat16" and op == "sign":
            continue     # ml_dtypes 0.6 gives sign(2**-126) = 0 (transpile: 1, as JAX)
        assert_matches(got_unary[op], want_unary[op], op, op in cases.TRANSCENDENTAL)
    for op in cases.BINARY:
        if name == "bfloat16" and op in ("floor_divide", "remainder"):
            continue     # ml_dtypes' divmod differs from NumPy's npy_divmod at the edges
        assert_matches(got_binary[op], want_binary[op], op, op in cases.TRANSCENDENTAL)


def test_float16_weak_scalars_round_to_float16_first():
    """`x * 0.1` multiplies by 0.1 rounded to float16 (NumPy's loop dtype), not in float32."""
    x = np.array([1.0, 3.0, 1000.0, -7.0], np.float16)
    got = tp.jit(lambda a: (a * 0.1, a + 1e-4, a / 3))(x)
    want = (x * 0.1, x + 1e-4, x / 3)
    for g, w in zip(got, want):
        assert_matches(g, w, "weak")


def test_float16_inner_reductions_match_numpy_bit_for_bit():
    # Inner-axis sums accumulate in float32 and round once, in NumPy (pairwise) as here.
    x = (np.random.default_rng(0).standard_normal((8, 300)) * 30).astype(np.float16)
    got = tp.jit(lambda a: (a.sum(axis=1), a.max(axis=1), a.min(axis=0), a.argmax(axis=1),
                            a.sum(), tnp.mean(a, axis=1)))(x)
    want = (x.sum(axis=1), x.max(axis=1), x.min(axis=0), x.argmax(axis=1), x.sum(),
            np.mean(x, axis=1))
    for g, w in zip(got, want):
        assert_matches(g, w, "reduction")


def test_float16_outer_sums_round_once_not_per_row():
    """NumPy adds rows one at a time for axis=0 sums and rounds each partial sum to float16;
    transpile (and JAX) accumulate in float32 and round once, which is closer to exact."""
    x = (np.random.default_rng(1).standard_normal((400, 5)) * 10).astype(np.float16)
    got = tp.jit(lambda a: a.sum(axis=0))(x)
    exact = x.astype(np.float64).sum(axis=0).astype(np.float16)
    assert got.dtype == np.float16
    assert steps_apart(got, exact).max() <= 1


@pytest.mark.parametrize("name", HALVES)
def test_casts_into_and_out_of_16_bits_match_numpy(name):
    dt = dtype_of(name)
    x, _ = edge_arrays(name)
    targets = [dtype_of(t) for t in cases.CAST_TARGETS
               if not (t == "bfloat16" and ml_dtypes is None)]
    sources = {src: np.array(v, src) for src, v in cases.cast_sources(name).items()}
    with np.errstate(all="ignore"):
        got_out = tp.jit(lambda a: [a.astype(t) for t in targets])(x)
        want_out = [x.astype(t) for t in targets]
        got_in = tp.jit(lambda s: {k: v.astype(dt) for k, v in s.items()})(sources)
        want_in = {k: v.astype(dt) for k, v in sources.items()}
    for t, g, w in zip(targets, got_out, want_out):
        if t.kind in "iu":               # NaN/inf to integers: compare the finite ones
            fin = np.isfinite(x.astype(np.float32)) & (np.abs(x.astype(np.float32)) < 100)
            g, w = g[fin], w[fin]
        assert_matches(g, w, f"{name} -> {t}")
    for k in sources:
        assert_matches(got_in[k], want_in[k], f"{k} -> {name}")


def test_conversions_are_correctly_rounded_for_every_float32_pattern_sampled():
    """tp_half.h's narrowing against NumPy's over 2**20 random float32 bit patterns, every
    float16 pattern widened, and float64 straight to float16 (one rounding)."""
    rng = np.random.default_rng(2)
    f32 = rng.integers(0, 2**32, 2**20, dtype=np.uint64).astype(np.uint32).view(np.float32)
    f64 = rng.standard_normal(2**16) * np.exp2(rng.integers(-30, 20, 2**16))
    all16 = np.arange(2**16, dtype=np.uint32).astype(np.uint16).view(np.float16)
    got = tp.jit(lambda a, b, c: (a.astype(tnp.float16), b.astype(tnp.float16),
                                  c.astype(tnp.float32)))(f32, f64, all16)
    with np.errstate(all="ignore"):
        want = (f32.astype(np.float16), f64.astype(np.float16), all16.astype(np.float32))
    assert steps_apart(got[0], want[0]).max() == 0
    assert steps_apart(got[1], want[1]).max() == 0
    np.testing.assert_array_equal(got[2], want[2])


SOFTWARE_CHECK = """
import numpy as np, transpile as tp, transpile.numpy as tnp
rng = np.random.default_rng(6)
f32 = rng.integers(0, 2**32, 2**20, dtype=np.uint64).astype(np.uint32).view(np.float32)
all16 = np.arange(2**16, dtype=np.uint32).astype(np.uint16).view(np.float16)
fn = tp.jit(lambda a, b: (a.astype(tnp.float16), b.astype(tnp.float32)))
narrow, wide = fn(f32, all16)
with np.errstate(all="ignore"):
    want = f32.astype(np.float16)
nan = np.isnan(want)
assert np.array_equal(nan, np.isnan(narrow))
assert narrow[~nan].tobytes() == want[~nan].tobytes()
np.testing.assert_array_equal(wide, all16.astype(np.float32))
print("ok")
"""


def test_integer_conversions_without_f16c_are_correctly_rounded(tmp_path):
    """tp_half.h converts with x86's F16C instructions where -march=native enables them;
    built without them (-mno-f16c, as on other CPUs) its integer code must agree too."""
    import subprocess
    env = dict(os.environ, TRANSPILE_CFLAGS="-mno-f16c", TRANSPILE_CACHE_DIR=str(tmp_path))
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [root, env.get("PYTHONPATH")]))
    done = subprocess.run([sys.executable, "-c", SOFTWARE_CHECK], env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]


@NEEDS_ML_DTYPES
def test_bfloat16_narrowing_matches_ml_dtypes_for_sampled_float32_patterns():
    bf16 = dtype_of("bfloat16")
    f32 = np.random.default_rng(3).integers(0, 2**32, 2**20, dtype=np.uint64).astype(
        np.uint32).view(np.float32)
    got = tp.jit(lambda a: a.astype(bf16))(f32)
    with np.errstate(invalid="ignore"):          # ml_dtypes flags NaN inputs
        want = f32.astype(bf16)
    assert steps_apart(got, want).max() == 0


def test_float16_through_control_flow_matmul_and_sort():
    x = (np.random.default_rng(4).standard_normal((6, 6)) * 4).astype(np.float16)

    def f(a):
        total = tp.lax.fori_loop(0, 3, lambda i, c: c * 0.5 + a, tnp.zeros_like(a))
        return total, a @ a, tnp.sort(a, axis=1), tnp.where(a > 0, a, 0.0)
    got = tp.jit(f)(x)
    c = np.zeros_like(x)
    for _ in range(3):
        c = c * np.float16(0.5) + x
    assert_matches(got[0], c, "fori_loop")
    assert got[1].dtype == np.float16
    exact = (x.astype(np.float64) @ x.astype(np.float64)).astype(np.float16)
    assert steps_apart(got[1], exact).max() <= 1
    assert_matches(got[2], np.sort(x, axis=1), "sort")
    assert_matches(got[3], np.where(x > 0, x, np.float16(0)), "where")


def test_eager_and_scalar_type():
    x = tnp.asarray([1.5, 2.0], dtype=tnp.float16)
    assert x.dtype == np.float16 and tnp.float16 == np.float16 and tnp.half is tnp.float16
    assert (x * 2).dtype == np.float16
    assert tnp.float16(3.0).dtype == np.float16


def test_bfloat16_without_ml_dtypes_names_the_package(monkeypatch):
    monkeypatch.setitem(sys.modules, "ml_dtypes", None)     # import ml_dtypes now fails
    monkeypatch.delitem(vars(tnp), "bfloat16", raising=False)
    with pytest.raises(ImportError, match="pip install ml_dtypes"):
        tnp.bfloat16


@NEEDS_ML_DTYPES
def test_bfloat16_scalar_type_is_ml_dtypes_bfloat16():
    assert np.dtype(tnp.bfloat16) == np.dtype(ml_dtypes.bfloat16)
    assert tnp.bfloat16(1.5).dtype == np.dtype(ml_dtypes.bfloat16)


# -- JAX's rules: JAX 0.10.2's results, recorded ----------------------------------------------

def recorded(entry) -> np.ndarray:
    name = entry["dtype"]
    if name in cases.HALF_NAMES:
        bits = np.array(entry["values"], np.uint16).reshape(entry["shape"])
        return bits.view(dtype_of(name))
    values = np.array(entry["values"])
    if name.startswith("complex"):
        values = values[..., 0] + 1j * values[..., 1]
    return values.astype(name).reshape(entry["shape"])


def jax_rules():
    return tp.config.settings(transpile_dtype_rules="jax", jax_enable_x64=True)


def normal_or_zero(*arrays):
    """Where no operand (or result) is a float32 subnormal: XLA's CPU code flushes those to zero (bfloat16
    subnormals are float32 subnormals; float16 ones widen to normal float32 values), which
    transpile, built without fast-math, does not."""
    keep = True
    for a in arrays:
        a = np.asarray(a)
        if a.dtype.kind not in "fV" and not dtypes_is_half(a.dtype):
            continue                                 # booleans, integers: nothing to flush
        with np.errstate(over="ignore"):         # float64 sources past float32's range
            wide = np.abs(a.astype(np.float32))
        keep = keep & ~((wide > 0) & (wide < np.finfo(np.float32).tiny))
    return keep


@pytest.mark.parametrize("name", HALVES)
def test_elementwise_ops_match_jax(name, jax_data):
    x, y = edge_arrays(name)
    with jax_rules():
        unary, binary = tp.jit(all_ops)(x, y)
        weak = tp.jit(lambda a: (a + 1.5, a * 3))(x)
    ref = jax_data[name]
    one, both = normal_or_zero(x), normal_or_zero(x, y)
    for op in cases.UNARY:
        if name == "bfloat16" and op == "exp2":
            continue     # JAX computes exp(x * log 2) with x * log 2 rounded to bfloat16
        keep = one & normal_or_zero(unary[op])           # subnormal results are flushed too
        want = recorded(ref[op])
        assert_matches(unary[op][keep], want[keep], op, op in cases.TRANSCENDENTAL)
    for op in cases.BINARY:
        keep = both & normal_or_zero(binary[op])
        want = recorded(ref[op])
        assert_matches(binary[op][keep], want[keep], op, op in cases.TRANSCENDENTAL)
    assert_matches(weak[0][one], recorded(ref["add_weak_float"])[one], "x + 1.5")
    assert_matches(weak[1][one], recorded(ref["mul_weak_int"])[one], "x * 3")


@pytest.mark.parametrize("name", HALVES)
def test_reductions_and_matmul_match_jax(name, jax_data):
    v = np.array(cases.finite_values(name), dtype_of(name)).reshape(4, 4)

    def f(a):
        out = {}
        for op in cases.REDUCTIONS:
            fn = getattr(tnp, op)
            out[f"{op}_all"] = fn(a.ravel())
            out[f"{op}_axis0"] = fn(a, axis=0)
            out[f"{op}_axis1"] = fn(a, axis=1)
        out["matmul"] = a @ a.T
        return out
    with jax_rules():
        got = tp.jit(f)(v)
    for key, value in got.items():
        # cumsum rounds each partial sum to 16 bits (JAX and transpile both scan in log
        # steps, in different orders): a step apart at most on these values.
        assert_matches(value, recorded(jax_data[name][key]), key, key.startswith("cumsum"))


@pytest.mark.parametrize("name", HALVES)
def test_casts_match_jax(name, jax_data):
    """Including float64 -> float16, which JAX rounds through float32 (twice) where NumPy
    rounds once."""
    x, _ = edge_arrays(name)
    ref = jax_data[name]
    targets = [t for t in cases.CAST_TARGETS if not (t == "bfloat16" and ml_dtypes is None)]
    sources = {src: np.array(v, src) for src, v in cases.cast_sources(name).items()}
    with jax_rules():
        outs = tp.jit(lambda a: [a.astype(dtype_of(t)) for t in targets])(x)
        ins = tp.jit(lambda s: {k: v.astype(dtype_of(name)) for k, v in s.items()})(sources)
    for t, got in zip(targets, outs):
        want = recorded(ref[f"to_{t}"])
        keep = normal_or_zero(x)
        if np.dtype(want.dtype).kind in "iu":     # NaN/inf/overflow to integers: JAX's own
            keep = keep & (np.abs(x.astype(np.float32)) < 100)
        assert_matches(got[keep], want[keep], f"to_{t}")
    for k, got in ins.items():
        want = recorded(ref[f"from_{k}"])
        keep = normal_or_zero(want) & normal_or_zero(sources[k].astype(np.float64))
        assert_matches(got[keep], want[keep], f"from_{k}")


def _token(fn, *args):
    ir = tp.make_ir(fn)(*args)
    aval = ir.outvars[0].aval
    return aval.dtype.name + ("*" if aval.weak_type else "")


@pytest.mark.parametrize("mode", ["x32", "x64"])
def test_promotion_matches_jax(mode, jax_data):
    py = {"py:int": 3, "py:float": 0.5, "py:bool": True}
    checked = 0
    with tp.config.settings(transpile_dtype_rules="jax", jax_enable_x64=mode == "x64"):
        for key, want in jax_data["promotion"][mode].items():
            op, name, *other = key.split(":", 2)
            if "bfloat16" in key and ml_dtypes is None:
                continue
            a = np.ones(2, dtype_of(name))
            if op == "sin":
                assert _token(tnp.sin, a) == want, key
            else:
                b = py[other[0]] if other[0] in py else np.ones(2, dtype_of(other[0]))
                fn = getattr(tnp, op)
                got = _token(lambda p: fn(p, b), a) if other[0] in py else _token(fn, a, b)
                assert got == want, key
            checked += 1
    assert checked >= 29          # 31 per mode with ml_dtypes, 29 without


def test_export_passes_float16_as_bit_patterns(tmp_path):
    from test_export import run_exported
    x = np.linspace(-3, 3, 40).astype(np.float16)
    fn = tp.jit(lambda a: tnp.tanh(a) * 2 + a)
    library = fn.lower(x).export(tmp_path / "lib", name="squash")
    header = (tmp_path / "lib" / "squash.h").read_text()
    assert "typedef uint16_t tp_f16;" in header and "int squash(const tp_f16 *a" in header
    (out,) = run_exported(library, tmp_path, x)
    assert out.dtype == np.float16 and out.tobytes() == fn(x).tobytes()


def test_fft_grad_and_vmap_keep_float16():
    x = np.linspace(-2, 2, 8).astype(np.float16)
    assert tp.jit(tnp.fft.fft)(x).dtype == np.complex64 == np.fft.fft(x).dtype
    g = tp.jit(tp.grad(lambda v: (tnp.sin(v) * v).sum()))(x)
    exact = np.sin(x.astype(np.float64)) + x.astype(np.float64) * np.cos(x.astype(np.float64))
    # sin(v) + v cos(v) cancels near +-2: a few float16 roundings of terms near 1 apart
    assert g.dtype == np.float16 and np.allclose(g.astype(np.float64), exact, atol=4e-3)
    assert tp.vmap(lambda v: v * 2)(x).dtype == np.float16


@NEEDS_ML_DTYPES
def test_bfloat16_clip_and_nan_to_num_under_jax_rules():
    bf16 = dtype_of("bfloat16")
    x = np.array([np.nan, np.inf, -3.0, 0.5], bf16)
    with jax_rules():
        clipped, cleaned = tp.jit(lambda a: (tnp.clip(a, -1, 1), tnp.nan_to_num(a)))(x)
    assert clipped.dtype == bf16 and cleaned.dtype == bf16
    assert cleaned.astype(np.float32)[1] == float(ml_dtypes.finfo(bf16).max)
    assert list(clipped.astype(np.float32)[2:]) == [-1.0, 0.5]
