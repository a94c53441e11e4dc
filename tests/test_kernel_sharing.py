"""Kernels equal up to integer constants share one function (issue 22: NPBench's durbin, a
Python loop over growing slices, was ~6000 functions and minutes of compiling).

Decided on the kernel IR (codegen/kernel_sharing.py): what is shared, which integers become
int64 parameters and which never do, checked on hand-built kernels; and end to end, a loop
unrolled while tracing computes NumPy's answer with a handful of functions."""
import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile.codegen import kernel_sharing
from transpile.codegen.kernel_ir import (Affine, Buffer, Expr, KernelConstant, LoopKernel,
                                         ReduceKernel)
from transpile.codegen.loop_schedule import CpuTarget
from transpile.codegen.lower_exprs import literal_expr, op_expr

from conftest import assert_same

F64, I64, I32 = np.dtype(np.float64), np.dtype(np.int64), np.dtype(np.int32)
MANY = kernel_sharing.LIFT_MIN_KERNELS
FUNCTION = "static __attribute__((noinline)) void "


def add_kernel(i, n, offset, constant=None):
    """out_i[j] = a_i[j + offset] + constant over j < n, on buffers of their own."""
    a = Buffer(f"a{i}", (n + abs(offset) + 1,), F64, "input", order=i)
    out = Buffer(f"out{i}", (n,), F64, "temp", order=i)
    load = Expr("load", (a, Affine((1,), offset)), F64)
    constant = literal_expr(2.0, F64) if constant is None else constant
    value = op_expr("add", (load, constant if constant.dtype == F64 else
                            Expr("cast", (constant,), F64)), (F64, F64), F64)
    return LoopKernel((n,), out, Affine((1,), 0), value)


def share(kernels):
    plans = {i: CpuTarget.plan(k) for i, k in enumerate(kernels)}
    return kernel_sharing.share(kernels, plans, lambda b: (b.dtype, False, False))


def test_kernels_differing_in_constants_become_one_function():
    sharing = share([add_kernel(i, 5 + i, 1) for i in range(MANY)])
    (function,) = sharing.functions.values()
    assert function.function == 0
    assert function.constants == (KernelConstant("tp_k0"),)
    assert function.extents == {0: function.constants[0]}     # the trip count is passed
    # the offset (1 in every kernel) stays in the index; the extent is the parameter
    assert function.kernel.value.args[1][0].args[1] == Affine((1,), 1)
    assert [sharing.calls[i].values for i in range(MANY)] == [(5 + i,) for i in range(MANY)]
    assert [b.name for b in sharing.calls[3].buffers] == ["out3", "a3"]


def test_an_offset_becomes_a_parameter_of_the_index():
    sharing = share([add_kernel(i, 5, 2 + i) for i in range(MANY)])
    (function,) = sharing.functions.values()
    index = function.kernel.value.args[1][0].args[1]
    ((var, multiplier),) = index.dyn
    assert index.const == 0 and multiplier == 1 and var.kind == "var" and var.dtype == I64
    assert var.args == ("tp_k0",) and function.extents == {}
    assert sharing.calls[5].values == (7,)


def test_a_few_kernels_keep_their_constants():
    assert share([add_kernel(i, 5 + i, 1) for i in range(MANY - 1)]).functions == {}


def test_two_constants_varying_together_are_one_parameter():
    sharing = share([add_kernel(i, 5 + i, 5 + i) for i in range(MANY)])
    (function,) = sharing.functions.values()
    assert len(function.constants) == 1 and sharing.calls[1].values == (6,)


def test_the_same_kernels_share_without_parameters():
    sharing = share([add_kernel(0, 5, 1), add_kernel(3, 5, 1), add_kernel(4, 6, 1)])
    assert list(sharing.functions) == [0] and sharing.functions[0].constants == ()
    assert sharing.calls[1].function == 0 and sharing.calls[1].values == ()
    assert 2 not in sharing.calls          # a different length, and too few to lift


def test_what_is_never_lifted():
    # a float literal is part of the structure: kernels adding 2.0, 3.0, ... do not group
    floats = [add_kernel(i, 5, 1, literal_expr(2.0 + i, F64)) for i in range(MANY)]
    assert share(floats).functions == {}
    # an integer literal of a type other than int64 neither
    int32s = [add_kernel(i, 5, 1, literal_expr(7 + i, I32)) for i in range(MANY)]
    assert share(int32s).functions == {}
    # an int64 literal is: the dtype of the expression it is in says it is an int64
    int64s = [add_kernel(i, 5, 1, literal_expr(7 + i, I64)) for i in range(MANY)]
    (function,) = share(int64s).functions.values()
    (cast,) = [e for e in function.kernel.value.args[1] if e.kind == "cast"]
    assert cast.args[0].kind == "var" and cast.args[0].args == ("tp_k0",)
    # a different operation is a different kernel
    mul = add_kernel(1, 5, 1)
    mul.value = op_expr("mul", mul.value.args[1], (F64, F64), F64)
    assert share([add_kernel(0, 5, 1), mul]).calls == {}
    # a loop of one is never grouped with longer loops (it is not split across threads)
    # (the other seven, identical, still share one function)
    sharing = share([add_kernel(i, 1 + 2 * (i == 0), 1) for i in range(MANY)])
    assert 0 not in sharing.calls and sharing.calls[7].function == 1
    assert sharing.functions[1].constants == ()


def test_a_reduction_passes_its_length():
    def dot(i, n):
        a = Buffer(f"a{i}", (n,), F64, "input", order=i)
        out = Buffer(f"s{i}", (), F64, "temp", order=i)
        x = Expr("load", (a, Affine((1,), 0)), F64)
        return ReduceKernel((), (n,), out, "sum", op_expr("mul", (x, x), (F64, F64), F64))
    sharing = share([dot(i, 3 + i) for i in range(MANY)])
    (function,) = sharing.functions.values()
    assert list(function.extents) == [0] and sharing.calls[7].values == (10,)


def growing_dots(r):
    """durbin's shape: each step reads a longer slice, so each step's kernels differ in
    their lengths and offsets only."""
    y = tnp.zeros_like(r)
    alpha = -r[0]
    y = y.at[0].set(alpha)
    for k in range(1, r.shape[0]):
        alpha = -(r[k] + tnp.dot(tnp.flip(r[:k]), y[:k])) / 2.0
        y = y.at[:k].add(alpha * tnp.flip(y[:k]))
        y = y.at[k].set(alpha)
    return y


def growing_dots_numpy(r):
    y = np.zeros_like(r)
    y[0] = -r[0]
    for k in range(1, r.shape[0]):
        alpha = -(r[k] + np.dot(np.flip(r[:k]), y[:k])) / 2.0
        y[:k] += alpha * np.flip(y[:k])
        y[k] = alpha
    return y


@pytest.mark.parametrize("n", [2, 24])
def test_an_unrolled_loop_compiles_to_a_few_functions(n, cache_dir):
    r = np.linspace(0.1, 0.9, n)
    fun = tp.jit(growing_dots)
    source = fun.lower(r).source
    functions = source.count(FUNCTION)
    if n > 2:
        assert functions < 12 < 3 * n, functions
        assert "const int64_t tp_k0" in source
    assert_same(fun(r), growing_dots_numpy(r), rtol=1e-12)


def test_a_long_entry_is_not_scheduled_twice(cache_dir, monkeypatch):
    """An entry of thousands of calls: gcc's second scheduling pass (quadratic in a block's
    length) is turned off for it alone; a short entry keeps the defaults. (The threshold is
    lowered here so that a short loop has a 'long' entry.)"""
    from transpile.codegen import c_render
    r = np.linspace(0.1, 0.9, 12)
    assert "no-schedule-insns2" not in tp.jit(growing_dots).lower(r).source
    monkeypatch.setattr(c_render, "LONG_ENTRY_LINES", 20)
    fun = tp.jit(growing_dots)
    source = fun.lower(r).source
    entry = source[source.index("/* Entry point"):]
    assert entry.splitlines()[1:4] == [
        "#if defined(__GNUC__) && !defined(__clang__)",
        '__attribute__((optimize("no-schedule-insns2")))', "#endif"]
    assert_same(fun(r), growing_dots_numpy(r), rtol=1e-12)


def test_coefficients_never_spelled_are_no_part_of_the_kernel():
    """A (1, n) nest stores at n * i0 + i1: merged into one loop, only i1's coefficient is
    spelled, and unmerged, i0 is always 0; either way rows of different lengths are one
    kernel (syrk's row updates)."""
    def row(i, n):
        a = Buffer(f"a{i}", (1, n), F64, "input", order=i)
        out = Buffer(f"out{i}", (1, n), F64, "temp", order=i)
        value = Expr("load", (a, Affine((n, 1), 0)), F64)
        return LoopKernel((1, n), out, Affine((n, 1), 0), op_expr("neg", (value,), (F64,), F64))
    sharing = share([row(i, 3 + i) for i in range(MANY)])
    (function,) = sharing.functions.values()
    assert sharing.calls[2].values == (5,) and len(function.constants) == 1
    # a coefficient that is spelled still tells kernels apart
    strided = [row(i, 3) for i in range(MANY)]
    strided[1].store = Affine((3, 2), 0)
    assert 1 not in share(strided).calls


def syrk_rows(alpha, C, A):
    for i in range(A.shape[0]):
        for k in range(A.shape[1]):
            C = C.at[i, :i + 1].set(C[i, :i + 1] + alpha * A[i, k] * A[:i + 1, k])
    return C


def test_growing_rows_of_a_matrix_share_functions(cache_dir):
    rng = np.random.default_rng(0)
    C, A = rng.random((12, 12)), rng.random((12, 3))
    fun = tp.jit(syrk_rows)
    assert fun.lower(1.5, C, A).source.count(FUNCTION) < 12       # 36 updates
    expected = C.copy()
    for i in range(12):
        for k in range(3):
            expected[i, :i + 1] += 1.5 * A[i, k] * A[:i + 1, k]
    assert_same(fun(1.5, C, A), expected, rtol=1e-12)
