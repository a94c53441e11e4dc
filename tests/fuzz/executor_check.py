"""The first-call executor against the module it stands in for, on the fuzzer's programs.

For each drawn program (one at a time, fused and unfused, as oracle.run_variant builds them)
that the executor accepts (backends/program_executor.executor_problem), the executor's
outputs must be the module's, bit for bit (NaN payloads aside): the executor answers a
function's first call, the module every later one. Programs it refuses are counted.

    python -m tests.fuzz.executor_check START COUNT      (from the repository root)
"""
from __future__ import annotations

import collections
import sys

import numpy as np

import transpile as tp
from transpile.backends import cpu
from transpile.backends.program_executor import ProgramExecutor, executor_problem
from transpile.runtime import runtime_library

from . import compare
from .generate import program, quiet, unquiet
from .oracle import _all_inputs, batch_function, prepare


def check_seed(seed: int, refused: collections.Counter) -> list[str]:
    """Differences between executor and module for one seed's program (both variants)."""
    case = prepare(program(seed))
    if not case.body:
        return []
    backend = cpu.backend()
    problems = []
    for fused in (False, True):
        fun = batch_function([case], fused)
        args = _all_inputs([case])
        handles = quiet()
        try:
            try:
                lowered = tp.jit(fun).lower(*args)
                prepared = lowered._prepared
            except Exception:          # noqa: BLE001 - the oracle reports trace errors
                return problems
            why = executor_problem(prepared.program)
            if why is not None:
                refused[why.split(" (")[0]] += 1
                continue
            refused["accepted"] += 1
            handle = runtime_library.ensure(backend.compiler).handle
            arrays = [np.array(a, dtype=aval.dtype)
                      for a, aval in zip(args, lowered.in_avals)]
            ours = ProgramExecutor(prepared.program, prepared.consts, handle)(
                [a.copy() for a in arrays])
            module, _ = backend.compile(prepared)
            theirs = module([a.copy() for a in arrays])
        finally:
            unquiet(handles)
        for i, (a, b) in enumerate(zip(ours, theirs)):
            if not compare.same_results(a, b):
                problems.append(f"seed {seed} {'fused' if fused else 'unfused'} output {i}: "
                                f"executor {np.asarray(a)!r} module {np.asarray(b)!r}")
    return problems


def check_seeds(seeds) -> tuple[list[str], collections.Counter]:
    refused = collections.Counter()
    problems = []
    for seed in seeds:
        problems += check_seed(seed, refused)
    return problems, refused


if __name__ == "__main__":
    start, count = int(sys.argv[1]), int(sys.argv[2])
    found, counts = check_seeds(range(start, start + count))
    print("\n".join(found[:20]))
    print(f"{len(found)} differences; programs by outcome: {counts.most_common(12)}")
