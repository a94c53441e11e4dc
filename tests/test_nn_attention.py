"""transpile.nn.dot_product_attention (JAX's jax.nn.dot_product_attention, XLA form) against
a per-head NumPy reference (to float32 accuracy: JAX takes the softmax in float32 whatever
the inputs' type): scale, bias, boolean masks, causal and local windows, padding
lengths (padded queries give zero rows), grouped-query heads, the unbatched form, jit and
grad; JAX 0.10.2's values are compared in the realprog corpus (transformer_block)."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile.nn import dot_product_attention

RNG = np.random.default_rng(8)
B, T, S, N, K, H = 2, 4, 5, 4, 2, 3
Q = RNG.standard_normal((B, T, N, H))
KEY = RNG.standard_normal((B, S, K, H))
VALUE = RNG.standard_normal((B, S, K, H))


def reference(q, k, v, bias=None, keep=None, scale=None, q_lengths=None):
    scale = 1 / np.sqrt(q.shape[-1]) if scale is None else scale
    groups = q.shape[2] // k.shape[2]
    out = np.zeros(q.shape)
    for b in range(q.shape[0]):
        for n in range(q.shape[2]):
            logits = q[b, :, n] @ k[b, :, n // groups].T * scale
            if bias is not None:
                logits = logits + bias[b, n % bias.shape[1]]
            if keep is not None:
                logits = np.where(keep[b, n % keep.shape[1]], logits, -1e30)
            p = np.exp(logits - logits.max(-1, keepdims=True))
            out[b, :, n] = (p / p.sum(-1, keepdims=True)) @ v[b, :, n // groups]
    if q_lengths is not None:
        out = out * (np.arange(q.shape[1])[None, :] < q_lengths[:, None])[:, :, None, None]
    return out


def test_plain_scaled_and_biased():
    bias = RNG.standard_normal((B, 1, T, S))
    np.testing.assert_allclose(dot_product_attention(Q, KEY, VALUE), reference(Q, KEY, VALUE),
                               rtol=1e-5, atol=1e-6)
    got = tp.jit(lambda q, k, v, b: dot_product_attention(q, k, v, b, scale=0.3))(
        Q, KEY, VALUE, bias)
    np.testing.assert_allclose(got, reference(Q, KEY, VALUE, bias=bias, scale=0.3), rtol=1e-5,
                               atol=1e-6)


def test_masks_windows_and_lengths():
    mask = RNG.random((B, N, T, S)) > 0.3
    mask[..., 0] = True                                  # every query keeps a key
    causal = np.tril(np.ones((T, S), bool))
    window = np.abs(np.arange(T)[:, None] - np.arange(S)[None, :]) <= 1
    q_len, kv_len = np.array([4, 2], np.int32), np.array([5, 3], np.int32)
    pad = (np.arange(T)[None, :, None] < q_len[:, None, None]) & \
        (np.arange(S)[None, None, :] < kv_len[:, None, None])
    keep = mask & causal & window & pad[:, None]
    # (a fully masked row: every logit the same large negative, so uniform weights, as JAX)
    got = dot_product_attention(Q, KEY, VALUE, mask=mask, is_causal=True, local_window_size=1,
                                query_seq_lengths=q_len, key_value_seq_lengths=kv_len)
    want = reference(Q, KEY, VALUE, keep=keep, q_lengths=q_len)
    rows = (np.arange(T)[None, :] < q_len[:, None])
    np.testing.assert_allclose(got[rows], want[rows], rtol=1e-5, atol=1e-6)
    assert np.all(got[~rows] == 0)


def test_unbatched_form_float32_and_grad():
    with tp.config.settings(transpile_dtype_rules="jax"):
        q, k = Q[0].astype(np.float32), KEY[0].astype(np.float32)
        out = dot_product_attention(q, k, k)
        assert out.shape == (T, N, H) and out.dtype == np.float32
        g = tp.grad(lambda q: tnp.sum(dot_product_attention(q, k, k) ** 2))(q)
    assert g.shape == q.shape and np.all(np.isfinite(g))
    np.testing.assert_allclose(out, reference(Q[:1], KEY[:1], KEY[:1])[0], rtol=1e-5,
                               atol=1e-6)


def test_bad_shapes_are_named():
    with pytest.raises(ValueError, match="multiple of key/value heads"):
        dot_product_attention(Q[:, :, :3], KEY, VALUE)
    with pytest.raises(ValueError, match="'mask' must be bool"):
        dot_product_attention(Q, KEY, VALUE, mask=np.ones((B, N, T, S)))
    with pytest.raises(NotImplementedError, match="implementation='cudnn'"):
        dot_product_attention(Q, KEY, VALUE, implementation="cudnn")
