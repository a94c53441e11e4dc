"""`dot_product_attention` (JAX's `jax.nn.dot_product_attention`, its XLA implementation):
softmax(Q K^T * scale + bias, masked) V per head, for (B, T, N, H) queries and (B, S, K, H)
keys and values (or the same without the batch axis), with grouped-query attention when N is
a multiple of K.

As JAX computes it: the logits in at least float32 (the product accumulates in that type),
scale applied, bias added, masked entries (the boolean `mask`, `is_causal`'s lower triangle,
`local_window_size`, the padding of `query_seq_lengths`/`key_value_seq_lengths`) replaced by
-0.7 times the largest finite value of the logits' type (capped at float32's), the softmax in
float32 cast to the keys' dtype, and rows of padded queries zeroed in the output.
"""
from __future__ import annotations

import numpy as np

from .. import numpy as tnp
from ._functions import logsumexp, softmax


def _four_d(x):
    return None if x is None else (x[None] if tnp.ndim(x) == 3 else tnp.asarray(x))


def _grouped(t, groups, heads, kv_heads):
    """A (B, N or 1, T, S) bias or mask as (B, K, G, T, S), matching the grouped logits."""
    if t is None:
        return None
    b, n, q_len, k_len = t.shape
    if n == 1:
        return tnp.broadcast_to(t[:, :, None], (b, 1, groups, q_len, k_len))
    if n != heads:
        raise ValueError(f"dot_product_attention: a bias or mask must have 1 or {heads} heads "
                         f"(axis 1), got shape {t.shape}")
    return tnp.reshape(t, (b, kv_heads, groups, q_len, k_len))


def _check(t, name, ndim, dtype=None):
    if t is None:
        return
    if t.ndim != ndim:
        raise ValueError(f"dot_product_attention: '{name}' must have {ndim} dimensions, got "
                         f"shape {t.shape}")
    if dtype is not None and t.dtype != dtype:
        raise ValueError(f"dot_product_attention: '{name}' must be {np.dtype(dtype)}, got "
                         f"{t.dtype}")


def _keep_mask(mask, is_causal, window, q_lengths, kv_lengths, q_len, k_len):
    """Which logits stay, broadcastable against (B, K, G, T, S); None when all do."""
    keep = None if mask is None else mask

    def both(a, b):
        return b if a is None else tnp.logical_and(a, b)

    queries = tnp.arange(q_len)[:, None]
    keys = tnp.arange(k_len)[None, :]
    if is_causal:
        keep = both(keep, (keys <= queries)[None, None, None])
    if window is not None:
        left, right = window
        inside = (queries <= keys + left) & (queries >= keys - right)
        keep = both(keep, inside[None, None, None])
    if q_lengths is not None or kv_lengths is not None:
        pad = tnp.ones((1, q_len, k_len), bool)
        if q_lengths is not None:
            pad = pad & (tnp.arange(q_len)[None, :, None] < q_lengths[:, None, None])
        if kv_lengths is not None:
            pad = pad & (tnp.arange(k_len)[None, None, :] < kv_lengths[:, None, None])
        keep = both(keep, pad[:, None, None])
    return keep


def dot_product_attention(query, key, value, bias=None, mask=None, *, scale=None,
                          is_causal=False, query_seq_lengths=None, key_value_seq_lengths=None,
                          local_window_size=None, implementation=None, return_residual=False):
    """Scaled dot-product attention, as JAX's (see the module docstring)."""
    if implementation not in (None, "xla"):
        raise NotImplementedError(f"dot_product_attention: implementation={implementation!r} "
                                  "is not available; transpile computes it as 'xla' does")
    batched = tnp.ndim(query) == 4
    q, k, v = _four_d(query), _four_d(key), _four_d(value)
    bias, mask = _four_d(bias), _four_d(mask)
    b, k_len, kv_heads, h = k.shape
    if v.shape != k.shape or v.dtype != k.dtype:
        raise ValueError(f"dot_product_attention: 'value' must match 'key' ({k.shape}, "
                         f"{k.dtype}), got {v.shape}, {v.dtype}")
    if q.ndim != 4 or q.shape[0] != b or q.shape[3] != h or q.dtype != k.dtype:
        raise ValueError(f"dot_product_attention: 'query' must be (B, T, N, {h}) of "
                         f"{k.dtype} with B = {b}, got {q.shape}, {q.dtype}")
    _check(mask, "mask", 4, np.bool_)
    _check(bias, "bias", 4)
    q_lengths = None if query_seq_lengths is None else tnp.asarray(query_seq_lengths)
    kv_lengths = None if key_value_seq_lengths is None else tnp.asarray(key_value_seq_lengths)
    heads, q_len = q.shape[2], q.shape[1]
    if heads % kv_heads:
        raise ValueError(f"dot_product_attention: the number of query heads must be a "
                         f"multiple of key/value heads, got {heads} and {kv_heads}")
    groups = heads // kv_heads
    if isinstance(local_window_size, int):
        local_window_size = (local_window_size, local_window_size)
    scale = 1.0 / np.sqrt(h) if scale is None else scale

    logits_dtype = tnp.promote_types(q.dtype, np.float32)
    grouped_q = tnp.reshape(q, (b, q_len, kv_heads, groups, h))
    logits = tnp.einsum("BTKGH,BSKH->BKGTS", grouped_q, k,
                        preferred_element_type=logits_dtype)
    logits = logits * tnp.array(scale, dtype=logits.dtype)
    if bias is not None:
        logits = (logits + _grouped(bias, groups, heads, kv_heads)).astype(logits.dtype)
    keep = _keep_mask(_grouped(mask, groups, heads, kv_heads), is_causal, local_window_size,
                      q_lengths, kv_lengths, q_len, k_len)
    if keep is not None:
        largest = min(float(tnp.finfo(logits.dtype).max), float(tnp.finfo(np.float32).max))
        logits = tnp.where(keep, logits, tnp.asarray(-0.7 * largest, dtype=logits.dtype))
    logits = logits.astype(np.float32)
    probs = softmax(logits, axis=-1).astype(k.dtype)
    out = tnp.einsum("BKGTS,BSKH->BTKGH", probs, v)
    if q_lengths is not None:
        out = out * (tnp.arange(q_len)[None, :] < q_lengths[:, None])[
            :, :, None, None, None].astype(out.dtype)
    out = tnp.reshape(out, (b, q_len, heads, h))
    if return_residual:
        residual = tnp.reshape(tnp.transpose(logsumexp(logits, axis=-1).astype(k.dtype),
                                             (0, 3, 1, 2)), (b, q_len, heads))
        return (out, residual) if batched else (out[0], residual[0])
    return out if batched else out[0]
