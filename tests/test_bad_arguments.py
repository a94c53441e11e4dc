"""Every bad argument is refused with a TypeError or ValueError that names it, on the first
call (while tracing) and on a warm function (the cached fast path), NumPy scalars included."""
import re

import numpy as np
import pytest

import transpile as tp

BAD = [
    (np.clongdouble(1 + 2j), TypeError, "clongdouble|complex256"),
    (np.str_("a"), TypeError, "str_"),
    (np.bytes_(b"a"), TypeError, "bytes_"),
    (np.datetime64("2020-01-01"), TypeError, "datetime64"),
    (np.longdouble(1.0), TypeError, "longdouble|float128"),
    (2 ** 80, ValueError, str(2 ** 80)),
    (-(2 ** 70), ValueError, str(-(2 ** 70))),
    (2 ** 63, ValueError, "int64"),
    (np.array([1 + 1j], np.clongdouble), TypeError, "complex256"),
    (np.array(["a"]), TypeError, "<U1"),
    ("text", TypeError, "str"),
    (object(), TypeError, "object"),
]


def added(x, scale):
    return x * 2.0 + scale


@pytest.fixture(scope="module")
def warm():
    f = tp.jit(added, backend="interpret")
    for scale in (1.0, 1, np.float64(1.0), np.int64(1)):
        f(np.ones(3), scale)                 # every fast-path key kind is cached
    return f


@pytest.mark.parametrize("value,error,what", BAD, ids=[type(b[0]).__name__ + str(i) for i, b in enumerate(BAD)])
@pytest.mark.parametrize("state", ["first call", "warm"])
def test_bad_argument_is_named(value, error, what, state, warm):
    f = warm if state == "warm" else tp.jit(added, backend="interpret")
    with pytest.raises(error) as caught:
        f(np.ones(3), value)
    assert "'scale'" in str(caught.value), str(caught.value)
    assert re.search(what, str(caught.value)), str(caught.value)
    with pytest.raises(error) as caught:                     # by keyword and nested too
        f(np.ones(3), scale=[1.0, value])
    assert "'scale'" in str(caught.value), str(caught.value)


def test_int64_limits_are_accepted():
    f = tp.jit(lambda x, n: x + n, backend="interpret")
    assert f(np.int64(0), 2 ** 63 - 1) == 2 ** 63 - 1
    assert f(np.int64(0), -(2 ** 63)) == -(2 ** 63)
