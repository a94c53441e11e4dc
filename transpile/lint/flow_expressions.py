"""Abstract evaluation of expressions: which traced inputs each value depends on.

Where Python itself needs a concrete value (a truth test, a chained comparison, a slice bound)
and gets a tainted one, a hazard is recorded; the rules turn hazards into findings.
"""

from __future__ import annotations

import ast

from .codes import HazardKind
from .flow_state import Frame
from .flow_values import CONCRETE, Taint, Value, container_of, join, of, taint_of, tuple_of

BOOL_OPS = {ast.And: HazardKind.AND, ast.Or: HazardKind.OR}
# Comparisons whose result Python computes without looking at a traced operand's value.
IDENTITY_OPS = (ast.Is, ast.IsNot)
MEMBERSHIP_OPS = (ast.In, ast.NotIn)


class ExpressionMixin:
    def eval(self, node: ast.expr, frame: Frame) -> Value:
        handler = self._expression_handlers.get(type(node))
        if handler is not None:
            return handler(self, node, frame)
        if isinstance(node, ast.Constant):
            return CONCRETE
        return self._eval_children(node, frame)

    def _eval_children(self, node: ast.AST, frame: Frame) -> Value:
        values = [self.eval(child, frame) for child in ast.iter_child_nodes(node) if isinstance(child, ast.expr)]
        return of(taint_of(values))

    def eval_test(self, node: ast.expr, frame: Frame) -> Taint:
        """Taint of an expression Python truth-tests as a whole (if/while/assert test).

        `and`/`or`/`not` inside it are part of that one test, so they are not reported again.
        """
        if isinstance(node, ast.BoolOp):
            taint = Taint()
            for value in node.values:
                taint = taint | self.eval_test(value, frame)
            return taint
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return self.eval_test(node.operand, frame)
        if isinstance(node, ast.Compare):
            return self._comparison(node, frame, in_test=True).taint
        value = self.eval(node, frame)
        if isinstance(node, ast.Attribute) and (node.attr not in self.leaf_fields or not value.taint):
            # `if state.dynamic_scale:` asks whether an optional pytree field is there (None or
            # not): that is structure, known while tracing, not a value. A field the module
            # declares as a scalar or an array (`flag: bool`) is a leaf, and its truth traced.
            return Taint()
        return truth_taint(value)

    def hazard(self, kind: HazardKind, node: ast.AST, taint: Taint, frame: Frame, detail: str = "") -> None:
        self.facts.add_hazard(kind, node, taint, detail, frame.function)

    def _name(self, node: ast.Name, frame: Frame) -> Value:
        return frame.lookup(node.id)

    def _attribute(self, node: ast.Attribute, frame: Frame) -> Value:
        base = self.eval(node.value, frame)
        if not base.taint or node.attr in self.static_attributes:
            return CONCRETE
        if node.attr in self.scalar_fields and self.sites.sites[frame.root].filtering:
            return CONCRETE  # filter_jit: a Python-scalar field of a module stays static
        return Value(base.taint)

    def _subscript(self, node: ast.Subscript, frame: Frame) -> Value:
        base = self.eval(node.value, frame)
        parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        index = CONCRETE
        for part in parts:
            value = self._subscript_part(node, part, frame)
            if value.mask and value.taint:
                # `x.at[mask].set(v)` fails the same way (it needs the mask's true positions).
                self.hazard(HazardKind.MASK, node, value.taint, frame, "at" if _is_at(node.value) else "")
            index = join(index, value)
        if len(parts) == 1:
            position = _literal_index(parts[0])
            if position is not None and base.items is not None:
                return base.item(position)
            if base.container and base.items is None and isinstance(parts[0], ast.Constant) and isinstance(parts[0].value, str):
                return Value(base.taint)  # params["w"]: one leaf of a dict pytree
        taint = base.taint | index.taint
        return Value(taint.as_array()) if taint else CONCRETE

    def _subscript_part(self, node: ast.Subscript, part: ast.expr, frame: Frame) -> Value:
        if not isinstance(part, ast.Slice):
            return self.eval(part, frame)
        bounds = [b for b in (part.lower, part.upper, part.step) if b is not None]
        taint = taint_of(self.eval(bound, frame) for bound in bounds)
        self.hazard(HazardKind.SLICE, node, taint, frame)
        return CONCRETE  # the reported bound must become static; do not cascade

    def _binary(self, node: ast.BinOp, frame: Frame) -> Value:
        left, right = self.eval(node.left, frame), self.eval(node.right, frame)
        taint = left.taint | right.taint
        # `@` only exists for arrays: its result is array data, not a scalar argument.
        if isinstance(node.op, ast.MatMult):
            return of(taint.as_array())
        if isinstance(node.op, (ast.BitAnd, ast.BitOr, ast.BitXor)) and (left.mask or right.mask) and taint:
            return Value(taint, mask=True)  # (x > 0) & (x < 1) is still a mask
        return of(taint)

    def _unary(self, node: ast.UnaryOp, frame: Frame) -> Value:
        operand = self.eval(node.operand, frame)
        if isinstance(node.op, ast.Not):
            self.hazard(HazardKind.NOT, node, truth_taint(operand), frame)
            return CONCRETE
        if isinstance(node.op, ast.Invert) and operand.mask:
            return operand
        return of(operand.taint)

    def _boolean(self, node: ast.BoolOp, frame: Frame) -> Value:
        # `a and b` truth-tests `a` and returns one of them; the last operand is only tested
        # by an enclosing test, which reports it there.
        result = CONCRETE
        for position, operand in enumerate(node.values):
            value = self.eval(operand, frame)
            if position < len(node.values) - 1:
                self.hazard(BOOL_OPS[type(node.op)], node, truth_taint(value), frame)
            result = join(result, value)
        return result

    def _comparison_value(self, node: ast.Compare, frame: Frame) -> Value:
        return self._comparison(node, frame, in_test=False)

    def _comparison(self, node: ast.Compare, frame: Frame, in_test: bool) -> Value:
        left = self.eval(node.left, frame)
        left_node = node.left
        taint = Taint()
        links: list[Taint] = []
        for operator, comparator in zip(node.ops, node.comparators):
            right = self.eval(comparator, frame)
            # `v.tag == "hello"`: arrays are never compared with strings, so this is metadata.
            strings = _is_string(left_node) or _is_string(comparator)
            link = Taint() if strings else _link_taint(operator, left, right)
            links.append(link)
            taint = taint | link
            left, left_node = right, comparator
        if len(links) > 1 and not in_test:
            # `a < b < c` is `(a < b) and (b < c)`: every link but the last is truth-tested.
            self.hazard(HazardKind.CHAIN, node, _join(links[:-1]), frame)
        return Value(taint, mask=True) if taint else CONCRETE

    def _if_exp(self, node: ast.IfExp, frame: Frame) -> Value:
        self.hazard(HazardKind.IFEXP, node, self.eval_test(node.test, frame), frame)
        return join(self.eval(node.body, frame), self.eval(node.orelse, frame))

    def _lambda(self, node: ast.Lambda, frame: Frame) -> Value:
        self.def_frames[node] = frame
        return Value(function=node)

    def _sequence(self, node: ast.Tuple | ast.List, frame: Frame) -> Value:
        values, starred = [], False
        for element in node.elts:
            if isinstance(element, ast.Starred):
                starred = True
                values.append(self.eval(element.value, frame).element())
            else:
                values.append(self.eval(element, frame))
        return container_of(taint_of(values)) if starred else tuple_of(values)

    def _set(self, node: ast.Set, frame: Frame) -> Value:
        return container_of(taint_of(self.eval(element, frame) for element in node.elts))

    def _dict(self, node: ast.Dict, frame: Frame) -> Value:
        taint = Taint()
        for key, value in zip(node.keys, node.values):
            if key is not None:
                taint = taint | self.eval(key, frame).taint
            taint = taint | self.eval(value, frame).taint
        return container_of(taint)

    def _comprehension(self, node, frame: Frame) -> Value:
        inner = Frame(frame.root, frame.function, parent=frame)
        outer = frame
        for generator in node.generators:
            iterable = self.eval(generator.iter, outer)
            self.assign(generator.target, iterable.element(), inner)
            for condition in generator.ifs:
                self.hazard(HazardKind.COMPIF, condition, self.eval_test(condition, inner), inner)
            outer = inner
        if isinstance(node, ast.DictComp):
            return container_of(self.eval(node.key, inner).taint | self.eval(node.value, inner).taint)
        return container_of(self.eval(node.elt, inner).taint)

    def _named(self, node: ast.NamedExpr, frame: Frame) -> Value:
        value = self.eval(node.value, frame)
        self.assign(node.target, value, frame)
        return value

    def _fstring(self, node: ast.JoinedStr, frame: Frame) -> Value:
        for part in node.values:
            if isinstance(part, ast.FormattedValue):
                value = self.eval(part.value, frame)  # f"{x}" of a tracer is fine ...
                if part.format_spec is not None:  # ... f"{x:.3f}" calls float formatting on it
                    self.eval(part.format_spec, frame)
                    self.hazard(HazardKind.CONVERT, part.value, value.taint, frame, "format()")
        return CONCRETE

    def _starred(self, node: ast.Starred, frame: Frame) -> Value:
        return self.eval(node.value, frame)

    _expression_handlers = {
        ast.Name: _name,
        ast.Attribute: _attribute,
        ast.Subscript: _subscript,
        ast.BinOp: _binary,
        ast.UnaryOp: _unary,
        ast.BoolOp: _boolean,
        ast.Compare: _comparison_value,
        ast.IfExp: _if_exp,
        ast.Lambda: _lambda,
        ast.Tuple: _sequence,
        ast.List: _sequence,
        ast.Set: _set,
        ast.Dict: _dict,
        ast.ListComp: _comprehension,
        ast.SetComp: _comprehension,
        ast.GeneratorExp: _comprehension,
        ast.DictComp: _comprehension,
        ast.NamedExpr: _named,
        ast.JoinedStr: _fstring,
        ast.Starred: _starred,
        ast.Call: lambda self, node, frame: self.eval_call(node, frame),
    }


def truth_taint(value: Value) -> Taint:
    """What `bool(value)` depends on: nothing for a Python container (its length decides)."""
    return Taint() if value.container else value.taint


def _link_taint(operator: ast.cmpop, left: Value, right: Value) -> Taint:
    if isinstance(operator, IDENTITY_OPS):
        return Taint()  # `x is None` never looks at a tracer's value
    if isinstance(operator, MEMBERSHIP_OPS) and (not left.taint or right.container):
        return Taint()  # `"w" in params`, `k in kwargs`: pytree keys are static
    return left.taint | right.taint


def _is_string(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes))


def _join(taints: list[Taint]) -> Taint:
    result = Taint()
    for taint in taints:
        result = result | taint
    return result


def _is_at(node: ast.expr) -> bool:
    """`x.at[...]`: the index of an update."""
    return isinstance(node, ast.Attribute) and node.attr == "at"


def _literal_index(node: ast.expr) -> int | None:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _literal_index(node.operand)
        return -inner if inner is not None else None
    return None
