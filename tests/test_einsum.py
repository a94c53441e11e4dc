"""tnp.einsum against np.einsum: common subscripts (explicit and implicit, ellipsis,
diagonals, traces, outer products, several operands), dtypes, compiled (called twice),
interpreted and eager; contractions go through the matmul primitive, not per-element code."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp

RNG = np.random.default_rng(8)
CASES = [("ij,jk->ik", [(3, 4), (4, 5)]), ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
         ("ii->i", [(4, 4)]), ("ii", [(4, 4)]), ("ij->ji", [(3, 4)]), ("i,i->", [(5,), (5,)]),
         ("i,j->ij", [(3,), (4,)]), ("...ij,...jk->...ik", [(2, 1, 3, 4), (5, 4, 2)]),
         ("ij,jk", [(3, 4), (4, 5)]), ("ijk,kj->i", [(2, 3, 4), (4, 3)]),
         ("ij,ij->ij", [(3, 4), (3, 4)]), ("i,ij,j->", [(3,), (3, 4), (4,)]),
         ("iij->j", [(3, 3, 2)]), ("...i->...", [(2, 3, 4)]), ("ba,ca->bc", [(2, 3), (4, 3)]),
         ("ij->", [(0, 3)]), ("i,i", [(0,), (0,)]), ("", [()]), (",->", [(), ()]),
         ("ij,j->i", [(3, 4), (4,)])]


def _all_ways(fn, *args):
    out = []
    for backend in ("cpu", "interpret"):
        f = tp.jit(fn, backend=backend)
        f(*args)
        out.append(f(*args))
    out.append(fn(*args))
    return out


@pytest.mark.parametrize("subscripts,shapes", CASES, ids=[c[0] or "scalar" for c in CASES])
def test_einsum_matches_numpy(subscripts, shapes):
    ops = [RNG.standard_normal(s) for s in shapes]
    want = np.einsum(subscripts, *ops)
    for got in _all_ways(lambda *o: tnp.einsum(subscripts, *o, optimize=True), *ops):
        got = np.asarray(got)
        assert got.shape == want.shape and got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("dtypes", [(np.int32, np.int32), (np.float32, np.float32),
                                    (np.float32, np.float64), (np.int64, np.float32),
                                    (np.bool_, np.bool_), (np.uint8, np.int8)])
def test_einsum_dtypes(dtypes):
    a = RNG.integers(0, 3, (3, 4)).astype(dtypes[0])
    b = RNG.integers(0, 3, (4, 2)).astype(dtypes[1])
    for s in ("ij,jk->ik", "ij,jk->", "ij->i", "ij,ij->ij"):
        bb = b if s.startswith("ij,jk") else a.astype(dtypes[1])
        want = np.einsum(s, a, bb) if "," in s else np.einsum(s, a)
        for got in _all_ways(lambda a, b: tnp.einsum(s, a, b) if "," in s
                             else tnp.einsum(s, a), a, bb):
            got = np.asarray(got)
            assert got.dtype == want.dtype, (s, got.dtype, want.dtype)
            np.testing.assert_allclose(got, want, rtol=1e-6)


def test_contractions_use_the_matmul_primitive():
    ir = tp.make_ir(lambda a, b: tnp.einsum("bij,bjk->bik", a, b))(np.ones((2, 3, 4)),
                                                                   np.ones((2, 4, 5)))
    assert "dot_general" in str(ir)
    assert len(ir.eqns) < 10


def test_einsum_errors_name_shapes():
    with pytest.raises(ValueError, match=r"'j'.*\(5, 2\).*\(3, 4\)"):
        tp.jit(lambda a, b: tnp.einsum("ij,jk->ik", a, b))(np.ones((3, 4)), np.ones((5, 2)))
    with pytest.raises(ValueError, match="name 3 axes but the operand has 2"):
        tnp.einsum("ijk->i", np.ones((2, 2)))
    with pytest.raises(ValueError, match="appears in no operand"):
        tnp.einsum("ij->z", np.ones((2, 2)))
