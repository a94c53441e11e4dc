"""Programs as long and as deep as a Python loop makes them: unrolled chains and stencils,
hundreds of outputs, loop-built pytrees. They compile, give NumPy's answers, and nothing on
the way (tracing, passes, lowering, rendering, printing, the interpreter) recurses once per
level: the checks run under a recursion limit only a few hundred frames above the caller."""
import contextlib
import re
import sys

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from conftest import cuda_emulated
from transpile import lax
from transpile.codegen.cuda_render import CudaRenderer

# Far below any of these programs' depth (each level of a recursive walk costs a frame or
# more), and well above what the pipeline itself needs (imports, cffi, subprocesses).
HEADROOM = 250


def _depth() -> int:
    frame, n = sys._getframe(), 0
    while frame is not None:
        frame, n = frame.f_back, n + 1
    return n


@contextlib.contextmanager
def shallow_stack():
    """Python's recursion limit HEADROOM frames above the current depth, restored after."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(_depth() + HEADROOM)
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


def chain(xnp, steps):
    def f(x):
        y = x
        for _ in range(steps):
            y = xnp.sin(y) * 0.5 + x
        return y
    return f


def numpy_chain(x, steps):
    y = x
    for _ in range(steps):
        y = np.sin(y) * x.dtype.type(0.5) + x
    return y


def jacobi(steps):
    """`steps` 5-point Jacobi sweeps over a grid's interior, written with slices."""
    def f(u):
        for _ in range(steps):
            inner = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
            u = u.at[1:-1, 1:-1].set(inner)
        return u
    return f


def numpy_jacobi(u, steps):
    u = u.copy()
    for _ in range(steps):
        u[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
    return u


X = np.linspace(-1.0, 1.0, 33, dtype=np.float32)


@pytest.mark.parametrize("backend", ["cpu", "interpret"])
def test_a_2000_step_chain_compiles_without_recursion_and_matches_numpy(backend):
    with shallow_stack():
        got = tp.jit(chain(tnp, 2000), backend=backend)(X)
    np.testing.assert_allclose(got, numpy_chain(X, 2000), rtol=2e-6, atol=2e-6)


def test_the_ir_of_a_2000_step_chain_prints_without_recursion():
    with shallow_stack():
        text = str(tp.make_ir(chain(tnp, 2000))(X))
    assert text.count(" = sin ") == 2000


def test_a_deep_fused_chain_is_flat_c_one_named_value_per_operation():
    source = tp.jit(chain(tnp, 300)).lower(X).source
    body = [line for line in source.splitlines() if re.match(r"\s+const float v\d+ = ", line)]
    assert len(body) >= 3 * 300           # sin, multiply, add: each its own local
    deepest = max(_paren_depth(line) for line in body)
    assert deepest <= 3, f"a statement nests {deepest} levels: {body}"


def _paren_depth(text: str) -> int:
    depth = deepest = 0
    for ch in text:
        depth += ch == "("
        deepest = max(deepest, depth)
        depth -= ch == ")"
    return deepest


def test_a_200_step_stencil_compiles_without_recursion_and_matches_numpy():
    u = np.random.default_rng(0).random((12, 10))
    with shallow_stack():
        got = tp.jit(jacobi(200))(u)
    np.testing.assert_allclose(got, numpy_jacobi(u, 200), rtol=1e-12, atol=1e-12)


def test_a_stencil_step_is_computed_once_per_step_not_per_neighbour():
    """Fused into the next step, a sweep would be recomputed at each of its 4 neighbours, 4^k
    times after k steps; materialised, every step costs the same C."""
    u = np.zeros((12, 10))
    lines = {steps: tp.jit(jacobi(steps)).lower(u).source.count("\n") for steps in (10, 20, 40)}
    assert lines[40] - lines[20] <= 1.1 * 2 * (lines[20] - lines[10])


def test_a_small_expression_read_at_two_positions_stays_fused():
    source = tp.jit(lambda x: tnp.exp(x)[1:] - tnp.exp(x)[:-1]).lower(X).source
    assert source.count("__attribute__((noinline)) void") == 1 and "malloc" not in source


def test_a_program_with_200_outputs():
    def f(x):
        y, outs = x, []
        for _ in range(200):
            y = tnp.sin(y) * 0.5 + x
            outs.append(y * 2.0)        # each step also feeds the next: shared values
        return outs
    with shallow_stack():
        got = tp.jit(f)(X)
    assert len(got) == 200
    y = X
    for k, out in enumerate(got):
        y = np.sin(y) * np.float32(0.5) + X
        np.testing.assert_allclose(out, y * np.float32(2), rtol=2e-6, atol=2e-6,
                                   err_msg=f"output {k}")


def test_a_long_chain_of_updates_at_static_positions():
    def f(x):
        for k in range(300):
            x = x.at[k % 7].set(tnp.sin(x[(k + 3) % 7]) + 0.5 * x[k % 7])
        return x
    expected = np.linspace(0.0, 1.0, 7)
    for k in range(300):
        expected[k % 7] = np.sin(expected[(k + 3) % 7]) + 0.5 * expected[k % 7]
    for backend in ("cpu", "interpret"):
        with shallow_stack():
            got = tp.jit(f, backend=backend)(np.linspace(0.0, 1.0, 7))
        np.testing.assert_allclose(got, expected, rtol=1e-12, err_msg=backend)


def test_two_equal_deep_expressions_are_shared_without_recursion():
    """x.T.T is not x to the IR, so the two chains are built apart; the C renderer finds
    them equal (comparing them node by node) and computes the chain once."""
    def f(x):
        a, b = x, x.T.T
        for _ in range(600):
            a = tnp.sin(a) * 0.5 + x
            b = tnp.sin(b) * 0.5 + x
        return a + b
    x = np.linspace(0.0, 1.0, 12, dtype=np.float32).reshape(3, 4)
    with shallow_stack():
        got = tp.jit(f)(x)
        source = tp.jit(f).lower(x).source
    assert sum("sinf(" in line for line in source.splitlines()
               if "const float" in line) == 600
    np.testing.assert_allclose(got, 2 * numpy_chain(x, 600), rtol=2e-6, atol=2e-6)


def test_deep_bodies_of_loops_and_branches():
    steps = 300

    def body(y, x):
        return _chain_from(y, x, steps)

    def f(x):
        a = lax.fori_loop(0, 2, lambda i, y: body(y, x), x)              # interchanged
        b = lax.fori_loop(0, 2, lambda i, y: body(y, x)[::-1], x)        # one kernel a step
        c = lax.cond(x[0] < 0, lambda: body(x, x), lambda: x)
        s, ys = lax.scan(lambda c, xi: (body(c, xi), c), x[0], x)
        return a, b, c, s, ys
    x = np.linspace(-1.0, 1.0, 6)
    with shallow_stack():
        compiled = tp.jit(f)(x)
        interpreted = tp.jit(f, backend="interpret")(x)
        cuda_source = tp.jit(f, backend="cuda").lower(x).source
    for got, want in zip(compiled, interpreted):
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    a = x
    for _ in range(2):
        a = _numpy_chain_from(a, x, steps)
    np.testing.assert_allclose(compiled[0], a, rtol=1e-12)
    np.testing.assert_allclose(compiled[2], _numpy_chain_from(x, x, steps), rtol=1e-12)
    assert cuda_source.count("sin(") >= 4 * steps


def _chain_from(y, x, steps):
    for _ in range(steps):
        y = tnp.sin(y) * 0.5 + x
    return y


def _numpy_chain_from(y, x, steps):
    for _ in range(steps):
        y = np.sin(y) * 0.5 + x
    return y


def test_a_loop_built_nested_pytree_in_and_out():
    """`acc = (y, acc)` makes a structure as deep as the loop: flattened, keyed, compared
    with the cached call's and rebuilt without recursion."""
    steps = 1000

    def f(x, acc):
        y = x
        for _ in range(steps):
            y = y * 0.5 + 1.0
            acc = (y, acc)
        return acc
    acc = ()
    for k in range(steps):
        acc = (np.float64(k), acc)
    jitted = tp.jit(f)
    x = np.ones(3)
    with shallow_stack():
        first = jitted(x, acc)
        again = jitted(x, acc)
    assert jitted.cache_info().hits == 1
    expected, y = [], x
    for _ in range(steps):
        y = y * 0.5 + 1.0
        expected.append(y)
    for result in (first, again):
        node = result
        for want in reversed(expected):
            np.testing.assert_array_equal(node[0], want)
            node = node[1]
        assert float(node[0]) == steps - 1          # the input structure, passed through


@cuda_emulated[0]          # skipped without g++
@cuda_emulated[1]          # the CUDA backend emulated on the CPU
def test_cuda_splits_a_deep_chain_into_kernels_of_bounded_length():
    """nvcc's optimiser takes more than linear time in a kernel's length (a 400-step chain
    as one kernel: 38 s of CPU), so the CUDA dialect caps how deep a kernel's fused
    expression gets; the C dialect (gcc: linear) fuses the whole chain into one loop."""
    steps = 200
    cuda = tp.jit(chain(tnp, steps), backend="cuda")
    kernels = cuda.lower(X).source.count("__global__ void")
    assert kernels >= 3 * steps // CudaRenderer.max_fused_height
    assert tp.jit(chain(tnp, steps)).lower(X).source.count("__attribute__((noinline)) void") == 1
    np.testing.assert_allclose(np.asarray(cuda(X)), numpy_chain(X, steps), rtol=2e-6,
                               atol=2e-6)


@cuda_emulated[0]
@cuda_emulated[1]
def test_cuda_does_not_interchange_a_loop_whose_body_is_deeper_than_a_kernel_may_be():
    """Interchanged, a fori_loop's whole body is one kernel's expression."""
    def f(x, steps):
        return lax.fori_loop(0, 3, lambda i, y: _chain_from(y, x, steps), x)
    shallow = tp.jit(lambda x: f(x, 5), backend="cuda").lower(X).source
    deep = tp.jit(lambda x: f(x, 60), backend="cuda")
    assert "interchanged" in shallow and "interchanged" not in deep.lower(X).source
    assert "interchanged" in tp.jit(lambda x: f(x, 60)).lower(X).source     # C: no cap
    expected = X
    for _ in range(3):
        expected = _numpy_chain_from(expected, X, 60)
    np.testing.assert_allclose(np.asarray(deep(X)), expected, rtol=2e-6, atol=2e-6)
