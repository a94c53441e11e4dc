"""The rule registry: every rule, by code. Codes are stable; new rules take new codes.

TP1xx value-dependent control flow, TP2xx trace-time side effects, TP3xx stale captures,
TP4xx cache defeaters. (E999, a file that does not parse, is reported by the engine.)
"""

from __future__ import annotations

from ..codes import Code, parse_code
from .base import Example, Rule
from .tp101_traced_control_flow import TracedControlFlow
from .tp102_traced_conversion import TracedConversion
from .tp103_traced_shape import TracedShape
from .tp104_traced_bool_op import TracedBoolOp
from .tp105_data_dependent_shape import DataDependentShape
from .tp201_print import TracePrint
from .tp202_outer_mutation import OuterMutation
from .tp203_global_write import GlobalWrite
from .tp301_stale_capture import StaleCapture
from .tp401_jit_in_loop import JitOfFreshFunction
from .tp402_unhashable_static import UnhashableStatic
from .tp403_large_unroll import LargeUnroll

ALL_RULES: tuple[Rule, ...] = (
    TracedControlFlow(),
    TracedConversion(),
    TracedShape(),
    TracedBoolOp(),
    DataDependentShape(),
    TracePrint(),
    OuterMutation(),
    GlobalWrite(),
    StaleCapture(),
    JitOfFreshFunction(),
    UnhashableStatic(),
    LargeUnroll(),
)
RULES_BY_CODE: dict[Code, Rule] = {rule.code: rule for rule in ALL_RULES}
KNOWN_CODES: frozenset[Code] = frozenset(Code)


def enabled_rules(config, path: str | None = None) -> list[Rule]:
    return [rule for rule in ALL_RULES if config.enabled(rule.code, path)]


def find_rule(code_or_name: str) -> Rule | None:
    key = code_or_name.strip()
    code = parse_code(key)
    if code is not None and code in RULES_BY_CODE:
        return RULES_BY_CODE[code]
    return next((rule for rule in ALL_RULES if rule.name == key), None)


__all__ = ["ALL_RULES", "Example", "KNOWN_CODES", "RULES_BY_CODE", "Rule", "enabled_rules", "find_rule"]
