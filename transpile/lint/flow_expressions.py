"""Abstract evaluation of expressions: which traced inputs each value depends on.

Where Python itself needs a concrete value (a truth test, a chained comparison, a slice bound)
and gets a tainted one, a hazard is recorded; the rules turn hazards into findings.
"""

from __future__ import annotations

import libcst as cst

from .flow_state import Frame
from .flow_tables import STATIC_ATTRIBUTES
from .flow_values import CONCRETE, Taint, Value, container_of, join, of, taint_of, tuple_of

LITERALS = (
    cst.Integer, cst.Float, cst.Imaginary, cst.SimpleString, cst.ConcatenatedString, cst.Ellipsis,
)  # fmt: skip
BOOL_OPS = {cst.And: "and", cst.Or: "or"}
# Comparisons whose result Python computes without looking at a traced operand's value.
IDENTITY_OPS = (cst.Is, cst.IsNot)
MEMBERSHIP_OPS = (cst.In, cst.NotIn)


class ExpressionMixin:
    def eval(self, node: cst.BaseExpression, frame: Frame) -> Value:
        handler = self._expression_handlers.get(type(node))
        if handler is not None:
            return handler(self, node, frame)
        if isinstance(node, LITERALS):
            return CONCRETE
        return self._eval_children(node, frame)

    def _eval_children(self, node: cst.CSTNode, frame: Frame) -> Value:
        values = [self.eval(child, frame) for child in node.children if isinstance(child, cst.BaseExpression)]
        return of(taint_of(values))

    def eval_test(self, node: cst.BaseExpression, frame: Frame) -> Taint:
        """Taint of an expression Python truth-tests as a whole (if/while/assert test).

        `and`/`or`/`not` inside it are part of that one test, so they are not reported again.
        """
        if isinstance(node, cst.BooleanOperation):
            return self.eval_test(node.left, frame) | self.eval_test(node.right, frame)
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not):
            return self.eval_test(node.expression, frame)
        if isinstance(node, cst.Comparison):
            return self._comparison(node, frame, in_test=True).taint
        return truth_taint(self.eval(node, frame))

    def hazard(self, kind: str, node: cst.CSTNode, taint: Taint, frame: Frame, detail: str = "") -> None:
        self.facts.add_hazard(kind, node, taint, detail, frame.function)

    def _name(self, node: cst.Name, frame: Frame) -> Value:
        return frame.lookup(node.value)

    def _attribute(self, node: cst.Attribute, frame: Frame) -> Value:
        base = self.eval(node.value, frame)
        if node.attr.value in STATIC_ATTRIBUTES or not base.taint:
            return CONCRETE
        return Value(base.taint)

    def _subscript(self, node: cst.Subscript, frame: Frame) -> Value:
        base = self.eval(node.value, frame)
        index = CONCRETE
        for element in node.slice:
            index = join(index, self._subscript_element(node, element.slice, frame))
        if len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index):
            position = _literal_index(node.slice[0].slice.value)
            if position is not None and base.items is not None:
                return base.item(position)
        taint = base.taint | index.taint
        return Value(taint.as_array()) if taint else CONCRETE

    def _subscript_element(self, node: cst.Subscript, part: cst.BaseSlice, frame: Frame) -> Value:
        if isinstance(part, cst.Index):
            return self.eval(part.value, frame)
        bounds = [b for b in (part.lower, part.upper, part.step) if b is not None]
        taint = taint_of(self.eval(bound, frame) for bound in bounds)
        self.hazard("slice", node, taint, frame)
        return CONCRETE  # the reported bound must become static; do not cascade

    def _binary(self, node: cst.BinaryOperation, frame: Frame) -> Value:
        taint = self.eval(node.left, frame).taint | self.eval(node.right, frame).taint
        # `@` only exists for arrays: its result is array data, not a scalar argument.
        return of(taint.as_array() if isinstance(node.operator, cst.MatrixMultiply) else taint)

    def _unary(self, node: cst.UnaryOperation, frame: Frame) -> Value:
        operand = self.eval(node.expression, frame)
        if isinstance(node.operator, cst.Not):
            self.hazard("not", node, truth_taint(operand), frame)
            return CONCRETE
        return of(operand.taint)

    def _boolean(self, node: cst.BooleanOperation, frame: Frame) -> Value:
        # `a and b` truth-tests `a` and returns one of them; `b` is only tested by an enclosing
        # test, which reports it there.
        left = self.eval(node.left, frame)
        self.hazard(BOOL_OPS[type(node.operator)], node, truth_taint(left), frame)
        right = self.eval(node.right, frame)
        return join(left, right)

    def _comparison_value(self, node: cst.Comparison, frame: Frame) -> Value:
        return self._comparison(node, frame, in_test=False)

    def _comparison(self, node: cst.Comparison, frame: Frame, in_test: bool) -> Value:
        left = self.eval(node.left, frame)
        taint = Taint()
        links: list[Taint] = []
        for target in node.comparisons:
            right = self.eval(target.comparator, frame)
            link = _link_taint(target.operator, left.taint, right.taint)
            links.append(link)
            taint = taint | link
            left = right
        if len(links) > 1 and not in_test:
            # `a < b < c` is `(a < b) and (b < c)`: every link but the last is truth-tested.
            self.hazard("chain", node, _join(links[:-1]), frame)
        return of(taint)

    def _if_exp(self, node: cst.IfExp, frame: Frame) -> Value:
        self.hazard("ifexp", node, self.eval_test(node.test, frame), frame)
        return join(self.eval(node.body, frame), self.eval(node.orelse, frame))

    def _lambda(self, node: cst.Lambda, frame: Frame) -> Value:
        self.def_frames[node] = frame
        return Value(function=node)

    def _sequence(self, node: cst.Tuple | cst.List, frame: Frame) -> Value:
        values, starred = [], False
        for element in node.elements:
            value = self.eval(element.value, frame)
            if isinstance(element, cst.StarredElement):
                starred = True
                value = value.element()
            values.append(value)
        return container_of(taint_of(values)) if starred else tuple_of(values)

    def _set(self, node: cst.Set, frame: Frame) -> Value:
        return container_of(taint_of(self.eval(element.value, frame) for element in node.elements))

    def _dict(self, node: cst.Dict, frame: Frame) -> Value:
        taint = Taint()
        for element in node.elements:
            if isinstance(element, cst.DictElement):
                taint = taint | self.eval(element.key, frame).taint
            taint = taint | self.eval(element.value, frame).taint
        return container_of(taint)

    def _comprehension(self, node, frame: Frame) -> Value:
        inner = Frame(frame.root, frame.function, parent=frame)
        self._comp_for(node.for_in, frame, inner)
        if isinstance(node, cst.DictComp):
            return container_of(self.eval(node.key, inner).taint | self.eval(node.value, inner).taint)
        return container_of(self.eval(node.elt, inner).taint)

    def _comp_for(self, comp: cst.CompFor, outer: Frame, inner: Frame) -> None:
        iterable = self.eval(comp.iter, outer)
        self.assign(comp.target, iterable.element(), inner)
        for condition in comp.ifs:
            self.hazard("compif", condition, self.eval_test(condition.test, inner), inner)
        if comp.inner_for_in is not None:
            self._comp_for(comp.inner_for_in, inner, inner)

    def _named(self, node: cst.NamedExpr, frame: Frame) -> Value:
        value = self.eval(node.value, frame)
        self.assign(node.target, value, frame)
        return value

    def _fstring(self, node: cst.FormattedString, frame: Frame) -> Value:
        for part in node.parts:
            if isinstance(part, cst.FormattedStringExpression):
                self.eval(part.expression, frame)  # formatting a tracer is fine
        return CONCRETE

    _expression_handlers = {
        cst.Name: _name,
        cst.Attribute: _attribute,
        cst.Subscript: _subscript,
        cst.BinaryOperation: _binary,
        cst.UnaryOperation: _unary,
        cst.BooleanOperation: _boolean,
        cst.Comparison: _comparison_value,
        cst.IfExp: _if_exp,
        cst.Lambda: _lambda,
        cst.Tuple: _sequence,
        cst.List: _sequence,
        cst.Set: _set,
        cst.Dict: _dict,
        cst.ListComp: _comprehension,
        cst.SetComp: _comprehension,
        cst.GeneratorExp: _comprehension,
        cst.DictComp: _comprehension,
        cst.NamedExpr: _named,
        cst.FormattedString: _fstring,
        cst.Call: lambda self, node, frame: self.eval_call(node, frame),
    }


def truth_taint(value: Value) -> Taint:
    """What `bool(value)` depends on: nothing for a Python container (its length decides)."""
    return Taint() if value.container else value.taint


def _link_taint(operator: cst.BaseCompOp, left: Taint, right: Taint) -> Taint:
    if isinstance(operator, IDENTITY_OPS):
        return Taint()  # `x is None` never looks at a tracer's value
    if isinstance(operator, MEMBERSHIP_OPS) and not left:
        return Taint()  # `"w" in params`: pytree keys are static
    return left | right


def _join(taints: list[Taint]) -> Taint:
    result = Taint()
    for taint in taints:
        result = result | taint
    return result


def _literal_index(node: cst.BaseExpression) -> int | None:
    if isinstance(node, cst.Integer):
        return int(node.evaluated_value)
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        inner = _literal_index(node.expression)
        return -inner if inner is not None else None
    return None
