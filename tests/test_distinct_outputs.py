"""Every output of a compiled function is an array of its own, on every backend.

The output plan lives in one place (`backends/compiled_backend`), so these cases run on the
CPU backend, the CUDA backend (emulated on the CPU; the same calls on a GPU) and the
interpreter: equal outputs, one value returned twice, outputs that are an input or a captured
constant, and literals. Writes go through each backend's own memory: NumPy indexing on the
host, a device copy through `__cuda_array_interface__` on the GPU.
"""
import numpy as np
import pytest

import transpile.numpy as tnp
from transpile import api as jit_api
from transpile.device_array import DeviceArray
from transpile.runtime import cudart
from conftest import cuda_emulated

NEEDS_EMULATION = cuda_emulated[0]       # the skip when no C++ compiler can emulate CUDA
BACKENDS = ["cpu", pytest.param("cuda", marks=NEEDS_EMULATION), "interpret"]
CONSTANT = np.array([5.0, 6.0, 7.0])


def host(a) -> np.ndarray:
    return np.array(a)


def overwrite(a, values) -> None:
    """Write `values` into `a`'s own memory, as another library holding the array would."""
    values = np.ascontiguousarray(values, dtype=a.dtype)
    if isinstance(a, DeviceArray):
        ptr, _read_only = a.__cuda_array_interface__["data"]
        cudart.runtime().copy_to_device(ptr, values)
    else:
        a[...] = values


def memory_of(a) -> tuple[int, int]:
    """[start, end) of the bytes `a` occupies."""
    if isinstance(a, DeviceArray):
        start = a.__cuda_array_interface__["data"][0]
    else:
        start = a.__array_interface__["data"][0]
    return start, start + a.nbytes


@pytest.fixture(params=BACKENDS)
def backend(request, monkeypatch):
    if request.param == "cuda":
        monkeypatch.setenv("TRANSPILE_CUDA_EMULATE", "1")
    return request.param


def assert_independent(outputs, wanted):
    """Distinct objects over disjoint memory, each holding its value after the others are
    overwritten."""
    assert len({id(o) for o in outputs}) == len(outputs)
    spans = sorted(memory_of(o) for o in outputs if o.nbytes)
    for (_, end), (start, _) in zip(spans, spans[1:]):
        assert end <= start, "two outputs share memory"
    for i, out in enumerate(outputs):
        overwrite(out, np.full(np.shape(wanted[i]), -1.0))
        for j, other in enumerate(outputs):
            if j != i:
                np.testing.assert_array_equal(host(other), wanted[j])
        overwrite(out, wanted[i])


def test_equal_expressions_are_two_arrays(backend, cache_dir):
    x = np.arange(6.0)
    a, b = jit_api.jit(lambda v: (v * 2, v * 2), backend=backend)(x)
    assert_independent([a, b], [x * 2, x * 2])


def test_one_value_returned_twice_is_two_arrays(backend, cache_dir):
    """`return y, y`: the program has one output buffer; the second result is a copy."""
    x = np.arange(6.0)

    def twice(v):
        y = tnp.sin(v) + 1.0
        return y, y
    f = jit_api.jit(twice, backend=backend)
    if backend != "interpret":
        assert len(f.lower(x)._prepared.program.outputs) == 1
    a, b = f(x)
    assert_independent([a, b], [np.sin(x) + 1.0] * 2)


def test_one_value_returned_three_times_is_three_arrays(backend, cache_dir):
    x = np.arange(6.0)

    def same_thrice(v):
        y = tnp.exp(v)
        return y, y, {"again": y}
    c, d, e = jit_api.jit(same_thrice, backend=backend)(x)
    assert_independent([c, d, e["again"]], [np.exp(x)] * 3)


def test_outputs_that_are_inputs_or_constants_are_copies(backend, cache_dir):
    x = np.arange(3.0)
    kept = x.copy()
    f = jit_api.jit(lambda v: (v, v, CONSTANT, CONSTANT, v + 1), backend=backend)
    outs = list(f(x))
    assert_independent(outs, [x, x, CONSTANT, CONSTANT, x + 1])
    np.testing.assert_array_equal(x, kept)                  # the argument is untouched
    np.testing.assert_array_equal(CONSTANT, [5.0, 6.0, 7.0])
    again = f(x)                                           # and so is the captured constant
    np.testing.assert_array_equal(host(again[2]), CONSTANT)


def test_literal_outputs_are_fresh_each_call(backend, cache_dir):
    f = jit_api.jit(lambda v: (v * 2, tnp.float64(3.0), tnp.float64(3.0)), backend=backend)
    x = np.arange(2.0)
    _, p, q = f(x)
    assert_independent([p, q], [np.float64(3.0)] * 2)
    overwrite(p, np.float64(-7.0))
    _, r, _ = f(x)
    assert host(r) == 3.0


@NEEDS_EMULATION
def test_cuda_results_stay_on_the_device(cuda_emulation, cache_dir):
    x = np.arange(3.0)
    outs = jit_api.jit(lambda v: (v, v * 2, v * 2, CONSTANT, tnp.float64(1.0)),
                       backend="cuda")(x)
    assert all(isinstance(o, DeviceArray) for o in outs)
