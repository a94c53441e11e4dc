"""Abstract execution of statements: bindings, branches merged, loops run to a fixed point."""

from __future__ import annotations

import ast

from .codes import HazardKind
from .flow_state import Frame, merge_envs
from .flow_values import CONCRETE, Value, join, of
from .index import Function

# Loops re-run their body until no variable's taint grows; taints only grow, so this ends,
# and in practice two or three passes suffice.
MAX_LOOP_PASSES = 6
ENDS_BLOCK = (ast.Return, ast.Raise, ast.Break, ast.Continue)


class StatementMixin:
    def run_function(self, function: Function, env: dict[str, Value], root: int) -> Value:
        frame = Frame(root, function, parent=self.def_frames.get(function))
        frame.env.update(env)
        self.facts.traced.setdefault(function, set()).add(root)
        if isinstance(function, ast.Lambda):
            return self.eval(function.body, frame)
        self.run_block(function.body, frame)
        return frame.returns if frame.returns is not None else CONCRETE

    def run_block(self, block: list[ast.stmt], frame: Frame) -> None:
        handlers = self._statement_handlers
        for statement in block:
            handler = handlers.get(type(statement))
            if handler is not None:
                handler(self, statement, frame)
            if isinstance(statement, ENDS_BLOCK):
                return

    # -- bindings --------------------------------------------------------------------------------
    def assign(self, target: ast.expr, value: Value, frame: Frame) -> None:
        if isinstance(target, ast.Name):
            frame.bind(target.id, value)
        elif isinstance(target, (ast.Tuple, ast.List)):
            self._assign_unpacked(target, value, frame)
        elif isinstance(target, ast.Starred):
            self.assign(target.value, of(value.taint), frame)
        elif isinstance(target, (ast.Subscript, ast.Attribute)):
            self._assign_into(target, value, frame)

    def _assign_unpacked(self, target: ast.Tuple | ast.List, value: Value, frame: Frame) -> None:
        elements = target.elts
        exact = value.items is not None and len(value.items) == len(elements)
        exact = exact and not any(isinstance(e, ast.Starred) for e in elements)
        for position, element in enumerate(elements):
            part = value.items[position] if exact else value.element()
            self.assign(element, part, frame)

    def _assign_into(self, target: ast.Subscript | ast.Attribute, value: Value, frame: Frame) -> None:
        # `acc[i] = v` / `obj.a = v`: the container now holds v.
        if isinstance(target, ast.Subscript):
            self.eval(target.slice, frame)
        base = target.value
        while isinstance(base, (ast.Subscript, ast.Attribute)):
            base = base.value
        if isinstance(base, ast.Name) and value.taint:
            held = frame.lookup(base.id)
            frame.bind(base.id, join(held, Value(value.taint, container=held.container)))

    # -- simple statements -------------------------------------------------------------------------
    def _expr(self, node: ast.Expr, frame: Frame) -> None:
        self.eval(node.value, frame)

    def _assign_statement(self, node: ast.Assign, frame: Frame) -> None:
        value = self.eval(node.value, frame)
        for target in node.targets:
            self.assign(target, value, frame)

    def _ann_assign(self, node: ast.AnnAssign, frame: Frame) -> None:
        if node.value is not None:
            self.assign(node.target, self.eval(node.value, frame), frame)

    def _aug_assign(self, node: ast.AugAssign, frame: Frame) -> None:
        value = join(self.eval(node.target, frame), self.eval(node.value, frame))
        self.assign(node.target, of(value.taint), frame)

    def _return(self, node: ast.Return, frame: Frame) -> None:
        frame.add_return(self.eval(node.value, frame) if node.value is not None else CONCRETE)

    def _assert(self, node: ast.Assert, frame: Frame) -> None:
        self.hazard(HazardKind.ASSERT, node, self.eval_test(node.test, frame), frame)
        if node.msg is not None:
            self.eval(node.msg, frame)

    def _raise(self, node: ast.Raise, frame: Frame) -> None:
        if node.exc is not None:
            self.eval(node.exc, frame)

    def _import(self, node: ast.Import | ast.ImportFrom, frame: Frame) -> None:
        for alias in node.names:
            frame.bind((alias.asname or alias.name).split(".")[0], CONCRETE)

    # -- compound statements -----------------------------------------------------------------------
    def _if(self, node: ast.If, frame: Frame, kind: HazardKind = HazardKind.IF) -> None:
        self.hazard(kind, node, self.eval_test(node.test, frame), frame)
        before = dict(frame.env)
        self.run_block(node.body, frame)
        after_body, frame.env = frame.env, before
        orelse = node.orelse
        if len(orelse) == 1 and isinstance(orelse[0], ast.If) and _is_elif(node, orelse[0]):
            self._if(orelse[0], frame, HazardKind.ELIF)
        else:
            self.run_block(orelse, frame)
        frame.env = merge_envs(after_body, frame.env)

    def _while(self, node: ast.While, frame: Frame) -> None:
        def one_pass() -> None:
            self.hazard(HazardKind.WHILE, node, self.eval_test(node.test, frame), frame)
            self.run_block(node.body, frame)

        self._loop(one_pass, frame)
        self.run_block(node.orelse, frame)

    def _for(self, node: ast.For, frame: Frame) -> None:
        element = self.eval(node.iter, frame).element()

        def one_pass() -> None:
            self.assign(node.target, element, frame)
            self.run_block(node.body, frame)

        self._loop(one_pass, frame)
        self.run_block(node.orelse, frame)

    def _loop(self, one_pass, frame: Frame) -> None:
        for _ in range(MAX_LOOP_PASSES):
            before = dict(frame.env)
            one_pass()
            frame.env = merge_envs(before, frame.env)
            if frame.env == before:
                return

    def _with(self, node: ast.With, frame: Frame) -> None:
        for item in node.items:
            value = self.eval(item.context_expr, frame)
            if item.optional_vars is not None:
                self.assign(item.optional_vars, value, frame)
        self.run_block(node.body, frame)

    def _try(self, node: ast.Try, frame: Frame) -> None:
        self.run_block(node.body, frame)
        merged = dict(frame.env)
        for handler in node.handlers:
            frame.env = dict(merged)
            if handler.type is not None:
                self.eval(handler.type, frame)
            if handler.name:
                frame.bind(handler.name, CONCRETE)
            self.run_block(handler.body, frame)
            merged = merge_envs(merged, frame.env)
        frame.env = merged
        self.run_block(node.orelse, frame)
        self.run_block(node.finalbody, frame)

    def _match(self, node: ast.Match, frame: Frame) -> None:
        subject = self.eval(node.subject, frame)
        # JAX fails where a pattern compares the subject's value: on the first such `case`.
        comparing = [case.pattern for case in node.cases if _compares_value(case.pattern)]
        if comparing:
            self.hazard(HazardKind.MATCH, comparing[0], subject.taint, frame)
        before = dict(frame.env)
        merged = dict(before)
        for case in node.cases:
            frame.env = dict(before)
            self.run_block(case.body, frame)
            merged = merge_envs(merged, frame.env)
        frame.env = merged

    def _function_def(self, node: ast.FunctionDef, frame: Frame) -> None:
        # Runs only if called; remember the frame it closes over.
        self.def_frames[node] = frame
        frame.bind(node.name, Value(function=node))

    def _class_def(self, node: ast.ClassDef, frame: Frame) -> None:
        frame.bind(node.name, CONCRETE)

    _statement_handlers = {
        ast.Expr: _expr,
        ast.Assign: _assign_statement,
        ast.AnnAssign: _ann_assign,
        ast.AugAssign: _aug_assign,
        ast.Return: _return,
        ast.Assert: _assert,
        ast.Raise: _raise,
        ast.Import: _import,
        ast.ImportFrom: _import,
        ast.If: _if,
        ast.While: _while,
        ast.For: _for,
        ast.AsyncFor: _for,
        ast.With: _with,
        ast.AsyncWith: _with,
        ast.Try: _try,
        ast.Match: _match,
        ast.FunctionDef: _function_def,
        ast.AsyncFunctionDef: _function_def,
        ast.ClassDef: _class_def,
    }
    if hasattr(ast, "TryStar"):
        _statement_handlers[ast.TryStar] = _try


def _is_elif(parent: ast.If, child: ast.If) -> bool:
    """`elif` (not `else:` holding an `if`): ast spells both alike; the column tells them apart."""
    return child.col_offset == parent.col_offset


def _compares_value(pattern: ast.pattern) -> bool:
    """A pattern that tests the subject with `==`/`is` (a value, `None`, or an `|` of them)."""
    if isinstance(pattern, (ast.MatchValue, ast.MatchSingleton)):
        return True
    if isinstance(pattern, ast.MatchOr):
        return any(_compares_value(option) for option in pattern.patterns)
    if isinstance(pattern, ast.MatchAs) and pattern.pattern is not None:
        return _compares_value(pattern.pattern)
    return False
