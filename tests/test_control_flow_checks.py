"""lax's control flow rejects bad arguments before tracing, in JAX's words (JAX's own
lax_control_flow_test.py matches these texts), eagerly and under jit; and an empty scan
still reports its outputs' structure."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as tp
from transpile import lax

NOT_CALLABLE = [
    (lambda: lax.fori_loop(0, 1, 42, 0), "lax.fori_loop.*callable"),
    (lambda: lax.while_loop(42, lambda c: c, 0), "lax.while_loop.*callable"),
    (lambda: lax.switch(0, [42]), "lax.switch:.*callable"),
    (lambda: lax.cond(0, 42, 42), "lax.cond.*callable"),
    (lambda: lax.scan(42, 0, np.arange(3)), "lax.scan.*callable"),
]

BAD_PREDICATES_AND_INDICES = [
    (lambda: lax.cond(None, abs, abs, 1.0), TypeError, "cond predicate is None"),
    (lambda: lax.cond(lambda x: True, abs, abs, 1.0), TypeError,
     "Pred type must be either boolean or number, got <function"),
    (lambda: lax.cond("foo", abs, abs, 1.0), TypeError,
     "Pred must be a scalar, got foo of type <class 'str'>"),
    (lambda: lax.cond((1.0, 1.0), abs, abs, 1.0), TypeError,
     r"Pred must be a scalar, got \(1.0, 1.0\) of type <class 'tuple'>"),
    (lambda: lax.switch("foo", [abs], 1.0), TypeError, "Index type must be an integer, got foo."),
    (lambda: lax.switch((1.0, 1.0), [abs], 1.0), TypeError,
     r"Branch index must be scalar, got \(1.0, 1.0\) of shape \(2,\)."),
    (lambda: lax.switch(0, [], 1.0), ValueError, "Empty branch sequence"),
]


@pytest.mark.parametrize("call, message", NOT_CALLABLE)
def test_functions_must_be_callable(call, message):
    with pytest.raises(TypeError, match=message):
        call()


@pytest.mark.parametrize("call, error, message", BAD_PREDICATES_AND_INDICES)
def test_predicates_and_indices_are_checked(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_good_predicates_and_indices_still_work():
    assert lax.cond(np.bool_(True), lambda x: x + 1, lambda x: x, 1.0) == 2.0
    assert lax.cond(np.array(0), lambda x: x + 1, lambda x: x, 1.0) == 1.0
    assert tp.jit(lambda p, x: lax.cond(p, lambda x: x + 1, lambda x: x - 1, x))(True, 1.0) == 2
    assert tp.jit(lambda i, x: lax.switch(i, [abs, lambda x: -x], x))(1, 1.0) == -1


def test_scan_argument_errors():
    with pytest.raises(ValueError) as info:
        lax.scan(lambda *args: args, 0, np.arange(10), length=5)
    assert str(info.value) == ("scan got `length` argument of 5 which disagrees with "
                               "leading axis sizes [10].")
    with pytest.raises(ValueError, match="scan got value with no leading axis to scan over"):
        lax.scan(lambda c, x: (c, x), 0, [0, 1, 2])
    for scan in (lax.scan, tp.jit(lax.scan, static_argnums=0)):
        with pytest.raises(TypeError, match=r"scan body output must be a pair, got float32\[\]"):
            scan(lambda c, x: np.float32(0.0), 0.0, np.arange(5.0))


def test_empty_scan_and_map_keep_their_output_structure():
    ys = lax.map(lambda x: x * x, np.zeros(0))
    assert ys.shape == (0,)
    carry, (a, b) = lax.scan(lambda c, x: (c + x.sum(), (x, c)), 0.0, np.zeros((0, 3)))
    assert carry == 0.0 and a.shape == (0, 3) and b.shape == (0,)
