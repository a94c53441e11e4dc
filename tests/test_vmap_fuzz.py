"""vmap on the differential fuzzer's random programs (tests/fuzz): every program, mapped over
a batch of two input sets (its own inputs and a shuffle of their values), equals the program
run on each set alone — same dtypes, shapes and values. Python-number inputs stay unmapped
(in_axes None), as their weak typing is part of the program."""
import os
import sys

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fuzz import generate, oracle  # noqa: E402

EAGER_SEEDS = range(300_000, 300_400)
JIT_SEEDS = range(300_000, 300_024)


def _shuffled(x, rng):
    flat = np.asarray(x).ravel().copy()
    rng.shuffle(flat)
    return flat.reshape(np.shape(x))


def batched_program(seed):
    """(function, batched inputs, in_axes, the per-member inputs) for one fuzz program."""
    case = oracle.prepare(generate.program(seed))
    rng = np.random.default_rng(seed)
    members = [case.prog.inputs, [_shuffled(x, rng) if isinstance(x, np.ndarray) else x
                                  for x in case.prog.inputs]]
    in_axes = tuple(0 if isinstance(x, np.ndarray) else None for x in case.prog.inputs)
    batched = [np.stack([a, b]) if ax == 0 else a for a, b, ax in zip(*members, in_axes)]

    def program(*args):
        return oracle._run_body(case, args, fused=False)
    return program, batched, in_axes, members


def per_member(program, members):
    outs = []
    for inputs in members:
        args = [tnp.asarray(x) if isinstance(x, np.ndarray) else x for x in inputs]
        outs.append([np.asarray(o) for o in program(*args)])
    return [np.stack(vals) for vals in zip(*outs)]


def check(seed, actual, expected, what):
    assert len(actual) == len(expected), what
    for k, (a, e) in enumerate(zip(actual, expected)):
        a = np.asarray(a)
        where = f"seed {seed} value {k} ({what})"
        assert a.dtype == e.dtype and a.shape == e.shape, \
            f"{where}: {a.dtype}{a.shape} != {e.dtype}{e.shape}"
        if e.dtype.kind in "fc":
            np.testing.assert_allclose(a, e, rtol=1e-5, atol=1e-6, equal_nan=True, err_msg=where)
        else:
            np.testing.assert_array_equal(a, e, err_msg=where)


def _run(seed, jit) -> bool:
    """Check one program; False if it raises on its own inputs (nothing to compare)."""
    handles = generate.quiet()
    try:
        program, batched, in_axes, members = batched_program(seed)
        try:
            expected = per_member(program, members)
        except Exception:          # NumPy rejects the program on these values
            return False
        f = tp.vmap(program, in_axes=in_axes)
        check(seed, (tp.jit(f) if jit else f)(*batched), expected, "jit" if jit else "eager")
        return True
    finally:
        generate.unquiet(handles)


@pytest.mark.parametrize("block", range(0, len(EAGER_SEEDS), 40))
def test_vmap_of_fuzz_programs_eagerly(block):
    checked = [_run(seed, jit=False) for seed in list(EAGER_SEEDS)[block:block + 40]]
    assert sum(checked) >= 30, f"only {sum(checked)} of 40 programs could be checked"


@pytest.mark.parametrize("seed", JIT_SEEDS)
def test_vmap_of_fuzz_programs_under_jit(seed):
    if not _run(seed, jit=True):
        pytest.skip("NumPy rejects this program on its inputs (nothing to compare)")
