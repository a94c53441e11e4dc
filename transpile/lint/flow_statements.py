"""Abstract execution of statements: bindings, branches merged, loops run to a fixed point."""

from __future__ import annotations

import libcst as cst

from .flow_state import Frame, merge_envs
from .flow_values import CONCRETE, Value, join, of
from .index import Function

# Loops re-run their body until no variable's taint grows; taints only grow, so this ends,
# and in practice two or three passes suffice.
MAX_LOOP_PASSES = 6
ENDS_BLOCK = (cst.Return, cst.Raise, cst.Break, cst.Continue)


class StatementMixin:
    def run_function(self, function: Function, env: dict[str, Value], root: int) -> Value:
        frame = Frame(root, function, parent=self.def_frames.get(function))
        frame.env.update(env)
        self.facts.traced.setdefault(function, set()).add(root)
        if isinstance(function, cst.Lambda):
            return self.eval(function.body, frame)
        self.run_block(function.body, frame)
        return frame.returns if frame.returns is not None else CONCRETE

    def run_block(self, block: cst.BaseSuite, frame: Frame) -> None:
        if isinstance(block, cst.SimpleStatementSuite):
            self._run_small(block.body, frame)
            return
        for statement in block.body:
            if isinstance(statement, cst.SimpleStatementLine):
                if self._run_small(statement.body, frame):
                    return
            else:
                handler = self._statement_handlers.get(type(statement))
                if handler is not None:
                    handler(self, statement, frame)

    def _run_small(self, statements, frame: Frame) -> bool:
        """Run simple statements; True if one of them ends the block (return, raise, ...)."""
        for statement in statements:
            handler = self._small_handlers.get(type(statement))
            if handler is not None:
                handler(self, statement, frame)
            if isinstance(statement, ENDS_BLOCK):
                return True
        return False

    # -- bindings --------------------------------------------------------------------------------
    def assign(self, target: cst.BaseExpression, value: Value, frame: Frame) -> None:
        if isinstance(target, cst.Name):
            frame.bind(target.value, value)
        elif isinstance(target, (cst.Tuple, cst.List)):
            self._assign_unpacked(target, value, frame)
        elif isinstance(target, cst.StarredElement):
            self.assign(target.value, of(value.taint), frame)
        elif isinstance(target, (cst.Subscript, cst.Attribute)):
            self._assign_into(target, value, frame)

    def _assign_unpacked(self, target: cst.Tuple | cst.List, value: Value, frame: Frame) -> None:
        elements = target.elements
        exact = value.items is not None and len(value.items) == len(elements)
        exact = exact and not any(isinstance(e, cst.StarredElement) for e in elements)
        for position, element in enumerate(elements):
            part = value.items[position] if exact else value.element()
            self.assign(element.value if isinstance(element, cst.Element) else element, part, frame)

    def _assign_into(self, target: cst.Subscript | cst.Attribute, value: Value, frame: Frame) -> None:
        # `acc[i] = v` / `obj.a = v`: the container now holds v.
        if isinstance(target, cst.Subscript):
            for element in target.slice:
                if isinstance(element.slice, cst.Index):
                    self.eval(element.slice.value, frame)
        base = target.value
        while isinstance(base, (cst.Subscript, cst.Attribute)):
            base = base.value
        if isinstance(base, cst.Name) and value.taint:
            frame.bind(base.value, join(frame.lookup(base.value), of(value.taint)))

    # -- simple statements -------------------------------------------------------------------------
    def _expr(self, node: cst.Expr, frame: Frame) -> None:
        self.eval(node.value, frame)

    def _assign_statement(self, node: cst.Assign, frame: Frame) -> None:
        value = self.eval(node.value, frame)
        for target in node.targets:
            self.assign(target.target, value, frame)

    def _ann_assign(self, node: cst.AnnAssign, frame: Frame) -> None:
        if node.value is not None:
            self.assign(node.target, self.eval(node.value, frame), frame)

    def _aug_assign(self, node: cst.AugAssign, frame: Frame) -> None:
        value = join(self.eval(node.target, frame), self.eval(node.value, frame))
        self.assign(node.target, of(value.taint), frame)

    def _return(self, node: cst.Return, frame: Frame) -> None:
        frame.add_return(self.eval(node.value, frame) if node.value is not None else CONCRETE)

    def _assert(self, node: cst.Assert, frame: Frame) -> None:
        self.hazard("assert", node, self.eval_test(node.test, frame), frame)
        if node.msg is not None:
            self.eval(node.msg, frame)

    def _raise(self, node: cst.Raise, frame: Frame) -> None:
        if node.exc is not None:
            self.eval(node.exc, frame)

    def _import(self, node: cst.Import | cst.ImportFrom, frame: Frame) -> None:
        if isinstance(node, cst.ImportFrom) and isinstance(node.names, cst.ImportStar):
            return
        for alias in node.names:
            bound = alias.asname.name if alias.asname else alias.name
            while isinstance(bound, cst.Attribute):
                bound = bound.value
            if isinstance(bound, cst.Name):
                frame.bind(bound.value, CONCRETE)

    # -- compound statements -----------------------------------------------------------------------
    def _if(self, node: cst.If, frame: Frame, kind: str = "if") -> None:
        self.hazard(kind, node, self.eval_test(node.test, frame), frame)
        before = dict(frame.env)
        self.run_block(node.body, frame)
        after_body, frame.env = frame.env, before
        if isinstance(node.orelse, cst.If):
            self._if(node.orelse, frame, "elif")
        elif isinstance(node.orelse, cst.Else):
            self.run_block(node.orelse.body, frame)
        frame.env = merge_envs(after_body, frame.env)

    def _while(self, node: cst.While, frame: Frame) -> None:
        def one_pass() -> None:
            self.hazard("while", node, self.eval_test(node.test, frame), frame)
            self.run_block(node.body, frame)

        self._loop(one_pass, frame)
        if node.orelse is not None:
            self.run_block(node.orelse.body, frame)

    def _for(self, node: cst.For, frame: Frame) -> None:
        element = self.eval(node.iter, frame).element()

        def one_pass() -> None:
            self.assign(node.target, element, frame)
            self.run_block(node.body, frame)

        self._loop(one_pass, frame)
        if node.orelse is not None:
            self.run_block(node.orelse.body, frame)

    def _loop(self, one_pass, frame: Frame) -> None:
        for _ in range(MAX_LOOP_PASSES):
            before = dict(frame.env)
            one_pass()
            frame.env = merge_envs(before, frame.env)
            if frame.env == before:
                return

    def _with(self, node: cst.With, frame: Frame) -> None:
        for item in node.items:
            value = self.eval(item.item, frame)
            if item.asname is not None:
                self.assign(item.asname.name, value, frame)
        self.run_block(node.body, frame)

    def _try(self, node: cst.Try | cst.TryStar, frame: Frame) -> None:
        self.run_block(node.body, frame)
        merged = dict(frame.env)
        for handler in node.handlers:
            frame.env = dict(merged)
            if handler.type is not None:
                self.eval(handler.type, frame)
            if handler.name is not None:
                self.assign(handler.name.name, CONCRETE, frame)
            self.run_block(handler.body, frame)
            merged = merge_envs(merged, frame.env)
        frame.env = merged
        if node.orelse is not None:
            self.run_block(node.orelse.body, frame)
        if node.finalbody is not None:
            self.run_block(node.finalbody.body, frame)

    def _match(self, node: cst.Match, frame: Frame) -> None:
        subject = self.eval(node.subject, frame)
        if any(isinstance(case.pattern, (cst.MatchValue, cst.MatchOr)) for case in node.cases):
            self.hazard("match", node, subject.taint, frame)
        before = dict(frame.env)
        merged = dict(before)
        for case in node.cases:
            frame.env = dict(before)
            self.run_block(case.body, frame)
            merged = merge_envs(merged, frame.env)
        frame.env = merged

    def _function_def(self, node: cst.FunctionDef, frame: Frame) -> None:
        # Runs only if called; remember the frame it closes over.
        self.def_frames[node] = frame
        frame.bind(node.name.value, Value(function=node))

    def _class_def(self, node: cst.ClassDef, frame: Frame) -> None:
        frame.bind(node.name.value, CONCRETE)

    _small_handlers = {
        cst.Expr: _expr,
        cst.Assign: _assign_statement,
        cst.AnnAssign: _ann_assign,
        cst.AugAssign: _aug_assign,
        cst.Return: _return,
        cst.Assert: _assert,
        cst.Raise: _raise,
        cst.Import: _import,
        cst.ImportFrom: _import,
    }
    _statement_handlers = {
        cst.If: _if,
        cst.While: _while,
        cst.For: _for,
        cst.With: _with,
        cst.Try: _try,
        cst.TryStar: _try,
        cst.Match: _match,
        cst.FunctionDef: _function_def,
        cst.ClassDef: _class_def,
    }
