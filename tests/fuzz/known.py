"""Issue 7's classes of wrong answers, as predicates over findings, and the classes that are
still open on this branch (the CI sample fails on any finding not listed as open here).

`ISSUE_CLASSES` says which class of the issue a finding belongs to (the fuzzer's proof of
strength: a run on the unfixed code finds every one). `OPEN` lists those not fixed yet, each
with a reproducer and the reason it is excluded; remove an entry when its fix lands.
"""
from __future__ import annotations

import dataclasses
from typing import Callable

REDUCTIONS = {"sum", "prod", "mean", "max", "min", "all", "any", "argmax", "argmin"}
COMPARISONS = {"equal", "not_equal", "less", "less_equal", "greater", "greater_equal"}


def _has(f, *features):
    return all(x in f.features for x in features)


ISSUE_CLASSES: dict[str, Callable] = {
    "1-race": lambda f: f.kind in ("race", "static-race") or (
        f.kind == "value" and f.op in REDUCTIONS and _has(f, "big")),
    "2-round-int": lambda f: f.op == "round" and _has(f, "negative-decimals"),
    "3-at-negative-index": lambda f: f.op == "at" and _has(f, "negative-index", "axis>=1"),
    "4-weak-results": lambda f: f.kind in ("dtype", "value") and (
        _has(f, "fn-of-python-scalars") or f.kind == "dtype" and _has(f, "weak-ancestry")),
    "5-python-int-arg-range": lambda f: f.op in COMPARISONS and _has(f, "python-scalar-arg",
                                                                     "out-of-range"),
    "6-0d-constant-dtype": lambda f: f.kind == "dtype" and (
        f.op in ("full", "like") or _has(f, "constant-only")),
    "7-clip": lambda f: f.op == "clip" and f.kind in ("dtype", "value", "signed-zero"),
    "8-negative-literal-u64": lambda f: f.op == "where" and f.backend != "interpret" and
    "uint64" in f.dtypes and _has(f, "literal"),
    "9-int-cast-folded": lambda f: f.kind in ("value", "signed-zero") and _has(
        f, "after-float-to-int-cast"),
    "10-interpret-where-u64": lambda f: f.backend == "interpret" and f.op == "where" and
    "uint64" in f.dtypes,
    "11-max-min-signed-zero": lambda f: f.kind == "signed-zero" and f.op in ("max", "min"),
    # The entry point did not declare inputs that only a loop's statements read: any op next
    # to a lax loop can show it.
    "E1-fori-traced-array-carry": lambda f: f.kind == "error" and "undeclared" in f.detail,
    "E2-float-literal-beyond-f32": lambda f: f.kind == "error" and "inff" in f.detail,
    "E3-int-beyond-int64": lambda f: f.kind == "error" and f.op != "clip" and
    "OverflowError" in f.detail and (_has(f, "out-of-range") or "too large" in f.detail),
    "E4-clip-overflow": lambda f: f.kind == "error" and f.op == "clip" and
    "OverflowError" in f.detail,
    "E5-8-bit-traced-index": lambda f: f.op in ("getitem", "at") and _has(f, "8-bit-index")
    and f.kind in ("error", "value"),
    "E6-arange-under-jit": lambda f: f.kind == "error" and f.op in ("getitem", "at") and
    _has(f, "from-arange"),
}


# Classes the fuzzer found on main beyond the issue's list (first seen while building it).
NEW_CLASSES: dict[str, Callable] = {
    "N1-empty-array-compile-error": lambda f: f.kind == "error" and
    "redefinition of parameter" in f.detail,
    "N2-c-compiler-warning": lambda f: f.kind == "error" and "compiler warned" in f.detail,
    "N3-no-raise": lambda f: f.kind == "no-raise",
    "N4-out-of-range-static-at-index": lambda f: f.kind == "error" and
    "dynamic_slice: slice sizes" in f.detail,
    "N5-u64-traced-index": lambda f: f.op in ("getitem", "at") and f.kind == "value" and
    "uint64" in f.dtypes and _has(f, "out-of-range-index"),
    # NumPy's non-ufunc products make a Python scalar a strong array (np.dot(u8, 3) is int64).
    "N6-scalar-product-weak": lambda f: f.op == "scalar_product" and f.kind == "dtype",
    # A function's result (virtually strong) passed into a lax region lost its strength.
    "N7-weak-in-regions": lambda f: f.op in ("fori_loop", "while_loop", "cond", "scan") and
    f.kind in ("value", "dtype") and _has(f, "fn-of-python-scalars"),
}


# Issue 20's classes (an independent fuzzer's findings), as this fuzzer sees them.
ISSUE20_CLASSES: dict[str, Callable] = {
    # An op whose C operand is a 64-bit literal computed in 32 bits (`~1u` on uint64).
    "20-1-64-bit-constant": lambda f: f.kind == "value" and f.op == "const_chain" and (
        _has(f, "constant-uint64") or _has(f, "constant-int64")),
    # A boolean sum or product with an arithmetic C accumulator (dtype=bool).
    "20-2-bool-accumulator": lambda f: f.kind == "value" and f.op in ("sum", "prod", "mean")
    and (_has(f, "reduce-dtype-bool") or "bool" in f.dtypes),
    # A transcendental op inside a region computed in another dtype or precision.
    "20-3-4-region-math": lambda f: f.kind in ("value", "dtype") and f.op in (
        "cond_math", "scan_math", "fori_math", "while_math"),
}
ISSUE_CLASSES.update(ISSUE20_CLASSES)


def issue_class(finding) -> str | None:
    for name, matches in {**ISSUE20_CLASSES, **ISSUE_CLASSES}.items():   # the specific first
        if matches(finding):
            return name
    return None


@dataclasses.dataclass(frozen=True)
class OpenClass:
    name: str             # the issue class (a key of ISSUE_CLASSES) or a new class's name
    reproducer: str       # Python that shows it
    reason: str           # why it is excluded from the CI sample for now
    matches: Callable = None

    def covers(self, finding) -> bool:
        if self.matches is not None:
            return self.matches(finding)
        return {**ISSUE_CLASSES, **NEW_CLASSES}[self.name](finding)


# Every class of the issue's list was found on main before its fixes (see the report in
# the fuzzer's README section) and is fixed; so are the classes above that the fuzzer found
# beyond it. A class found and not fixed yet is listed here with a reproducer (e.g.
# `OpenClass("N9-name", "reproduce(SEED, 'N9-name')", "why")`), so that the CI sample passes
# and the test fails once the reproducer stops failing.
OPEN: list[OpenClass] = []


def reproduce(seed: int, name: str) -> None:
    """Raise if the fuzzer's program `seed` still shows class `name` (a reproducer for classes
    without a hand-written one)."""
    from . import generate, oracle
    found, _ = oracle.check_batch([generate.program(seed)])
    matches = {**ISSUE_CLASSES, **NEW_CLASSES}[name]
    hits = [f for f in found if matches(f)]
    if hits:
        raise AssertionError(hits[0].summary())


def open_entry(finding) -> OpenClass | None:
    return next((o for o in OPEN if o.covers(finding)), None)


def jax_mode_wraps(f) -> bool:
    """Under JAX's rules (fuzz/jax_mode.py) a Python int outside its partner's range wraps, as
    in JAX; NumPy, the reference of the non-elementwise ops, refuses it: not a wrong answer."""
    if f.kind == "no-raise" and ("literal" in f.features or f.op in LAX_OPS):
        return True
    # An integer raised to a Python int literal beyond its dtype: JAX computes the exact power
    # (lax.integer_pow: int8 ** 256 is 0 for even bases, as transpile gives), where the
    # reference wraps the literal first (256 -> 0, so 1): seed 910676 on main, x32.
    if f.kind == "value" and f.op == "power" and _has(f, "literal", "out-of-range"):
        return True
    # A Python-int jit argument is traced: compared with an unsigned array it wraps into the
    # array's dtype, as in JAX (the reference compares the Python value exactly).
    return f.kind == "value" and f.op in COMPARISONS and _has(f, "python-scalar-arg",
                                                               "out-of-range")


LAX_OPS = {"cond", "while_loop", "fori_loop", "scan"}


def numpy_float16_partials(f) -> bool:
    """NumPy reduces float16 along a non-last axis one row at a time, rounding each partial
    sum or product to float16 (so it overflows to inf mid-way, or drifts); along the last axis
    it accumulates in float32 and rounds once, as transpile and JAX do on every axis. Where
    the two orders part, NumPy's is not the reference: not a wrong answer."""
    return f.kind == "value" and f.op in REDUCTIONS and "float16" in f.dtypes and \
        _has(f, "non-last-axis")
