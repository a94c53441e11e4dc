"""OpenMP regions (issue 8): consecutive parallel kernels share one `omp parallel` region
(orphaned `omp for` loops), small loops stay serial, values unchanged."""
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from conftest import assert_same

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


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
    kernels = f.lower(x)._prepared.program.kernel_names
    assert kernels == ["softmax_max0", "softmax_exp0", "softmax_sum0", "softmax_out0"]
    assert re.findall(r"(\w+)\(", region) == kernels          # max, exp, sum, divide
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


_SHOW_WAIT_SETTINGS = """
import os, numpy as np, transpile as tp
tp.jit(lambda x: x + 1.0)(np.ones(3))
print(os.environ.get("OMP_WAIT_POLICY"), os.environ.get("GOMP_SPINCOUNT"))
"""


@pytest.mark.parametrize("user, shown", [({}, "None 1000"),
                                         ({"OMP_WAIT_POLICY": "PASSIVE"}, "PASSIVE None"),
                                         ({"GOMP_SPINCOUNT": "7"}, "None 7")])
def test_idle_threads_spin_briefly_unless_the_user_chose(user, shown, tmp_path):
    """README "Threads": loading a compiled module sets GOMP_SPINCOUNT=1000 (spin briefly,
    then sleep) before libgomp reads it, and leaves a policy the user set alone."""
    env = {k: v for k, v in os.environ.items() if k not in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")}
    env.update(user, TRANSPILE_CACHE_DIR=str(tmp_path),
               PYTHONPATH=os.pathsep.join([ROOT, env.get("PYTHONPATH", "")]))
    run = subprocess.run([sys.executable, "-c", _SHOW_WAIT_SETTINGS], env=env,
                         capture_output=True, text=True, timeout=120)
    assert run.stdout.strip() == shown, run.stderr[-2000:]
