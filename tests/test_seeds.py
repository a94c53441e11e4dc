"""Every behaviour the seed documents (JAX's jit tutorial and a user's notes) describe,
with jax -> transpile, jax.numpy -> transpile.numpy, jax.lax -> transpile.lax."""
import functools
import re
from functools import partial

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile import lax
from conftest import assert_same

global_list = []


def log2(x):
    global_list.append(x)
    ln_x = tnp.log(x)
    ln_2 = tnp.log(2.0)
    return ln_x / ln_2


def test_make_ir_prints_a_jaxpr_like_program_without_side_effects():
    text = str(tp.make_ir(log2)(3.0))
    assert text == ("{ lambda ; a:f64[]. let\n"
                    "    b:f64[] = log a\n"
                    "    c:f64[] = log 2.0\n"
                    "    d:f64[] = div b c\n"
                    "  in (d,) }")
    assert isinstance(global_list[-1], tp.Tracer)     # the side effect ran once, at trace time


def test_print_inside_jit_runs_at_trace_time_only_and_shows_a_tracer(capsys):
    @tp.jit
    def dotproduct(x, y):
        print("Inside dotproduct")
        print(f"x={x}")
        z = tnp.dot(x, y)
        print(f"z={z}")
        return z

    rng = np.random.default_rng(0)
    x = rng.random(100).astype(np.float32)
    assert_same(dotproduct(x, x.T), np.float32(np.dot(x, x)), rtol=1e-5)
    out = capsys.readouterr().out
    assert "Inside dotproduct" in out and "x=Traced<f32[100]>" in out and "z=Traced<f32[]>" in out
    x2 = rng.random(100).astype(np.float32)
    assert_same(dotproduct(x2, x2), np.float32(np.dot(x2, x2)), rtol=1e-5)
    assert capsys.readouterr().out == ""                 # compiled: no side effects
    x3 = rng.random(50).astype(np.float32)
    dotproduct(x3, x3)
    assert "x=Traced<f32[50]>" in capsys.readouterr().out  # new shape: traced again
    dotproduct(x2, x2)
    assert capsys.readouterr().out == ""                 # the old specialisation is kept
    info = dotproduct.cache_info()
    assert (info.misses, info.hits, info.entries) == (2, 2, 2)


def test_branch_on_ndim_traces_only_the_taken_branch():
    def log2_if_rank_2(x):
        if x.ndim == 2:
            return tnp.log(x) / tnp.log(2.0)
        return x
    assert str(tp.make_ir(log2_if_rank_2)(np.array([1, 2, 3]))) == "{ lambda ; a:i64[3]. let in (a,) }"


def test_maximum_with_a_python_float_prints_max_literal():
    assert str(tp.make_ir(lambda x: tnp.maximum(0., x))(5.)) == \
        "{ lambda ; a:f64[]. let b:f64[] = max 0.0 a in (b,) }"


def selu(x, alpha=1.67, lambda_=1.05):
    return lambda_ * tnp.where(x > 0, x, alpha * tnp.exp(x) - alpha)


def test_selu_on_a_million_values_is_one_fused_loop_and_matches_numpy():
    x = np.arange(1_000_000, dtype=np.float32) / 1e5 - 5
    selu_jit = tp.jit(selu)
    assert_same(tp.block_until_ready(selu_jit(x)), selu(x), rtol=1e-6)
    source = selu_jit.lower(x).source
    assert source.count("for (") == 1 and source.count("selu_out0(") == 2   # defined, called
    assert "#pragma omp parallel for simd" in source
    assert "malloc" not in source                     # no intermediate arrays


def f_branch(x):
    if x > 0:
        return x
    else:
        return 2 * x


def g_loop(x, n):
    i = 0
    while i < n:
        i += 1
    return x + i


def test_python_control_flow_on_traced_values_raises_concretization_error_naming_the_arg():
    with pytest.raises(tp.ConcretizationError) as err:
        tp.jit(f_branch)(10)
    message = str(err.value)
    assert "'x'" in message and "static_argnames" in message
    assert re.search(r"test_seeds\.py:\d+", message)
    assert isinstance(err.value, TypeError)
    with pytest.raises(tp.ConcretizationError, match="'n'"):
        tp.jit(g_loop)(10, 20)


def test_static_arguments_fix_value_dependent_control_flow():
    assert tp.jit(f_branch, static_argnums=0)(10) == 10
    assert tp.jit(g_loop, static_argnames=["n"])(10, 20) == 30

    @partial(tp.jit, static_argnames=["n"])
    def g_jit_decorated(x, n):
        i = 0
        while i < n:
            i += 1
        return x + i
    assert g_jit_decorated(10, 20) == 30


def test_static_arguments_recompile_for_each_new_value(capsys):
    def f2(x, n):
        print(f"x={x} n={n}")
        if n > 0:
            return 3 * x**3 + 2 * x**2 + n
        return 2 * x - n

    jitf = tp.jit(f2, static_argnames=["n"])
    assert jitf(2., 5.) == 37.0
    assert "x=Traced<f64[]> n=5.0" in capsys.readouterr().out
    assert jitf(3., 5.) == 104.0
    assert capsys.readouterr().out == ""
    assert jitf(2., 3.) == 35.0
    assert "n=3.0" in capsys.readouterr().out
    assert jitf(2., -1.) == 5.0

    @functools.partial(tp.jit, static_argnames=["n"])
    def f3(x, n):
        print("traced")
        return 3 * x**3 + 2 * x**2 + n if n > 0 else 2 * x - n
    assert (f3(2., 5.), f3(3., 5.), f3(2., 4.)) == (37.0, 104.0, 36.0)
    assert capsys.readouterr().out.count("traced") == 2


def test_jitting_only_the_inner_body_works_from_a_python_loop():
    @tp.jit
    def g(x):
        return 3 * x**3 + 2 * x**2

    def f(x, n):
        return g(x) + n if n > 0 else 2 * x - n
    assert f(2., 5.) == 37.0

    @tp.jit
    def loop_body(prev_i):
        return prev_i + 1

    def g_inner_jitted(x, n):
        i = 0
        while i < n:
            i = loop_body(i)
        return x + i
    result = g_inner_jitted(10, 20)
    # Two traces: one for the Python int 0 (weakly typed), one for the int64 arrays the
    # compiled function returns (NumPy arrays carry no weak-type flag, unlike JAX's).
    assert result == 30 and loop_body.cache_info().misses == 2


def test_jit_of_a_fresh_lambda_or_partial_retraces_but_the_disk_cache_avoids_recompiling():
    def unjitted_loop_body(prev_i):
        return prev_i + 1

    infos = []
    for make in (lambda: tp.jit(lambda x: unjitted_loop_body(x)),
                 lambda: tp.jit(partial(unjitted_loop_body))):
        for _ in range(3):
            fn = make()
            assert fn(41) == 42
            infos.append(fn.cache_info())
    assert all(info.misses == 1 for info in infos)             # every new object retraces
    # ...but the disk cache compiles each distinct source once (lambda, then partial).
    assert sum(info.disk_misses for info in infos[:3]) <= 1
    assert sum(info.disk_misses for info in infos[3:]) <= 1
    assert sum(info.disk_hits for info in infos) >= 4
    normal = [tp.jit(unjitted_loop_body) for _ in range(3)]
    assert [n(1) for n in normal] == [2, 2, 2]
    assert normal[0].cache_info().hits == 2                     # one function object: shared


def test_a_global_is_captured_at_trace_time():
    namespace = {"tnp": tnp, "power": 5}
    exec("def powerof(x):\n    return x ** power\n", namespace)
    powerof = namespace["powerof"]
    assert powerof(2) == 32
    namespace["power"] = 10
    assert powerof(2) == 1024
    namespace["power"] = 5
    assert tp.jit(powerof)(2) == 32
    namespace["power"] = 10
    assert tp.jit(powerof)(2) == 32                            # still the traced value
    assert_same(tp.jit(powerof)(np.array([2., 2.])), np.array([1024., 1024.]))  # new trace


def test_list_arguments_are_pytrees_and_python_loops_unroll():
    @tp.jit
    def sum_of_sqs(xs):
        return tnp.sum(tnp.array([x**2 for x in xs]))
    assert sum_of_sqs([0., 1., 2.]) == 5.0

    @tp.jit
    def sum_of_sqs_2(xs):
        answer = 0
        for x in xs:
            answer += x**2
        return answer
    assert sum_of_sqs_2([0., 1., 2.]) == 5.0
    assert sum_of_sqs_2([0., 1., 2., 3., 4.]) == 30.0


def test_an_iterator_argument_is_a_type_error_naming_the_argument():
    @tp.jit
    def sum_of_sqs(xs):
        return tnp.sum(tnp.array([x**2 for x in xs]))
    with pytest.raises(TypeError, match="'xs'.*iterator"):
        sum_of_sqs(iter([0., 1., 2.]))


def test_fori_loop_with_a_closure_indexing_an_array():
    ary = tnp.array([0., 1., 2.])
    assert lax.fori_loop(0, 3, lambda idx, acc: acc + ary[idx]**2, 0) == 5.0
    jitted = tp.jit(lambda a: lax.fori_loop(0, 3, lambda idx, acc: acc + a[idx]**2, 0.0))
    assert jitted(np.array([0., 1., 2.])) == 5.0


def test_the_fori_loop_iterator_leak_is_reported():
    ary = np.array([0., 1., 2.])
    it = iter(ary)
    assert lax.fori_loop(0, 3, lambda idx, acc: acc + next(it)**2, 0) == 5.0
