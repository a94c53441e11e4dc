"""The Numba versions in benchmarks/programs_numba.py (the Numba column of bench_programs.py)
compute what the benchmark's NumPy programs compute, on small inputs, without touching their
inputs; and every row of the benchmark has one."""
import pathlib
import sys

import numpy as np
import pytest

pytest.importorskip("numba", reason="numba is not installed (CI has none): the Numba column "
                                    "of benchmarks/bench_programs.py goes unchecked")

sys.path.insert(0, str(pathlib.Path(__file__).parent.parent / "benchmarks"))
import bench_programs as bench  # noqa: E402  (benchmarks/ is not a package)
import programs_numba  # noqa: E402


def _small_cases():
    """{program name: (NumPy reference, args)}: shapes that are not square or block multiples,
    biases that are not zero (the benchmark's are)."""
    rng = np.random.default_rng(1)
    f32 = np.float32
    n = 13
    lower = np.tril(rng.standard_normal((n, n))) + n * np.eye(n)
    m = rng.standard_normal((n, n))
    return {
        "jacobi": (bench.np_jacobi, (rng.standard_normal((9, 7)),)),
        "forward_substitution": (bench.np_forward_substitution,
                                 (lower, rng.standard_normal(n))),
        "cholesky": (bench.np_cholesky, (m @ m.T / n + np.eye(n),)),
        "matmul_chain": (bench.matmul_chain, tuple(rng.standard_normal(s)
                                                   for s in ((5, 7), (7, 3), (3, 4)))),
        "vecmat": (bench.vecmat, (rng.standard_normal(6), rng.standard_normal((6, 9)))),
        "matvec": (bench.matvec, (rng.standard_normal((6, 9)), rng.standard_normal(9))),
        "mlp": (bench.np_mlp, tuple(rng.standard_normal(s).astype(f32)
                                    for s in ((5, 12), (12, 8), 8, (8, 3), 3))),
        "conv2d": (bench.conv2d, (rng.standard_normal((11, 8)), rng.standard_normal((3, 2)))),
        "column_sum": (bench.column_sum, (rng.standard_normal((7, 45)),)),
        "softmax": (bench.np_softmax, (rng.standard_normal((4, 9)) * 30,)),
        "element_updates": (bench.np_element_updates, (rng.standard_normal((6, 6)), 4)),
    }


SMALL = _small_cases()


@pytest.mark.parametrize("name", sorted(SMALL))
def test_numba_version_matches_numpy(name):
    reference, args = SMALL[name]
    before = [np.copy(a) for a in args]
    expected = reference(*args)
    got = programs_numba.BY_PROGRAM[name](*args)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    rtol = 1e-5 if expected.dtype == np.float32 else 1e-12
    np.testing.assert_allclose(got, expected, rtol=rtol, atol=rtol)
    for old, arg in zip(before, args):
        np.testing.assert_array_equal(arg, old)      # inputs are never written


def test_every_benchmark_row_has_a_numba_version():
    programs = {case["tp"].__name__ for case in bench.cases(quick=True)}
    assert programs == set(programs_numba.BY_PROGRAM) == set(SMALL)
