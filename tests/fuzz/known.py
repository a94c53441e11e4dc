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
    "2-round-int": lambda f: f.op == "round" and _has(f, "negative-decimals") and any(
        d[0] in "iu" for d in f.dtypes),
    "3-at-negative-index": lambda f: f.op == "at" and _has(f, "negative-index", "axis>=1"),
    "4-weak-results": lambda f: f.kind in ("dtype", "value") and _has(f,
                                                                      "fn-of-python-scalars"),
    "5-python-int-arg-range": lambda f: f.op in COMPARISONS and _has(f, "python-scalar-arg",
                                                                     "out-of-range"),
    "6-0d-constant-dtype": lambda f: f.op in ("full", "like") and f.kind == "dtype",
    "7-clip": lambda f: f.op == "clip" and f.kind in ("dtype", "value", "signed-zero"),
    "8-negative-literal-u64": lambda f: f.op == "where" and f.backend != "interpret" and
    "uint64" in f.dtypes and _has(f, "literal"),
    "9-int-cast-folded": lambda f: f.backend == "cpu-fused" and _has(f,
                                                                     "after-float-to-int-cast"),
    "10-interpret-where-u64": lambda f: f.backend == "interpret" and f.op == "where" and
    "uint64" in f.dtypes,
    "11-max-min-signed-zero": lambda f: f.kind == "signed-zero" and f.op in ("max", "min"),
    "E1-fori-traced-array-carry": lambda f: f.kind == "error" and f.op == "fori_loop" and
    _has(f, "traced-bounds"),
    "E2-float-literal-beyond-f32": lambda f: f.kind == "error" and "inff" in f.detail,
    "E3-int-beyond-int64": lambda f: f.kind == "error" and f.op != "clip" and
    "OverflowError" in f.detail and _has(f, "out-of-range"),
    "E4-clip-overflow": lambda f: f.kind == "error" and f.op == "clip" and
    "OverflowError" in f.detail,
    "E5-8-bit-traced-index": lambda f: f.op in ("getitem", "at") and _has(f, "8-bit-index")
    and f.kind in ("error", "value"),
    "E6-arange-under-jit": lambda f: f.kind == "error" and f.op in ("getitem", "at") and
    _has(f, "from-arange"),
}


def issue_class(finding) -> str | None:
    for name, matches in ISSUE_CLASSES.items():
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
        return ISSUE_CLASSES[self.name](finding)


OPEN: list[OpenClass] = []


def open_entry(finding) -> OpenClass | None:
    return next((o for o in OPEN if o.covers(finding)), None)
