"""The differential fuzzer (tests/fuzz): a bounded sample with fixed seeds, and tests that the
fuzzer itself finds what it should. The long run is `benchmarks/fuzz_long.py` (tox -e fuzz).
"""
import dataclasses
import itertools
import os
import sys

import numpy as np
import pytest

import transpile.numpy as tnp

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fuzz import compare, generate, known, oracle, run, shrink  # noqa: E402
from fuzz.ops import COMPLEX_OPS, EXACT, OPS, TRANSCENDENTAL  # noqa: E402

# Fixed seeds, in blocks so that pytest-xdist spreads them over workers. 10 x 24 programs
# take about a minute of CPU; the long run covers 10,000 and more.
SAMPLE_BLOCKS = [range(start, start + 24) for start in range(100_000, 100_240, 24)]


def _unexpected(findings):
    return [f for f in findings if known.open_entry(f) is None]


@pytest.mark.parametrize("seeds", SAMPLE_BLOCKS, ids=lambda r: f"seeds{r.start}")
def test_fuzz_sample_matches_numpy(seeds):
    report = run.run_seeds(seeds)
    assert report.programs == len(seeds)
    bad = _unexpected(report.findings)
    assert not bad, "the fuzzer found differences from NumPy (rerun one with " \
        "`python benchmarks/fuzz_long.py --start SEED --count 1 --shrink`):\n" + \
        "\n".join(f.summary() for f in bad[:20])


def test_fuzz_complex_sample_matches_numpy():
    """Complex programs (seeds from generate.COMPLEX_SEEDS): complex inputs, and the ops
    transpile compiles for them."""
    assert COMPLEX_OPS <= set(OPS)
    start = generate.COMPLEX_SEEDS
    programs = [generate.program(s) for s in range(start, start + 12)]
    assert sum(isinstance(x, np.ndarray) and x.dtype.kind == "c"
               for p in programs for x in p.inputs) >= 12
    report = run.run_seeds(range(start, start + 12))
    bad = _unexpected(report.findings)
    assert report.programs == 12 and not bad, "\n".join(f.summary() for f in bad[:20])


def test_fuzz_float16_sample_matches_numpy():
    """float16 programs (seeds from generate.HALF_SEEDS): float16 inputs, every op, computed
    in float32 and rounded per operation as NumPy's float16 loops do."""
    start = generate.HALF_SEEDS
    programs = [generate.program(s) for s in range(start, start + 12)]
    assert sum(isinstance(x, np.ndarray) and x.dtype == np.float16
               for p in programs for x in p.inputs) >= 12
    report = run.run_seeds(range(start, start + 12))
    bad = [f for f in _unexpected(report.findings) if not known.numpy_float16_partials(f)]
    assert report.programs == 12 and not bad, "\n".join(f.summary() for f in bad[:20])


@pytest.mark.parametrize("x64", [False, True], ids=["x32", "x64"])
def test_fuzz_sample_under_jax_rules(x64):
    """The differential fuzzer under JAX's dtype rules: NumPy computes each value at the
    dtypes JAX's rules give (fuzz/jax_mode.py). The long run: benchmarks/fuzz_long.py --jax."""
    from fuzz import jax_mode
    with jax_mode.jax_rules(x64):
        report = run.run_seeds(range(100_000, 100_024))
    bad = [f for f in _unexpected(report.findings) if not known.jax_mode_wraps(f)]
    assert report.programs == 24 and not bad, "\n".join(f.summary() for f in bad[:20])


# Seeds of x64 JAX-mode findings, each fixed in the fuzzer's reference or in transpile:
# 320081 cast_math of float(2**63) to int64 (masked as out of range now), 320147 const_chain
# floor_divide by zero (JAX's -2), 320010 const_chain positive of bools (JAX accepts it),
# 320126 where(c, 1.5, 2**64) (JAX raises OverflowError; transpile did not), 830272 uint8 //
# -2**63 (the int wraps to 0: a division by zero, JAX's 255; transpile tested the int as
# written), 970075 kron(int8, positive of a Python-int argument) is int8 (the reference lost
# the positive's weak type and made it int64), 1200133 stack(uint8, 1.0 / (u + 0.0),
# float32) is float32 (the middle operand a weak float64 array; the reference made it strong).
JAX_X64_REGRESSION_SEEDS = (320081, 320147, 320010, 320126, 830272, 970075, 1200133)


def test_fuzz_jax_x64_regression_seeds():
    from fuzz import jax_mode
    with jax_mode.jax_rules(True):
        report = run.run_seeds(JAX_X64_REGRESSION_SEEDS)
    bad = [f for f in _unexpected(report.findings) if not known.jax_mode_wraps(f)]
    assert report.programs == len(JAX_X64_REGRESSION_SEEDS) and not bad, \
        "\n".join(f.summary() for f in bad[:20])


def test_fuzz_jax_x32_regression_seeds():
    """Seed 820271: astype(uint64) of float32 9.2e18 is uint32 without x64, out of range
    there; the reference compared it as if uint64 were kept. Seed 820022: a cond whose
    branches multiply by 2**31 raises OverflowError in JAX (and transpile) without x64; the
    reference computed it. Seed 850336: clip of a uint32 by an int32 bound meets in int32
    without x64 (x wraps, as JAX computes it); the reference compared at int64. Seed 960069:
    clip(uint32, where(c, False, 4), ...) is uint32, the where's result weak as in JAX; the
    reference made it a strong int32 and the clip int32."""
    from fuzz import jax_mode
    seeds = [820271, 820022, 850336, 960069]
    with jax_mode.jax_rules(False):
        report = run.run_seeds(seeds)
    bad = [f for f in _unexpected(report.findings) if not known.jax_mode_wraps(f)]
    assert report.programs == len(seeds) and not bad, "\n".join(f.summary() for f in bad[:20])


def test_open_classes_still_reproduce():
    """An open class whose reproducer passes is fixed: remove it from known.OPEN."""
    namespace = {"np": np, "tnp": tnp, "static_races": oracle.static_races,
                 "reproduce": known.reproduce}
    exec("import transpile as tp\nimport transpile.lax as lax", namespace)
    for entry in known.OPEN:
        with pytest.raises(Exception):   # noqa: B017 - a wrong answer or an error, both count
            exec(entry.reproducer, namespace)


def test_programs_are_reproducible_from_their_seed():
    a, b = generate.program(1234), generate.program(1234)
    assert a.describe() == b.describe()
    assert generate.program(1235).describe() != a.describe()


def test_generator_covers_every_op_and_feature():
    seen_ops, layouts, raising = set(), set(), 0
    for seed in range(400):
        prog = generate.program(seed)
        seen_ops |= {n.op for n in prog.nodes}
        layouts |= set(prog.layouts)
        raising += any(n.expect_raise for n in prog.nodes)
    assert seen_ops == set(OPS), f"never drawn: {sorted(set(OPS) - seen_ops)}"
    assert {"strided", "reversed", "transposed", "python-scalar", "0-d"} <= layouts
    assert raising > 0            # NumPy refuses some programs: transpile must refuse them


def _planted(monkeypatch, name, wrong):
    monkeypatch.setitem(OPS, name, dataclasses.replace(OPS[name], tp=wrong))


def test_fuzzer_finds_a_planted_wrong_op_and_shrinks_it(monkeypatch):
    # `add` compiled as `subtract`: reported against `add` only, not downstream ops.
    _planted(monkeypatch, "add", lambda p, x, y: tnp.subtract(x, y))
    seeds = [s for s in range(300) if any(n.op == "add" for n in generate.program(s).nodes)]
    report = run.run_seeds(seeds[:6])
    ops = {f.op for f in report.findings if f.kind == "value"}
    assert ops == {"add"}
    first = min((f for f in report.findings if f.kind == "value"), key=lambda f: f.seed)
    prog = generate.program(first.seed)
    small = shrink.shrink(prog, first)
    assert len(small.nodes) <= len(prog.nodes)
    assert small.nodes[-1].op == "add"
    assert shrink.reproduces(small, first)


def _has_float32_result(prog, op):
    """An `op` whose NumPy result is float32 (where the planted float64 cast shows)."""
    if not any(n.op == op for n in prog.nodes):
        return False
    values = generate.reference_values(prog)[len(prog.inputs):]
    return any(n.op == op and np.asarray(v).dtype == np.float32
               for n, v in zip(prog.nodes, values))


def test_fuzzer_finds_a_planted_dtype_error(monkeypatch):
    # multiply is drawn often (sqrt's float32 results became rare as the op table grew).
    _planted(monkeypatch, "multiply", lambda p, x, y: tnp.multiply(x, y).astype(np.float64))
    seeds = list(itertools.islice(
        (s for s in range(2000) if _has_float32_result(generate.program(s), "multiply")), 4))
    report = run.run_seeds(seeds)
    assert any(f.kind == "dtype" and f.op == "multiply" for f in report.findings)


def test_fused_check_follows_a_fused_float_sum_into_exact_ops():
    """A fused sum may add in another order than the unfused one (within tolerance); the
    exact ops after it are checked against NumPy on the fused sum, not the unfused one."""
    from fuzz.generate import Node, Program
    from fuzz.ops import Lit, Ref
    prog = Program(0, [np.array([0.1, 0.2, 0.3])], ["contiguous"], [
        Node("sum", (Ref(0),), {"axis": 0, "keepdims": False, "method": False}),
        Node("negative", (Ref(1),), {}),
        Node("greater", (Ref(2), Lit(-0.6)), {"operator": False})])
    case = oracle.prepare(prog)
    assert case.fused_outputs() == [0, 2]                  # the sum and the final value
    unfused = [np.float64(0.6), np.float64(-0.6), np.False_]
    other_order = np.nextafter(0.6, 1.0)
    world = oracle._fused_world(case, [other_order, np.False_], unfused)
    assert world[1] == -other_order                        # recomputed from the fused sum
    assert oracle.check_node(case, 2, np.False_, world, "cpu-fused", 0) is None
    assert oracle.check_node(case, 2, np.True_, world, "cpu-fused", 0) is not None
    # Inputs as unfused: the unfused value is kept (a wrong op is blamed once, unfused).
    assert oracle._fused_world(case, [np.float64(0.6), np.False_], unfused)[1] is unfused[1]


def test_compare_is_bit_exact_where_it_must_be():
    z = np.array([0.0], np.float32)
    assert compare.mismatch(-z, z, EXACT).startswith("signed-zero")
    assert compare.mismatch(np.array([np.nan]), np.array([np.nan]), EXACT) is None
    assert compare.mismatch(np.int8([1]), np.int16([1]), EXACT).startswith("dtype")
    one = np.float32(1.0)
    near = np.nextafter(one, np.float32(2), dtype=np.float32)
    assert compare.mismatch(np.array([near]), np.array([one]), EXACT) is not None
    assert compare.mismatch(np.array([near]), np.array([one]), TRANSCENDENTAL) is None
    assert compare.mismatch(np.array([np.inf]), np.array([1.0]), TRANSCENDENTAL) is not None


def test_static_race_check_reads_omp_clauses():
    racy = """static void kernel_0(const double *restrict in0, double *restrict out0) {
    double acc = 0;
    #pragma omp parallel for
    for (int64_t i0 = 0; i0 < 3; i0++) {
        #pragma omp simd reduction(+:acc)
        for (int64_t i1 = 0; i1 < 9; i1++) {
            acc += in0[i1];
        }
    }
    out0[0] = acc;
}"""
    assert [name for name, _ in oracle.static_races(racy)] == ["acc"]
    fixed = racy.replace("parallel for\n", "parallel for reduction(+:acc)\n")
    assert oracle.static_races(fixed) == []


def test_each_compiled_function_is_called_twice(monkeypatch):
    calls = []
    real = oracle._call_twice

    def counting(fun, args, need_source):
        calls.append(fun)
        return real(fun, args, need_source)
    monkeypatch.setattr(oracle, "_call_twice", counting)
    report = run.run_seeds(range(3))
    assert report.programs == 3
    assert len(calls) == 3         # unfused, fused and interpreted: one batch, each twice


def test_a_modified_input_is_a_finding():
    case = oracle.prepare(generate.program(7))
    snapshot = [np.array(x, copy=True) if isinstance(x, np.ndarray) else x
                for x in case.prog.inputs]
    assert oracle._inputs_intact(case, snapshot, "cpu", 7) == []
    i = next(i for i, x in enumerate(case.prog.inputs) if isinstance(x, np.ndarray))
    snapshot[i] = snapshot[i] + 1 if snapshot[i].dtype != np.bool_ else ~snapshot[i]
    assert [f.kind for f in oracle._inputs_intact(case, snapshot, "cpu", 7)] == \
        ["input-modified"]


def _contexts(prog):
    """Which of issue 20's contexts a program builds (ops_contexts.py, reductions' dtype=)."""
    found = set()
    values = generate.reference_values(prog)
    for node in prog.nodes:
        p = node.params
        if node.op == "const_chain" and p["dtype"] in ("uint64", "int64") and \
                p["then"] == "invert":
            found.add("invert-of-64-bit-constant")
        if node.op in ("sum", "prod") and p.get("dtype") == "bool":
            found.add("bool-reduction-dtype")
        if node.op == "scan_math" and p["reverse"] and \
                np.asarray(values[node.operands[0].index]).dtype.kind in "iu":
            found.add("reverse-scan-math-of-ints")
        if node.op == "cond_math" and p["math"] == "power":
            found.add("power-in-cond")
    return found


def test_generator_builds_issue_20_contexts():
    """Issue 20's wrong answers needed contexts the generator did not build: ~ of a 64-bit
    constant, a sum with dtype=bool, a transcendental of an integer inside a reversed scan,
    power inside a cond. Each appears in the first 1,000 seeds (all by seed 529)."""
    seen = set()
    for seed in range(1000):
        seen |= _contexts(generate.program(seed))
        if len(seen) == 4:
            break
    assert seen == {"invert-of-64-bit-constant", "bool-reduction-dtype",
                    "reverse-scan-math-of-ints", "power-in-cond"}


def test_fuzzer_finds_a_planted_precision_loss_in_a_region(monkeypatch):
    """A transcendental inside a scan computed in float32 where NumPy's loop is float64 (a
    2e-10-relative difference, as issue 20 reported) is a value finding on scan_math."""
    real = OPS["scan_math"].tp

    def in_float32(p, xs):
        if p["dtype"] != "float64":
            return real(p, xs)
        return real(dict(p, lit=np.float32(p["lit"])), xs.astype(np.float32)).astype(np.float64)
    _planted(monkeypatch, "scan_math", in_float32)
    seeds = [s for s in range(2000) if any(
        n.op == "scan_math" and n.params["dtype"] == "float64" and
        n.params["math"] not in ("sin", "cos", "tan") for n in generate.program(s).nodes)]
    report = run.run_seeds(seeds[:4])
    assert any(f.kind == "value" and f.op == "scan_math" for f in report.findings)


def test_references_refuse_what_numpy_leaves_undefined():
    """Found by the long run: a float summed with an integer dtype= casts NaN first (seed
    304475, undefined: not compared), and fori_loop bounds of int32 and uint64 have no common
    integer type (seed 308573, a TypeError transpile must raise too)."""
    params = {"axis": None, "keepdims": False, "method": False, "dtype": "uint32"}
    with pytest.raises(ValueError):
        OPS["sum"].ref(params, np.array([np.nan, 1.0]))
    assert OPS["sum"].ref(params, np.array([2.0, 3.5])) == 5
    loop = {"body": "elementwise", "op": "add", "index_op": "add"}
    with pytest.raises(TypeError):
        OPS["fori_loop"].ref(loop, np.zeros(2), np.zeros(2), np.int32(0), np.uint64(2))
    for seed in (304475, 308573):
        assert not run.run_seeds([seed]).findings
