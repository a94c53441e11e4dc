"""Programs shared by tools/record_jax_laxgaps.py (which runs them with JAX 0.10, x64 on, and
stores the results in tests/data/jax_laxgaps.json) and tests/test_jax_laxgaps.py (which runs
them with transpile under JAX's dtype rules, eagerly and under jit, and compares): the lax
functions JAX's own lax_test.py reaches that transpile added later -- reduce_window with any
reducer, dilations and pytrees; rng_bit_generator's bits; reduce_precision; ragged_dot;
index_take's wrapping; random.normal's complex draws; bitcasts between widths.

Each group is a function of (jnp, lax, api) -- api being `jax` or `transpile` -- returning
name -> (make, args, jittable), as in tests/jax_laxapi_cases.py.
"""
from __future__ import annotations

import numpy as np

X46 = (np.arange(24.0).reshape(4, 6) * 0.37 - 3.1).astype(np.float32)
X3246 = (np.sin(np.arange(144.0)) * 2).reshape(3, 2, 4, 6).astype(np.float32)
Y46 = (np.cos(np.arange(24.0)) * 3).reshape(4, 6).astype(np.float32)


def _c(make, *args, jit=True):
    return make, args, jit


def _windows(jnp, lax, api):
    def sub(a, b):
        return a - b

    def add_and_max(xs, ys):
        return xs[0] + ys[0], lax.max(xs[1], ys[1])

    def window(x, init, fn, dims, strides, padding, base=None, dilation=None):
        return lax.reduce_window(x, init, fn, dims, strides, padding, base, dilation)
    return {
        "rw_sub_same_dilated": _c(lambda x: window(
            x, np.float32(0), sub, (2, 1), (1, 2), "SAME", (2, 3), (1, 2)), X46),
        "rw_mul_pads_base": _c(lambda x: window(
            x, np.float32(1), lambda a, b: a * b, (1, 2), (2, 1), [(0, 3), (1, 2)], (2, 3)),
            X46),
        "rw_max_base_dilation": _c(lambda x: window(
            x, -np.inf, lax.max, (2, 2), (1, 1), "VALID", (2, 1)), X46),
        "rw_add_same_lower": _c(lambda x: window(
            x, 0.0, lax.add, (3, 2), (2, 2), "SAME_LOWER"), X46),
        "rw_add_window_dilation_same": _c(lambda x: window(
            x, 0.0, lax.add, (2, 2), (1, 1), "SAME", None, (2, 3)), X46),
        "rw_min_4d": _c(lambda x: window(
            x, np.inf, lax.min, (2, 1, 2, 1), (1, 2, 2, 1), [(0, 1), (1, 0), (2, 3), (0, 2)],
            (2, 1, 3, 2), (1, 2, 2, 1)), X3246),
        "rw_custom_max_init_not_identity": _c(lambda x: window(
            x, np.float32(0.5), lambda a, b: jnp.maximum(a, b), (2, 3), (1, 1), "VALID"), X46),
        "rw_add_traced_init": _c(lambda x, i: window(
            x, i, lax.add, (2, 2), (1, 1), "SAME", (1, 2)), X46, np.float32(2.5)),
        "rw_variadic": _c(lambda x, y: window(
            (x, y), (np.float32(0), np.float32(-np.inf)), add_and_max, (2, 1), (1, 1),
            [(0, 3), (1, 2)], (2, 3), (1, 2)), X46, Y46),
        "rw_dict_operands": _c(lambda x, y: window(
            {"a": x, "b": y}, {"a": np.float32(0), "b": np.float32(1)},
            lambda p, q: {"a": p["a"] + q["a"], "b": p["b"] * q["b"]}, (2, 2), (2, 1),
            "VALID"), X46, Y46),
        "rw_int32_max": _c(lambda x: window(
            x, np.int32(-2**31), lax.max, (2, 3), (1, 2), "SAME"),
            np.arange(24, dtype=np.int32).reshape(4, 6) % 7 - 3),
        "rw_sub_skips_padding": _c(lambda x: window(
            x, np.float32(10), sub, (3,), (1,), [(1, 1)]), np.arange(1.0, 5.0, dtype=np.float32)),
        "rw_sub_skips_dilation_holes": _c(lambda x: window(
            x, np.float32(10), sub, (2,), (1,), "VALID", (2,)),
            np.arange(1.0, 5.0, dtype=np.float32)),
        # the order a reducer that is not associative sees: XLA folds row-major without
        # padding (with padding its CPU code goes column-major; the order is unspecified)
        "rw_fold_order": _c(lambda x: window(
            x, np.float32(0), lambda a, b: 2 * a + b, (2, 2), (1, 1), "VALID"), Y46),
        "rw_add_init_with_padding": _c(lambda x: window(
            x, np.float32(10), lax.add, (3,), (1,), [(1, 1)], (2,)),
            np.arange(1.0, 5.0, dtype=np.float32)),
        "rw_max_init_with_negative_padding": _c(lambda x: window(
            x, np.float32(0.5), lax.max, (2, 2), (1, 2), [(-1, 2), (1, -2)]), X46),
        "rw_scalar_custom": _c(lambda x: window(x, np.float32(1), sub, (), (), ()),
                               np.float32(2.0)),
        "rw_scalar": _c(lambda x: window(x, np.float32(1), lax.add, (), (), ()),
                        np.float32(2.0)),
        "rw_empty_output": _c(lambda x: window(
            x, 0.0, lax.add, (3, 1, 1), (1, 1, 1), "VALID", None, (3, 1, 1)),
            np.ones((5, 3, 2))),
        "rw_jvp_custom_sub": _c(lambda x, t: api.jvp(lambda y: window(
            y, np.float32(0), sub, (2, 1), (1, 1), "SAME", (2, 1)), (x,), (t,)), X46, Y46),
        "rw_grad_max": _c(lambda x: api.grad(lambda y: window(
            y, -np.inf, lax.max, (2, 2), (1, 1), "VALID").sum())(x), X46),
        "rw_vmap": _c(lambda x: api.vmap(lambda y: window(
            y, np.float32(0), lambda a, b: a + 2 * b, (2,), (1,), "SAME", (2,)))(x), X46),
        "rw_error_init_shape": _c(lambda x: window(
            x, np.zeros((1,), np.int32), lax.max, (2, 2), (2, 2), "VALID", (1, 1), (1, 1)),
            np.ones((4, 4), np.int32), jit=False),
        "rw_error_init_dtype": _c(lambda x: window(x, 0.0, sub, (2,), (1,), "VALID"),
                                  np.ones(3, np.float32), jit=False),
    }


def _rng_bits(jnp, lax, api):
    key = np.array([1, 2, 3, 4], np.uint32)
    wrapping = np.array([7, 9, 0xFFFFFFFE, 0xFFFFFFFF], np.uint32)
    three_fry = lax.RandomAlgorithm.RNG_THREE_FRY
    philox = lax.RandomAlgorithm.RNG_PHILOX

    def bits(shape, dtype=np.uint32, algorithm=lax.RandomAlgorithm.RNG_DEFAULT):
        return lambda k: lax.rng_bit_generator(k, shape, dtype, algorithm)
    return {
        "rbg_default_u32": _c(bits((5, 7)), key),
        "rbg_default_u8": _c(bits((3, 5), np.uint8), key),
        "rbg_default_u16": _c(bits((7,), np.uint16), key),
        "rbg_default_u64": _c(bits((3, 3), np.uint64), key),
        "rbg_default_scalar": _c(bits(()), key),
        "rbg_default_empty": _c(bits((0,)), key),
        "rbg_philox_counter_wraps": _c(bits((9,), algorithm=philox), wrapping),
        "rbg_threefry_u64_key": _c(bits((5, 7), algorithm=three_fry),
                                   np.array([1, 2], np.uint64)),
        "rbg_threefry_u32_3d": _c(bits((2, 3, 4), algorithm=three_fry), key),
        "rbg_threefry_odd_shape": _c(bits((3, 5), algorithm=three_fry), key),
        "rbg_threefry_scalar": _c(bits((), algorithm=three_fry), key),
        "rbg_threefry_u64": _c(bits((3, 5), np.uint64, three_fry), key),
        "rbg_threefry_u8_wraps": _c(bits((4, 3), np.uint8, three_fry), wrapping),
        "rbg_error_dtype": _c(bits((3,), np.int32), key, jit=False),
    }


def _values_for_precision():
    special = [np.nan, -np.inf, np.inf, 0.0, -0.0, 65504.0, 65519.0, 65520.0, 1e6, 6e-8,
               3e-8, 2.98e-8, 1e-5, 1.0009765625, 1.00048828125, 1.00146484375, 1e-40,
               -3.4e38, 3.3e38, 1e-310]
    rng = np.random.RandomState(7)
    spread = rng.randn(40) * 10.0 ** rng.randint(-30, 30, 40)
    return np.concatenate([special, spread])


def _precision(jnp, lax, api):
    x64 = _values_for_precision()
    with np.errstate(over="ignore"):
        x32, x16 = x64.astype(np.float32), x64.astype(np.float16)

    def reduced(e, m):
        return lambda x: lax.reduce_precision(x, e, m)
    return {
        "rp_f32_as_bf16": _c(reduced(8, 7), x32),
        "rp_f32_as_f16": _c(reduced(5, 10), x32),
        "rp_f64_as_f32": _c(reduced(8, 23), x64),
        "rp_f64_as_e5m2": _c(reduced(5, 2), x64),
        "rp_f64_as_e4m3": _c(reduced(4, 3), x64),
        "rp_f32_no_mantissa": _c(reduced(2, 0), x32),
        "rp_f16_as_e3m1": _c(reduced(3, 1), x16),
        "rp_f16_wider_exponent": _c(reduced(8, 7), x16),
        "rp_f64_unchanged": _c(reduced(11, 52), x64),
        "rp_vmap": _c(lambda x: api.vmap(reduced(5, 10))(x), x32.reshape(6, 10)),
    }


def _ragged(jnp, lax, api):
    rng = np.random.RandomState(3)
    lhs, rhs = rng.randn(10, 4), rng.randn(3, 4, 5)
    sizes = np.array([3, 0, 5], np.int32)
    R = lax.RaggedDotDimensionNumbers

    def general(dnums, **kw):
        return lambda a, b, g: lax.ragged_dot_general(a, b, g, dnums, **kw)
    contracting = R(dot_dimension_numbers=(([1], [0]), ([], [])), lhs_ragged_dimensions=[1],
                    rhs_group_dimensions=[])
    contracting_batch = R(dot_dimension_numbers=(([2], [1]), ([0], [0])),
                          lhs_ragged_dimensions=[2], rhs_group_dimensions=[])
    batch = R(dot_dimension_numbers=(([2], [1]), ([0], [0])), lhs_ragged_dimensions=[0],
              rhs_group_dimensions=[])
    grouped_batch = R(dot_dimension_numbers=(([2], [2]), ([0], [1])),
                      lhs_ragged_dimensions=[1], rhs_group_dimensions=[0])
    return {
        "rd_basic": _c(lax.ragged_dot, lhs, rhs, sizes),
        "rd_int32": _c(lax.ragged_dot, np.arange(40, dtype=np.int32).reshape(10, 4) % 5,
                       np.arange(60, dtype=np.int32).reshape(3, 4, 5) % 7 - 3, sizes),
        "rd_preferred_f64": _c(lambda a, b, g: lax.ragged_dot(
            a, b, g, preferred_element_type=np.float64), lhs.astype(np.float32),
            rhs.astype(np.float32), sizes),
        "rdg_contracting": _c(general(contracting), rng.randn(11, 5), rng.randn(5, 7),
                              np.array([2, 1, 2], np.int32)),
        "rdg_contracting_batch": _c(general(contracting_batch), rng.randn(2, 11, 5),
                                    rng.randn(2, 5, 7),
                                    np.array([[1, 3, 1], [0, 2, 2]], np.int32)),
        "rdg_batch": _c(general(batch), rng.randn(4, 3, 5), rng.randn(4, 5, 2),
                        np.array([1, 3], np.int32)),
        "rdg_grouped_batch": _c(general(grouped_batch), rng.randn(2, 6, 4),
                                rng.randn(3, 2, 4, 5),
                                np.array([[2, 2, 2], [1, 0, 4]], np.int32)),
        "rd_grad": _c(lambda a, b, g: api.grad(lambda p, q: (lax.ragged_dot(p, q, g) ** 2)
                                               .sum(), argnums=(0, 1))(a, b), lhs, rhs, sizes),
        "rd_vmap": _c(lambda a, b, g: api.vmap(lax.ragged_dot)(a, b, g),
                      rng.randn(2, 6, 3), rng.randn(2, 2, 3, 4),
                      np.array([[2, 4], [5, 0]], np.int32)),
        "rdg_error_two_ragged": _c(general(R((([1], [1]), ([], [])), [0, 1], [0])),
                                   np.ones((11, 5)), np.ones((3, 5, 7)),
                                   np.ones(3, np.int32), jit=False),
        "rdg_error_group_size": _c(general(R((([1], [1]), ([], [])), [0], [0])),
                                   np.ones((11, 5)), np.ones((3, 5, 7)),
                                   np.ones(2, np.int32), jit=False),
        "rdg_error_sizes_shape": _c(general(R((([1], [1]), ([], [])), [0], [0])),
                                    np.ones((11, 5)), np.ones((3, 5, 7)),
                                    np.ones((2, 3), np.int32), jit=False),
    }


def _complex_normal(jnp, lax, api):
    """random.normal with a complex dtype (reached by lax_test's scan regression test)."""
    def draw(shape, dtype):
        return lambda seed: api.random.normal(api.random.PRNGKey(seed), shape, dtype)
    return {
        "normal_complex64": _c(draw((3, 4), np.complex64), np.uint32(0)),
        "normal_complex128": _c(draw((5,), np.complex128), np.uint32(42)),
    }


def _index_take(jnp, lax, api):
    """index_take wraps every index modulo its axis, as JAX's."""
    x = np.arange(60.0).reshape(3, 4, 5)
    return {
        "index_take_wraps": _c(lambda s, i: lax.index_take(s, (i,), (0,)), x,
                               np.array([0, 5, -1, -7, 9])),
        "index_take_two_axes": _c(lambda s, i, j: lax.index_take(s, (i, j), (0, 2)), x,
                                  np.array([0, 2, 4], np.int32), np.array([1, -3, 12], np.int32)),
    }


def _bitcasts(jnp, lax, api):
    """bitcast_convert_type between widths: a trailing axis of the narrow elements."""
    x = np.array([[1.5, -2.25, np.pi], [1e-30, -0.0, 7e30]], np.float32)
    cast = lax.bitcast_convert_type
    return {
        "bitcast_f32_to_i8": _c(lambda v: cast(v, np.int8), x),
        "bitcast_f32_to_u16": _c(lambda v: cast(v, np.uint16), x),
        "bitcast_f64_to_u32": _c(lambda v: cast(v, np.uint32), x.astype(np.float64)),
        "bitcast_u8_to_f32": _c(lambda v: cast(v, np.float32),
                                np.arange(24, dtype=np.uint8).reshape(2, 3, 4) * 11),
        "bitcast_i16_to_f64": _c(lambda v: cast(v, np.float64),
                                 (np.arange(8, dtype=np.int16) * 4099 - 9000).reshape(2, 4)),
        "bitcast_f16_to_u8": _c(lambda v: cast(v, np.uint8),
                                np.array([[1.5, -2.25, 3.14], [1e-3, -0.0, 6e4]], np.float16)),
        "bitcast_round_trip": _c(lambda v: cast(cast(v, np.int8), np.float32), x),
        "bitcast_error_last_axis": _c(lambda v: cast(v, np.float32),
                                      np.ones((2, 3), np.uint8), jit=False),
    }


def _accuracy(jnp, lax, api):
    """accuracy=AccuracyMode.HIGHEST: JAX's derivatives from the argument (expm1's is exp)."""
    x = np.arange(-80.0, 80.0, 1.0, dtype=np.float32)
    t = np.linspace(-6.0, 6.0, 25)

    def slope(name):
        fn = getattr(lax, name)
        return lambda v: api.vmap(api.grad(
            lambda y: fn(y, accuracy=lax.AccuracyMode.HIGHEST)))(v)
    return {"highest_expm1_grad": _c(slope("expm1"), x),
            "highest_tanh_grad": _c(slope("tanh"), t),
            "highest_logistic_grad": _c(slope("logistic"), t.astype(np.float32))}


def _sorting(jnp, lax, api):
    """sort_key_val with uint64 keys (whose fill value is beyond int64)."""
    keys = np.array([[7, 3, 11], [0, 14, 5], [9, 2, 12]], np.uint64)
    values = np.arange(9, dtype=np.int32).reshape(3, 3)
    return {"sort_key_val_uint64": _c(lambda k, v: lax.sort_key_val(k, v, -1, False),
                                      keys, values),
            "shape_as_value": _c(lambda: [lax.shape_as_value(s)
                                          for s in [(), (2,), (2, 3), (2**31, 1)]],
                                 jit=False)}


GROUPS = (_sorting, _windows, _rng_bits, _precision, _ragged, _complex_normal, _index_take, _bitcasts,
          _accuracy)
