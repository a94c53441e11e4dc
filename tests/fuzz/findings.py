"""What a difference from NumPy is, and which class it belongs to.

A finding's class is (kind, op, backend, dtype kinds of its operands, features): features
say what was unusual about the operands (a non-contiguous or reversed input view, a size on
the parallel side of the threshold, a Python scalar argument, an out-of-range literal, a
traced loop bound, a negative traced index...). One class is one bug, usually; the first
seed of each class is kept for its reproducer.
"""
from __future__ import annotations

import dataclasses
import re

import numpy as np

from .ops import Lit, Ref
from .values import is_big, is_pyscalar

KINDS = ("value", "dtype", "shape", "signed-zero", "error", "no-raise", "race",
         "static-race", "output-reused", "input-modified")


@dataclasses.dataclass
class Finding:
    kind: str              # one of KINDS
    op: str                # the op whose value differs (or the program's first op on errors)
    backend: str           # cpu / cpu-fused / interpret
    dtypes: tuple          # operand dtypes (names)
    features: frozenset
    detail: str
    seed: int
    node: int = -1

    @property
    def dtype_class(self) -> str:
        return ",".join(sorted({_kind_letter(d) for d in self.dtypes})) or "-"

    @property
    def key(self) -> str:
        feats = ":".join(sorted(self.features))
        return f"{self.kind}:{self.op}:{self.backend}:{self.dtype_class}" + \
            (f":{feats}" if feats else "")

    def summary(self) -> str:
        return f"{self.key}  (seed {self.seed}, node v{self.node}) {self.detail}"


def _kind_letter(name: str) -> str:
    if name in ("bool", "py-bool"):
        return "b"
    if name.startswith("py-"):
        return "py" + name[3]
    return np.dtype(name).kind + str(np.dtype(name).itemsize * 8)


def operand_dtypes(operands, values) -> tuple:
    out = []
    for a in operands:
        v = values[a.index] if isinstance(a, Ref) else a.value
        if v is None:
            continue
        if is_pyscalar(v):
            out.append("py-" + type(v).__name__)
        else:
            out.append(np.asarray(v).dtype.name)
    return tuple(out)


def features(prog, node, values, runtime, expected=None) -> frozenset:
    """What was unusual about this node's operands."""
    feats = set()
    n_in = len(prog.inputs)
    arrays = []
    for a in node.operands:
        if isinstance(a, Lit):
            if a.value is not None:
                feats.add("literal")
                if _edge_literal(a.value, node, values):
                    feats.add("out-of-range")
            continue
        v = values[a.index]
        if a.index < n_in and prog.layouts[a.index] in ("strided", "transposed") and \
                np.ndim(v) > 0:
            feats.add("non-contiguous")
        if a.index < n_in and prog.layouts[a.index] == "reversed" and np.ndim(v) > 0:
            feats.add("reversed")
        if runtime[a.index]:
            feats.add("python-scalar-arg")
            if _edge_literal(v, node, values):
                feats.add("out-of-range")
        elif a.index >= n_in:
            roots = _roots(prog, a.index)
            if "array" not in roots:
                feats.add("fn-of-python-scalars" if "scalar" in roots else "constant-only")
            elif "weak" in roots:
                feats.add("weak-ancestry")
        if a.index >= n_in:
            feats |= _producer_features(prog.nodes[a.index - n_in], values)
        if is_big(v):
            feats.add("big")
        if not is_pyscalar(v):
            arrays.append(np.asarray(v))
    if expected is not None and is_big(np.asarray(expected)):
        feats.add("big")
    if arrays and all(x.ndim == 0 for x in arrays):
        feats.add("0-d")
    feats |= _op_features(node, values, n_in)
    return frozenset(feats)


def _producer_features(producer, values) -> set:
    """What made an operand: a float->int cast, or arange/linspace."""
    if producer.op == "arange":
        return {"from-arange"}
    if producer.op == "astype":
        src = producer.operands[0]
        src = src.value if isinstance(src, Lit) else values[src.index]
        if np.asarray(src).dtype.kind == "f" and np.dtype(producer.params["dtype"]).kind in "iu":
            return {"after-float-to-int-cast"}
    return set()


def _edge_literal(value, node, values) -> bool:
    """An int outside an integer partner's range, or a float outside float32's."""
    partners = [np.asarray(values[a.index]).dtype for a in node.operands
                if isinstance(a, Ref) and not is_pyscalar(values[a.index])]
    if type(value) is int:
        return any(d.kind in "iu" and not np.iinfo(d).min <= value <= np.iinfo(d).max
                   for d in partners) or not -2**63 <= value < 2**63
    if type(value) is float:
        return not np.isfinite(value) or abs(value) > 3.4e38 or (value == 0 and
                                                                  np.signbit(value))
    return False


def _roots(prog, index) -> set:
    """Where a value comes from: program arrays, Python-scalar arguments, or neither
    (literals and creation ops only)."""
    n_in, roots, todo, seen = len(prog.inputs), set(), [index], set()
    while todo:
        i = todo.pop()
        if i in seen:
            continue
        seen.add(i)
        if i < n_in:
            roots.add("scalar" if is_pyscalar(prog.inputs[i]) else "array")
            continue
        operands = prog.nodes[i - n_in].operands
        if any(isinstance(a, Lit) and a.value is not None or isinstance(a, Ref) and a.index <
               n_in and is_pyscalar(prog.inputs[a.index]) for a in operands):
            roots.add("weak")         # a Python scalar met an op somewhere upstream
        todo += [a.index for a in operands if isinstance(a, Ref)]
    return roots


def _op_features(node, values, n_in) -> set:
    feats = set()
    if node.op in ("fori_loop", "while_loop"):
        bounds = node.operands[2:] if node.op == "fori_loop" else node.operands[1:]
        if any(isinstance(b, Ref) for b in bounds):
            feats.add("traced-bounds")
        if node.op == "fori_loop":
            feats.add(f"body-{node.params['body']}")
    if node.op in ("getitem", "at"):
        i = node.operands[1]
        if isinstance(i, Ref):
            feats.add("traced-index")
            iv = int(values[i.index])
            if iv < 0:
                feats.add("negative-index")
            key = node.params["key"]
            shape = np.shape(values[node.operands[0].index])
            traced_dims = [d for d, k in enumerate(key) if k == "T"]
            if any(not -shape[d] <= iv < shape[d] for d in traced_dims):
                feats.add("out-of-range-index")
            if any(d >= 1 for d in traced_dims):
                feats.add("axis>=1")
            if not isinstance(values[i.index], (bool, int)) and \
                    np.asarray(values[i.index]).dtype.itemsize == 1:
                feats.add("8-bit-index")
    if node.op in ("sum", "prod", "mean", "max", "min", "all", "any", "argmax", "argmin"):
        axis = node.params["axis"]
        ndim = np.ndim(values[node.operands[0].index])
        if axis is None or isinstance(axis, tuple):
            feats.add("all-axes" if axis is None else "several-axes")
        elif axis % max(ndim, 1) != ndim - 1:
            feats.add("non-last-axis")
    if node.op in ("sum", "prod", "mean") and node.params.get("dtype") is not None:
        feats.add(f"reduce-dtype-{node.params['dtype']}")
    if node.op == "const_chain":
        feats.add(f"constant-{node.params['dtype']}")
        feats.add(f"then-{node.params['then']}")
    if node.op.endswith("_math") and node.op != "cast_math":
        feats.add(f"region-{node.params['math']}")
        if node.params.get("reverse"):
            feats.add("reverse")
    if node.op == "cast_math":
        feats.add("after-float-to-int-cast")
    if node.op == "round":
        feats.add("negative-decimals" if node.params["decimals"] < 0 else "decimals")
    return feats


def error_detail(e: BaseException) -> str:
    """The exception type and the first line that names the problem, without numbers."""
    text = str(e)
    m = re.search(r"error: ([^\n]*)", text)
    line = m.group(1) if m else text.strip().splitlines()[0] if text.strip() else ""
    line = re.sub(r"'[^']*'", "'…'", line)
    line = re.sub(r"\d+", "N", line)[:90]
    return f"{type(e).__name__}: {line}"


def error_class(e: BaseException) -> str:
    """A short slug of the error, for the class key."""
    slug = re.sub(r"[^a-z]+", "-", error_detail(e).split(":", 1)[1].lower()).strip("-")
    return type(e).__name__ + ":" + "-".join(slug.split("-")[:4])


def deduplicate(findings) -> dict:
    """{class key: [findings]} with the first one (lowest seed) first."""
    classes: dict = {}
    for f in sorted(findings, key=lambda f: (f.seed, f.node)):
        classes.setdefault(f.key, []).append(f)
    return classes
