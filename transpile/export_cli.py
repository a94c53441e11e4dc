"""`transpile export SCRIPT.py:FUNC --arg x=f32[100000] --arg n=7 -o DIR --name NAME`.

Loads the script as a module (its `if __name__ == "__main__":` block does not run), finds
FUNC (a plain function or a `tp.jit` object), turns each `--arg` into an example argument
(an array spec `dtype[dims]` is traced; a Python literal is a static value), lowers, exports.
"""
from __future__ import annotations

import ast
import importlib.util
import inspect
import os
import re
import sys

import numpy as np

DTYPES = {"bool": np.bool_, "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64,
          "u8": np.uint8, "u16": np.uint16, "u32": np.uint32, "u64": np.uint64,
          "f32": np.float32, "f64": np.float64}
_ARRAY_SPEC = re.compile(r"\s*(\w+)\s*\[([^\]]*)\]\s*")
USAGE_ERROR = 2


class UsageError(Exception):
    """A bad command line: printed as `transpile export: ...`, exit status 2."""


# -- --arg ------------------------------------------------------------------------------------

def parse_arg(text: str):
    """'x=f32[100,3]' -> ('x', zero-stride float32 array of that shape); 'n=7' -> ('n', 7)."""
    name, sep, spec = text.partition("=")
    name = name.strip()
    if not sep or not name.isidentifier():
        raise UsageError(f"--arg {text!r}: expected NAME=SPEC, e.g. x=f32[100] or n=7")
    match = _ARRAY_SPEC.fullmatch(spec)
    if match and match.group(1) in DTYPES:
        return name, _example_array(name, text, match.group(1), match.group(2))
    try:
        return name, ast.literal_eval(spec.strip())
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        pass
    if match:
        raise UsageError(f"--arg {text!r}: unknown dtype {match.group(1)!r} for argument "
                         f"'{name}'; use one of {', '.join(DTYPES)}")
    raise UsageError(f"--arg {text!r}: the value of argument '{name}' is neither an array "
                     f"spec dtype[dims] (dtypes: {', '.join(DTYPES)}; f64[] is 0-d) nor a "
                     "Python literal (a static value such as 7, 0.5, 'mode' or (2, 3))")


def _example_array(name, text, dtype, dims_text):
    dims = [d.strip() for d in dims_text.split(",")] if dims_text.strip() else []
    if not all(re.fullmatch(r"\d+", d) for d in dims):
        raise UsageError(f"--arg {text!r}: the dimensions of argument '{name}' must be "
                         "non-negative integers separated by commas, e.g. f32[64,100]")
    # Only the shape and dtype matter for tracing: a broadcast zero costs no memory.
    return np.broadcast_to(np.zeros((), DTYPES[dtype]), tuple(int(d) for d in dims))


# -- the script and the function ---------------------------------------------------------------

def load_function(target: str):
    script, sep, qualname = target.rpartition(":")
    if not sep or not script or not qualname:
        raise UsageError(f"{target!r}: expected SCRIPT.py:FUNCTION")
    if not os.path.isfile(script):
        raise UsageError(f"{script}: no such file")
    module = _load_module(script)
    obj = module
    for part in qualname.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            raise UsageError(f"{script} defines no {qualname!r}")
    if not callable(obj):
        raise UsageError(f"{script}:{qualname} is a {type(obj).__name__}, not a function")
    return obj


def _load_module(script: str):
    stem = os.path.splitext(os.path.basename(script))[0]
    module_name = stem if stem.isidentifier() and stem not in sys.modules \
        else "_transpile_export_script"
    spec = importlib.util.spec_from_file_location(module_name, script)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    # The script's own imports of its neighbours work as when it runs.
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    spec.loader.exec_module(module)
    return module


def lower_with_args(obj, arg_texts):
    """Lower FUNC with the `--arg` values: literals become static arguments."""
    from .api import Jitted, jit
    values = {}
    for text in arg_texts:
        name, value = parse_arg(text)
        if name in values:
            raise UsageError(f"argument '{name}' is given twice")
        values[name] = value
    fun = obj.fun if isinstance(obj, Jitted) else obj
    static_nums = sorted(obj._sig.static_nums) if isinstance(obj, Jitted) else []
    static_names = set(obj._sig.static_names) if isinstance(obj, Jitted) else set()
    static_names |= {n for n, v in values.items() if not isinstance(v, np.ndarray)}
    for n, v in values.items():
        try:
            hash(None if isinstance(v, np.ndarray) else v)
        except TypeError:
            raise UsageError(f"argument '{n}': a static value must be hashable; write a "
                             f"tuple instead of a {type(v).__name__}") from None
    for n, v in values.items():
        if isinstance(v, np.ndarray) and n in static_names:
            raise UsageError(f"argument '{n}' is static in {fun.__name__}; give it a Python "
                             f"literal (e.g. --arg {n}=7), not an array spec")
    args, kwargs = _bind(fun, values)
    return jit(fun, static_argnums=static_nums, static_argnames=sorted(static_names),
               backend="interpret").lower(*args, **kwargs)


def _bind(fun, values):
    """Positional where the signature allows, so inputs keep the parameters' order."""
    try:
        signature = inspect.signature(fun)
    except (TypeError, ValueError):
        return (), values
    params = signature.parameters
    if not any(p.kind == p.VAR_KEYWORD for p in params.values()):
        for name in values:
            if name not in params:
                raise UsageError(f"--arg {name}=...: {fun.__name__}({', '.join(params)}) has no "
                                 f"parameter '{name}'")
    try:
        bound = signature.bind(**values)
    except TypeError as err:
        names = ", ".join(signature.parameters)
        raise UsageError(f"the --arg values do not fit {fun.__name__}({names}): {err}") from None
    return bound.args, bound.kwargs


# -- the command ------------------------------------------------------------------------------

def export_command(args) -> int:
    from .export import check_name
    try:
        name = args.name or args.target.rpartition(":")[2].split(".")[-1]
        try:
            check_name(name)
        except ValueError as err:
            raise UsageError(str(err)) from None
        obj = load_function(args.target)
        lowered = lower_with_args(obj, args.arg or [])
    except UsageError as err:
        print(f"transpile export: {err}", file=sys.stderr)
        return USAGE_ERROR
    except (TypeError, ValueError, OverflowError) as err:   # tracing rejected the function
        print(f"transpile export: could not trace {args.target}: {err}", file=sys.stderr)
        return 1
    library = lowered.export(args.output, name=name)
    print(f"wrote {', '.join(library.files)} to {args.output}; build with: make -C {args.output}")
    return 0


def add_parser(sub) -> None:
    export = sub.add_parser("export", help="write a function as a standalone C library "
                                           "(NAME.c, NAME.h, headers, Makefile)")
    export.add_argument("target", metavar="SCRIPT.py:FUNC")
    export.add_argument("--arg", action="append", metavar="NAME=SPEC",
                        help="an argument: dtype[dims] for a traced array (bool, i8..i64, "
                             "u8..u64, f32, f64; f64[] is 0-d), or a Python literal for a "
                             "static value (e.g. n=7)")
    export.add_argument("-o", "--output", required=True, metavar="DIR")
    export.add_argument("--name", help="the C function and library name (default: FUNC)")
    export.set_defaults(run=export_command)
