"""Compile programs and check every value they produce.

Many programs are compiled into one jitted function (one gcc run per batch, which is what
makes the fuzzer fast); when a batch fails to trace or compile, each of its programs is
compiled alone to find which. Each program is compiled twice, unfused (every intermediate an
output) and fused (only the values no other op uses), and run by the interpreter; each
compiled function is called twice. Every value is checked against NumPy applied to the
compiled values of its own inputs, so one wrong op is one finding.
"""
from __future__ import annotations

import dataclasses
import re

import numpy as np

import transpile as tp

from . import compare
from .findings import Finding, error_class, error_detail, features, operand_dtypes
from .generate import Program, quiet, reference_values, runtime_flags, unquiet
from .ops import ACCUMULATE, EXACT, OPS, TRANSCENDENTAL, Lit, Ref, int_limit
from .values import WeakArray, is_pyscalar


@dataclasses.dataclass
class Case:
    """A program ready to check: its reference values and the nodes that compile."""
    prog: Program
    refs: list                     # NumPy values of inputs and body nodes
    runtime: list                  # which values are Python scalars that depend on arguments
    body: list                     # nodes without the final one NumPy raises on
    raises: object                 # that node, or None

    @property
    def n_in(self):
        return len(self.prog.inputs)

    def finals(self) -> list:
        used = {a.index for n in self.body for a in n.operands if isinstance(a, Ref)}
        return [k for k in range(len(self.body)) if self.n_in + k not in used]

    def fused_outputs(self) -> list:
        """What the fused variant returns: the values no other op uses, and every value that
        NumPy does not define bit for bit (float tolerances, undefined float->int casts).
        Fused code may compute those differently from the unfused code, within tolerance;
        the exact ops between them are then recomputed from the fused values (see
        `_fused_world`), so an exact op downstream is still checked bit for bit."""
        loose = {k for k, n in enumerate(self.body)
                 if OPS[n.op].tol != EXACT or n.op in PARTLY_UNDEFINED}
        return sorted(set(self.finals()) | loose)


def prepare(prog: Program) -> Case:
    refs = reference_values(prog)
    body = [n for n in prog.nodes if not n.expect_raise]
    raises = next((n for n in prog.nodes if n.expect_raise), None)
    return Case(prog, refs, runtime_flags(prog, refs), body, raises)


# -- building the jitted function ----------------------------------------------------------

def _run_body(case: Case, args, fused: bool):
    values = list(args)
    for node in case.body:
        operands = [values[a.index] if isinstance(a, Ref) else a.value for a in node.operands]
        values.append(OPS[node.op].tp(node.params, *operands))
    outs = values[case.n_in:]
    return [outs[k] for k in case.fused_outputs()] if fused else outs


def batch_function(cases, fused: bool):
    bounds, start = [], 0
    for c in cases:
        bounds.append((start, start + c.n_in))
        start += c.n_in

    def fuzz_batch(*args):
        outs = []
        for c, (lo, hi) in zip(cases, bounds):
            outs.extend(_run_body(c, args[lo:hi], fused))
        return outs
    return fuzz_batch


def _split(cases, flat, fused):
    out, i = [], 0
    for c in cases:
        n = len(c.fused_outputs()) if fused else len(c.body)
        out.append(list(flat[i:i + n]))
        i += n
    return out


def _all_inputs(cases):
    return [x for c in cases for x in c.prog.inputs]


# -- running ---------------------------------------------------------------------------------

@dataclasses.dataclass
class Run:
    """The outputs of one variant of one program, or the error it raised."""
    outs: list | None = None
    second: list | None = None
    error: BaseException | None = None
    source: str = ""


def _call_twice(fun, args, need_source):
    """Outputs of two calls, checking the first call's outputs survive the second."""
    first = fun(*args)
    kept = [np.array(o, copy=True) for o in first]
    second = fun(*args)
    source = fun.lower(*args).source if need_source else ""
    return kept, first, second, source


def run_variant(cases, backend: str, fused: bool) -> list[Run]:
    """Outputs per case; a batch that fails is split into its cases."""
    fun = tp.jit(batch_function(cases, fused), backend=backend)
    args = _all_inputs(cases)
    try:
        handles = quiet()
        try:
            kept, first, second, source = _call_twice(fun, args, backend == "cpu" and
                                                     not fused)
        finally:
            unquiet(handles)
    except Exception as e:            # noqa: BLE001 - every error is a finding or a split
        if len(cases) == 1:
            return [Run(error=e)]
        half = len(cases) // 2        # bisect: errors are rare, so few extra compiles
        return run_variant(cases[:half], backend, fused) + \
            run_variant(cases[half:], backend, fused)
    runs = []
    for outs, firsts, seconds in zip(_split(cases, kept, fused), _split(cases, first, fused),
                                     _split(cases, second, fused)):
        r = Run(outs=outs, second=seconds, source=source)
        r.first_after = firsts
        runs.append(r)
    return runs


# -- checking ----------------------------------------------------------------------------------

def _as_operand(compiled, ref):
    """A compiled value in the form NumPy saw: Python scalars stay Python scalars, and a value
    whose dtype was already reported wrong takes NumPy's dtype, so the error does not cascade
    into every op that uses it. A weakly typed reference (JAX's rules) keeps its mark."""
    if is_pyscalar(ref):
        return type(ref)(np.asarray(compiled).item())
    ref_dtype = np.asarray(ref).dtype
    if np.asarray(compiled).dtype != ref_dtype:
        compiled = np.asarray(compiled).astype(ref_dtype)
    return np.asarray(compiled).view(WeakArray) if isinstance(ref, WeakArray) else compiled


def _compiled_operands(case, node, outs):
    vals = []
    for a in node.operands:
        if isinstance(a, Lit):
            vals.append(a.value)
        elif a.index < case.n_in:
            vals.append(case.prog.inputs[a.index])
        else:
            vals.append(_as_operand(outs[a.index - case.n_in], case.refs[a.index]))
    return vals


# Ops whose NumPy answer is undefined in some elements (see _undefined_mask).
PARTLY_UNDEFINED = ("astype", "cast_math", "clip", "max", "min", "fmax", "fmin")


def _undefined_mask(node, operands, expected):
    """Elements to compare (None: all): NumPy's answer for the others is not defined."""
    if node.op == "clip":
        return _clip_tie_mask(operands, expected)
    if node.op in ("max", "min"):
        return _last_axis_zero_mask(node, operands, expected)
    if node.op in ("fmax", "fmin"):
        return _mixed_zero_mask(operands, expected)
    return _cast_mask(node, operands, expected)


def _mixed_zero_mask(operands, expected):
    """fmax/fmin of -0.0 and +0.0: C's fmax may return either, and NumPy's own loops differ
    (np.fmax(-0.0, 0.0) is -0.0 in float64, 0.0 in float32, and another answer again on
    arrays long enough for SIMD): such results are not compared (seeds 620624, 621292)."""
    a, b = (np.asarray(v) for v in operands)
    if np.asarray(expected).dtype.kind != "f":
        return None
    with np.errstate(invalid="ignore"):
        return ~((a == 0) & (b == 0) & (np.signbit(a) != np.signbit(b)))


def _last_axis_zero_mask(node, operands, expected):
    """Along the last axis NumPy's SIMD max/min may return either zero when both signs are
    there (README: deliberate differences); such results are not compared."""
    x = np.asarray(operands[0])
    axis, keep = node.params["axis"], node.params["keepdims"]
    axes = tuple(range(x.ndim)) if axis is None else axis if isinstance(axis, tuple) else \
        (axis,)
    if x.dtype.kind != "f" or x.ndim == 0 or (x.ndim - 1) not in [a % x.ndim for a in axes]:
        return None
    both = np.any((x == 0) & np.signbit(x), axis=axis, keepdims=keep) & \
        np.any((x == 0) & ~np.signbit(x), axis=axis, keepdims=keep)
    return ~both | (np.asarray(expected) != 0)


def _clip_tie_mask(operands, expected):
    """On a tie NumPy's clip keeps x when its loop sees scalar bounds and takes the bound when
    it sees arrays (only the sign of a zero shows it). Which loop runs depends on its
    iterator's strides when a bound is an array broadcast against x, or when every operand
    has one element (README: deliberate differences): zero results there are not compared."""
    x, lo, hi = (np.asarray(v) for v in operands)
    out = np.asarray(expected)
    if out.dtype.kind != "f":
        return None
    plain = lambda b: b.size == 1 or b.shape == out.shape    # noqa: E731
    if out.size != 1 and plain(lo) and plain(hi):
        return None
    return out != 0


def _cast_mask(node, operands, expected):
    """Float->int casts of NaN, inf or out-of-range values are undefined in NumPy (and differ
    between its own loops): those elements are not compared."""
    if node.op not in ("astype", "cast_math"):
        return None
    # The dtype the program got: without x64, JAX's rules narrow uint64 to uint32 (seed
    # 820271: 9.2e18 fits the one and not the other).
    src, dst = np.asarray(operands[0]), tp.dtypes.canonicalize(np.dtype(node.params["dtype"]))
    if src.dtype.kind != "f" or dst.kind not in "iu":
        return None
    info = np.iinfo(dst)
    with np.errstate(invalid="ignore", over="ignore"):    # float16: the bounds may be inf
        return np.isfinite(src) & (np.trunc(src) >= info.min) & (np.trunc(src) < int_limit(info))


def _rounds_upstream(case, k) -> bool:
    """Does an op that may round differently by its evaluation order (a sum, a product, a
    transcendental function) feed node k? In the fused variant such an ancestor is recomputed
    inside k's kernel, possibly in another order than the unfused value k is checked against
    (seed 8775: a dot of 1-d arrays as a product kernel, then fused into a reduction)."""
    stack, seen = [k], set()
    while stack:
        node = case.body[stack.pop()]
        for a in node.operands:
            j = a.index - case.n_in if isinstance(a, Ref) else -1
            if j >= 0 and j not in seen:
                seen.add(j)
                if OPS[case.body[j].op].tol != EXACT:
                    return True
                stack.append(j)
    return False


def check_node(case, k, actual, outs, backend, seed) -> Finding | None:
    node = case.body[k]
    op = OPS[node.op]
    if backend == "cpu-fused" and op.tol == EXACT and _rounds_upstream(case, k):
        op = dataclasses.replace(op, tol=TRANSCENDENTAL)   # a few ulp, as its ancestor
    operands = _compiled_operands(case, node, outs)
    handles = quiet()
    try:
        expected = op.ref(node.params, *operands)
        scale = op.scale(node.params, *operands) if op.tol == ACCUMULATE else None
    except Exception:                 # noqa: BLE001 - an upstream difference broke the op
        return None
    finally:
        unquiet(handles)
    if isinstance(expected, int) and not isinstance(expected, bool) and \
            not -2**63 <= expected < 2**63:
        return None
    terms = max(1, int(np.size(operands[0]) // max(1, np.size(expected)))) if operands else 1
    problem = compare.mismatch(actual, expected, op.tol, scale, terms,
                               _undefined_mask(node, operands, expected))
    if problem is None:
        return None
    kind = problem.split(":")[0]
    if kind.startswith("dtype"):
        kind = "dtype"
    elif kind.startswith("shape"):
        kind = "shape"
    return Finding(kind, node.op, backend, operand_dtypes(node.operands, case.refs),
                   features(case.prog, node, case.refs, case.runtime, expected),
                   problem, seed, case.n_in + k)


def _check_outputs(case, run, outs_for_inputs, backend, fused, seed):
    findings = []
    index = case.fused_outputs() if fused else range(len(case.body))
    for j, k in enumerate(index):
        f = check_node(case, k, run.outs[j], outs_for_inputs, backend, seed)
        if f is not None:
            findings.append(f)
        if run.second is not None and not compare.same_results(run.outs[j], run.second[j]):
            findings.append(_whole(case, "race", backend, seed, k,
                                   "the second call gave different values"))
        first_after = getattr(run, "first_after", None)
        if first_after is not None and not compare.same_results(run.outs[j], first_after[j]):
            findings.append(_whole(case, "output-reused", backend, seed, k,
                                   "the first call's output changed during the second call"))
    return findings


def _whole(case, kind, backend, seed, k, detail):
    node = case.body[k] if 0 <= k < len(case.body) else None
    op = node.op if node is not None else (case.body[0].op if case.body else "-")
    dts = operand_dtypes(node.operands, case.refs) if node is not None else ()
    feats = features(case.prog, node, case.refs, case.runtime) if node is not None else \
        frozenset()
    return Finding(kind, op, backend, dts, feats, detail, seed, case.n_in + max(k, 0))


def _error_finding(case, e, backend, seed):
    """Transpile raised where NumPy gave a result: blame the first op whose lone program
    raises the same (found by tracing prefixes, which is cheap)."""
    k = _first_failing_node(case)
    f = _whole(case, "error", backend, seed, k, error_detail(e))
    f.features = f.features | {error_class(e)}
    return f


def _trace_error(case):
    handles = quiet()
    try:
        tp.make_ir(batch_function([case], False))(*case.prog.inputs)
        return None
    except Exception as e:            # noqa: BLE001 - an error where NumPy gave a result
        return e
    finally:
        unquiet(handles)


def _first_failing_node(case) -> int:
    for k in range(1, len(case.body) + 1):
        prefix = Case(case.prog, case.refs, case.runtime, case.body[:k], None)
        try:
            handles = quiet()
            try:
                tp.make_ir(batch_function([prefix], False))(*case.prog.inputs)
            finally:
                unquiet(handles)
        except Exception:             # noqa: BLE001
            return k - 1
    return len(case.body) - 1


def _check_raises(case, seed) -> Finding | None:
    """NumPy raised a type-level error: transpile must raise while tracing too."""
    prefix = Case(case.prog, case.refs, case.runtime, case.body + [case.raises], None)
    try:
        handles = quiet()
        try:
            tp.make_ir(batch_function([prefix], False))(*case.prog.inputs)
        finally:
            unquiet(handles)
    except Exception:                 # noqa: BLE001 - raising is the right answer
        return None
    node = case.raises
    return Finding("no-raise", node.op, "trace", operand_dtypes(node.operands, case.refs),
                   features(case.prog, node, case.refs, case.runtime),
                   "NumPy raises; transpile returned a value", seed,
                   case.n_in + len(case.body))


def _inputs_intact(case, snapshot, backend, seed):
    for i, (x, copy) in enumerate(zip(case.prog.inputs, snapshot)):
        if isinstance(x, np.ndarray) and not compare.same_results(x, copy):
            return [_whole(case, "input-modified", backend, seed, -1, f"input in{i} changed")]
    return []


_SHARED_WRITE = re.compile(r"^\s*(?:[a-z0-9_]+_t|double|float|bool) (\w+) = ", re.M)


def static_races(source: str) -> list[tuple[str, str]]:
    """(variable, primitive) for each scalar declared outside an `omp parallel for` and
    updated inside it without a `reduction` clause: a data race whatever the timing."""
    races = []
    for m in re.finditer(r"#pragma omp parallel for([^\n]*)\n", source):
        clause = m.group(1)
        before = source[:m.start()]
        kernel_start = max(before.rfind("\nstatic "), 0)      # the kernel's definition
        header = re.findall(r"= (\w+) at ", before)
        declared = set(_SHARED_WRITE.findall(before[kernel_start:]))
        body = _loop_block(source, m.end())
        for name in declared:
            if re.search(rf"\b{name}\s*(?:[-+*|&^]?=)(?!=)", body) and \
                    not re.search(rf"reduction\([^)]*\b{name}\b", clause):
                races.append((name, header[-1] if header else "-"))
    return races


def _loop_block(source, start):
    depth, i = 0, source.index("{", start)
    for j in range(i, len(source)):
        depth += {"{": 1, "}": -1}.get(source[j], 0)
        if depth == 0:
            return source[i:j]
    return source[i:]


def check_batch(programs) -> tuple[list[Finding], int]:
    """All findings for these programs, and how many programs were checked."""
    cases = [prepare(p) for p in programs]
    findings = []
    for c in cases:
        if c.raises is not None:
            f = _check_raises(c, c.prog.seed)
            if f is not None:
                findings.append(f)
    cases = [c for c in cases if c.body]
    traced = []
    for c in cases:               # tracing errors first, alone: a batch would hide the rest
        error = _trace_error(c)
        if error is None:
            traced.append(c)
        else:
            findings.append(_error_finding(c, error, "trace", c.prog.seed))
    cases = traced
    if not cases:
        return findings, len(programs)
    snapshots = [[np.array(x, copy=True) if isinstance(x, np.ndarray) else x
                  for x in c.prog.inputs] for c in cases]
    unfused = run_variant(cases, "cpu", fused=False)
    fused = run_variant(cases, "cpu", fused=True)
    interp = run_variant(cases, "interpret", fused=False)
    for c, snap, u, f, it in zip(cases, snapshots, unfused, fused, interp):
        seed = c.prog.seed
        findings += _check_case(c, u, f, it, seed)
        findings += _inputs_intact(c, snap, "cpu", seed)
    return findings, len(programs)


def _check_case(case, unfused, fused, interp, seed):
    findings = []
    for run, backend in ((unfused, "cpu"), (interp, "interpret")):
        if run.error is not None:
            findings.append(_error_finding(case, run.error, backend, seed))
        else:
            findings += _check_outputs(case, run, run.outs, backend, False, seed)
    if unfused.error is None and fused.error is None:
        world = _fused_world(case, fused.outs, unfused.outs)
        findings += _check_outputs(case, fused, world, "cpu-fused", True, seed)
    elif fused.error is not None and unfused.error is None:
        findings.append(_error_finding(case, fused.error, "cpu-fused", seed))
    if unfused.source and static_races(unfused.source):
        findings += _static_race_findings(case, seed)
    return findings


def _fused_world(case, fused_outs, unfused_outs) -> list:
    """Every body value as the fused code saw it: its outputs, and the exact ops between them.
    Such an op whose inputs are the unfused run's keeps its unfused value (so that a wrong op
    is blamed once, by the unfused check); one whose inputs differ (a fused float sum in
    another order) is recomputed by NumPy from them, bit-exact by the contract. An op whose
    reference fails on these values keeps the unfused value."""
    given = dict(zip(case.fused_outputs(), fused_outs))
    world = []
    for k, node in enumerate(case.body):
        if k in given:
            world.append(given[k])
            continue
        refs = [a.index - case.n_in for a in node.operands
                if isinstance(a, Ref) and a.index >= case.n_in]
        if all(compare.same_results(world[j], unfused_outs[j]) for j in refs):
            world.append(unfused_outs[k])
            continue
        handles = quiet()
        try:
            world.append(OPS[node.op].ref(node.params, *_compiled_operands(case, node, world)))
        except Exception:             # noqa: BLE001 - an upstream difference broke the op
            world.append(unfused_outs[k])
        finally:
            unquiet(handles)
    return world


def _static_race_findings(case, seed):
    """The batch's C has a race: find it in this program's own C (tracing only)."""
    fun = tp.jit(batch_function([case], False))
    try:
        source = fun.lower(*case.prog.inputs).source
    except Exception:                 # noqa: BLE001 - reported as an error already
        return []
    findings = []
    for name, prim in static_races(source):
        f = _whole(case, "static-race", "cpu", seed, -1,
                   f"'{name}' is updated in an omp parallel for without a reduction clause")
        f.op = prim
        findings.append(f)
    return findings
