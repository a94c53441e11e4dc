"""What the recorders of JAX case tables share (tools/record_jax_extras.py, record_jax_laxapi.py,
record_jax_laxgaps.py, record_jax_lax_leftovers.py; tests/recorded_cases.py reads what they
write): each case of tests/jax_*_cases.py run with JAX, x64 on, its result stored as a list of
pytree leaves, each with its dtype, shape and values (complex as [real, imaginary] pairs,
floats to a given number of significant digits; NaN and infinities as JSON's non-standard
tokens, which Python's json reads); a case that raises, where the table has such cases, as the
error's type and message. The file holds {"jax_version": ..., "cases": {name: ...}}.

JAX is not a dependency of transpile: the recorders run with a Python that has JAX installed.
Import this module before JAX: it turns x64 on (JAX reads JAX_ENABLE_X64 as it loads) and
puts tests/ on the import path, where the case tables live.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Callable, Sequence

os.environ.setdefault("JAX_ENABLE_X64", "1")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))

import jax  # noqa: E402  (after JAX_ENABLE_X64 is set)
import numpy as np  # noqa: E402


def leaf(x, digits: int) -> dict:
    """One result array as stored: floats rounded to `digits` significant digits (17
    round-trips float64)."""
    x = np.asarray(x)
    values = np.stack([x.real, x.imag], -1) if np.iscomplexobj(x) else x
    if values.dtype.kind == "f":
        values = np.vectorize(lambda v: float(f"{v:.{digits}g}"), otypes=[float])(values)
    return {"dtype": str(x.dtype), "shape": list(x.shape), "values": values.tolist()}


def record_cases(groups: Sequence[Callable], modules: tuple, digits: int,
                 refusal: Callable[[str], str] | None) -> dict:
    """name -> the stored result of every case of `groups` (each built from `modules`, its
    cases run in name order). refusal: how a raised error's message is stored; None for a
    table whose cases all return, so that an error stops the recording."""
    out = {}
    for group in groups:
        for name, (make, args, _) in sorted(group(*modules).items()):
            try:
                result = make(*args)
            except Exception as e:          # noqa: BLE001 (the error is what is recorded)
                if refusal is None:
                    raise
                out[name] = {"error": type(e).__name__, "message": refusal(str(e))}
                continue
            out[name] = [leaf(x, digits) for x in jax.tree_util.tree_leaves(result)]
    return out


def main(default_path: str, groups: Sequence[Callable], modules: tuple, *, digits: int = 17,
         refusal: Callable[[str], str] | None = str):
    """Record `groups` into the path given on the command line (default `default_path`)."""
    parser = argparse.ArgumentParser(description=sys.modules["__main__"].__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("path", nargs="?", default=default_path,
                        help=f"the JSON file to write (default {default_path})")
    path = parser.parse_args().path
    if not jax.config.jax_enable_x64:
        raise SystemExit("run with JAX_ENABLE_X64=1")
    cases = record_cases(groups, modules, digits, refusal)
    with open(path, "w") as f:
        json.dump({"jax_version": jax.__version__, "cases": cases}, f, sort_keys=True)
        f.write("\n")
