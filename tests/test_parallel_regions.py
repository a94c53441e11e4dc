"""OpenMP regions (issue 8): consecutive parallel kernels share one `omp parallel` region
(orphaned `omp for` loops), small loops stay serial, values unchanged."""
import re

import numpy as np

import transpile as tp
import transpile.numpy as tnp
from conftest import assert_same


def softmax(x):
    e = tnp.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def np_softmax(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def entry(source):
    return source[source.index("int tp_entry"):]


def test_a_kernel_sequence_runs_in_one_parallel_region():
    x = np.random.default_rng(0).standard_normal((1000, 700))
    f = tp.jit(softmax)
    for _ in range(2):
        assert_same(f(x), np_softmax(x), rtol=1e-12)
    source = f.lower(x).source
    assert entry(source).count("#pragma omp parallel") == 1
    region = entry(source).split("#pragma omp parallel")[1].split("}")[0]
    assert len(re.findall(r"kernel_\d+\(", region)) == 4       # max, exp, sum, divide
    assert "omp parallel for" not in source                     # every loop is orphaned
    assert source.count("#pragma omp for") == 4


def test_a_full_reduction_keeps_its_own_region_and_neighbours_stay_correct():
    def f(a):
        return a * 2.0, tnp.sin(a) + 1.0, a.sum(), a[::-1] * 3.0
    y = np.random.default_rng(1).standard_normal(1 << 20)
    out = tp.jit(f)(y)
    for got, want in zip(out, (y * 2.0, np.sin(y) + 1.0, y.sum(), y[::-1] * 3.0)):
        assert_same(got, np.asarray(want), rtol=1e-12)
    text = entry(tp.jit(f).lower(y).source)
    assert text.count("#pragma omp parallel") == 1               # the first two kernels
    source = tp.jit(f).lower(y).source
    assert "parallel for simd reduction(+:acc)" in source         # the sum, alone


def test_small_kernels_open_no_region():
    x = np.random.default_rng(2).standard_normal((100, 70))
    assert "omp parallel" not in tp.jit(softmax).lower(x).source
