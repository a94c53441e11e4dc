"""Trace analysis: run each jitted function abstractly, as tracing would, and record hazards.

Each jit site with a known target is a *root*: its non-static parameters start out tainted
(they will be tracers), everything else is concrete. Statements (`flow_statements.py`),
expressions (`flow_expressions.py`) and calls (`flow_calls.py`) are evaluated over taints
(`flow_values.py`); helpers in the same module and the bodies handed to `lax` are analysed at
their call with the taints they receive. The result (`TraceFacts`) lists the hazards and every
function body that runs during tracing, which the rules then report on.
"""

from __future__ import annotations

from .config import LintConfig
from .derivative_rules import derivative_rules
from .evidence import container_params
from .flow_calls import CallMixin
from .flow_expressions import ExpressionMixin
from .flow_state import Frame, Hazard, TraceFacts
from .flow_statements import StatementMixin
from .flow_tables import STATIC_ATTRIBUTES
from .flow_values import CONCRETE, Origin, Taint, Value
from .index import Function
from .jitsites import JitSites
from .names import Names
from .nnx_modules import static_attributes as nnx_static_attributes
from .pytree_fields import SCALAR_ANNOTATIONS, leaf_fields, static_fields
from .resolve import Resolver, all_params

__all__ = ["Hazard", "TraceFacts", "analyze"]


class Interpreter(StatementMixin, CallMixin, ExpressionMixin):
    def __init__(self, names: Names, resolver: Resolver, sites: JitSites, config: LintConfig):
        self.names = names
        self.resolver = resolver
        self.sites = sites
        self.config = config
        self.facts = TraceFacts()
        self.def_frames: dict[Function, Frame] = {}  # where each local def/lambda was made
        self.call_memo: dict[tuple, Value] = {}
        self.active: set[Function] = set()  # functions being analysed (recursion guard)
        static = static_fields(names.index)
        # nnx modules keep their plain attributes in the graph definition: Python values.
        self.static_attributes = STATIC_ATTRIBUTES | static | nnx_static_attributes(names.index, names)
        self.leaf_fields = leaf_fields(names.index, static)
        self.scalar_fields = leaf_fields(names.index, static, SCALAR_ANNOTATIONS)
        self.pure_calls: frozenset[str] = frozenset()
        self.derivative_rules = derivative_rules(names.index)

    def run_root(self, root: int, function: Function, traced: list[str]) -> None:
        env = {}
        containers = container_params(function)
        for name in all_params(function):
            taint = Taint(frozenset({Origin(name, root)})) if name in traced else Taint()
            if name in containers:
                keys = containers[name] == "dict"
                env[name] = Value(taint, container=True, elem=CONCRETE if keys else None)
                if containers[name] == "optional":
                    env[name] = Value(taint, container=True, elem=Value(taint.as_array()))
            else:
                env[name] = Value(taint) if taint else CONCRETE
        self.active.add(function)
        try:
            self.run_function(function, env, root)
        finally:
            self.active.discard(function)


def analyze(names: Names, resolver: Resolver, sites: JitSites, config: LintConfig) -> TraceFacts:
    interpreter = Interpreter(names, resolver, sites, config)
    for site in sites.sites:
        if site.target is not None:
            interpreter.run_root(site.index, site.target, site.traced_params)
    return interpreter.facts
