"""Threads: tracing state is per thread, and threads first-calling one function share a
single compile. Each test starts its threads together at a barrier and repeats the round,
with the interpreter's switch interval made tiny so that threads interleave mid-trace."""
import sys
import threading

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp

N_THREADS = 12
ROUNDS = 3


@pytest.fixture
def fast_switching():
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(old)


def run_together(work, n=N_THREADS):
    """Run work(i) in n threads released at once; return each result or exception."""
    barrier = threading.Barrier(n)
    results = [None] * n

    def body(i):
        barrier.wait()
        try:
            results[i] = work(i)
        except BaseException as err:        # reported by the assertion below, not lost
            results[i] = err
    threads = [threading.Thread(target=body, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "a thread hung"
    return results


def test_threads_tracing_different_functions_at_once(fast_switching):
    x = np.linspace(0.0, 1.0, 16)
    for round_ in range(ROUNDS):
        def work(i):
            def chain(v):             # many traced operations: long enough to interleave
                for _ in range(15):
                    v = tnp.sin(v) * 0.5 + (i + round_)
                return tnp.sum(v)
            jitted = tp.jit(chain, backend="interpret")
            return jitted(x), chain(x)      # traced here while other threads run eagerly too
        for i, result in enumerate(run_together(work)):
            assert isinstance(result, tuple), f"thread {i}: {result!r}"
            traced, eager = result
            assert isinstance(traced, np.ndarray) and isinstance(eager, np.ndarray)
            np.testing.assert_allclose(traced, eager, rtol=1e-12)


def test_threads_first_calling_one_compiled_function(fast_switching):
    x = np.linspace(-1.0, 1.0, 64)
    expected = np.sum(np.exp(x) * 2.0 + x)
    for _ in range(ROUNDS):
        def exp_sum(v):                 # a fresh function object: a fresh memory cache
            return tnp.sum(tnp.exp(v) * 2.0 + v)
        f = tp.jit(exp_sum)
        results = run_together(lambda i: f(x))
        for i, r in enumerate(results):
            assert isinstance(r, np.ndarray), f"thread {i} got {r!r}"
            np.testing.assert_allclose(r, expected, rtol=1e-12)
        info = f.cache_info()
        assert info.misses == 1 and info.hits == N_THREADS - 1, info   # traced once, shared
