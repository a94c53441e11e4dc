"""Shared wording and fixes for the TP1xx rules (Python needs the value of a traced input).

Each finding names the traced inputs the value depends on and gives one fix: when every one of
them is a plain scalar argument, make it static (an unsafe fix that edits the jit site, shown in
the message); when the value comes from array data, the `lax`/`tnp` construct that replaces the
Python one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import ast

from ..astwalk import descendants
from ..edits import static_argnames_fix
from ..evidence import called_params
from ..flow import Hazard
from ..flow_values import Taint
from ..from_transpile import public_names
from ..jitsites import JitSite
from ..model import Applicability, Finding, Fix
from ..resolve import all_params, function_name, positional_params
from .call_site_values import passes_unhashable

if TYPE_CHECKING:
    from ..engine import ModuleContext


def quoted(names: list[str]) -> str:
    items = [f"'{name}'" for name in names]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def subject(taint: Taint) -> str:
    """Who the value depends on: traced argument 'n', traced arguments 'n' and 'x', ..."""
    parts = []
    for kind, label in (("arg", "traced argument"), ("body", "traced lax-body argument")):
        names = sorted({o.name for o in taint.origins if o.kind == kind})
        if names:
            parts.append(f"{label}{'s' if len(names) > 1 else ''} {quoted(names)}")
    staged = sorted({o.name for o in taint.origins if o.kind == "staged"})
    if staged:
        parts.append(
            f"the result of {quoted([name + '()' for name in staged])}, a tracer inside jit even when "
            "its inputs are constants (use numpy or math on static values)"
        )
    return " and ".join(parts)


def lax_name(ctx: ModuleContext, member: str) -> str:
    return f"{ctx.names.spell_any(ctx.config.lax_namespaces, 'lax')}.{member}"


def array_namespace(ctx: ModuleContext) -> str | None:
    """The array namespace this module imports (`transpile.numpy`, `jax.numpy`), if any."""
    for namespace in ctx.config.array_namespaces:
        if ctx.names.spelling(namespace):
            return namespace
    return None


def tnp_has(ctx: ModuleContext, member: str) -> bool:
    """Whether suggesting `<array namespace>.member` names a function that exists."""
    namespace = array_namespace(ctx) or "transpile.numpy"
    return namespace != "transpile.numpy" or member in public_names("transpile.numpy")


def tnp_name(ctx: ModuleContext, member: str) -> str:
    """`tnp.maximum` as this module spells it; a description where transpile.numpy lacks it."""
    namespace = array_namespace(ctx)
    if not tnp_has(ctx, member):
        return f"an array expression ({member} is not in transpile.numpy yet)"
    spelled = ctx.names.spelling(namespace) if namespace else "tnp"
    return f"{spelled}.{member}"


def tnp_available(ctx: ModuleContext) -> bool:
    return array_namespace(ctx) is not None


def where_from(ctx: ModuleContext, hazard: Hazard) -> str:
    """The suffix " (in 'h', called from jitted 'f')" for a hazard inside a helper."""
    roots = {ctx.sites.sites[o.root].target for o in hazard.taint.origins}
    if roots & hazard.functions or not roots:
        return ""
    helper = sorted(function_name(f) for f in hazard.functions)[0]
    jitted = sorted(function_name(f) for f in roots if f is not None)
    return f" (in '{helper}', called from jitted {quoted(jitted)})"


def static_plan(ctx: ModuleContext, taint: Taint) -> dict[JitSite, list[str]] | None:
    """Which names to make static at which jit site; None when static is not the right fix."""
    if taint.array:
        return None
    plan: dict[JitSite, list[str]] = {}
    for origin in taint.origins:
        site = ctx.sites.sites[origin.root]
        if origin.kind != "arg" or site.target is None:
            return None
        if origin.name in ctx.array_params(site.target) or origin.name not in _nameable(site):
            return None
        if origin.name in called_params(site.target):
            return None  # a module or function object: a pytree of arrays, not a hashable scalar
        if passes_unhashable(ctx, site, origin.name):
            return None  # static would fail ("unhashable") or recompile per call: keep it traced
        plan.setdefault(site, []).append(origin.name)
    for site, names in plan.items():
        order = all_params(site.target)
        names.sort(key=order.index)
    return plan


def _nameable(site: JitSite) -> list[str]:
    """Parameters static_argnames can name: not *args/**kwargs."""
    return positional_params(site.target) + [p.arg for p in site.target.args.kwonlyargs]


def static_advice(ctx: ModuleContext, plan: dict[JitSite, list[str]]) -> tuple[str, Fix | None]:
    shown, edits, editable = [], [], True
    for site, names in sorted(plan.items(), key=lambda item: item[0].index):
        display, site_edits = static_argnames_fix(ctx, site, names)
        shown.append(f"add static_argnames={names!r}: {display}")
        if site_edits is None:
            editable = False
        else:
            edits.extend(site_edits)
        for name in names:
            line = changing_call(ctx, site, name)
            if line is not None:
                shown.append(
                    f"but '{name}' changes on every pass of the loop calling it (line {line}), so each call "
                    "would compile again: keep it traced and use lax.cond/lax.while_loop/tnp.where instead"
                )
    help = "; ".join(shown)
    fix = Fix(Applicability.UNSAFE, help, tuple(edits)) if editable and edits else None
    return help, fix


def changing_call(ctx: ModuleContext, site: JitSite, name: str) -> int | None:
    """The line of a call of the jitted function, inside a loop, that passes for `name` a
    value the loop rebinds (a step counter): made static, it would recompile every pass."""
    if not site.binding or site.target is None:
        return None
    callable_params = [p for p in positional_params(site.target) if p not in site.bound]
    position = callable_params.index(name) if name in callable_params else None
    for call in ctx.calls_of(site.binding):
        node = call.node
        if call.loop is None or not isinstance(node.func, ast.Name) or node.func.id != site.binding:
            continue
        passed = [k.value for k in node.keywords if k.arg == name]
        if position is not None and position < len(node.args):
            passed.append(node.args[position])
        rebound = _rebound_in(call.loop)
        if any(isinstance(n, ast.Name) and n.id in rebound for value in passed for n in descendants([value], ())):
            return node.lineno
    return None


def _rebound_in(loop: ast.AST) -> set[str]:
    found = set()
    for node in descendants([loop], ()):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            found.add(node.id)
    return found


def traced_finding(
    ctx: ModuleContext,
    code: str,
    hazard: Hazard,
    anchor: ast.AST,
    problem: str,
    data_help: str,
    data_fix: Fix | None = None,
    prefer_data: bool = False,
) -> Finding:
    """`problem` reads "'if' depends on the value of"; the subject and the fix are added here.

    `prefer_data`: the data fix (e.g. `tnp.logical_and`) traces whether the value is a scalar
    or an array, while a static fix fails for an array; use it whenever there is one."""
    message = f"{problem} {subject(hazard.taint)}{where_from(ctx, hazard)}"
    plan = None if prefer_data and data_fix is not None else static_plan(ctx, hazard.taint)
    if plan:
        help, fix = static_advice(ctx, plan)
    else:
        help, fix = data_help, data_fix
    # A compound statement is underlined from its keyword through its condition only.
    end = getattr(anchor, "test", None) if isinstance(anchor, (ast.If, ast.While, ast.Assert)) else None
    return ctx.finding(code, anchor, message, help, fix, end=end)
