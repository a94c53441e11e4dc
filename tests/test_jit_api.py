"""The jit API: pytrees, static/keyword/default arguments, errors that name the argument,
logging of why a function was retraced, and the IR's printer and typechecker."""
import collections
import dataclasses
from functools import partial

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile.passes.typecheck import IRTypeError, typecheck
from conftest import assert_same


def test_pytree_arguments_and_results():
    Point = collections.namedtuple("Point", "x y")

    @dataclasses.dataclass
    class Params:
        w: np.ndarray
        b: float

    def f(tree, p, pt):
        return {"sum": tree["a"] + tree["b"][0], "none": None,
                "pair": (p.w * p.b, [pt.x - pt.y])}
    tree = {"a": np.arange(3.0), "b": [np.ones(3), 2]}
    out = tp.jit(f)(tree, Params(np.arange(3.0), 2.0), Point(5, 3))
    assert out["none"] is None
    assert_same(out["sum"], np.arange(3.0) + 1)
    assert_same(out["pair"][0], np.arange(3.0) * 2.0)
    assert_same(out["pair"][1][0], np.asarray(2))


def test_keyword_default_and_static_arguments():
    def f(x, scale=2.0, *, mode="add", n=3):
        return x * scale + n if mode == "add" else x * scale - n
    jf = tp.jit(f, static_argnames=("mode", "n"))
    x = np.arange(4.0)
    assert_same(jf(x), x * 2.0 + 3)
    assert_same(jf(x, 3.0, mode="sub"), x * 3.0 - 3)
    assert_same(jf(x, scale=0.5, n=1), x * 0.5 + 1)
    assert jf.cache_info().misses == 3
    jf(x, scale=0.25, n=1)
    assert jf.cache_info().misses == 3               # a traced keyword value: no retrace


def test_jit_decorator_forms():
    @tp.jit(static_argnums=1)
    def a(x, k):
        return x * k

    @partial(tp.jit, static_argnums=(1,))
    def b(x, k):
        return x * k
    assert a(np.ones(2), 3)[0] == 3 and b(np.ones(2), 4)[0] == 4


def test_results_are_numpy_arrays_and_scalars_are_0d():
    out = tp.jit(lambda x: (x.sum(), x, 3))(np.arange(3))
    assert all(isinstance(o, np.ndarray) for o in out)
    assert out[0].shape == () and out[2].shape == () and out[2] == 3
    x = np.arange(3)
    y = out[1]
    assert y is not x and np.array_equal(y, x)       # callers own their results


def test_bad_arguments_raise_type_errors_naming_the_argument():
    f = tp.jit(lambda data, n: data * n, static_argnames=["n"])
    with pytest.raises(TypeError, match="'data'.*object"):
        f(np.array([1, None], dtype=object), 2)
    with pytest.raises(TypeError, match="'data'.*str"):
        f("hello", 2)
    with pytest.raises(TypeError, match="'n'.*unhashable.*list"):
        f(np.ones(2), [1, 2])
    with pytest.raises(TypeError, match="'data'"):
        f(np.array(["a", "b"]), 2)
    with pytest.raises(TypeError):
        f(np.ones(2))                                   # wrong arity: Python's own message
    with pytest.raises(TypeError, match="datetime64"):
        f(np.ones(2, dtype="datetime64[s]"), 2)


def test_non_contiguous_and_other_dtype_inputs_are_accepted():
    x = np.arange(20.0).reshape(4, 5)[:, ::2]
    assert_same(tp.jit(lambda a: a + 1)(x), x + 1)
    big = np.arange(6, dtype=">f8")                     # big-endian input: converted
    assert_same(tp.jit(lambda a: a * 2)(big), big.astype("<f8") * 2)


def test_compile_log_says_why_a_function_was_retraced(monkeypatch, capsys):
    monkeypatch.setenv("TRANSPILE_LOG", "compiles")
    f = tp.jit(lambda x, n: x * n, static_argnames=["n"])
    f(np.ones(100, np.float32), 5)
    f(np.ones(50, np.float32), 5)
    f(np.ones(50, np.float32), 3)
    err = capsys.readouterr().err
    assert "first call" in err
    assert "'x': f32[100] → f32[50]" in err
    assert "static 'n': 5 → 3" in err


def test_leaked_tracer_is_reported():
    leaked = []

    @tp.jit
    def leak(x):
        leaked.append(x * 2)
        return x
    leak(np.ones(3))
    with pytest.raises(tp.UnexpectedTracerError, match="escaped"):
        tp.jit(lambda y: y + leaked[0])(np.ones(3))


def test_lowered_exposes_ir_source_and_compiles():
    x = np.ones(8, np.float32)
    lowered = tp.jit(lambda a: tnp.exp(a) + 1).lower(x)
    assert "exp" in str(lowered.ir) and "tp_expf" in lowered.source
    assert "x" not in lowered.signature or "f32[8]" in lowered.signature
    compiled = lowered.compile()
    assert compiled.source_path.endswith("module.c")


def test_typechecker_rejects_malformed_ir():
    ir = tp.make_ir(lambda a: tnp.exp(a) * 2)(np.ones(3))
    typecheck(ir)
    ir.eqns[0].outputs[0].aval = tp.ShapedArray((4,), np.dtype(np.float64))
    with pytest.raises(IRTypeError, match="rule says"):
        typecheck(ir)
    ir2 = tp.make_ir(lambda a: tnp.exp(a) * 2)(np.ones(3))
    ir2.eqns.reverse()
    with pytest.raises(IRTypeError, match="before it is defined"):
        typecheck(ir2)


def test_ir_names_are_deterministic_and_constants_are_listed():
    const = np.arange(3.0)

    def f(x):
        return x + const, tnp.sum(x, axis=0, keepdims=True)
    text = str(tp.make_ir(f)(np.ones((2, 3))))
    assert text == str(tp.make_ir(f)(np.ones((2, 3))))
    assert text.startswith("{ lambda a:f64[3]; b:f64[2,3]. let")
    assert "reduce_sum[axes=(0,)]" in text


def test_interpret_backend_and_environment_selection(monkeypatch):
    x = np.arange(5.0)
    assert_same(tp.jit(lambda a: a * 2, backend="interpret")(x), x * 2)
    monkeypatch.setenv("TRANSPILE_BACKEND", "interpret")
    f = tp.jit(lambda a: a * 3)
    assert_same(f(x), x * 3) and f.cache_info().disk_misses == 0
    with pytest.raises(ValueError, match="backend"):
        tp.jit(lambda a: a, backend="tpu")
