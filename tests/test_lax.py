"""transpile.lax: compiled control flow and dynamic indexing against plain-Python references
(and the interpret backend), including zero-trip loops, traced bounds, nesting, closures,
pytree carries and the error cases."""
import os
import re
import sys

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile import lax
from conftest import assert_same

BACKENDS = ["cpu", "interpret"]


def both(fun, *args, **jit_kwargs):
    """Run under both backends; check they agree; return the CPU result."""
    cpu = tp.jit(fun, backend="cpu", **jit_kwargs)(*args)
    ref = tp.jit(fun, backend="interpret", **jit_kwargs)(*args)
    for c, r in zip(_leaves(cpu), _leaves(ref)):
        assert_same(c, r, rtol=1e-12) if np.asarray(c).dtype.kind == "f" else assert_same(c, r)
    return cpu


def _leaves(tree):
    from transpile.pytree import tree_flatten
    return tree_flatten(tree)[0]


@pytest.mark.parametrize("pred", [True, False])
def test_cond_runs_the_chosen_branch_with_pytree_operands(pred):
    x = np.arange(4.0)

    def f(p, x):
        return lax.cond(p, lambda t: {"a": t[0] * 2, "b": t[1] + 1},
                        lambda t: {"a": t[0] - 1, "b": t[1] * 3}, (x, 5))
    out = both(f, pred, x)
    expected = {"a": x * 2, "b": 6} if pred else {"a": x - 1, "b": 15}
    assert_same(out["a"], expected["a"])
    assert int(out["b"]) == expected["b"]
    eager = f(pred, x)                      # outside jit: plain Python
    assert_same(np.asarray(eager["a"]), expected["a"])


@pytest.mark.parametrize("index", [-5, 0, 1, 2, 10])
def test_switch_clamps_the_index_like_jax(index):
    branches = [lambda x: x + 1, lambda x: x * 10, lambda x: -x]
    out = both(lambda i, x: lax.switch(i, branches, x), index, np.float32(3))
    assert out == branches[min(max(index, 0), 2)](np.float32(3))


def test_select():
    p = np.array([True, False, True])
    assert_same(both(lax.select, p, np.arange(3), -np.arange(3)), np.array([0, -1, 2]))


@pytest.mark.parametrize("n", [0, 1, 7])
def test_while_loop_including_zero_trips(n):
    def f(x, n):
        return lax.while_loop(lambda c: c[0] < n, lambda c: (c[0] + 1, c[1] * 2 + x), (0, x))
    out = both(f, np.arange(3.0), n)
    i, v = 0, np.arange(3.0)
    while i < n:
        i, v = i + 1, v * 2 + np.arange(3.0)
    assert int(out[0]) == i
    assert_same(out[1], v)


@pytest.mark.parametrize("lo,hi", [(0, 10), (3, 3), (5, 2), (-4, 4)])
def test_fori_loop_with_static_and_traced_bounds(lo, hi):
    x = np.random.default_rng(0).standard_normal(6)

    def body(i, acc):
        return acc * 0.5 + x[i % 6] * i

    expected = 1.0
    for i in range(lo, hi):
        expected = body(i, expected)
    static = both(lambda a: lax.fori_loop(lo, hi, lambda i, c: c * 0.5 + a[i % 6] * i, 1.0), x)
    traced = both(lambda a, lo, hi: lax.fori_loop(lo, hi, lambda i, c: c * 0.5 + a[i % 6] * i,
                                                    1.0), x, lo, hi)
    assert_same(static, np.float64(expected), rtol=1e-12)
    assert_same(traced, np.float64(expected), rtol=1e-12)


def test_the_seed_fori_loop_closure_under_jit():
    ary = np.array([0., 1., 2.])
    assert both(lambda a: lax.fori_loop(0, 3, lambda idx, acc: acc + a[idx]**2, 0), ary) == 5.0


@pytest.mark.parametrize("reverse", [False, True])
def test_scan_stacks_outputs(reverse):
    xs = {"a": np.arange(12.0).reshape(4, 3), "b": np.arange(4)}

    def f(xs):
        def step(carry, x):
            total, count = carry
            return (total + x["a"], count + x["b"]), (total.sum(), x["a"][::-1] * count)
        return lax.scan(step, (tnp.zeros(3), 0), xs, reverse=reverse)
    out = both(f, xs)
    eager = f(xs)                               # Python loop over NumPy
    for got, exp in zip(_leaves(out), _leaves(eager)):
        assert_same(got, np.asarray(exp), rtol=1e-12)


def test_nested_regions_and_closures_over_outer_tracers():
    def f(x, n):
        scale = x.sum()                                   # an outer tracer, captured below

        def outer_body(i, acc):
            inner = lax.fori_loop(0, i, lambda j, a: a + scale * j, 0.0)
            return lax.cond(i % 2 == 0, lambda a: a + inner, lambda a: a - x[i], acc)
        return lax.while_loop(lambda c: c[0] < n, lambda c: (c[0] + 1, outer_body(c[0], c[1])),
                              (0, 0.0))
    x = np.arange(1.0, 6.0)
    out = both(f, x, 5)
    scale, acc = x.sum(), 0.0
    for i in range(5):
        inner = sum(scale * j for j in range(i))
        acc = acc + inner if i % 2 == 0 else acc - x[i]
    assert out[1] == pytest.approx(acc)


def test_loop_ir_and_compile_time_do_not_grow_with_trip_count():
    def f(n):
        return lambda x: lax.fori_loop(0, n, lambda i, c: c * 1.0001 + x, x)
    small = tp.make_ir(f(10))(np.ones(3))
    large = tp.make_ir(f(10_000_000))(np.ones(3))
    assert len(small.eqns) == len(large.eqns) == 1
    assert len(str(small)) == len(str(large)) - len("10000000") + len("10")
    src_small = tp.jit(f(10)).lower(np.ones(3)).source
    src_large = tp.jit(f(10_000_000)).lower(np.ones(3)).source
    assert abs(len(src_small) - len(src_large)) < 40


def test_elementwise_fori_loop_is_interchanged_into_one_parallel_loop():
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent.parent / "examples"))
    import mandelbrot
    c_re, c_im = mandelbrot.grid(80, 60)
    fast = tp.jit(mandelbrot.mandelbrot, static_argnames=["iterations"])
    assert_same(fast(c_re, c_im), mandelbrot.mandelbrot(c_re, c_im))
    source = fast.lower(c_re, c_im).source
    names = fast.lower(c_re, c_im)._prepared.program.kernel_names
    definitions = [n for n in names if re.search(rf"^\S[^\n]*\b{n}\(", source, re.M)]
    assert "interchanged" in source and len(definitions) == 1
    if '#include "transpile.h"' in source:      # the C backend: one parallel loop
        assert "#pragma omp parallel for" in source


def test_loop_with_a_reduction_in_its_body_is_not_interchanged_but_correct():
    def f(x):
        return lax.fori_loop(0, 5, lambda i, v: v - v.mean() * 0.5 + i, x)
    x = np.arange(6.0)
    out = both(f, x)
    v = x.copy()
    for i in range(5):
        v = v - v.mean() * 0.5 + i
    assert_same(out, v, rtol=1e-12)
    assert "iterations inside" not in tp.jit(f).lower(x).source


def test_weakly_typed_initial_carry_takes_the_body_dtype():
    out = both(lambda a: lax.fori_loop(0, 3, lambda i, acc: acc + a[i], 0), np.ones(3, np.float32))
    assert out.dtype == np.float32 and out == 3.0


def test_mismatched_branch_types_name_both_types_and_functions():
    def int_branch(x):
        return x.astype(tnp.int32)

    def float_branch(x):
        return x * 2.0
    with pytest.raises(TypeError, match=r"(?s)true_fun is float_branch.*false_fun is int_branch"
                                        r".*float64\[3\].*int32\[3\].*dtypes do not match"):
        tp.jit(lambda p, x: lax.cond(p, float_branch, int_branch, x))(True, np.ones(3))


def test_loop_body_changing_the_carry_type_is_a_type_error():
    with pytest.raises(TypeError, match=r"carry component loop_carry\[1\] has type float64\[3\]"
                                        r".*float64\[4\], so the "
                                        r"shapes do not match"):
        tp.jit(lambda x: lax.fori_loop(0, 2, lambda i, c: tnp.concatenate([c, c[:1]]), x))(
            np.ones(3))
    with pytest.raises(TypeError, match="boolean scalar"):
        tp.jit(lambda x: lax.while_loop(lambda c: c, lambda c: c, x))(np.ones(3))


def test_a_tracer_leaked_from_a_loop_body_is_reported_with_where_it_was_created():
    leaked = []

    def body(i, c):
        leaked.append(c * 2)
        return c + 1
    tp.jit(lambda x: lax.fori_loop(0, 3, body, x))(np.ones(2))
    with pytest.raises(tp.UnexpectedTracerError, match=r"mul at .*test_lax\.py"):
        tp.jit(lambda y: y + leaked[0])(np.ones(2))


@pytest.mark.parametrize("i,j", [(0, 0), (2, 3), (-1, -2), (7, 1), (-9, 9), (-4, -5)])
def test_traced_indexing_clamps_like_jax(i, j):
    x = np.arange(12.0).reshape(3, 4)
    out = both(lambda a, i, j: (a[i], a[i, j], a[i, 1:3], lax.dynamic_slice(a, (i, j), (2, 2))),
               x, i, j)

    def clamp(k, n, size=1):
        k = k + n if k < 0 else k
        return min(max(k, 0), n - size)
    assert_same(out[0], x[clamp(i, 3)])
    assert_same(out[1], np.float64(x[clamp(i, 3), clamp(j, 4)]))
    assert_same(out[2], x[clamp(i, 3), 1:3])
    si, sj = clamp(i, 3, 2), clamp(j, 4, 2)      # JAX >= 0.4.31: from the end, then clamped
    assert_same(out[3], x[si:si + 2, sj:sj + 2])


def test_dynamic_slices_count_negative_starts_from_the_end_as_jax():
    """JAX 0.10.2's answers (allow_negative_indices=True is its default): a negative start
    counts once from the end, then the window is clamped; the flag turns that off."""
    x = tnp.arange(10)
    for fn in (lambda i: lax.dynamic_slice(x, (i,), (2,)), tp.jit(
            lambda i: lax.dynamic_slice(x, (i,), (2,)))):
        assert [fn(i).tolist() for i in (-1, -3, -30, 4)] == [[8, 9], [7, 8], [0, 1], [4, 5]]
    update = tp.jit(lambda i: lax.dynamic_update_slice(x, tnp.array([100, 101]), (i,)))
    assert update(-3).tolist() == [0, 1, 2, 3, 4, 5, 6, 100, 101, 9]
    assert int(lax.dynamic_index_in_dim(x, -2, keepdims=False)) == 8
    assert lax.dynamic_slice(x, (-3,), (2,), allow_negative_indices=False).tolist() == [0, 1]
    assert tp.vmap(lambda i: lax.dynamic_slice(x, (i,), (2,)))(
        tnp.array([-1, -3, 2])).tolist() == [[8, 9], [7, 8], [2, 3]]
    with pytest.raises(ValueError, match="allow_negative_indices"):
        lax.dynamic_slice(x, (1,), (2,), allow_negative_indices=(True, False))


@pytest.mark.parametrize("i", [0, 2, -1, 5, -6])
def test_at_updates_drop_out_of_bounds_indices(i):
    x = np.arange(5, dtype=np.int32)

    def f(a, i):
        return (a.at[i].set(100), a.at[i].add(10), a.at[i].multiply(3), a.at[i].min(-1),
                a.at[i].max(50), a.at[1:3].set(7), a.at[i].get())
    out = both(f, x, i)
    expected = []
    for op in (lambda v: 100, lambda v: v + 10, lambda v: v * 3, lambda v: min(v, -1),
               lambda v: max(v, 50)):
        e = x.copy()
        if -5 <= i < 5:
            e[i] = op(e[i])
        expected.append(e)
    e = x.copy()
    e[1:3] = 7
    expected.append(e)
    for got, exp in zip(out[:6], expected):
        assert_same(got, exp)


def test_dynamic_update_slice_inside_a_loop_builds_an_array():
    def f(x):
        return lax.fori_loop(0, 5, lambda i, acc: lax.dynamic_update_slice(
            acc, lax.dynamic_slice(x, (i,), (1,)) * i, (i,)), tnp.zeros(5))
    x = np.arange(1.0, 6.0)
    assert_same(both(f, x), x * np.arange(5))
    with pytest.raises(IndexError, match="dynamic_slice"):
        tp.jit(lambda a, i: a[i:i + 2])(x, 1)


def test_interchanged_loop_reads_the_index_scalars_and_traced_bounds():
    def f(x, s, lo, hi):
        return lax.fori_loop(lo, hi, lambda i, v: tnp.where(v > 3.0, v * 0.5, v + s * i), x)
    x = np.linspace(-2, 5, 12).reshape(3, 4)
    out = both(f, x, 0.25, 2, 9)
    v = x.copy()
    for i in range(2, 9):
        v = np.where(v > 3.0, v * 0.5, v + 0.25 * i)
    assert_same(out, v, rtol=1e-12)
    assert "iterations inside" in tp.jit(f).lower(x, 0.25, 2, 9).source


def test_random_loop_programs_agree_across_backends():
    from hypothesis import given, settings, strategies as st

    bodies = {
        "elementwise": lambda i, v, a: v * 0.5 + a * i,
        "reduction": lambda i, v, a: v - v.mean() + a[::-1],
        "indexing": lambda i, v, a: v.at[i % v.shape[0]].add(a[i % a.shape[0]]),
        "branch": lambda i, v, a: lax.cond(i % 2 == 0, lambda t: t + a, lambda t: t * 0.9, v),
    }

    @settings(max_examples=int(os.environ.get("TP_LOOP_EXAMPLES", "15")), deadline=None)
    @given(st.sampled_from(sorted(bodies)), st.integers(-2, 6), st.integers(0, 8),
           st.sampled_from(["float32", "float64"]), st.integers(1, 5))
    def check(name, lo, hi, dtype, n):
        a = np.linspace(-1, 1, n).astype(dtype)
        body = bodies[name]

        def f(a, lo, hi):
            return lax.fori_loop(lo, hi, lambda i, v: body(i, v, a), a * 2)
        cpu = tp.jit(f)(a, lo, hi)
        ref = tp.jit(f, backend="interpret")(a, lo, hi)
        rtol = 1e-5 if dtype == "float32" else 1e-12
        assert_same(cpu, ref, rtol=rtol)
        if name != "indexing":        # .at[] exists on traced arrays only, not on NumPy's
            assert_same(cpu, np.asarray(f(a, lo, hi), dtype=dtype), rtol=rtol)
    check()
