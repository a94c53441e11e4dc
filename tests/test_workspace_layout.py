"""Temporaries share the workspace where their lifetimes do not overlap
(codegen/workspace_layout.py), and the programs that share compute what NumPy does."""
from __future__ import annotations

import numpy as np

import transpile as tp
import transpile.numpy as tnp
from transpile import lax
from transpile.codegen.workspace_layout import (lowest_gap, mentioned_buffers, padded_bytes,
                                                temp_lifetimes, workspace_layout)


def _program(fun, *args):
    return tp.jit(fun).lower(*args)._prepared.program


def _relax(path):
    """Floyd-Warshall, unrolled: each step's array is read by the next step only."""
    for k in range(path.shape[0]):
        path = tnp.minimum(path, path[:, k][:, None] + path[k, :][None, :])
    return path


def _relax_reference(path):
    path = path.copy()
    for k in range(path.shape[0]):
        path = np.minimum(path, path[:, k][:, None] + path[k, :][None, :])
    return path


def test_a_chain_of_steps_alternates_between_two_blocks():
    path = np.random.default_rng(0).integers(1, 50, (12, 12)).astype(np.int32)
    program = _program(_relax, path)
    temps = [b for b in program.temps if b.size]
    assert len(temps) >= 4       # 11 steps, fused in pairs (schedule.py): a temporary per pair
    offsets, total = workspace_layout(program, temps)
    assert total == 2 * padded_bytes(temps[0])
    assert len(set(offsets.values())) == 2
    np.testing.assert_array_equal(tp.jit(_relax)(path), _relax_reference(path))


def test_temporaries_used_by_one_statement_never_share():
    path = np.ones((6, 6), np.int32)
    program = _program(_relax, path)
    temps = {b.name: b for b in program.temps if b.size}
    offsets, _ = workspace_layout(program, list(temps.values()))
    lifetimes = temp_lifetimes(program, temps)
    for a in temps:
        for b in temps:
            if a < b and offsets[a] == offsets[b]:
                (fa, la), (fb, lb) = lifetimes[a], lifetimes[b]
                assert la < fb or lb < fa, (a, b)


def test_everything_a_loop_body_touches_lives_for_the_whole_loop():
    def body(i, x):
        y = x * 0.5 + 1.0
        z = y[::-1] * y + tnp.sin(y)
        return z[::-1] * 0.25 + x * 0.5
    x = np.linspace(0.0, 1.0, 64)
    program = _program(lambda x: lax.fori_loop(0, 3, body, x), x)
    loops = [p for p, st in enumerate(program.body) if hasattr(st, "body")]
    inside = mentioned_buffers(program.body[loops[0]], program.kernels)
    temps = [b for b in program.temps if b.size and b.name in inside]
    offsets, _ = workspace_layout(program, [b for b in program.temps if b.size])
    assert len(temps) >= 2
    assert len({offsets[b.name] for b in temps}) == len(temps)     # no two share
    expected = x
    for _ in range(3):
        y = expected * 0.5 + 1.0
        expected = (y[::-1] * y + np.sin(y))[::-1] * 0.25 + expected * 0.5
    np.testing.assert_allclose(tp.jit(lambda x: lax.fori_loop(0, 3, body, x))(x), expected,
                               rtol=1e-14)


def test_lowest_gap():
    assert lowest_gap([], 64) == 0
    assert lowest_gap([(0, 64), (192, 256)], 128) == 64
    assert lowest_gap([(0, 64), (128, 256)], 128) == 256
