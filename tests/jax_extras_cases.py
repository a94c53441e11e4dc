"""Programs shared by tools/record_jax_extras.py (which runs them with JAX 0.10, x64 on, and
stores the results in tests/data/jax_extras.json) and tests/test_jax_extras.py (which runs
them with transpile under JAX's dtype rules, eagerly and under jit, and compares).

Each case: name -> (make, args, jittable). make(jnp, lax) returns the function to call on
args; jittable is False where the result's shape depends on concrete values (or the call
takes no arrays). Inputs avoid subnormals, where JAX on CPU flushes to zero and NumPy (and
transpile) do not.
"""
from __future__ import annotations

import numpy as np

A = np.arange(24.).reshape(2, 3, 4)
M = np.arange(12.).reshape(3, 4)
F = np.array([0.0, -0.0, 1.5, -3.25, 7.0, 1e308, 0.75, -2.5, np.inf, -np.inf, np.nan])
F32 = np.array([0.0, -0.0, 1.5, -3.25, 7.0, 3e38, 0.75, -2.5, np.inf, -np.inf, np.nan],
               np.float32)
IA = np.array([0, 3, -12, 18, 7, -1, 2**40, 100])
IB = np.array([0, 9, 8, -27, 0, 5, 2**20, -75])
Z = np.array([1 + 2j, -3 + 0.5j, 2 - 1j, 0.5 + 0.25j])
X2 = np.array([[1., 2., 4., 3.], [0.5, -1., 2., 2.], [3., 1., 0., 1.]])


def _c(make, *args, jit=True):
    return make, args, jit


def _fixes(jnp, lax):
    return {
        "var_complex": _c(lambda x: jnp.var(x), Z),
        "var_complex_axis": _c(lambda x: jnp.var(x, axis=1, ddof=1), X2 * (1 + 2j)),
        "nanvar_complex": _c(lambda x: jnp.nanvar(x, axis=1), X2 * (1 + 2j)),
        "interp_complex": _c(lambda x: jnp.interp(x, np.array([0., 1, 2]),
                                                  np.array([1 + 1j, 2 - 1j, 3j])),
                             np.array([0.5, 1.5, -1, 3])),
        "interp_f32": _c(lambda x: jnp.interp(x, np.array([0., 1, 2], np.float32),
                                              np.array([1., 2, 3], np.float32), left=-1),
                         np.array([-0.5, 0.5, 1.5, 3], np.float32)),
        "take_clip_negative": _c(lambda x: jnp.take(x, np.array([-1, 0, 5, -7]), mode="clip"),
                                 np.array([1.5, -2.0, 3.0, 4.0])),
        "cov_rowvar_false_one_row": _c(lambda x: jnp.cov(x, rowvar=False),
                                       np.array([[1., 2., 4.]])),
        "cov_weights": _c(lambda x: jnp.cov(x, fweights=np.array([1, 2, 1, 3]),
                                            aweights=np.array([0.5, 1.0, 2.0, 0.25])), X2),
        "cov_aweights_ddof": _c(lambda x: jnp.cov(x, ddof=2,
                                                  aweights=np.array([0.5, 1.0, 2.0, 0.25])),
                                X2),
        "cov_f32": _c(lambda x: jnp.cov(x), X2.astype(np.float32)),
        "cov_complex": _c(lambda x: jnp.cov(x), X2 * (1 + 2j)),
        "pad_reflect_odd_complex": _c(lambda x: jnp.pad(x, 2, mode="reflect",
                                                        reflect_type="odd"), Z),
        "pad_symmetric_odd_wide": _c(lambda x: jnp.pad(x, ((5, 7), (9, 2)), mode="symmetric",
                                                       reflect_type="odd"), M),
        "pad_maximum": _c(lambda x: jnp.pad(x, ((2, 1), (0, 3)), mode="maximum"), M),
        "pad_minimum_stat": _c(lambda x: jnp.pad(x, 2, mode="minimum", stat_length=2), M),
        "pad_mean_int": _c(lambda x: jnp.pad(x, ((1, 2), (3, 1)), mode="mean",
                                             stat_length=((1, 2), (3, 1))),
                           np.array([[1, 5, -2, 3], [0, 7, 2, 9], [3, 1, 0, 1]])),
        "pad_median": _c(lambda x: jnp.pad(x, 1, mode="median", stat_length=3), M),
        "pad_linear_ramp": _c(lambda x: jnp.pad(x, ((5, 7), (9, 2)), mode="linear_ramp",
                                                end_values=((1, -2), (0.5, 4))), M),
        "pad_linear_ramp_int": _c(lambda x: jnp.pad(x, ((2, 1), (0, 3)), mode="linear_ramp",
                                                    end_values=((1, -2), (0.5, 4))),
                                  np.array([[1, 5, -2, 3], [0, 7, 2, 9], [3, 1, 0, 1]])),
    }


def _float_parts(jnp, lax):
    e = np.array([0, 1, -1, 3, 1070, -1070, 2000, -2000, 5, 0, 1])
    cases = {}
    for name, arr in (("f64", F), ("f32", F32), ("i64", IA)):
        cases[f"frexp_{name}"] = _c(lambda x: jnp.frexp(x), arr)
        cases[f"modf_{name}"] = _c(lambda x: jnp.modf(x), arr)
        cases[f"spacing_{name}"] = _c(lambda x: jnp.spacing(x), arr)
        cases[f"fabs_{name}"] = _c(lambda x: jnp.fabs(x), arr)
        cases[f"fmod_{name}"] = _c(lambda x, y: jnp.fmod(x, y), arr, arr[::-1])
        cases[f"float_power_{name}"] = _c(lambda x, y: jnp.float_power(x, y), arr,
                                          np.arange(len(arr)) % 4 - 1.5)
    cases["ldexp_f64"] = _c(lambda x, y: jnp.ldexp(x, y), F, e.astype(np.int32))
    cases["ldexp_f32"] = _c(lambda x, y: jnp.ldexp(x, y), F32,
                            np.clip(e, -100, 100).astype(np.int32))
    cases["ldexp_int"] = _c(lambda x, y: jnp.ldexp(x, y), IA, np.arange(8))
    cases["divmod_int"] = _c(lambda x, y: jnp.divmod(x, y), IA, np.where(IB == 0, 3, IB))
    cases["divmod_float"] = _c(lambda x, y: jnp.divmod(x, y), M - 5.5, M[::-1] - 3.5)
    return cases


def _integers(jnp, lax):
    cases = {
        "gcd": _c(lambda x, y: jnp.gcd(x, y), IA, IB),
        "lcm": _c(lambda x, y: jnp.lcm(x, y), IA, IB),
        "gcd_scalar_i32": _c(lambda x: jnp.gcd(x, 6), IA.astype(np.int32)),
        "lcm_u8": _c(lambda x, y: jnp.lcm(x, y), np.array([4, 6, 15], np.uint8),
                     np.array([6, 4, 5], np.uint8)),
    }
    for dt in (np.int8, np.int32, np.int64, np.uint8, np.uint64, np.bool_):
        values = np.array([0, 1, 5, -1, 127, -128, 3], dtype=np.int64).astype(dt)
        cases[f"bitwise_count_{np.dtype(dt).name}"] = _c(lambda x: jnp.bitwise_count(x),
                                                         values)
    return cases


def _at(jnp, lax):
    idx = np.array([0, 2, 0])
    return {
        "at_subtract": _c(lambda x: jnp.asarray(x).at[idx].subtract(1.5), M),
        "at_subtract_slice": _c(lambda x: jnp.asarray(x).at[1:, 2].subtract(
            np.array([1., 2])), M),
        "at_divide": _c(lambda x: jnp.asarray(x).at[idx].divide(2.), M),
        "at_power": _c(lambda x: jnp.asarray(x).at[1, idx].power(2.), M),
        "at_mul": _c(lambda x: jnp.asarray(x).at[0].mul(3.), M),
        "at_apply": _c(lambda x: jnp.asarray(x).at[1:].apply(jnp.sin), M),
    }


def _insert_delete(jnp, lax):
    return {
        "delete_index": _c(lambda x: jnp.delete(x, 1), A),
        "delete_axis": _c(lambda x: jnp.delete(x, -1, axis=1), A),
        "delete_indices": _c(lambda x: jnp.delete(x, np.array([0, 2]), axis=2), A),
        "delete_slice": _c(lambda x: jnp.delete(x, slice(None, None, 2), axis=2), A),
        "delete_mask": _c(lambda x: jnp.delete(x, np.array([True, False, True]), axis=1), A),
        "insert_scalar": _c(lambda x: jnp.insert(x, 1, 99.), A),
        "insert_axis": _c(lambda x: jnp.insert(x, 1, np.array([7., 8, 9, 10]), axis=1), A),
        "insert_block": _c(lambda x: jnp.insert(x, 2, np.array([[7.], [8]]), axis=2), A),
        "insert_indices": _c(lambda x: jnp.insert(x, np.array([0, 2, 2, 4]),
                                                  np.array([1., 2, 3, 4]), axis=2), A),
        "insert_slice": _c(lambda x: jnp.insert(x, slice(0, 3), -1., axis=1), A),
        "compress": _c(lambda x: jnp.compress(np.array([True, False, True]), x, axis=1), A),
        "compress_flat": _c(lambda x: jnp.compress(np.array([0, 1, 1, 0, 1]), x), A),
        "compress_size": _c(lambda c, x: jnp.compress(c, x, axis=2, size=3, fill_value=-7),
                            np.array([True, False, False, True]), A),
        "extract": _c(lambda x: jnp.extract(np.asarray(A) % 3 == 0, x), A),
        "extract_size": _c(lambda x: jnp.extract(x % 3 == 0, x, size=10), A),
        "resize": _c(lambda x: jnp.resize(x, (5, 7)), A),
        "trim_zeros": _c(lambda x: jnp.trim_zeros(x), np.array([0, 0, 1, 2, 0, 3, 0]),
                         jit=False),
        "trim_zeros_front": _c(lambda x: jnp.trim_zeros(x, "f"),
                               np.array([0, 0, 1, 2, 0, 3, 0]), jit=False),
        "put_clip": _c(lambda x: jnp.put(x, np.array([0, 5, 30]), np.array([-1., -2]),
                                         mode="clip", inplace=False), A),
        "put_wrap": _c(lambda x: jnp.put(x, np.array([0, 25, -1]), 9., mode="wrap",
                                         inplace=False), A),
        "place": _c(lambda x: jnp.place(x, np.asarray(A) > 17, np.array([1., 2, 3, 4]),
                                        inplace=False), A),
    }


def _rearranging(jnp, lax):
    ph = np.array([0., 3., 6.5, 0.2, -4., 12., 13.])
    return {
        "rot90": _c(lambda x: jnp.rot90(x), A),
        "rot90_k3": _c(lambda x: jnp.rot90(x, 3, axes=(2, 0)), A),
        "rollaxis": _c(lambda x: jnp.rollaxis(x, 2, 0), A),
        "unstack": _c(lambda x: jnp.unstack(x, axis=1), A),
        "block": _c(lambda x: jnp.block([[x, x[:, :1]], [np.ones((1, 5))]]), M),
        "sort_complex": _c(lambda x: jnp.sort_complex(x),
                           np.array([3 + 1j, 1 - 2j, 1 + 1j, -2j])),
        "sort_complex_i32": _c(lambda x: jnp.sort_complex(x), np.array([3, 1, 2], np.int32)),
        "ediff1d": _c(lambda x: jnp.ediff1d(x, to_end=np.array([9., 8]), to_begin=-1), M),
        "unwrap": _c(lambda x: jnp.unwrap(x), ph),
        "unwrap_period": _c(lambda x: jnp.unwrap(x, period=4., discont=1.5),
                            np.stack([ph, ph[::-1]])),
        "trapezoid": _c(lambda x: jnp.trapezoid(x), M),
        "trapezoid_x": _c(lambda x: jnp.trapezoid(x, x=np.array([0., 1, 3, 7]), axis=1), M),
        "cross3": _c(lambda a, b: jnp.cross(a, b), M[:, :3], M[::-1, 1:]),
        "cross2": _c(lambda a, b: jnp.cross(a, b), M[:, :2], M[::-1, 2:]),
        "vander": _c(lambda x: jnp.vander(x), np.array([1., 2, 3, 5])),
        "vander_increasing": _c(lambda x: jnp.vander(x, 3, increasing=True),
                                np.array([1, 2, 3, 5])),
        "matvec": _c(lambda a, b: jnp.matvec(a, b), A, M[0]),
        "vecmat": _c(lambda a, b: jnp.vecmat(a, b), M[:2, :3] * (1 + 1j), A),
        "apply_along_axis": _c(lambda x: jnp.apply_along_axis(lambda v: v[::-1] * v.sum(), 1,
                                                              x), A),
        "apply_over_axes": _c(lambda x: jnp.apply_over_axes(jnp.sum, x, [0, 2]), A),
        "fromfunction": _c(lambda: jnp.fromfunction(lambda i, k: i * 10 + k, (3, 4),
                                                    dtype=int), jit=False),
        "piecewise": _c(lambda x: jnp.piecewise(x, [x < 3, x > 7],
                                                [lambda v: -v, lambda v: v * 2, 0.5]), M),
        "choose_wrap": _c(lambda a: jnp.choose(a, [M, -M, M * 10], mode="wrap"),
                          np.array([[0, 1, 2, 3]])),
        "choose_clip": _c(lambda a: jnp.choose(a, [M[0], -1], mode="clip"),
                          np.array([-1, 0, 1, 5])),
    }


def _predicates_and_indexing(jnp, lax):
    f = np.array([np.inf, -np.inf, np.nan, 1., -0.])
    return {
        "isposinf": _c(lambda x: jnp.isposinf(x), f),
        "isneginf": _c(lambda x: jnp.isneginf(x), f),
        "isreal_iscomplex": _c(lambda x: (jnp.isreal(x), jnp.iscomplex(x)),
                               np.array([1 + 0j, 1j, 2])),
        "i0": _c(lambda x: jnp.i0(x), np.array([0., 0.5, -2., 10., 700.])),
        "ix_": _c(lambda a, b: jnp.ix_(a, b), np.array([0, 2]), np.array([1, 3, 0])),
        "ravel_multi_index": _c(lambda: jnp.ravel_multi_index(
            (np.array([0, 2, 1]), np.array([3, 1, 0])), (3, 4), order="F"), jit=False),
        "ravel_multi_index_clip": _c(lambda a, b: jnp.ravel_multi_index((a, b), (3, 4),
                                                                        mode="clip"),
                                     np.array([0, 5, -1]), np.array([3, 1, 9])),
        "mask_indices": _c(lambda: jnp.mask_indices(4, jnp.triu, 1), jit=False),
        "r_": _c(lambda: jnp.r_[1:4, 0, np.array([7, 8])], jit=False),
        "r_linspace": _c(lambda: jnp.r_[0:1:5j, np.array([7., 8])], jit=False),
        "r_directive": _c(lambda: jnp.r_["1,2,0", np.array([1, 2]), np.array([3, 4])],
                          jit=False),
        "c_": _c(lambda: jnp.c_[np.array([1, 2, 3]), np.array([4, 5, 6])], jit=False),
        "nancumsum": _c(lambda x: jnp.nancumsum(x, axis=1), np.where(M % 5 == 0, np.nan, M)),
        "nancumprod": _c(lambda x: jnp.nancumprod(x), np.where(M % 5 == 0, np.nan, M) / 4),
    }


def _windows_polynomials(jnp, lax):
    p, q = np.array([2., -1, 0.5, 3]), np.array([1., 4])
    xs = np.linspace(-1, 2, 9)
    ys = 3 * xs ** 2 - xs + 0.25 + np.sin(xs * 7) * 0.1
    cases = {f"{n}_{m}": _c(lambda n=n, m=m: getattr(jnp, n)(m), jit=False)
             for n in ("bartlett", "blackman", "hamming", "hanning") for m in (1, 5, 8)}
    cases.update({
        "kaiser": _c(lambda b: jnp.kaiser(7, b), np.float64(3.5)),
        "poly": _c(lambda z: jnp.poly(z), np.array([1., -2, 3])),
        "polyval": _c(lambda a, x: jnp.polyval(a, x), p, np.array([[0., 1.5], [-2, 3]])),
        "polyadd": _c(lambda a, b: jnp.polyadd(a, b), p, q),
        "polysub": _c(lambda a, b: jnp.polysub(a, b), q, p),
        "polymul": _c(lambda a, b: jnp.polymul(a, b), p, q),
        "polydiv": _c(lambda a, b: jnp.polydiv(a, b), p, q),
        "polyder": _c(lambda a: (jnp.polyder(a), jnp.polyder(a, 2)), p),
        "polyint": _c(lambda a: (jnp.polyint(a), jnp.polyint(a, 2, k=np.array([1., 2]))), p),
        "polyfit": _c(lambda x, y: jnp.polyfit(x, y, 2), xs, ys),
        "polyfit_weighted": _c(lambda x, y: jnp.polyfit(x, y, 3, w=np.arange(1., 10)),
                               xs, np.stack([ys, ys[::-1]], 1)),
    })
    return cases


def _sets_and_order(jnp, lax):
    x = np.array([[3, 1, 3], [2, 1, 5]])
    a, b = np.array([5, 1, 2, 2, 7]), np.array([2, 9, 7])
    rng = np.random.default_rng(0)
    pts = rng.normal(size=(50, 3))
    cases = {
        "unique_extras": _c(lambda v: jnp.unique(v, return_index=True, return_inverse=True,
                                                 return_counts=True), x, jit=False),
        "unique_axis": _c(lambda v: jnp.unique(v, axis=0, return_counts=True),
                          np.array([[1, 2], [3, 4], [1, 2]]), jit=False),
        "unique_extras_size": _c(lambda v: jnp.unique(v, return_index=True,
                                                      return_inverse=True, return_counts=True,
                                                      size=6, fill_value=-1), x),
        "unique_counts_size_small": _c(lambda v: jnp.unique(v, return_counts=True, size=2), x),
        "unique_all_size": _c(lambda v: tuple(jnp.unique_all(v, size=5)), x),
        "lexsort": _c(lambda k1, k2: jnp.lexsort((k1, k2)), np.array([3, 1, 2, 1, 3, 2]),
                      np.array([0.5, 2., 1., 1., -1., 1.])),
        "partition_kth": _c(lambda v: jnp.partition(v, 2)[:, 2],
                            np.array([[5., 1, 4, 2, 3], [0, -1, 7, 7, 2]])),
        "packbits": _c(lambda v: jnp.packbits(v, axis=1, bitorder="little"),
                       np.array([[1, 0, 1, 1, 0, 0, 1, 0, 1, 1, 1]])),
        "unpackbits": _c(lambda v: jnp.unpackbits(v, axis=1, count=20),
                         np.array([[219, 96, 3], [0, 255, 128]], np.uint8)),
        "histogramdd": _c(lambda s: jnp.histogramdd(s, bins=(2, 3, 4),
                                                    range=[(-1, 1), (-2, 2), (0, 1)]), pts),
        "histogram2d": _c(lambda u, v: jnp.histogram2d(u, v, bins=[3, 4], density=True),
                          pts[:, 0], pts[:, 1]),
    }
    for n in ("union1d", "intersect1d", "setdiff1d", "setxor1d"):
        cases[n] = _c(lambda u, v, n=n: getattr(jnp, n)(u, v), a, b, jit=False)
        cases[n + "_size"] = _c(lambda u, v, n=n: getattr(jnp, n)(u, v, size=6), a, b)
    return cases


def _complex_functions(jnp, lax):
    z = np.array([1 + 2j, -3 + 0.5j, 0.5 - 0.25j, 30 + 2j, 2 + 30j], np.complex128)
    names = ("sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh",
             "arcsinh", "arccosh", "arctanh", "log1p", "expm1", "log2", "log10", "exp2")
    cases = {f"complex_{n}": _c(lambda v, n=n: getattr(jnp, n)(v), z) for n in names}
    cases.update({f"complex64_{n}": _c(lambda v, n=n: getattr(jnp, n)(v),
                                       z[:3].astype(np.complex64)) for n in names})
    return cases


def _lax(jnp, lax):
    i32 = np.array([-8, -1, 0, 1, 5, 2**31 - 1, -2**31], np.int32)
    u8 = np.array([0, 1, 128, 255, 7, 16, 200], np.uint8)
    sh = np.array([1, 3, 0, 31, 40, 2, 1])
    return {
        "shift_right_logical_i32": _c(lambda x, s: lax.shift_right_logical(x, s), i32,
                                      sh.astype(np.int32)),
        "shift_right_arithmetic_u8": _c(lambda x, s: lax.shift_right_arithmetic(x, s), u8,
                                        sh.astype(np.uint8)),
        "population_count": _c(lambda x: lax.population_count(x), i32),
        "clz": _c(lambda x: (lax.clz(x), lax.clz(x.astype(np.uint8))), i32),
        "mulhi_i32": _c(lambda x: lax.mulhi(x, x[::-1]), i32),
        "mulhi_u64": _c(lambda x: lax.mulhi(x, x[::-1]),
                        np.array([2**64 - 1, 3, 2**40, 12345678901234], np.uint64)),
        "complex": _c(lambda x: lax.complex(x, -x), A.astype(np.float32)),
        "rev": _c(lambda x: lax.rev(x, (0, 2)), A),
        "split": _c(lambda x: lax.split(x, (1, 3), axis=2), A),
        "collapse": _c(lambda x: lax.collapse(x, 1, 3), A),
        "index_in_dim": _c(lambda x: lax.index_in_dim(x, -1, 1), A),
        "full_like": _c(lambda x: lax.full_like(x, 2, np.int32, (5,)), A),
        "reduce_tuple": _c(lambda x: lax.reduce((x, x * 2), (0., 1.),
                                                lambda a, b: (a[0] + b[0], a[1] * b[1]), (2,)),
                           A / 10),
        "reduce_xor": _c(lambda x: lax.reduce_xor(x, (1,)), np.arange(24).reshape(4, 6)),
        "cumlogsumexp": _c(lambda x: lax.cumlogsumexp(x, axis=2, reverse=True), A / 5),
        "sort_key_val": _c(lambda k, v: lax.sort_key_val(k, v), np.array([3., 1, 2, 1]),
                           np.array([0, 1, 2, 3])),
        "approx_min_k": _c(lambda x: lax.approx_min_k(x, 2, reduction_dimension=1), A),
        "igamma": _c(lambda a, x: (lax.igamma(a, x), lax.igammac(a, x)),
                     np.array([0.5, 1, 3, 10]), np.array([0.2, 1, 5, 8])),
    }


def _reduction_arguments(jnp, lax):
    x = np.array([[1., np.nan, 3., 4.], [np.nan, np.nan, 2., -1.], [5., 6., np.nan, 0.5]])
    w = np.array([[True, True, False, True], [True, False, True, True], [False] * 4])
    cases = {f"{n}_where": _c(lambda v, n=n: getattr(jnp, n)(v, axis=1, where=w), x)
             for n in ("nansum", "nanprod", "nanmean", "nanvar", "nanstd")}
    cases.update({f"{n}_where": _c(lambda v, n=n: getattr(jnp, n)(v, axis=1, where=w,
                                                                   initial=0.), x)
                  for n in ("nanmax", "nanmin")})
    filled = np.nan_to_num(x)
    cases.update({
        "var_mean": _c(lambda v: jnp.var(v, axis=1, mean=jnp.mean(v, axis=1, keepdims=True)),
                       filled),
        "std_mean_where": _c(lambda v: jnp.std(v, axis=0, where=w, mean=np.ones((1, 4))),
                             filled),
        "nanvar_mean": _c(lambda v: jnp.nanvar(v, axis=1, mean=np.zeros((3, 1))), x),
        "sum_prod_promote_integers_false": _c(
            lambda v: (jnp.sum(v, promote_integers=False),
                       jnp.prod(v, axis=0, promote_integers=False)),
            np.array([[100, 100], [3, 2]], np.int8)),
    })
    return cases


def _conv_transpose_and_linalg(jnp, lax):
    rng = np.random.default_rng(1)
    x4, k4, kt = (rng.normal(size=(2, 5, 6, 3)), rng.normal(size=(3, 2, 3, 4)),
                  rng.normal(size=(3, 2, 4, 3)))
    a, b = rng.normal(size=(2, 3, 6)), rng.normal(size=(2, 3))
    return {
        "conv_transpose_same": _c(lambda u, v: lax.conv_transpose(u, v, (2, 3), "SAME"),
                                  x4, k4),
        "conv_transpose_valid_kernel": _c(lambda u, v: lax.conv_transpose(
            u, v, (2, 1), "VALID", transpose_kernel=True), x4, kt),
        "conv_transpose_pads": _c(lambda u, v: lax.conv_transpose(
            u, v, (1, 2), ((1, 2), (0, 1))), x4, k4),
        "conv_transpose_nchw": _c(lambda u, v: lax.conv_transpose(
            u, v, (2, 2), "VALID", dimension_numbers=("NCHW", "OIHW", "NCHW")),
            x4.transpose(0, 3, 1, 2), k4.transpose(3, 2, 0, 1)),
        "conv_transpose_shape_tuple": _c(lambda: np.array(lax.conv_transpose_shape_tuple(
            (2, 9, 10, 3), (3, 2, 3, 4), (2, 1), "SAME", ("NHWC", "HWIO", "NHWC"))),
            jit=False),
        "conv_general_shape_tuple": _c(lambda: np.array(lax.conv_general_shape_tuple(
            (2, 9, 10, 3), (3, 2, 3, 4), (2, 1), "VALID", ("NHWC", "HWIO", "NHWC"))),
            jit=False),
        "tensorinv": _c(lambda v: jnp.linalg.tensorinv(v, 2), a),
        "tensorsolve": _c(lambda u, v: jnp.linalg.tensorsolve(u, v), a, b),
        "tensorsolve_axes": _c(lambda u, v: jnp.linalg.tensorsolve(u, v, axes=(0,)),
                               a.reshape(6, 2, 3), b),
        "linalg_cross": _c(lambda u, v: jnp.linalg.cross(u, v, axis=0), a[:, :, 0].T, b.T),
    }


def _methods_and_dtypes(jnp, lax):
    x = M - 4.5
    return {
        "method_ptp": _c(lambda v: jnp.asarray(v).ptp(axis=1), x),
        "method_view": _c(lambda v: jnp.asarray(v).view(jnp.int64), x),
        "method_compress": _c(lambda v: jnp.asarray(v).compress(np.array([True, False, True]),
                                                                axis=0), x),
        "method_choose": _c(lambda i, v: jnp.asarray(i).choose([v[0], v[1]], mode="clip"),
                            np.array([0, 1, 0, 1]), x),
        "moveaxis_several": _c(lambda v: jnp.moveaxis(v[None], (0, 1), (2, 0)), x),
        "searchsorted_int32": _c(lambda v: jnp.searchsorted(v[0], v[1]), x),
        "digitize_int32": _c(lambda v: jnp.digitize(v, np.array([-1., 0, 2])), x),
        "histogram_float_counts": _c(lambda v: jnp.histogram(v, bins=3), x),
    }


GROUPS = (_methods_and_dtypes, _conv_transpose_and_linalg, _reduction_arguments, _fixes, _float_parts, _integers, _at, _insert_delete, _rearranging,
          _predicates_and_indexing, _windows_polynomials, _sets_and_order, _complex_functions,
          _lax)


def cases(jnp, lax) -> dict:
    out = {}
    for group in GROUPS:
        out.update(group(jnp, lax))
    return out
