"""A scan's per-step slice of its xs steering control flow in the body: a switch index, a
cond predicate or a fori_loop bound read from the slice. The slice is a view (pointer
arithmetic on the xs buffer, no C variable); the entry must read the scalar through that
pointer (pgx's 2048 steps `lax.switch(action, ...)` on scanned actions: gcc refused the C)."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as tp
from transpile import lax
import transpile.numpy as tnp

ACTIONS = np.array([0, 2, 1, 2, 0, 1], np.int32)


def _switch_step(b, a):
    b = lax.switch(a, [lambda: b, lambda: b * 2.0, lambda: b + 1.0])
    return b, b.sum()


def _cond_step(b, a):
    b = lax.cond(a > 0, lambda: b * 2.0, lambda: b - 1.0)
    return b, b[0]


def _fori_step(b, a):
    b = lax.fori_loop(0, a, lambda i, c: c + i, b)
    return b, b[-1]


def _expected(step, b, xs):
    outs = []
    for a in xs:
        b, y = step(b, int(a))
        outs.append(y)
    return b, np.array(outs)


@pytest.mark.parametrize("step", [_switch_step, _cond_step, _fori_step])
@pytest.mark.parametrize("reverse", [False, True])
def test_scan_body_control_flow_reads_the_scanned_scalar(step, reverse):
    b0 = np.arange(3.0)
    got_b, got_ys = tp.jit(lambda b, xs: lax.scan(step, b, xs, reverse=reverse))(b0, ACTIONS)
    xs = ACTIONS[::-1] if reverse else ACTIONS
    want_b, want_ys = _expected(step, tnp.asarray(b0), xs)
    np.testing.assert_allclose(got_b, want_b)
    np.testing.assert_allclose(got_ys, want_ys[::-1] if reverse else want_ys)
