"""The first call answered by the program executor while the C module builds (issue 22):
the executor must give the module's bits, exactly, for every program it accepts; it must
refuse what it cannot give exactly; and the overlap must behave (later calls on the module,
a failed build raised, the switch to turn it off)."""
import itertools
import os
import sys

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
import transpile.scipy.special as tsp
from transpile.backends import cpu, overlapped_build
from transpile.backends.numpy_kernels import OPS
from transpile.backends.overlapped_build import OverlappedBuild
from transpile.backends.program_executor import ProgramExecutor, executor_problem
from transpile.runtime import runtime_library
from transpile.runtime.compiler import CompileError

from conftest import ALL_DTYPES, FLOATS, edge_values

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "benchmarks"))


@pytest.fixture
def overlap(monkeypatch, cache_dir):
    """The executor on (the suite turns it off, so that first calls test modules), with a
    fresh disk cache: nothing found there."""
    monkeypatch.setenv(overlapped_build.ENVIRONMENT, "1")


def same_bits(a, b) -> bool:
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    if a.dtype.kind != "f":
        return bool(np.array_equal(a, b))
    nan = np.isnan(a)
    return bool(np.array_equal(nan, np.isnan(b)) and np.array_equal(a[~nan], b[~nan])
                and np.array_equal(np.signbit(a[~nan]), np.signbit(b[~nan])))


def executor_and_module(fun, *args, static_argnums=()):
    """(executor's outputs, module's outputs) of one specialisation, called directly."""
    lowered = tp.jit(fun, static_argnums=static_argnums).lower(*args)
    prepared = lowered._prepared
    problem = executor_problem(prepared.program)
    assert problem is None, f"the executor refuses {fun.__name__}: {problem}"
    backend = cpu.backend()
    handle = runtime_library.ensure(backend.compiler).handle
    executor = ProgramExecutor(prepared.program, prepared.consts, handle)
    dynamic = [a for i, a in enumerate(args) if i not in static_argnums]
    arrays = [np.array(a, dtype=aval.dtype) for a, aval in zip(dynamic, lowered.in_avals)]
    module, _ = backend.compile(prepared)
    return executor([a.copy() for a in arrays]), module([a.copy() for a in arrays])


def assert_executor_exact(fun, *args, static_argnums=()):
    ours, module = executor_and_module(fun, *args, static_argnums=static_argnums)
    assert len(ours) == len(module)
    for i, (a, b) in enumerate(zip(ours, module)):
        assert same_bits(a, b), f"{fun.__name__} output {i}: executor {a!r} module {b!r}"


# -- every operation, every dtype it covers, on edge values ---------------------------------

def _operands(dtype, n=24, seed=0):
    x = np.resize(edge_values(dtype, seed=seed), n).astype(dtype)
    y = np.resize(edge_values(dtype, seed=seed + 1)[::-1], n).astype(dtype)
    return x, y


_BINARY = {"add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b,
           "div": lambda a, b: a / b, "max": tnp.maximum, "min": tnp.minimum,
           "eq": lambda a, b: a == b, "ne": lambda a, b: a != b, "lt": lambda a, b: a < b,
           "le": lambda a, b: a <= b, "gt": lambda a, b: a > b, "ge": lambda a, b: a >= b,
           "and": lambda a, b: a & b, "or": lambda a, b: a | b, "xor": lambda a, b: a ^ b,
           "copysign": tnp.copysign}
_UNARY = {"neg": lambda a: -a, "abs": tnp.abs, "sqrt": tnp.sqrt, "floor": tnp.floor,
          "ceil": tnp.ceil, "trunc": tnp.trunc, "round": tnp.rint, "is_nan": tnp.isnan,
          "is_inf": tnp.isinf, "is_finite": tnp.isfinite, "reciprocal": tnp.reciprocal,
          "not": lambda a: ~a}


def test_every_operation_is_tested():
    assert set(OPS) == set(_BINARY) | set(_UNARY)


# NumPy refuses these (bool subtraction and negation), so no program has them
_REFUSED_BY_NUMPY = {("sub", np.dtype(np.bool_)), ("neg", np.dtype(np.bool_))}


def _covered_dtypes(name) -> list:
    """The dtypes operation `name` is run on here: those the executor covers it for."""
    dtypes = [d for d in ALL_DTYPES
              if d.kind in OPS[name][0] and (name, d) not in _REFUSED_BY_NUMPY]
    assert dtypes, name
    return dtypes


@pytest.mark.parametrize("name", sorted(_BINARY))
def test_binary_operations_give_the_modules_bits(overlap, name):
    op = _BINARY[name]
    for dtype in _covered_dtypes(name):
        x, y = _operands(dtype)
        assert_executor_exact(lambda a, b: op(a, b), x, y)
        assert_executor_exact(lambda a, b: op(a[::-1], b[:, None]), x, y)   # views, broadcast


@pytest.mark.parametrize("name", sorted(_UNARY))
def test_unary_operations_give_the_modules_bits(overlap, name):
    op = _UNARY[name]
    for dtype in _covered_dtypes(name):
        assert_executor_exact(lambda a: op(a), _operands(dtype)[0])


@pytest.mark.parametrize("dtype", FLOATS)
def test_conversions_and_selects(overlap, dtype):
    x, y = _operands(dtype, 40)
    other = np.float64 if dtype == np.float32 else np.float32

    def f(a, b, i):
        return (tnp.where(a > b, a.astype(other), i.astype(other)), (i * 3).astype(dtype),
                (a != 0).astype(np.int8), (b > 0).astype(dtype))
    assert_executor_exact(f, x, y, np.arange(-20, 20, dtype=np.int64))


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_max_min_and_logical_reductions(overlap, dtype):
    x = np.resize(edge_values(dtype, seed=3), (6, 9)).astype(dtype)
    if dtype.kind == "f":        # rows of zeros of both signs: the last zero gives the sign
        x[1] = [0.0, -0.0, 0.0, -0.0, 0.0, -0.0, -0.0, 0.0, -0.0]
        x[2] = [-1.0, -0.0, -2.0, 0.0, -0.0, -3.0, -np.inf, -0.0, -5.0]
        x[3, 4] = np.nan

    def f(a):
        outs = [tnp.max(a, axis=1), tnp.min(a, axis=0), tnp.max(a), tnp.min(a[:, ::-1], axis=1)]
        if dtype == np.bool_:
            outs += [tnp.all(a, axis=1), tnp.any(a, axis=0)]
        return outs
    assert_executor_exact(f, x)


@pytest.mark.parametrize("dtype", [np.dtype(t) for t in (np.int8, np.uint16, np.int32,
                                                         np.int64, np.uint64)])
def test_integer_sums_and_products_wrap_as_the_module_does(overlap, dtype):
    x = np.resize(edge_values(dtype, seed=5), (5, 7)).astype(dtype)
    assert_executor_exact(lambda a: (tnp.sum(a, axis=1, dtype=dtype),
                                     tnp.prod(a, axis=0, dtype=dtype)), x)


@pytest.mark.parametrize("dtype", FLOATS)
def test_products_call_the_modules_gemm(overlap, dtype):
    rng = np.random.default_rng(0)
    a = rng.standard_normal((3, 40, 50)).astype(dtype)
    b = rng.standard_normal((50, 60)).astype(dtype)
    c = rng.standard_normal((3, 60, 40)).astype(dtype)
    assert_executor_exact(lambda x, y: x @ y, a, b)                   # batched, broadcast rhs
    assert_executor_exact(lambda x, z: tnp.swapaxes(x, 1, 2) @ z[:, ::-1, :].transpose(0, 2, 1)
                          * 2.0 + 1.0, a, c[:, :, :50])                # strided operands
    assert_executor_exact(lambda x, y: (x.reshape(120, 50) @ y).reshape(3, 40, 60), a, b)


def test_npbench_programs_it_accepts_give_the_modules_bits(overlap):
    import npbench_kernels
    lib = npbench_kernels.library(tnp, tp.lax, tp.jit)
    accepted = []
    for kernel in npbench_kernels.KERNELS:
        # preset S where the tiny one's products are small enough to be inlined
        preset = "S" if kernel.name in ("doitgen", "gemm", "trmm") else "tiny"
        if preset not in kernel.sizes:
            continue
        args = kernel.init(kernel.sizes[preset])
        fun = kernel.make(lib)
        lowered = tp.jit(fun, static_argnums=kernel.static_argnums).lower(*args)
        if executor_problem(lowered._prepared.program) is not None:
            continue
        assert_executor_exact(fun, *args, static_argnums=kernel.static_argnums)
        accepted.append(kernel.name)
    assert {"hdiff", "doitgen", "gemm", "trmm"} <= set(accepted)


# -- random programs of the operations it covers --------------------------------------------

def _random_program(rng, dtype, depth):
    """A random DAG of `depth` covered operations over two inputs and their views."""
    binaries = [n for n in _BINARY if dtype.kind in OPS[n][0] and _BINARY_KEEPS[n]]
    unaries = [n for n in _UNARY if dtype.kind in OPS[n][0] and _UNARY_KEEPS[n]]
    if dtype == np.bool_:
        binaries = [n for n in binaries if n not in ("sub",)]
        unaries = [n for n in unaries if n != "neg"]
    steps = [(rng.choice(binaries) if rng.random() < 0.6 or not unaries else rng.choice(unaries),
              rng.integers(0, 1 << 30, size=2)) for _ in range(depth)]
    views = [lambda v: v, lambda v: v[::-1], lambda v: v[:, ::-1], lambda v: v.T[::-1].T]

    def program(a, b):
        values = [a, b]
        for name, (i, j) in steps:
            x = views[i % len(views)](values[i % len(values)])
            if name in _BINARY:
                y = values[j % len(values)]
                values.append(_BINARY[name](x, y))
            else:
                values.append(_UNARY[name](x))
        return values[2:]
    return program


# operations whose result keeps the operand dtype (a chain can go on from them)
_BINARY_KEEPS = {n: n not in ("eq", "ne", "lt", "le", "gt", "ge") for n in _BINARY}
_UNARY_KEEPS = {n: n not in ("is_nan", "is_inf", "is_finite") for n in _UNARY}


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=str)
def test_random_programs_give_the_modules_bits(overlap, dtype):
    rng = np.random.default_rng(list(itertools.chain(str(dtype).encode())))
    for trial in range(3):
        a = np.resize(edge_values(dtype, seed=trial), (4, 6)).astype(dtype)
        b = np.resize(edge_values(dtype, seed=trial + 7)[::-1], (4, 6)).astype(dtype)
        program = _random_program(rng, dtype, depth=int(rng.integers(3, 12)))
        program.__name__ = f"random_{dtype}_{trial}"
        assert_executor_exact(program, a, b)


# -- what it refuses --------------------------------------------------------------------------

@pytest.mark.parametrize("fun, reason", [
    (lambda x: tp.lax.erf_inv(x / 3), "'erf_inv'"),
    (lambda x: tnp.sum(tnp.broadcast_to(x, (1 << 16, 3, 4))), "split across threads"),
    (lambda x: tnp.argmax(x, axis=0), "argmax"),
    (lambda x: x.astype(np.int32), "float64 -> int32"),
    (lambda x: tp.lax.fori_loop(0, 3, lambda i, v: v * 2.0, x), "statement"),
    (lambda x: x @ x.T, "small product"),
])
def test_refuses_what_it_cannot_compute_exactly(fun, reason):
    x = np.linspace(-2, 2, 12).reshape(3, 4)
    problem = executor_problem(tp.jit(fun).lower(x)._prepared.program)
    assert problem is not None and reason in problem


# -- the overlap ------------------------------------------------------------------------------

def _count_executor_calls(monkeypatch):
    calls = []
    original = ProgramExecutor.__call__

    def counted(self, arrays):
        calls.append(1)
        return original(self, arrays)
    monkeypatch.setattr(ProgramExecutor, "__call__", counted)
    return calls


def test_first_call_runs_on_the_executor_and_later_calls_on_the_module(overlap, monkeypatch):
    calls = _count_executor_calls(monkeypatch)
    f = tp.jit(lambda a, b: tnp.maximum(a * 2.0, b[::-1]) - 1.0)
    x, y = np.linspace(-1, 1, 50), np.linspace(3, -3, 50)
    first = f(x, y)
    second = f(x, y)
    third = f(x, y)
    assert len(calls) == 1
    assert same_bits(first, second) and same_bits(second, third)
    np.testing.assert_array_equal(first, np.maximum(x * 2.0, y[::-1]) - 1.0)
    assert f.cache_info().misses == 1


def test_found_on_disk_means_no_executor(overlap, monkeypatch):
    def f(a):
        return a * 3.0 + 1.0
    x = np.arange(10.0)
    jitted = tp.jit(f)
    jitted(x)
    jitted(x)                         # waits for the module, which is then on disk
    jitted.clear_cache()
    calls = _count_executor_calls(monkeypatch)
    np.testing.assert_array_equal(tp.jit(f)(x), x * 3.0 + 1.0)
    assert calls == []


def test_switched_off_the_first_call_waits_for_the_module(overlap, monkeypatch):
    monkeypatch.setenv(overlapped_build.ENVIRONMENT, "0")
    calls = _count_executor_calls(monkeypatch)
    tp.jit(lambda a: a - 1.0)(np.arange(4.0))
    assert calls == []
    monkeypatch.setenv(overlapped_build.ENVIRONMENT, "maybe")
    with pytest.raises(ValueError, match=overlapped_build.ENVIRONMENT):
        tp.jit(lambda a: a - 2.0)(np.arange(4.0))


def test_a_failed_build_is_raised_by_the_next_call(overlap, monkeypatch):
    backend = cpu.backend()

    def broken(self, prepared, tmp):
        raise CompileError(f"the compiler failed in {tmp}")
    monkeypatch.setattr(type(backend), "_build", broken)
    f = tp.jit(lambda a: a * 5.0 - 7.0)
    x = np.arange(6.0)
    np.testing.assert_array_equal(f(x), x * 5.0 - 7.0)      # the executor's answer
    with pytest.raises(CompileError, match="the compiler failed"):
        f(x)


def test_overlapped_build_waits_and_forwards():
    done = []

    class Module:
        so_path = "/nowhere/module.so"
        source_path = "/nowhere/module.c"

        def __call__(self, arrays):
            return ["module"]

        def plain_runner(self, single=False, convert=None):
            return "runner"

    def build():
        done.append(1)
        return Module(), False
    overlapped = OverlappedBuild(lambda arrays: ["executor"], build, "test")
    assert overlapped([]) == ["executor"]
    assert overlapped([]) == ["module"]
    assert overlapped.plain_runner() == "runner"
    assert overlapped.so_path == "/nowhere/module.so" and done == [1]
    assert overlapped.device_inputs is False and overlapped.compiled


def test_builds_queue_beyond_the_cores(overlap, monkeypatch):
    """One module per new shape, called once each: at most one build per core at a time."""
    import threading
    import time
    running, most = [], []
    lock = threading.Lock()
    backend = cpu.backend()
    original = type(backend)._build

    def counted(self, prepared, tmp):
        with lock:
            running.append(1)
            most.append(len(running))
        try:
            time.sleep(0.05)
            return original(self, prepared, tmp)
        finally:
            with lock:
                running.pop()
    monkeypatch.setattr(type(backend), "_build", counted)
    f = tp.jit(lambda a: a * 2.0 + 0.5)
    for n in range(1, 7):
        x = np.arange(float(n))
        np.testing.assert_array_equal(f(x), x * 2.0 + 0.5)
    for n in range(1, 7):                      # each waits for its module
        x = np.arange(float(n))
        np.testing.assert_array_equal(f(x), x * 2.0 + 0.5)
    assert len(most) == 6 and max(most) <= max(1, os.cpu_count() or 1)


# -- transcendental functions: the runtime library's maps, spelled as the module spells them --

def test_maps_are_spelled_as_the_module_spells_its_operations():
    from transpile.codegen.c_ops import op_rule
    from transpile.runtime.runtime_calls import map_spellings
    maps = map_spellings()
    assert {"exp", "tanh", "log", "sin", "atan2", "pow"} <= set(maps)
    for op, (arity, f32, f64) in maps.items():
        for dtype, call in ((np.dtype(np.float32), f32), (np.dtype(np.float64), f64)):
            names = ["x", "z"][:arity]
            assert op_rule(op, (dtype,) * arity)(names, (dtype,) * arity, dtype) == \
                f"{call}({', '.join(names)})", (op, dtype)


_MAPPED = {"exp": tnp.exp, "tanh": tnp.tanh, "exp2": tnp.exp2, "expm1": tnp.expm1,
           "log": tnp.log, "log2": tnp.log2, "log10": tnp.log10, "log1p": tnp.log1p,
           "sin": tnp.sin, "cos": tnp.cos, "tan": tnp.tan, "arcsin": tnp.arcsin,
           "arccos": tnp.arccos, "arctan": tnp.arctan, "sinh": tnp.sinh, "cosh": tnp.cosh,
           "arcsinh": tnp.arcsinh, "arccosh": tnp.arccosh, "arctanh": tnp.arctanh,
           "cbrt": tnp.cbrt, "erf": tsp.erf, "erfc": tsp.erfc}


@pytest.mark.parametrize("dtype", FLOATS, ids=str)
def test_transcendental_functions_give_the_modules_bits(overlap, dtype):
    x = np.concatenate([edge_values(dtype, seed=2),
                        np.linspace(-30, 30, 61), np.linspace(-1, 1, 41)]).astype(dtype)
    y = np.resize(edge_values(dtype, seed=4)[::-1], x.shape).astype(dtype)
    unary = list(_MAPPED.values())
    assert_executor_exact(lambda a: [f(a) for f in unary], x)
    assert_executor_exact(lambda a, b: (tnp.arctan2(a, b), a ** b, tnp.hypot(a, b),
                                        tnp.exp(a[::-1] * 0.5) + b), x, y)


# -- float sums and products, in the module's own order ----------------------------------------

@pytest.mark.parametrize("dtype", FLOATS, ids=str)
@pytest.mark.parametrize("shape, axis", [((7, 37), 1), ((5, 8), 1), ((3, 4, 19), (1, 2)),
                                         ((300, 11), 0), ((6, 5, 9), (0, 2)), ((40,), 0),
                                         ((9, 3), None), ((4, 0), 1), ((2, 17, 3), 1)])
def test_float_sums_and_products_give_the_modules_bits(overlap, dtype, shape, axis):
    rng = np.random.default_rng(7)
    x = (rng.standard_normal(shape) * 10.0 ** rng.integers(-8, 8, shape)).astype(dtype)
    if x.size > 3:
        x.flat[1] = -0.0
    assert_executor_exact(lambda a: (tnp.sum(a, axis=axis), tnp.prod(a[..., ::-1] / 3, axis=axis),
                                     tnp.mean(a * a, axis=axis)), x)
    negative_zeros = np.full(shape, -0.0, dtype)
    assert_executor_exact(lambda a: tnp.sum(a, axis=axis), negative_zeros)


def test_a_lane_ordered_sum_is_not_numpys_pairwise_sum(overlap):
    """The order matters: terms chosen so that summing in another order rounds differently."""
    x = np.array([1e16, 1.0, -1e16, 1.0] * 5 + [3.0, 1e-3, 7.0], dtype=np.float64)
    ours, module = executor_and_module(lambda a: tnp.sum(a), x)
    assert same_bits(ours[0], module[0])


def test_lane_order_only_in_straight_line_programs():
    """Programs with loops never run on the executor, and their sums keep the vectoriser's
    order (the lanes' block loop was slower inside loops: loop_schedule._lane_ordered)."""
    x = np.ones((8, 50))
    straight = tp.jit(lambda a: tnp.sum(a, axis=1)).lower(x).source
    looped = tp.jit(lambda a: tp.lax.fori_loop(
        0, 2, lambda i, v: v + tnp.sum(a * i, axis=1), tnp.zeros(8))).lower(x).source
    assert "part[" in straight and "reduction(+:acc)" not in straight
    assert "part[" not in looped and "reduction(+:acc)" in looped


def test_an_executor_failure_falls_back_to_the_module():
    def build():
        return (lambda arrays: ["module"]), False

    def broken(arrays):
        raise FloatingPointError("an executor bug")
    assert OverlappedBuild(broken, build, "test")([]) == ["module"]
