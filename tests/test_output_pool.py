"""Large results reuse the blocks of freed earlier results (transpile/output_pool.py), and
never the block of a result, or of any view of one, that is still alive."""
import numpy as np

import transpile as tp
import transpile.numpy as tnp
from transpile.output_pool import POOLED_MIN_BYTES


def test_a_freed_large_result_gives_its_block_to_the_next_one():
    x = np.arange(POOLED_MIN_BYTES // 8, dtype=np.float64)     # 4 MiB: pooled
    f = tp.jit(lambda a, s: a * s)
    first = f(x, 2.0)
    assert first.base is not None and np.shares_memory(first, first.base)
    address = first.ctypes.data        # (not the block itself: holding it keeps it taken)
    del first
    again = f(x, 3.0)
    assert again.ctypes.data == address                        # the same memory, reused
    np.testing.assert_array_equal(again, x * 3.0)


def test_a_live_view_keeps_its_block_and_its_values():
    x = np.linspace(0.0, 1.0, POOLED_MIN_BYTES // 4).astype(np.float32)
    f = tp.jit(lambda a, s: tnp.sin(a) * s)
    view = f(x, 1.0)[10:20].reshape(2, 5)     # the result itself is gone, a view is not
    kept = np.array(view)
    results = [f(x, float(s)) for s in range(2, 6)]             # more than the pool keeps
    for r in results:
        assert not np.shares_memory(r, view)
    assert not any(np.shares_memory(a, b) for i, a in enumerate(results)
                   for b in results[i + 1:])
    np.testing.assert_array_equal(view, kept)
    for s, r in zip(range(2, 6), results):
        np.testing.assert_allclose(r, np.sin(x) * np.float32(s), rtol=1e-6)


def test_small_results_are_plain_arrays():
    out = tp.jit(lambda a: a + 1)(np.ones(1000))
    assert out.base is None and isinstance(out, np.ndarray)
