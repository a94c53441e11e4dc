"""`Lowered.export`: one specialisation as a standalone C library that needs no Python.

The folder holds NAME.c (the C renderer's usual output, its entry made `static` and renamed
NAME_impl, then the constants and a typed wrapper `int NAME(const T *in..., T *out...)`),
NAME.h (that prototype, each argument's shape and dtype, the IR), the runtime headers the
code includes (copied), and a Makefile building libNAME.so and libNAME.a with cc + OpenMP.
Nothing in it names a path of the machine that wrote it.
"""
from __future__ import annotations

import dataclasses
import os
import re

import numpy as np

from . import __version__, dtypes
from .backends.compiled_backend import function_name
from .backends.cpu import prepare_c
from .codegen.c_comment import comment_text
from .codegen.c_ops import C_TYPE, render_literal
from .codegen.c_render import CRenderer
from .pytree import tree_leaf_paths, tree_unflatten
from .runtime import INCLUDE_DIR

ERROR_CODES = (("OK", 0, "success"),
               ("ERROR_NOMEM", 1, "a temporary buffer could not be allocated"))

# Names a C parameter may not take: keywords, and macros/functions of the headers included.
_C_RESERVED = frozenset("""
    auto break case char const continue default do double else enum extern float for goto if
    inline int long register restrict return short signed sizeof static struct switch typedef
    union unsigned void volatile while bool true false memcpy malloc free status
    NAN INFINITY errno""".split())
_FLAGS_KEEPING_NUMPY_RESULTS = ("-std=c11", "-fopenmp", "-fPIC", "-ffp-contract=off",
                                "-fno-math-errno", "-fno-trapping-math")
_DEFAULT_CFLAGS = ("-O3", "-march=native", "-Wall", "-Wextra", "-Wno-type-limits")


class _StaticEntryRenderer(CRenderer):
    """The C renderer unchanged, except that its entry is private to the exported file and
    the runtime kernels it calls are compiled into it (their headers copied beside it): the
    library stands alone, without transpile's runtime library."""
    entry_qualifier = "static "
    uses_runtime_library = False


@dataclasses.dataclass(frozen=True)
class Argument:
    """One pointer parameter of the exported function."""
    name: str          # the C parameter name
    python: str        # where it comes from in Python: "x", "xs[0]", "result['mean']"
    shape: tuple
    dtype: np.dtype

    @property
    def c_type(self) -> str:
        return C_TYPE[self.dtype]

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    def describe(self) -> str:
        dims = ", ".join(map(str, self.shape))
        count = "1 element" if self.size == 1 else f"{self.size} elements"
        return f"{self.dtype.name}[{dims}] ({count})"


@dataclasses.dataclass(frozen=True)
class ExportedLibrary:
    """What `Lowered.export` wrote: the folder, the function name, and the file names."""
    directory: str
    name: str
    files: tuple
    inputs: tuple
    outputs: tuple


def export(lowered, directory: str, name: str | None = None) -> ExportedLibrary:
    """Write `lowered` as a self-contained C library into `directory` (created if needed)."""
    name = check_name(name or getattr(lowered.fun, "__name__", "") or "transpiled")
    origin = _portable_origin(lowered.fun)
    prepared = prepare_c(lowered.ir, lowered.consts, origin, lowered.signature,
                         entry=f"{name}_impl", renderer_class=_StaticEntryRenderer,
                         arg_names=lowered.leaf_paths, function=function_name(lowered.fun))
    # Parameter names must not shadow what the wrapper calls.
    taken = {name, f"{name}_impl"} | {f"{name}_{b.name}" for b in prepared.program.inputs}
    inputs = _input_arguments(lowered, taken)
    outputs = _output_arguments(lowered, taken)
    headers = sorted(_included_headers(prepared.headers))
    files = {
        f"{name}.h": render_header(name, origin, lowered, prepared.ir, inputs, outputs),
        f"{name}.c": render_source(name, prepared, inputs, outputs),
        "Makefile": render_makefile(name, headers),
    }
    for header in headers:
        with open(os.path.join(INCLUDE_DIR, header)) as f:
            files[header] = f.read()
    os.makedirs(directory, exist_ok=True)
    for file_name, text in files.items():
        with open(os.path.join(directory, file_name), "w") as f:
            f.write(text)
    return ExportedLibrary(os.path.abspath(directory), name, tuple(sorted(files)),
                           tuple(inputs), tuple(outputs))


# -- names ------------------------------------------------------------------------------------

def check_name(name: str) -> str:
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) or name in _C_RESERVED:
        raise ValueError(f"export name {name!r} is not usable as a C function name; use "
                         "letters, digits and underscores, not starting with a digit")
    if name == "main" or os.path.isfile(os.path.join(INCLUDE_DIR, f"{name}.h")):
        raise ValueError(f"export name {name!r} is taken (by C's main or a runtime header); "
                         "choose another")
    return name


def _c_identifier(python_path: str, taken: set) -> str:
    """A C parameter name for a Python leaf path: "xs[0]" -> xs_0, "p['w']" -> p_w."""
    base = re.sub(r"\W+", "_", python_path).strip("_") or "arg"
    if base[0].isdigit() or base in _C_RESERVED or base.lower().startswith("tp_") \
            or base.endswith("_t"):
        base = f"arg_{base}"
    candidate, k = base, 1
    while candidate in taken:
        candidate, k = f"{base}_{k}", k + 1
    taken.add(candidate)
    return candidate


def _portable_origin(fun) -> str:
    """'selu (model.py:12)': the function and its file's base name, never a full path."""
    name = getattr(fun, "__qualname__", None) or getattr(fun, "__name__", None) or "function"
    code = getattr(fun, "__code__", None)
    where = f" ({os.path.basename(code.co_filename)}:{code.co_firstlineno})" if code else ""
    return comment_text(f"{name}{where}")


# -- arguments --------------------------------------------------------------------------------

def _input_arguments(lowered, taken: set) -> list[Argument]:
    # The description lists each traced leaf by path, in the order of the avals.
    paths = [p for p in lowered.description if not str(p).startswith("static ")]
    if len(paths) != len(lowered.in_avals):
        paths = [f"arg{i}" for i in range(len(lowered.in_avals))]
    return [Argument(_c_identifier(path, taken), path, aval.shape, np.dtype(aval.dtype))
            for path, aval in zip(paths, lowered.in_avals)]


def _output_arguments(lowered, taken: set) -> list[Argument]:
    avals = [atom.aval for atom in lowered.ir.outvars]
    try:
        tree = tree_unflatten(lowered.out_tree, list(range(len(avals))))
        paths = tree_leaf_paths(tree, "result")
    except Exception:        # a container whose constructor rejects placeholders
        paths = []
    if len(paths) != len(avals):
        paths = [f"result leaf {i}" for i in range(len(avals))]
    names = [_c_identifier(f"out{i}", taken) for i in range(len(avals))]
    return [Argument(n, p, a.shape, np.dtype(a.dtype)) for n, p, a in zip(names, paths, avals)]


def _prototype(name: str, inputs, outputs) -> str:
    params = [f"const {a.c_type} *{a.name}" for a in inputs]
    params += [f"{a.c_type} *{a.name}" for a in outputs]
    return f"int {name}({', '.join(params) or 'void'})"


# -- NAME.h -----------------------------------------------------------------------------------

def render_header(name, origin, lowered, ir, inputs, outputs) -> str:
    guard = f"{name.upper()}_H_TRANSPILE"
    width = max([len(a.name) for a in inputs + outputs] + [4])
    doc = [f"/* {name}.h: generated by transpile {__version__} from {origin}.",
           " *",
           f" * {_prototype(name, inputs, outputs)};",
           " *",
           " * Every argument is a pointer to a C-contiguous (row-major) array; 0-d arrays are",
           " * one element. Inputs are only read. Outputs are written in full and must not",
           " * overlap the inputs or each other. Calls share no state (OpenMP threads inside).",
           " *",
           " * inputs:"]
    doc += [f" *   {a.name:<{width}}  {a.describe()}  <- {comment_text(a.python)}"
            for a in inputs] or [" *   (none)"]
    doc += [" * outputs (the result's leaves in flattened order):"]
    doc += [f" *   {a.name:<{width}}  {a.describe()}  -> {comment_text(a.python)}"
            for a in outputs] or [" *   (none)"]
    statics = [f"{str(k).removeprefix('static ')} = {v}"
               for k, v in lowered.description.items() if str(k).startswith("static ")]
    if statics:
        doc += [" * static arguments, fixed at export:"]
        doc += [f" *   {comment_text(s)}" for s in statics]
    doc += [" * returns:"]
    doc += [f" *   {name.upper()}_{code} ({value}): {what}" for code, value, what in ERROR_CODES]
    doc += [" *",
            f" * Build: make (libraries lib{name}.so and lib{name}.a). Link: cc app.c -I. -L.",
            f" *   -l{name} -fopenmp -lm (with the .a, add -fopenmp and -lm the same way).",
            " *",
            " * IR (after simplification):"]
    doc += [" *   " + comment_text(line) for line in str(ir).splitlines()]
    doc += [" */"]
    body = [f"#ifndef {guard}", f"#define {guard}", "",
            "#include <stdbool.h>", "#include <stdint.h>", "",
            "#ifdef __cplusplus", 'extern "C" {', "#endif", ""]
    body += [f"#define {name.upper()}_{code} {value}" for code, value, _ in ERROR_CODES]
    if any(dtypes.is_half(a.dtype) for a in (*inputs, *outputs)):
        body += ["", *HALF_TYPEDEFS]
    body += ["", f"{_prototype(name, inputs, outputs)};", "",
             "#ifdef __cplusplus", "}", "#endif", "", f"#endif /* {guard} */"]
    return "\n".join(doc + body) + "\n"


# 16-bit floats cross the interface as their bit patterns (convert with NumPy's
# .view(np.uint16), or any IEEE binary16 / bfloat16 routine); tp_half.h repeats these lines.
HALF_TYPEDEFS = ["#ifndef TP_HALF_TYPES", "#define TP_HALF_TYPES",
                 "typedef uint16_t tp_f16;   /* float16: its IEEE binary16 bit pattern */",
                 "typedef uint16_t tp_bf16;  /* bfloat16: the top 16 bits of a float32 */",
                 "#endif"]


# -- NAME.c -----------------------------------------------------------------------------------

def render_source(name, prepared, inputs, outputs) -> str:
    program = prepared.program
    # The header comes after the generated code, so the compiler checks the wrapper against
    # the prototype users will include.
    parts = [prepared.source.rstrip(), "", f'#include "{name}.h"', ""]
    consts = [b for b in program.inputs if b.role == "const"]
    for buf, value in zip(consts, prepared.consts):
        parts.append(_constant_array(f"{name}_{buf.name}", buf.dtype, value))
    parts.append(_wrapper(name, program, inputs, outputs, [f"{name}_{b.name}" for b in consts]))
    return "\n".join(parts) + "\n"


def _constant_array(c_name: str, dtype, value) -> str:
    flat = np.asarray(value, dtype=dtype).ravel()
    literals = [render_literal(v, dtype) for v in flat.tolist()] or ["0"]
    rows = [", ".join(literals[i:i + 8]) for i in range(0, len(literals), 8)]
    body = ",\n    ".join(rows)
    return (f"/* A constant captured when the function was traced. */\n"
            f"static const {C_TYPE[dtype]} {c_name}[{len(literals)}] = {{\n    {body}\n}};\n")


def _wrapper(name, program, inputs, outputs, const_names) -> str:
    """The exported function: typed pointers in, the renderer's entry called, and outputs
    that the entry does not write (an input returned as is, a literal, a repeated value)
    filled in afterwards."""
    buffer_owner: dict[int, Argument] = {}
    finish = []
    for out, (kind, value) in zip(outputs, program.output_sources):
        if kind == "buffer" and value not in buffer_owner:
            buffer_owner[value] = out
        elif kind == "buffer":
            finish.append(_copy(out, buffer_owner[value].name, "the same value as "
                                + buffer_owner[value].name))
        elif kind == "input":
            source = inputs[value - len(const_names)]
            finish.append(_copy(out, source.name, f"input {source.name} returned as is"))
        else:
            finish.append(_fill(out, value))
    pointers = [f"(void *){c}" for c in const_names]
    pointers += [f"(void *){a.name}" for a in inputs]
    pointers += [f"(void *){buffer_owner[i].name}" for i in range(len(program.outputs))]
    lines = ["/* The exported entry point (see the header). */",
             _prototype(name, inputs, outputs) + " {",
             f"    int status = {name}_impl({', '.join(pointers)});",
             "    if (status != 0) return status;"]
    lines += [f"    {line}" for line in finish if line]
    lines += [f"    return {name.upper()}_OK;", "}"]
    return "\n".join(lines)


def _copy(out: Argument, source: str, why: str) -> str:
    if out.size == 0:
        return ""
    return f"memcpy({out.name}, {source}, sizeof({out.c_type}) * {out.size});  /* {why} */"


def _fill(out: Argument, value) -> str:
    literal = render_literal(np.asarray(value).item(), out.dtype)
    if out.size == 1:
        return f"{out.name}[0] = {literal};  /* a constant result */"
    return (f"for (int64_t i = 0; i < {out.size}; i++) {out.name}[i] = {literal};"
            "  /* a constant result */")


# -- headers and Makefile ---------------------------------------------------------------------

def _included_headers(headers) -> set[str]:
    """The runtime `headers` the generated source includes, and the ones those include (read
    from the runtime's own header files), by file name."""
    found: set[str] = set()
    pending = list(headers)
    while pending:
        header = pending.pop()
        path = os.path.join(INCLUDE_DIR, header)
        if header in found or not os.path.isfile(path):
            continue
        found.add(header)
        with open(path) as f:
            pending += re.findall(r'#include "([^"]+)"', f.read())
    return found


def render_makefile(name: str, headers) -> str:
    return f"""\
# Builds lib{name}.so and lib{name}.a from {name}.c (generated by transpile {__version__}).
# Override CC, CFLAGS (optimisation and warnings) or AR as usual: make CC=clang CFLAGS=-O2
# TP_CFLAGS keeps NumPy's results (C11, OpenMP, no FP contraction); do not drop it.
CFLAGS ?= {' '.join(_DEFAULT_CFLAGS)}
TP_CFLAGS = {' '.join(_FLAGS_KEEPING_NUMPY_RESULTS)} -I.
LDLIBS = -fopenmp -lm

all: lib{name}.so lib{name}.a

{name}.o: {name}.c {name}.h {' '.join(headers)}
\t$(CC) $(CFLAGS) $(TP_CFLAGS) -c {name}.c -o $@

lib{name}.so: {name}.o
\t$(CC) -shared $(LDFLAGS) -o $@ {name}.o $(LDLIBS)

lib{name}.a: {name}.o
\t$(AR) rcs $@ {name}.o

clean:
\trm -f {name}.o lib{name}.so lib{name}.a

.PHONY: all clean
"""
