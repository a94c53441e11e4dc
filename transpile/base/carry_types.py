"""JAX's errors for structured control flow whose types do not line up: `cond`/`switch`
branches that return different dtypes, shapes or structures, and loop bodies (`scan`,
`while_loop`, `fori_loop`) whose new carry differs from the carry they were given.

Worded as JAX 0.10 words them -- both types, where in the pytree, which of dtype and shape
disagree, and the fix -- so that a message a JAX user searches for is the message they see.
The checks themselves live with the control flow (control_flow.py); this module only
describes what they found. `CarryTypeError` is a TypeError, so that callers which check
eagerly can tell a mismatch from a body that cannot be traced.
"""
from __future__ import annotations

import inspect

from ..errors import function_location
from ..pytree import tree_unflatten
from ..pytree_keys import keystr, tree_flatten_with_path


class CarryTypeError(TypeError):
    """A branch or loop body whose output types differ from what they must match."""


def jax_type(aval) -> str:
    """JAX's short spelling of a type: float32[2,3]."""
    return f"{aval.dtype.name}[{','.join(str(d) for d in aval.shape)}]"


def _mismatch(a, b) -> str:
    parts = [what for what, differs in (("dtypes", a.dtype != b.dtype),
                                        ("shapes", a.shape != b.shape)) if differs]
    return ", so the " + " and the ".join(parts) + " do not match" if parts else ""


def _paths(treedef, count: int) -> list[str]:
    """Each leaf's key path in the tree (['b'], [1], .field), '' for a lone leaf."""
    placeholder = tree_unflatten(treedef, list(range(count)))
    pairs, _ = tree_flatten_with_path(placeholder)
    return [keystr(path) for path, _ in pairs]


def _listed(diffs: list[str]) -> str:
    if len(diffs) == 1:
        return diffs[0][0].upper() + diffs[0][1:] + "."
    return "\n".join(f"  * {d};" for d in diffs[:-1]) + f"\n  * {diffs[-1]}."


def function_info(fun) -> str:
    name = getattr(fun, "__name__", None) or type(fun).__name__
    return f"{name} at {function_location(fun)}"


# -- branches ---------------------------------------------------------------------------------

def branch_names(api_name: str, count: int) -> list[str]:
    """How JAX names the branches: true_fun/false_fun for cond, `branch 0`, `branch1`... for
    switch (the second without a space, as JAX spells it)."""
    if api_name == "cond":
        return ["false_fun", "true_fun"]
    return ["branch 0"] + [f"branch{i}" for i in range(1, count)]


def branch_structure_error(api_name, names, funs, trees) -> CarryTypeError:
    (n1, n2), (f1, f2), (t1, t2) = names, funs, trees
    return CarryTypeError(
        f"{api_name} branch outputs must have the same pytree structure, but they differ:\n\n"
        f"{n1} is {function_info(f1)}\n{n2} is {function_info(f2)}\n\n"
        f"{n1} output is {t1} but {n2} output is {t2}, so their structures differ.\n\n"
        f"Revise {n1} and/or {n2} so that they have the same pytree structure.")


def branch_type_error(api_name, names, funs, tree, avals1, avals2) -> CarryTypeError:
    (n1, n2), (f1, f2) = names, funs
    diffs = [f"the output of {n1}{' at path ' + p if p else ''} has type {jax_type(a)} but "
             f"the corresponding output of {n2} has type {jax_type(b)}{_mismatch(a, b)}"
             for p, a, b in zip(_paths(tree, len(avals1)), avals1, avals2)
             if a.strong() != b.strong()]
    return CarryTypeError(
        f"{api_name} branches must have equal output types but they differ.\n\n"
        f"{n1} is {function_info(f1)}\n{n2} is {function_info(f2)}\n\n"
        f"{_listed(diffs)}\n\n"
        f"Revise {n1} and/or {n2} so that all output types match.")


# -- loop carries -----------------------------------------------------------------------------

def _carry_name(body_fun, position) -> str | None:
    """The carry's parameter name in body_fun, or `position` itself when it is a label
    (fori_loop's carry is JAX's `loop_carry[1]`, the scan it becomes carrying (i, carry))."""
    if isinstance(position, str):
        return position
    try:
        params = list(inspect.signature(body_fun).parameters)
    except (TypeError, ValueError):
        return None
    return params[position] if len(params) > position else None


def _component(carry, path: str) -> str:
    if carry and (path or carry.endswith("]")):
        return f"the input carry component {carry}{path}"
    if carry:
        return f"the input carry {carry}"
    return f"the input carry at path {path}" if path else "the input carry"


_HINT = ("\n(An initial value written as a Python number takes the body's dtype; give the "
         "others the dtype the body returns, e.g. jnp.float32(0) or x.astype(jnp.float32).)")


def carry_structure_error(name, body_fun, position, in_tree, out_tree) -> CarryTypeError:
    what = _component(_carry_name(body_fun, position), "")
    return CarryTypeError(
        f"{name} function carry input and carry output must have the same pytree "
        f"structure, but they differ:\n\n"
        f"{what[0].upper() + what[1:]} is {in_tree} but the corresponding component of the "
        f"carry output is {out_tree}, so their structures differ.\n\n"
        "Revise the function so that the carry output has the same pytree structure as the "
        "carry input.")


def carry_type_error(name, body_fun, position, tree, in_avals, out_avals) -> CarryTypeError:
    """`name` is JAX's: 'scan body', 'while_loop body'; `position` is the carry's parameter
    index in body_fun, or JAX's label for it."""
    carry = _carry_name(body_fun, position)
    diffs = [f"{_component(carry, p)} has type {jax_type(a)} but the corresponding output "
             f"carry component has type {jax_type(b)}{_mismatch(a, b)}"
             for p, a, b in zip(_paths(tree, len(in_avals)), in_avals, out_avals)
             if a.shape != b.shape or (a.dtype != b.dtype and not a.weak_type)]
    return CarryTypeError(
        f"{name} function carry input and carry output must have equal types, but they "
        f"differ:\n\n{_listed(diffs)}\n\n"
        "Revise the function so that all output types match the corresponding input types."
        + _HINT)
