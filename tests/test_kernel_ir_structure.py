"""The kernel IR (codegen/kernel_ir.py) is structure only: no target text.

Lowering builds loop nests, buffer and scalar references and helper calls as (operation,
dtype); each renderer spells them. These tests walk the lowered Program of programs that
reach every kind of kernel and statement (tests/kernel_ir_programs.py) and fail if any field
holds C text (an address expression, a helper's C name, a cast, an index), and check that
the lowering modules do not import a renderer's module, which is where C text comes from.
"""
from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import numpy as np
import pytest

from kernel_ir_programs import PROGRAMS, lowered
from transpile.codegen.c_ops import C_TYPE
from transpile.codegen.kernel_ir import (HELPER_OPERATIONS, Affine, Buffer, Expr, HelperKernel,
                                         LoopKernel, Program, walk)
from transpile.codegen.loop_schedule import CpuTarget, CudaTarget
from transpile.codegen.names import function_stem, kernel_names

CODEGEN = Path(__file__).resolve().parents[1] / "transpile" / "codegen"
# The modules that build or transform the kernel IR; the renderers (c_*.py, cuda_render.py)
# read it. Structure flows one way: none of these may import a renderer's module.
STRUCTURE_MODULES = ("kernel_ir", "lower", "lower_control", "lower_exprs", "lower_helpers",
                     "lower_updates", "interchange", "schedule", "buffers", "loop_ranges",
                     "loop_nest", "names")
RENDERER_MODULES = {"c_ops", "c_expr", "c_render", "c_reductions", "c_comment", "cuda_render"}
# Fields that hold prose for a reader (kernel comments, Python source locations) or the
# Python side's own data (a debug print's format string), never spelled as code.
PROSE_FIELDS = {"comment", "source", "effects"}
C_TYPE_NAMES = set(C_TYPE.values()) | {"int", "char", "void", "size_t"}


def _text_problem(text: str) -> str | None:
    """Why `text`, found in the IR, is target text (None: a name, an operation, a role, or
    nothing: an empty field)."""
    if not text:
        return None
    if not text.isidentifier():
        return "not a plain name (an expression or a C spelling)"
    if text.startswith("tp_") or text.endswith("_t"):
        return "a runtime helper's or C type's name"
    if text in C_TYPE_NAMES:
        return "a C type"
    return None


def _strings(value, path: str, seen: set):
    """(path, string) for every string reachable from `value` outside prose fields."""
    if isinstance(value, str):
        yield path, value
        return
    if isinstance(value, (int, float, complex, bool, np.generic, np.dtype, bytes, type(None))):
        return
    if id(value) in seen:
        return
    seen.add(id(value))
    if isinstance(value, Expr):
        for k, node in enumerate(walk(value)):
            yield from _strings(node.kind, f"{path}.expr{k}.kind", seen)
            yield from _strings(node.args, f"{path}.expr{k}.args", seen)
        return
    if isinstance(value, Affine):
        yield from _strings(value.dyn, f"{path}.dyn", seen)
        return
    if dataclasses.is_dataclass(value):
        for field in dataclasses.fields(value):
            if field.name not in PROSE_FIELDS:
                yield from _strings(getattr(value, field.name), f"{path}.{field.name}", seen)
        return
    if isinstance(value, (list, tuple)):
        for k, item in enumerate(value):
            yield from _strings(item, f"{path}[{k}]", seen)
        return
    if isinstance(value, np.ndarray):     # a literal output: a value, not text
        return
    raise AssertionError(f"{path}: unexpected {type(value).__name__} in the kernel IR")


def _program(name: str, backend: str = "cpu") -> Program:
    return lowered(name, backend)._prepared.program


# The CUDA backend lowers with its own limits (CudaRenderer.max_fused_height) and schedules
# with CudaTarget; every program but the FFT (whose run-time helper is host code: refused,
# see test_the_cuda_schedule_refuses_host_only_helpers) is checked on both paths.
CASES = [(name, "cpu") for name in sorted(PROGRAMS)] + \
    [(name, "cuda") for name in sorted(PROGRAMS) if name != "fft"]


@pytest.mark.parametrize("name,backend", CASES)
def test_no_field_of_the_kernel_ir_holds_target_text(name, backend, monkeypatch):
    monkeypatch.setenv("TRANSPILE_CUDA_EMULATE", "1")
    program = _program(name, backend)
    # The entry's symbol is the caller's choice (the backend's, or an export's name).
    strings = [(path, text) for path, text in _strings(program, "program", set())
               if path != "program.name"]
    assert len(strings) > 3       # buffer names, roles, expression kinds, operations...
    # The schedule's plans, for the target that renders them, are structure too.
    target = CudaTarget if backend == "cuda" else CpuTarget
    plans = [plan for _, plan in sorted(target.schedule(program).items())]
    strings += list(_strings(plans, "plans", set()))
    problems = [f"{path} = {text!r}: {why}" for path, text in strings
                if (why := _text_problem(text))]
    assert not problems, "\n".join(problems)


def test_the_cuda_schedule_refuses_host_only_helpers(monkeypatch):
    """The FFT's helper has no device form: the CUDA schedule says so, naming the way out."""
    monkeypatch.setenv("TRANSPILE_CUDA_EMULATE", "1")
    program = _program("fft")           # lowered for the CPU: the same kernels
    with pytest.raises(NotImplementedError, match="jnp.fft has no CUDA kernel.*backend='cpu'"):
        CudaTarget.schedule(program)


def test_the_walk_finds_text_where_there_is_some():
    """The check above can fail: a view spelled as a pointer expression, a helper spelled by
    its C name and a load by a C index are each reported."""
    buf = Buffer("t0", (4,), np.dtype(np.float64), "temp")
    bad = Program("f", [], [], [buf], [HelperKernel("tp_scatter_add_f64", buf.dtype, [buf], [])],
                  [], views=[Buffer("(t0 + it0 * 4)", (4,), buf.dtype, "view")])
    found = [why for _, text in _strings(bad, "p", set()) if (why := _text_problem(text))]
    assert len(found) == 2
    assert _text_problem("t3[0]") and _text_problem("(double)") and _text_problem("double")
    assert _text_problem("a->b") and not _text_problem("scatter_add")


def test_helper_calls_are_operations_the_ir_declares():
    """Helper kernels name an operation (HELPER_OPERATIONS), and a dtype, never a function."""
    ops = set()
    for name in ("scatter", "linalg", "fft"):
        for kernel in _program(name).kernels:
            if isinstance(kernel, HelperKernel):
                assert kernel.operation in HELPER_OPERATIONS, kernel.operation
                ops.add(kernel.operation)
    assert {"scatter_add", "scatter_max", "solve", "cholesky", "det", "fft_r2c"} <= ops


def test_scan_steps_are_views_of_their_stacked_buffers():
    """A scan's x and y of one step are views: a base buffer and a step offset (the loop's
    variable, the row's stride, reversed or not), not an address expression."""
    program = _program("scan")
    assert {v.shape for v in program.views} == {(8,), ()}      # x rows; y scalars
    for view in program.views:
        assert view.role == "view" and view.of is not None and view.offset is not None
        assert view.root.role in ("input", "output", "temp")
        assert view.offset.stride == view.size and view.offset.reverse_length == 6
        assert view.offset.var.isidentifier()


def test_loads_reference_buffers_not_names():
    program = _program("elementwise")
    loads = [e for k in program.kernels for e in walk(k.value) if e.kind == "load"]
    assert loads and all(isinstance(e.args[0], Buffer) for e in loads)
    assert {e.args[0].role for e in loads} == {"input"}


def _imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
            found.add(node.module.split(".")[0])
        elif isinstance(node, ast.ImportFrom) and node.level == 1:
            found |= {a.name for a in node.names}
    return found


@pytest.mark.parametrize("module", STRUCTURE_MODULES)
def test_lowering_imports_no_renderer(module):
    bad = _imports(CODEGEN / f"{module}.py") & RENDERER_MODULES
    assert not bad, f"codegen/{module}.py imports renderer module(s) {sorted(bad)}"


# -- names from the Python source ---------------------------------------------------------------

def test_buffers_take_the_python_names_of_arguments_and_operations():
    program = _program("softmax_f32")
    assert [b.name for b in program.inputs] == ["x"]
    assert [b.name for b in program.temps] == ["max0", "exp0", "sum0"]
    source = lowered("softmax_f32").source
    assert "const float *restrict x, const float *restrict max0, float *restrict exp0" in source


def test_pytree_paths_become_c_names():
    import transpile as tp

    def f(params, xs):
        return params["w"] * xs[0] + params["b"] - xs[1]
    args = ({"w": np.ones(3), "b": np.ones(3)}, (np.ones(3), np.ones(3)))
    program = tp.jit(f).lower(*args)._prepared.program
    names = [b.name for b in program.inputs]
    assert len(set(names)) == 4 and all(n.isidentifier() for n in names)
    assert names == ["params_b", "params_w", "xs_0", "xs_1"]


def test_python_names_never_shadow_generated_ones():
    """An argument named like a generated name (a loop variable, a value, a local of the
    entry, a C keyword or type) gets a trailing underscore, and the program still runs."""
    import transpile as tp

    def f(i0, v0, status, acc, double, x_ptr, int32_t):
        return i0 * v0 + status - acc * double + x_ptr.sum() + int32_t
    args = [np.arange(4.0) + k for k in range(7)]
    lowered_f = tp.jit(f).lower(*args)
    assert [b.name for b in lowered_f._prepared.program.inputs] == [
        "i0_", "v0_", "status_", "acc_", "double_", "x_ptr_", "int32_t_"]
    got = tp.jit(f)(*args)
    np.testing.assert_array_equal(np.asarray(got), f(*args))


def test_kernels_take_the_function_name_and_what_they_write():
    program = _program("softmax_f32")              # def _softmax(x): max, exp, sum, divide
    assert program.kernel_names == ["softmax_max0", "softmax_exp0", "softmax_sum0",
                                    "softmax_out0"]
    source = lowered("softmax_f32").source
    assert "softmax_exp0(x, max0, exp0);" in source and "kernel_0" not in source


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_kernel_names_are_unique_c_names_and_stable(name):
    names = _program(name).kernel_names
    assert len(names) == len(_program(name).kernels) == len(set(names))
    assert all(n.isidentifier() and not n.startswith("tp_") for n in names)
    taken = {b.name for b in _program(name).inputs + _program(name).temps}
    assert not taken & set(names)
    assert _program(name).kernel_names == names      # the same on every lowering


def test_a_buffer_written_twice_or_a_name_taken_is_counted_past():
    buf = Buffer("out0", (3,), np.dtype(np.float64), "output")
    value = Expr("lit", (1.0, b""), buf.dtype)
    kernels = [LoopKernel((3,), buf, Affine.var(0, 1), value) for _ in range(3)]
    assert kernel_names("step", kernels) == ["step_out0", "step_out0_2", "step_out0_3"]
    assert kernel_names("step", kernels[:1], {"step_out0"}) == ["step_out0_2"]


def test_function_names_become_short_c_stems():
    assert function_stem("selu") == "selu" and function_stem("<lambda>") == "lambda"
    assert function_stem("") == "kernel" and function_stem("__call__") == "call"
    assert function_stem("*/ int x; /*") == "kernel"          # not a name: no user text in C
    assert function_stem("tp_step") == "kernel_tp_step"     # the runtime's helpers are tp_*
    assert len(function_stem("a_rather_long_training_step_function_name")) <= 24


def test_kernels_are_named_in_call_order_and_restore_copies_say_so():
    """A loop's body kernels take the plain names; the copies that run only after an odd
    number of carry swaps are `..._restore`."""
    program = _program("while")
    loop = next(st for st in program.body if getattr(st, "swaps", None))
    restores = {swap.restore.kernel for swap in loop.swaps}
    names = program.kernel_names
    assert restores and all(names[k].endswith("_restore") for k in restores)
    body = [st.kernel for st in loop.body if hasattr(st, "kernel")]
    assert body and not any(names[k].endswith(("_restore", "_2")) for k in body)
