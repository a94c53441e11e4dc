"""Do the calls of a jitted function pass a parameter values that may be made static?

A static argument is hashed and compared by jit: an array (or list, dict, set) passed to it
fails with "unhashable" (or recompiles on every call), so making a parameter static is only
offered when no call in the module passes such a value for it. The check looks one binding
deep through names (`n = 3; f(x, n)` is fine, `n = np.ones(3); f(x, n)` is not).
"""

from __future__ import annotations

import ast

from ..jitsites import JitSite
from ..resolve import positional_params

UNHASHABLE_DISPLAYS = (ast.List, ast.Dict, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp, ast.GeneratorExp)
# Calls in these packages build arrays (or things traced like them).
ARRAY_PACKAGES = ("numpy", "jax", "transpile", "torch", "equinox", "flax")


def passes_unhashable(ctx, site: JitSite, name: str) -> bool:
    """Whether some call of the jitted function in this module passes, for parameter `name`,
    an array, a container or a value computed by an array function."""
    if not site.binding or site.target is None:
        return False
    key = (site.index, name)
    known = ctx.memo.get(key)
    if known is None:
        known = ctx.memo[key] = _passes_unhashable(ctx, site, name)
    return known


def _passes_unhashable(ctx, site: JitSite, name: str) -> bool:
    callable_params = [p for p in positional_params(site.target) if p not in site.bound]
    position = callable_params.index(name) if name in callable_params else None
    for call in ctx.calls_of(site.binding):
        node = call.node
        if not _calls(node.func, site.binding):
            continue
        passed = [keyword.value for keyword in node.keywords if keyword.arg == name]
        if position is not None and position < len(node.args):
            passed.append(node.args[position])
        if any(isinstance(arg, ast.Starred) for arg in node.args[: (position or 0) + 1]):
            return True  # *args: cannot tell what reaches the parameter
        if any(_unhashable(ctx, value, call.function, depth=0) for value in passed):
            return True
    return False


def _calls(func: ast.expr, binding: str) -> bool:
    return (isinstance(func, ast.Name) and func.id == binding) or (
        isinstance(func, ast.Attribute) and func.attr == binding
    )


def _unhashable(ctx, value: ast.expr, function, depth: int) -> bool:
    if isinstance(value, UNHASHABLE_DISPLAYS):
        return True
    if isinstance(value, ast.Tuple):
        return any(_unhashable(ctx, element, function, depth) for element in value.elts)
    if isinstance(value, (ast.BinOp, ast.UnaryOp)):
        parts = [value.left, value.right] if isinstance(value, ast.BinOp) else [value.operand]
        return any(_unhashable(ctx, part, function, depth) for part in parts)
    if isinstance(value, ast.Subscript):
        return _unhashable(ctx, value.value, function, depth)  # x[0] of an array is an array
    if isinstance(value, ast.Call):
        qualified = ctx.names.qualified(value.func, function) or ""
        qualified = qualified.removeprefix("builtins.")  # an unbound name, e.g. `np` in exec'd code
        root = qualified.split(".", 1)[0]
        if CONVENTIONAL_ALIASES.get(root, root) in ARRAY_PACKAGES:
            return True
        return qualified in ("list", "dict", "set")
    if isinstance(value, ast.Name) and depth < 2:
        bound = ctx.index.scope(function).bound.get(value.id) or ctx.index.module.bound.get(value.id) or []
        for node in bound:
            assigned = getattr(node, "value", None) if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
            if assigned is not None and _unhashable(ctx, assigned, function, depth + 1):
                return True
    return False


# The usual aliases, for a call whose module is not imported here (a notebook cell, exec'd code).
CONVENTIONAL_ALIASES = {"np": "numpy", "onp": "numpy", "jnp": "jax", "tnp": "transpile"}

