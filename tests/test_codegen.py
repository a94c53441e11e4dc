"""The shape of the generated C: fusion, parallel pragmas, line comments, no fast-math."""
import json
import os
import re

import numpy as np

import transpile as tp
import transpile.numpy as tnp


def softmax(x):
    e = tnp.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def test_softmax_buffers_only_what_two_loops_share():
    source = tp.jit(softmax).lower(np.ones((1000, 1000), np.float32)).source
    # max, exp(x - max), sum, divide: x - max is fused into exp's loop, not buffered.
    assert source.count("__attribute__((noinline)) void softmax_") == 4
    assert source.count("(space + ") == 3       # temporaries: three in the kept block


def test_small_loops_stay_serial_and_large_ones_are_parallel():
    small = tp.jit(lambda a: a * 2 + 1).lower(np.ones(100, np.float32)).source
    large = tp.jit(lambda a: a * 2 + 1).lower(np.ones(1_000_000, np.float32)).source
    assert "omp parallel" not in small
    assert "#pragma omp parallel for simd" in large


def test_broadcasts_and_transposes_are_index_arithmetic_not_copies():
    source = tp.jit(lambda a, b: a.T + b[:, None]).lower(np.ones((3, 4)), np.ones(4)).source
    assert source.count("for (") == 2 and "malloc" not in source
    assert "a[i0 + 4 * i1]" in source          # a.T is read in place, with strides


def test_every_statement_names_its_python_line_and_no_fast_math():
    lowered = tp.jit(softmax).lower(np.ones((8, 8), np.float32))
    statements = [line for line in lowered.source.splitlines()
                  if re.match(r"\s+const \w+ v\d+ = .*\(", line) and "[" not in line]
    assert statements and all("test_codegen.py:" in line for line in statements)
    compiled = lowered.compile()
    # The build command is kept in the manifest beside the source (the source itself is
    # exactly what the key hashes).
    with open(os.path.join(os.path.dirname(compiled.source_path), "manifest.json")) as f:
        command = json.load(f)["built"]["command"]
    assert "fast-math" not in command and "-ffp-contract=off" in command


def test_temporaries_live_in_one_kept_block_and_threads_share_the_function():
    """The temporaries are carved from one block kept between calls (no page faults on
    fresh memory each call); a call made while another thread holds the block allocates its
    own. Both must give the same answers as NumPy, call after call and from many threads."""
    import threading
    x = np.random.default_rng(3).standard_normal((300, 200)).astype(np.float32)
    f = tp.jit(softmax)
    source = f.lower(x).source
    assert "tp_workspace" in source and "atomic_flag_test_and_set_explicit" in source
    expected = np.exp(x - x.max(axis=1, keepdims=True))
    expected /= expected.sum(axis=1, keepdims=True)
    results = []

    def work():
        results.extend(f(x) for _ in range(20))
    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 80
    for got in results:
        np.testing.assert_allclose(got, expected, rtol=2e-6, atol=1e-7)


def test_float32_literals_print_as_written():
    """A float32 constant is spelled as its shortest decimal (`1.67f`, as in the source), not
    float64's digits of the float32 nearest to it; both read back as the same bits."""
    source = tp.jit(lambda x: x * 1.67 - 0.9).lower(np.ones(4, np.float32)).source
    assert "1.67f" in source and "0.9f" in source
    assert "1.6699999" not in source


def test_squares_are_products_in_loop_bodies_too():
    """`x ** 2` on real floats is `x * x` (the same bits as NumPy's square), in a loop body
    as at the top level: no libm pow call per element per iteration (NPBench cavity_flow's
    `dx ** 2` with a traced dx); complex squares and other exponents are left alone."""
    import transpile.numpy as tnp
    from transpile import lax

    def program(x, d):
        top = x ** 2
        looped = lax.fori_loop(0, 3, lambda i, y: y + d ** 2 * x ** 2, x)
        return top, looped, x ** 3
    x = np.random.default_rng(0).standard_normal(50) * 1e100
    f = tp.jit(program)
    source = f.lower(x, 3.0).source
    assert source.count("pow(") == 1                     # x ** 3 only
    top, looped, cube = f(x, 3.0)
    assert np.array_equal(top, x ** 2) and np.array_equal(cube, x ** 3)
    want = x.copy()
    for _ in range(3):
        want = want + 9.0 * x ** 2
    assert np.array_equal(looped, want)
