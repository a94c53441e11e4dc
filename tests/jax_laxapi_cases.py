"""Programs shared by tools/record_jax_laxapi.py (which runs them with JAX 0.10, x64 on, and
stores the results in tests/data/jax_laxapi.json) and tests/test_jax_laxapi.py (which runs
them with transpile under JAX's dtype rules, eagerly and under jit, and compares).

Each group is a function of (jnp, lax, special, api) -- api being `jax` or `transpile`, for
grad and vmap -- returning name -> (make, args, jittable): make() gives the function to call
on args; jittable is False where the call cannot be traced (a static argument in args).
Scatter cases with duplicate positions use only the order-free combiners (add, mul, min,
max, and scatter_apply's repeated func): which duplicate a plain scatter keeps is the
backend's choice in JAX.
"""
from __future__ import annotations

import numpy as np

X = np.arange(12.).reshape(3, 4) - 4.5
Y = np.arange(30.).reshape(5, 6) * 0.5 - 3
B = np.arange(30.).reshape(2, 5, 3) - 7.0


def _c(make, *args, jit=True):
    return make, args, jit


def _gathers(jnp, lax, special, api):
    G = lax.GatherDimensionNumbers
    rows = G(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,))
    points = G(offset_dims=(), collapsed_slice_dims=(0, 1), start_index_map=(0, 1))
    windows = G(offset_dims=(1, 2), collapsed_slice_dims=(), start_index_map=(0, 1))
    swapped = G(offset_dims=(1, 2), collapsed_slice_dims=(), start_index_map=(1, 0))
    middle = G(offset_dims=(0,), collapsed_slice_dims=(1,), start_index_map=(1,))
    batched = G(offset_dims=(2,), collapsed_slice_dims=(1,), start_index_map=(1,),
                operand_batching_dims=(0,), start_indices_batching_dims=(0,))
    rix = np.array([[2], [0], [5], [-1]])
    pix = np.array([[0, 1], [2, 3], [1, 0], [3, 0], [2, -2]])
    wix = np.array([[0, 0], [3, 4], [4, 1], [-1, 2]])
    cases = {
        "gather_rows_default": _c(lambda x, i: lax.gather(x, i, rows, (1, 4)), X, rix),
        "gather_rows_fill": _c(lambda x, i: lax.gather(x, i, rows, (1, 4), mode="fill"),
                               X, rix),
        "gather_rows_clip": _c(lambda x, i: lax.gather(x, i, rows, (1, 4), mode="clip"),
                               X, rix),
        "gather_rows_promise": _c(lambda x, i: lax.gather(
            x, i, rows, (1, 4), mode=lax.GatherScatterMode.PROMISE_IN_BOUNDS), X, rix),
        "gather_rows_fill_value": _c(lambda x, i: lax.gather(
            x, i, rows, (1, 4), mode="fill", fill_value=-1.0), X, rix),
        "gather_rows_partial": _c(lambda x, i: lax.gather(x, i, rows, (1, 2), mode="clip"),
                                  X, rix),
        "gather_points": _c(lambda x, i: lax.gather(x, i, points, (1, 1)), X, pix),
        "gather_points_clip": _c(lambda x, i: lax.gather(x, i, points, (1, 1), mode="clip"),
                                 X, pix),
        "gather_windows_fill": _c(lambda x, i: lax.gather(x, i, windows, (2, 3),
                                                          mode="fill"), Y, wix),
        "gather_windows_clip": _c(lambda x, i: lax.gather(x, i, windows, (2, 3),
                                                          mode="clip"), Y, wix),
        "gather_windows_swapped": _c(lambda x, i: lax.gather(x, i, swapped, (3, 2),
                                                             mode="clip"), Y, wix),
        "gather_offset_first": _c(lambda x, i: lax.gather(x, i, middle, (3, 1), mode="clip"),
                                  X, np.array([[[1], [3]], [[0], [2]]])),
        "gather_batching": _c(lambda x, i: lax.gather(x, i, batched, (1, 1, 3), mode="clip"),
                              B, np.array([[[4], [0], [2]], [[1], [1], [3]]])),
        "gather_int32_fill": _c(lambda x, i: lax.gather(x, i, rows, (1, 4), mode="fill"),
                                np.arange(12, dtype=np.int32).reshape(3, 4), rix),
        "gather_uint8_fill": _c(lambda x, i: lax.gather(x, i, rows, (1, 4), mode="fill"),
                                np.arange(12, dtype=np.uint8).reshape(3, 4), rix),
        "gather_bool_fill": _c(lambda x, i: lax.gather(x, i, rows, (1, 4), mode="fill"),
                               np.arange(12).reshape(3, 4) % 3 == 0, rix),
        "gather_float32_int32_indices": _c(
            lambda x, i: lax.gather(x, i, windows, (2, 2), mode="clip"),
            Y.astype(np.float32), wix.astype(np.int32)),
        "gather_grad": _c(lambda x: api.grad(lambda y: (lax.gather(
            y, pix, points, (1, 1), mode="clip") * np.arange(1., 6.)).sum())(x), X),
        "gather_vmap": _c(lambda x, i: api.vmap(lambda y, j: lax.gather(
            y, j, rows, (1, 4), mode="clip"))(x, i), np.stack([X, X * 2]),
            np.array([[[1], [2]], [[0], [0]]])),
    }
    return cases


def _scatters(jnp, lax, special, api):
    S = lax.ScatterDimensionNumbers
    rows = S(update_window_dims=(1,), inserted_window_dims=(0,),
             scatter_dims_to_operand_dims=(0,))
    points = S(update_window_dims=(), inserted_window_dims=(0, 1),
               scatter_dims_to_operand_dims=(0, 1))
    windows = S(update_window_dims=(1, 2), inserted_window_dims=(),
                scatter_dims_to_operand_dims=(0, 1))
    batched = S(update_window_dims=(2,), inserted_window_dims=(1,),
                scatter_dims_to_operand_dims=(1,), operand_batching_dims=(0,),
                scatter_indices_batching_dims=(0,))
    dup = np.array([[2], [0], [2], [7], [-1]])
    uniq = np.array([[2], [0], [7]])
    pix = np.array([[0, 1], [2, 3], [0, 1], [3, 0], [1, 2]])
    wix = np.array([[0, 0], [3, 4], [4, 1], [2, 2]])
    upd_rows = np.arange(20.).reshape(5, 4) - 6
    upd_win = np.arange(24.).reshape(4, 2, 3) + 0.25
    return {
        "scatter_add_rows": _c(lambda x, u: lax.scatter_add(x, dup, u, rows), X, upd_rows),
        "scatter_add_rows_clip": _c(lambda x, u: lax.scatter_add(x, dup, u, rows,
                                                                 mode="clip"), X, upd_rows),
        "scatter_sub_rows": _c(lambda x, u: lax.scatter_sub(x, dup, u, rows), X, upd_rows),
        "scatter_mul_rows": _c(lambda x, u: lax.scatter_mul(x, dup, u, rows), X,
                               upd_rows * 0.5),
        "scatter_min_points": _c(lambda x, u: lax.scatter_min(x, pix, u, points), X,
                                 np.array([-9., 3., -20., 1., 0.5])),
        "scatter_max_points": _c(lambda x, u: lax.scatter_max(x, pix, u, points), X,
                                 np.array([-9., 3., -20., 1., 0.5])),
        "scatter_set_unique": _c(lambda x, u: lax.scatter(x, uniq, u, rows), X,
                                 upd_rows[:3]),
        "scatter_set_unique_clip": _c(lambda x, u: lax.scatter(
            x, uniq, u, rows, mode="clip", unique_indices=True), X, upd_rows[:3]),
        "scatter_add_windows_drop": _c(lambda x, u: lax.scatter_add(x, wix, u, windows),
                                       Y, upd_win),
        "scatter_add_windows_clip": _c(lambda x, u: lax.scatter_add(x, wix, u, windows,
                                                                    mode="clip"), Y, upd_win),
        "scatter_add_batching": _c(lambda x, u: lax.scatter_add(
            x, np.array([[[4], [0], [4]], [[1], [1], [3]]]), u, batched), B,
            np.arange(18.).reshape(2, 3, 3)),
        "scatter_add_int32": _c(lambda x, u: lax.scatter_add(x, dup, u, rows),
                                np.arange(12, dtype=np.int32).reshape(3, 4),
                                np.arange(20, dtype=np.int32).reshape(5, 4)),
        "scatter_apply_square": _c(lambda x: lax.scatter_apply(
            x, uniq, lambda v: v * v, rows, update_shape=(3, 4)), X),
        "scatter_apply_duplicates": _c(lambda x: lax.scatter_apply(
            x, np.array([[1], [1], [3], [1], [9]]), lambda v: v * 2 + 1,
            S(update_window_dims=(), inserted_window_dims=(0,),
              scatter_dims_to_operand_dims=(0,)), update_shape=(5,)), np.zeros(6)),
        "scatter_add_grad": _c(lambda x, u: api.grad(lambda a, b: (lax.scatter_add(
            a, dup, b, rows) * np.arange(12.).reshape(3, 4)).sum(), argnums=(0, 1))(x, u),
            X, upd_rows),
        "scatter_add_vmap": _c(lambda x, u: api.vmap(lambda a, b: lax.scatter_add(
            a, dup, b, rows))(x, u), np.stack([X, -X]), np.stack([upd_rows, upd_rows + 1])),
    }


def _enums(jnp, lax, special, api):
    Z = np.array([[1 + 2j, 0.5 - 1j, 3j], [2, -1 + 1j, 0.25]])
    return {
        "round_away": _c(lambda x: lax.round(x, lax.RoundingMethod.AWAY_FROM_ZERO),
                         np.array([0.5, 1.5, 2.5, -0.5, -2.5, 3.7])),
        "round_even": _c(lambda x: lax.round(x, lax.RoundingMethod.TO_NEAREST_EVEN),
                         np.array([0.5, 1.5, 2.5, -0.5, -2.5, 3.7])),
        "dot_algorithm_preset": _c(lambda x: lax.dot(
            x, x.T, precision=lax.DotAlgorithmPreset.F64_F64_F64), X),
        "lax_fft_fft": _c(lambda x: lax.fft(x, lax.FftType.FFT, (2, 3)), Z),
        "lax_fft_ifft": _c(lambda x: lax.fft(x, "ifft", (3,)), Z),
        "lax_fft_rfft": _c(lambda x: lax.fft(x, "rfft", (2, 4)), X[:2]),
        "lax_fft_rfft_f32": _c(lambda x: lax.fft(x, "rfft", (4,)), X.astype(np.float32)),
        "lax_fft_irfft": _c(lambda x: lax.fft(x, lax.FftType.IRFFT, (2, 4)), Z),
        "lax_fft_real_input": _c(lambda x: lax.fft(x, "fft", (4,)), X),
    }


def _special_functions(jnp, lax, special, api):
    """Away from where JAX's own values are approximations (zeta for q below -10, bessel_jn
    at 0, beyond |z| = 25 with n_iter=50, and below |z| = 5 in float32, where JAX's
    overflow), where transpile's follow SciPy's."""
    s = np.array([1.0, 1.5, 2.0, 3.0, 10.0, 40.0, 2.0, 2.0, 2.0, 2.5, 3.0, 0.5, 7.25, 1.001])
    q = np.array([1.0, 1.0, 1.0, 2.5, 0.5, 1.0, -0.5, -2.0, 0.0, -1.5, 1e-3, 1.0, 3.75, 20.0])
    n = np.array([0, 1, 2, 3, 1, 2, 4, 6, 1, 0])
    x = np.array([0.5, 1.0, 2.5, -0.5, -1.5, 10.0, 0.1, 7.3, 1e3, -2.5])
    e = np.array([-30.0, -23.3, -5.0, -0.5, 0.0, 0.3, 1.0, 5.0, 25.0, 26.5, 30.0, 1e5, 1e300,
                  np.inf, -np.inf, np.nan])
    v = np.array([-1.0, 0.0, 1e-12, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 2.5, 10.0, 1e6, np.inf,
                  np.nan])
    z = np.array([0.5, 1.0, 2.5, 5.0, 10.0, 17.5, 24.0, -3.0, -12.25])
    return {
        "zeta": _c(lambda a, b: special.zeta(a, b), s, q),
        "zeta_f32": _c(lambda a, b: special.zeta(a, b), s.astype(np.float32),
                       q.astype(np.float32)),
        "zeta_int": _c(lambda a, b: special.zeta(a, b), np.array([2, 3, 4]), np.array([1, 2, 5])),
        "lax_zeta": _c(lambda a, b: lax.zeta(a, b), s, q),
        "polygamma": _c(lambda a, b: special.polygamma(a, b), n, x),
        "polygamma_f32": _c(lambda a, b: special.polygamma(a, b), n.astype(np.int32),
                            x.astype(np.float32)),
        "polygamma_int_x": _c(lambda a, b: special.polygamma(a, b), np.array([1, 2]),
                              np.array([2, 3])),
        "lax_polygamma": _c(lambda a, b: lax.polygamma(a, b), n.astype(np.float64), x),
        "erfcx": _c(lambda a: special.erfcx(a), e),
        "erfcx_f32": _c(lambda a: special.erfcx(a), e[2:11].astype(np.float32)),
        "erfcx_int": _c(lambda a: special.erfcx(a), np.array([0, 1, 3])),
        "spence": _c(lambda a: special.spence(a), v),
        "spence_f32": _c(lambda a: special.spence(a), v.astype(np.float32)),
        "bessel_jn": _c(lambda a: special.bessel_jn(a, v=4), z),
        "bessel_jn_f32": _c(lambda a: special.bessel_jn(a, v=2),
                              z[3:7].astype(np.float32)),
        "bessel_jn_v0": _c(lambda a: special.bessel_jn(a, v=0, n_iter=60), z[:3]),
        "error_spence_int": _c(lambda a: special.spence(a), np.array([1, 2]), jit=False),
        "error_polygamma_float_n": _c(lambda a: special.polygamma(a, 2.0), np.array([1.0]),
                                      jit=False),
        "error_zeta_riemann": _c(lambda a: special.zeta(a), np.array([2.0]), jit=False),
    }


def _eig_cases(jnp, lax, special, api):
    """Eigenvalues and roots sorted (by real, then imaginary part), and the eigenvectors'
    magnitudes in that order: a general eigensolver's order is its own (LAPACK's; here the
    Schur form's), and a real eigenvector's sign is as arbitrary."""
    a = np.array([[4.0, -2, 1, 3], [1, 1, 5, -1], [2, 0, -3, 2], [1, 7, 2, 0]])
    c = a + 1j * np.array([[0.5, 0, 1, 0], [0, -1, 0, 2], [1, 0, 0, 0], [0, 0.25, 0, 1]])

    def sorted_eig(m):
        w, v = jnp.linalg.eig(m)
        order = jnp.argsort(jnp.real(w) * 1000 + jnp.imag(w))
        return w[order], jnp.abs(v[:, order])

    def ordered(w):
        """By real part (to 1e-6, so that rounding noise does not reorder), then imaginary."""
        key = jnp.round(jnp.real(w), 6) * 1000 + jnp.imag(w)
        return jnp.take_along_axis(w, jnp.argsort(key, axis=-1), axis=-1)

    def eigval_square_sum(m):
        return jnp.sum(jnp.real(jnp.linalg.eigvals(m)) ** 2 - jnp.imag(jnp.linalg.eigvals(m)))
    return {
        "eig_real": _c(sorted_eig, a),
        "eig_complex": _c(sorted_eig, c),
        "eig_symmetric": _c(sorted_eig, a + a.T),
        "eigvals_f32": _c(lambda m: ordered(jnp.linalg.eigvals(m)),
                          a.astype(np.float32)),
        "eigvals_int": _c(lambda m: ordered(jnp.linalg.eigvals(m)),
                          np.array([[2, 1, 0], [1, 3, 1], [0, 1, 4]])),
        "eigvals_batched": _c(lambda m: ordered(jnp.linalg.eigvals(m)),
                              np.stack([a[:3, :3], a[1:, 1:], np.diag([3.0, -1, 2])])),
        "eigvals_defective": _c(lambda m: jnp.linalg.eigvals(m),
                                np.array([[2.0, 1], [0, 2]])),
        "eigvals_rotation": _c(lambda m: ordered(jnp.linalg.eigvals(m)),
                               np.array([[0.0, -1], [1, 0]])),
        "eigvals_grad": _c(lambda m: api.grad(eigval_square_sum)(m), a),
        # Stripping leading zeros needs p's values: not under jit (in JAX neither).
        "roots": _c(lambda p: ordered(jnp.roots(p)), np.array([1.0, -6, 11, -6]), jit=False),
        "roots_complex": _c(lambda p: ordered(jnp.roots(p)), np.array([2.0, 0, 3, -1, 5]),
                            jit=False),
        "roots_strip": _c(lambda p: ordered(jnp.roots(p)), np.array([0.0, 0, 1, 0, -4]),
                          jit=False),
        "roots_keep_zeros": _c(lambda p: jnp.roots(p, strip_zeros=False)[2:],
                               np.array([0.0, 0, 1, 0, -4])),
        "roots_keep_zeros_sorted": _c(lambda p: ordered(jnp.roots(p, strip_zeros=False)[:2]),
                                      np.array([0.0, 0, 1, 0, -4])),
        "roots_int": _c(lambda p: ordered(jnp.roots(p)), np.array([1, 0, -1]), jit=False),
        "poly_of_matrix": _c(lambda m: jnp.poly(m), np.array([[1.0, 2], [3, 4]])),
    }


def _carry_errors(jnp, lax, special, api):
    """Control flow whose types do not line up: JAX's TypeError and its message, eagerly and
    under jit (each case alone: they are not jitted as a group)."""
    def int_branch(x):
        return x.astype(jnp.int32)

    def float_branch(x):
        return x * 2.0

    def pair_body(c, x):
        return {"a": c["a"] * 2, "b": c["b"] + 0.5}, None

    def grow(c):
        return jnp.concatenate([c, c])
    ones = np.ones(3)
    return {
        "error_cond_dtype": _c(lambda x: lax.cond(True, float_branch, int_branch, x), ones,
                               jit=False),
        "error_cond_shape": _c(lambda x: lax.cond(False, lambda y: y, lambda y: y[:2], x),
                               ones, jit=False),
        "error_cond_path": _c(lambda x: lax.cond(True, lambda y: (y, jnp.int32(1)),
                                                 lambda y: (y, jnp.float32(1)), x), ones,
                              jit=False),
        "error_cond_weak_float": _c(lambda x: lax.cond(True, lambda y: 1.0,
                                                       lambda y: jnp.float32(2), x), ones,
                                    jit=False),
        "error_switch_dtype": _c(lambda x: lax.switch(1, [int_branch, float_branch], x), ones,
                                 jit=False),
        "error_scan_dtype": _c(lambda x: lax.scan(pair_body, {"a": x, "b": jnp.int32(2)},
                                                  None, length=2), np.int32(1), jit=False),
        "error_scan_shape": _c(lambda x: lax.scan(lambda c, y: (c[1:], y), x, x), ones,
                               jit=False),
        "error_while_shape": _c(lambda x: lax.while_loop(lambda c: c.sum() < 10, grow, x),
                                ones, jit=False),
        "error_while_dtype": _c(lambda x: lax.while_loop(lambda c: c[0] < 3,
                                                         lambda c: (c[0] + 1, c[1] * 0.5),
                                                         (0, x)), np.int32(4), jit=False),
        "error_fori_weak_output": _c(lambda x: lax.fori_loop(0, 3, lambda i, c: 2.0, x),
                                     np.float32(1), jit=False),
    }


GROUPS = [_gathers, _scatters, _enums, _special_functions, _eig_cases, _carry_errors]
