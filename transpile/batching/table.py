"""The batching-rule table: primitive name -> how to compute it on batched operands.

A rule is called as `rule(size, values, dims, **params)`, where `values` are the operands
(tracers, arrays or numbers), `dims[i]` is the axis of `values[i]` that runs over the batch
(None: the operand is the same for every batch member) and `size` is the batch size. It
returns `(out, out_dim)` for a primitive with one result, or `(outs, out_dims)` (lists) for one
with several. Rules are only called when at least one operand is batched.

A primitive vmap cannot batch has a declared rule that raises NotImplementedError naming it
(`declare_unbatchable`), so that a missing rule is always a decision, never an oversight.
"""
from __future__ import annotations

batching_rules: dict[str, callable] = {}


def register(*names):
    """Decorator: `fn` is the batching rule of each primitive in `names`."""
    def decorate(fn):
        for name in names:
            batching_rules[name] = fn
        return fn
    return decorate


class UnbatchableRule:
    """The rule of a primitive vmap does not support: raises, saying which and why."""

    def __init__(self, name: str, reason: str):
        self.name, self.reason = name, reason

    def __call__(self, size, values, dims, **params):
        raise NotImplementedError(f"vmap of the primitive '{self.name}' is not implemented: "
                                  f"{self.reason}")


def declare_unbatchable(name: str, reason: str) -> None:
    batching_rules[name] = UnbatchableRule(name, reason)


def rule_for(name: str):
    rule = batching_rules.get(name)
    if rule is None:
        raise NotImplementedError(f"vmap of the primitive '{name}' is not implemented "
                                  "(it has no batching rule)")
    return rule
