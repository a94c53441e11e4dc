"""Shared by the semantics regression tests: compile a function, call it twice under the C
backend and the interpreter, and compare it with NumPy in values, dtypes and the sign of zero."""
import warnings

import numpy as np

import transpile as tp
from conftest import assert_same
from transpile.codegen.loop_schedule import CpuTarget

THRESHOLD = CpuTarget.parallel_min_elements      # sizes straddle the serial/parallel switch
BACKENDS = ("cpu", "interpret")


def numpy_value(np_fn, *args):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np_fn(*args)


def check(fn, np_fn, *args, backends=BACKENDS):
    """fn (jitted, two calls per backend) matches np_fn exactly, output by output."""
    expected = numpy_value(np_fn, *args)
    for backend in backends:
        jitted = tp.jit(fn, backend=backend)
        for call in range(2):
            got = jitted(*args)
            if isinstance(expected, dict):
                assert set(got) == set(expected)
                for key in expected:
                    assert_same(got[key], expected[key], what=f"{backend} call {call} {key}")
            else:
                assert_same(got, expected, what=f"{backend} call {call}")


AT_OPS = {"set": lambda old, v: v, "add": np.add, "multiply": np.multiply, "min": np.minimum,
          "max": np.maximum}


def numpy_at(x, index, op, value):
    """x.at[index].op(value) in NumPy terms: out-of-range updates are dropped (as in JAX)."""
    out = x.copy()
    try:
        old = out[index]
    except IndexError:
        return out
    out[index] = AT_OPS[op](old, value)
    return out
