"""Programs shared by tools/record_jax_convfft.py (which runs them with JAX and stores the
results in tests/data/jax_convfft.json) and tests/test_fft.py / tests/test_conv.py (which run
them with transpile, eagerly and under jit, and compare). Each case: (function, arguments);
the functions take the modules as `jnp`, `lax` and `signal` so the same code runs on both.
"""
from __future__ import annotations

import numpy as np


def _rng(seed):
    return np.random.default_rng(seed)


def _real(seed, *shape, dtype=np.float64):
    return _rng(seed).standard_normal(shape).astype(dtype)


def _complex(seed, *shape, dtype=np.complex128):
    r = _rng(seed)
    return (r.standard_normal(shape) + 1j * r.standard_normal(shape)).astype(dtype)


def fft_cases(jnp):
    f = jnp.fft
    c = {}
    for n in (1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 15, 16, 17, 30, 31, 37, 49, 64):
        c[f"fft_{n}"] = (lambda x: f.fft(x), (_complex(n, 2, n),))
        c[f"ifft_{n}"] = (lambda x: f.ifft(x), (_complex(n + 100, n),))
        c[f"rfft_{n}"] = (lambda x: f.rfft(x), (_real(n + 200, 3, n),))
        c[f"irfft_{n}"] = (lambda x, n=n: f.irfft(x, n=n), (_complex(n + 300, 2, n // 2 + 1),))
    c["fft_large_prime_211"] = (lambda x: f.fft(x), (_complex(7, 211),))   # Bluestein
    c["rfft_2_211"] = (lambda x: f.rfft(x), (_real(8, 2 * 211),))   # packed, Bluestein half
    c["fft_n_crop"] = (lambda x: f.fft(x, n=5), (_complex(9, 3, 8),))
    c["fft_n_pad_axis0"] = (lambda x: f.fft(x, n=7, axis=0), (_complex(10, 4, 3),))
    for norm in ("backward", "ortho", "forward"):
        c[f"fft_norm_{norm}"] = (lambda x, norm=norm: f.fft(x, norm=norm), (_complex(11, 10),))
        c[f"ifft_norm_{norm}"] = (lambda x, norm=norm: f.ifft(x, norm=norm),
                                  (_complex(12, 10),))
        c[f"rfft_norm_{norm}"] = (lambda x, norm=norm: f.rfft(x, norm=norm), (_real(13, 9),))
        c[f"irfft_norm_{norm}"] = (lambda x, norm=norm: f.irfft(x, norm=norm),
                                   (_complex(14, 6),))
        c[f"fftn_norm_{norm}"] = (lambda x, norm=norm: f.fftn(x, norm=norm),
                                  (_complex(15, 3, 4, 5),))
    c["hfft"] = (lambda x: f.hfft(x), (_complex(35, 2, 5),))
    c["hfft_n_ortho"] = (lambda x: f.hfft(x, n=7, norm="ortho"), (_complex(36, 4),))
    c["ihfft"] = (lambda x: f.ihfft(x), (_real(37, 3, 8),))
    c["ihfft_forward"] = (lambda x: f.ihfft(x, norm="forward"), (_real(38, 7),))
    c["rfft_float32"] = (lambda x: f.rfft(x), (_real(16, 2, 12, dtype=np.float32),))
    c["fft_float32"] = (lambda x: f.fft(x), (_real(17, 10, dtype=np.float32),))
    c["ifft_complex64"] = (lambda x: f.ifft(x), (_complex(18, 6, dtype=np.complex64),))
    c["irfft_complex64"] = (lambda x: f.irfft(x), (_complex(19, 2, 5, dtype=np.complex64),))
    c["fft_int"] = (lambda x: f.fft(x), (np.arange(6),))
    c["rfft_axis0"] = (lambda x: f.rfft(x, axis=0), (_real(20, 6, 3),))
    c["irfft_axis0_n"] = (lambda x: f.irfft(x, n=7, axis=0), (_complex(21, 4, 2),))
    c["fft2"] = (lambda x: f.fft2(x), (_complex(22, 2, 6, 5),))
    c["ifft2"] = (lambda x: f.ifft2(x), (_complex(23, 4, 6),))
    c["fft2_s"] = (lambda x: f.fft2(x, s=(3, 8)), (_real(24, 5, 5),))
    c["fftn"] = (lambda x: f.fftn(x), (_complex(25, 3, 4, 5),))
    c["ifftn_axes"] = (lambda x: f.ifftn(x, axes=(0, 2)), (_complex(26, 3, 4, 5),))
    c["rfftn"] = (lambda x: f.rfftn(x), (_real(27, 4, 6, 5),))
    c["rfftn_s"] = (lambda x: f.rfftn(x, s=(5, 8)), (_real(28, 4, 6),))
    c["irfftn"] = (lambda x: f.irfftn(x), (_complex(29, 4, 6, 4),))
    c["irfftn_s"] = (lambda x: f.irfftn(x, s=(4, 9)), (_complex(30, 3, 5),))
    c["fftfreq_8"] = (lambda x: f.fftfreq(8) + x, (np.zeros(8),))
    c["fftfreq_7_d"] = (lambda x: f.fftfreq(7, d=0.1) + x, (np.zeros(7),))
    c["rfftfreq_9_d"] = (lambda x: f.rfftfreq(9, d=2.5) + x, (np.zeros(5),))
    c["fftshift"] = (lambda x: f.fftshift(x), (_real(31, 5, 6),))
    c["fftshift_axes"] = (lambda x: f.fftshift(x, axes=1), (_real(32, 5, 7),))
    c["ifftshift"] = (lambda x: f.ifftshift(x), (_real(33, 5, 7),))
    c["spectral_roundtrip"] = (lambda x: f.irfft(f.rfft(x) * f.rfftfreq(16), n=16),
                               (_real(34, 3, 16),))
    return c


def conv_cases(jnp, lax, signal):
    c = {}
    x = _real(40, 2, 3, 7, 6)               # NCHW
    w = _real(41, 4, 3, 3, 2)               # OIHW
    c["conv_same"] = (lambda x, w: lax.conv_general_dilated(x, w, (1, 1), "SAME"), (x, w))
    c["conv_valid_strided"] = (lambda x, w: lax.conv_general_dilated(x, w, (2, 3), "VALID"),
                               (x, w))
    c["conv_rhs_dilation"] = (lambda x, w: lax.conv_general_dilated(
        x, w, (1, 1), "SAME", rhs_dilation=(2, 1)), (x, w))
    c["conv_lhs_dilation"] = (lambda x, w: lax.conv_general_dilated(
        x, w, (1, 1), ((1, 2), (0, 1)), lhs_dilation=(2, 1)), (x, w))
    c["conv_negative_padding"] = (lambda x, w: lax.conv_general_dilated(
        x, w, (1, 1), ((-1, 2), (0, -1))), (x, w))
    c["conv_same_lower"] = (lambda x, w: lax.conv_general_dilated(x, w, (2, 2), "SAME_LOWER"),
                            (x, w))
    xh = _real(42, 2, 7, 6, 4)              # NHWC
    wh = _real(43, 3, 2, 4, 5)              # HWIO
    c["conv_nhwc_hwio"] = (lambda x, w: lax.conv_general_dilated(
        x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")), (xh, wh))
    c["conv_nhwc_out_nchw"] = (lambda x, w: lax.conv_general_dilated(
        x, w, (2, 1), "VALID", dimension_numbers=("NHWC", "HWIO", "NCHW")), (xh, wh))
    c["conv_dimension_numbers_fn"] = (lambda x, w: lax.conv_general_dilated(
        x, w, (1, 1), "SAME", dimension_numbers=lax.conv_dimension_numbers(
            x.shape, w.shape, ("NHWC", "HWIO", "NHWC"))), (xh, wh))
    c["conv_feature_groups"] = (lambda x, w: lax.conv_general_dilated(
        x, w, (1, 1), "SAME", feature_group_count=2), (_real(44, 2, 4, 6, 6),
                                                        _real(45, 6, 2, 3, 3)))
    c["conv_depthwise"] = (lambda x, w: lax.conv_general_dilated(
        x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"),
        feature_group_count=4), (_real(46, 2, 8, 8, 4), _real(47, 3, 3, 1, 4)))
    c["conv_batch_groups"] = (lambda x, w: lax.conv_general_dilated(
        x, w, (1, 1), "VALID", batch_group_count=2), (_real(48, 4, 3, 6, 6),
                                                       _real(49, 4, 3, 3, 3)))
    c["conv_1d"] = (lambda x, w: lax.conv_general_dilated(x, w, (2,), "SAME"),
                    (_real(50, 2, 3, 17), _real(51, 5, 3, 4)))
    c["conv_3d"] = (lambda x, w: lax.conv_general_dilated(x, w, (1, 2, 1), "SAME",
                                                          rhs_dilation=(1, 1, 2)),
                    (_real(52, 1, 2, 5, 6, 7), _real(53, 3, 2, 2, 3, 3)))
    c["conv_wide_channels"] = (lambda x, w: lax.conv_general_dilated(
        x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")),
        (_real(54, 1, 5, 6, 20), _real(55, 3, 3, 20, 37)))
    c["conv_float32"] = (lambda x, w: lax.conv_general_dilated(x, w, (1, 1), "SAME"),
                         (x.astype(np.float32), w.astype(np.float32)))
    c["lax_conv"] = (lambda x, w: lax.conv(x, w, (1, 2), "VALID"), (x, w))
    c["conv_with_general_padding"] = (lambda x, w: lax.conv_with_general_padding(
        x, w, (1, 1), ((2, 1), (1, 0)), (1, 2), (2, 1)), (x, w))
    p = _real(60, 2, 9, 8, 3)
    c["max_pool_same"] = (lambda x: lax.reduce_window(x, -jnp.inf, lax.max, (1, 3, 3, 1),
                                                      (1, 2, 2, 1), "SAME"), (p,))
    c["avg_pool_valid"] = (lambda x: lax.reduce_window(x, 0.0, lax.add, (1, 2, 2, 1),
                                                       (1, 2, 2, 1), "VALID") / 4.0, (p,))
    c["min_pool_pairs"] = (lambda x: lax.reduce_window(x, jnp.inf, lax.min, (1, 2, 3, 1),
                                                       (1, 1, 2, 1),
                                                       ((0, 0), (1, 1), (0, 2), (0, 0))), (p,))
    c["max_pool_dilated"] = (lambda x: lax.reduce_window(x, -jnp.inf, lax.max, (1, 2, 2, 1),
                                                         (1, 1, 1, 1), "VALID",
                                                         window_dilation=(1, 2, 3, 1)), (p,))
    c["max_pool_init_zero"] = (lambda x: lax.reduce_window(x, 0.0, lax.max, (2, 2),
                                                           (1, 1), "VALID"), (p[0, :, :, 0],))
    c["sum_pool_1d"] = (lambda x: lax.reduce_window(x, 0.0, lax.add, (3,), (2,), "SAME"),
                        (_real(61, 11),))
    c["max_pool_int"] = (lambda x: lax.reduce_window(x, -(2 ** 63), lax.max,
                                                     (2, 2), (2, 2), "VALID"),
                         (np.arange(30).reshape(5, 6) % 7,))
    a1, k1, k2 = _real(70, 12), _real(71, 4), _real(72, 5)
    for mode in ("full", "same", "valid"):
        c[f"signal_convolve_{mode}"] = (
            lambda a, k, mode=mode: signal.convolve(a, k, mode=mode), (a1, k1))
        c[f"signal_convolve_odd_{mode}"] = (
            lambda a, k, mode=mode: signal.convolve(a, k, mode=mode), (a1, k2))
        c[f"signal_convolve_swapped_{mode}"] = (
            lambda a, k, mode=mode: signal.convolve(a, k, mode=mode), (k1, a1))
        c[f"signal_correlate_{mode}"] = (
            lambda a, k, mode=mode: signal.correlate(a, k, mode=mode), (a1, k1))
        c[f"signal_convolve2d_{mode}"] = (
            lambda a, k, mode=mode: signal.convolve2d(a, k, mode=mode),
            (_real(73, 7, 9), _real(74, 3, 4)))
        c[f"signal_correlate2d_{mode}"] = (
            lambda a, k, mode=mode: signal.correlate2d(a, k, mode=mode),
            (_real(75, 7, 9), _real(76, 4, 3)))
        c[f"signal_correlate2d_swapped_{mode}"] = (
            lambda a, k, mode=mode: signal.correlate2d(a, k, mode=mode),
            (_real(77, 3, 2), _real(78, 6, 5)))
        c[f"signal_fftconvolve_{mode}"] = (
            lambda a, k, mode=mode: signal.fftconvolve(a, k, mode=mode),
            (_real(79, 6, 7), _real(80, 3, 2)))
    c["signal_convolve_fft_method"] = (
        lambda a, k: signal.convolve(a, k, method="fft"), (a1, k2))
    c["signal_convolve_3d"] = (lambda a, k: signal.convolve(a, k, mode="same"),
                               (_real(81, 4, 5, 6), _real(82, 2, 3, 2)))
    c["signal_convolve_int"] = (lambda a, k: signal.convolve(a, k),
                                (np.arange(6), np.array([1, -2, 1])))
    return c
