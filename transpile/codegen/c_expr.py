"""C text for scalar expressions and loop indices: the pieces every C-like dialect shares.

`ExprRenderer` walks an expression DAG once, naming each non-trivial node as a `const`
local so shared subexpressions are computed once per iteration; `LoopSpace` merges
adjacent loops that every index treats as one flat dimension and renders indices over
the merged loop variables.
"""
from __future__ import annotations

import itertools
import math
import os

import numpy as np

from .c_comment import comment_text
from .c_ops import C_TYPE, op_headers, op_rule, render_cast, render_literal, type_headers
from .kernel_ir import Affine, Expr, children, walk

INDENT = "    "
BOOL = np.dtype(bool)


class Lines:
    """An indented line buffer (`with lines.block("for (...)"):` opens and closes braces)."""

    def __init__(self):
        self.lines: list[str] = []
        self.depth = 0

    def add(self, text: str = "") -> None:
        self.lines.append(INDENT * self.depth + text if text else "")

    def block(self, head: str):
        lines = self

        class _Block:
            def __enter__(self):
                lines.add(f"{head} {{" if head else "{")
                lines.depth += 1

            def __exit__(self, *exc):
                lines.depth -= 1
                lines.add("}")
        return _Block()

    def text(self) -> str:
        return "\n".join(self.lines)


# -- loop variables (merged: loop_nest.py) ------------------------------------------------

class LoopSpace:
    """Loop variables after merging: names, extents, and how to render an Affine over them."""

    def __init__(self, extents, groups, lifted=None):
        self.groups = groups
        self.extents = [math.prod(extents[d] for d in g) for g in groups]
        self.names = [f"i{k}" for k in range(len(groups))]
        # merged loop -> the parameter its trip count is passed in (a shared kernel's)
        self.lifted = lifted or {}

    def extent_text(self, k: int) -> str:
        """Merged loop k's trip count as the kernel spells it."""
        return self.lifted.get(k, str(self.extents[k]))

    def render(self, a: Affine, expr_renderer=None) -> str:
        terms = []
        for name, g in zip(self.names, self.groups if a.coeffs else ()):
            c = a.coeffs[g[-1]]
            if c:
                terms.append(name if c == 1 else f"{c} * {name}" if c > 0 else f"({c}) * {name}")
        for e, k in a.dyn:
            name = expr_renderer(e)
            terms.append(name if k == 1 else f"{k} * {name}" if k > 0 else f"({k}) * {name}")
        if a.const or not terms:
            terms.append(str(a.const))
        return " + ".join(terms).replace("+ -", "- ")


# -- expressions -----------------------------------------------------------------------------

class ExprRenderer:
    """Emits one `const T vN = ...;` per expression node, reusing equal nodes. Adds to
    `headers` every runtime header a type or operation it spells is declared in."""

    def __init__(self, lines: Lines, space: LoopSpace, counter, headers: set,
                 by_value=frozenset()):
        self.lines, self.space, self.counter = lines, space, counter
        self.headers = headers
        self.by_value = by_value          # names of scalars the kernel takes by value
        self.names: dict[Expr, str] = {}

    def __call__(self, e: Expr) -> str:
        """The C name (or literal text) of `e`, after the lines that compute it. Operands
        are named first, depth first and in the order the text reads them, on an explicit
        stack: an unrolled loop makes expressions thousands of levels deep."""
        text = self._named(e)
        if text is not None:
            return text
        stack = [(e, False)]
        while stack:
            node, ready = stack.pop()
            if ready:
                self._emit(node)
            elif node not in self.names:
                stack.append((node, True))
                stack.extend((c, False) for c in reversed(children(node))
                             if self._named(c) is None)
        return self.names[e]

    def _named(self, e: Expr) -> str | None:
        """The text of a node that needs no line of its own (or has one already)."""
        if e.kind == "lit":
            self.headers.update(type_headers(e.dtype))
            return render_literal(e.args[0], e.dtype)
        if e.kind == "var":
            return e.args[0]
        return self.names.get(e)

    def _emit(self, e: Expr) -> None:
        """One `const` line for `e`, whose operands all have names by now."""
        if e in self.names:          # reached twice before its first line was written
            return
        text = self._text(e)
        name = f"v{next(self.counter)}"
        self.headers.update(type_headers(e.dtype))
        where = f"  /* {_short_source(e.source)} */" if e.source is not None else ""
        self.lines.add(f"const {C_TYPE[e.dtype]} {name} = {text};{where}")
        self.names[e] = name

    def _text(self, e: Expr) -> str:
        if e.kind == "load":
            buf, index = e.args
            if buf.name in self.by_value:
                return buf.name
            # gcc 12 vectorises no loop that loads a `bool` into a wider context (a masked
            # sum, a select of doubles): read as bytes, which a bool's 0 or 1 is, it does.
            base = f"((const uint8_t *){buf.name})" if buf.dtype == BOOL else buf.name
            return f"{base}[{self.space.render(index, self)}]"
        if e.kind == "index":
            return f"({C_TYPE[e.dtype]})({self.space.render(e.args[0], self)})"
        if e.kind == "cast":
            (x,) = e.args
            self.headers.update(type_headers(x.dtype))
            return render_cast(self(x), x.dtype, e.dtype)
        if e.kind == "select":
            p, t, f = (self(x) for x in e.args)
            return f"{p} ? {t} : {f}"
        name, operands, loop = e.args
        self.headers.update(op_headers(name, loop, e.dtype))
        return op_rule(name, loop)([self(x) for x in operands], loop, e.dtype)


def _short_source(source) -> str:
    """`file.py:12`, escaped: file names are the user's and go inside comments."""
    return comment_text(f"{os.path.basename(source.filename)}:{source.lineno}")


def buffers_of(expr: Expr, out: set) -> set:
    """The Buffers `expr` loads from, added to `out`."""
    out.update(e.args[0] for e in walk(expr) if e.kind == "load")
    return out




def counter():
    return itertools.count()
