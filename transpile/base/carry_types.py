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
from ..pytree import _split, tree_unflatten
from ..pytree_keys import _keyed_children, keystr, tree_flatten_with_path


class CarryTypeError(TypeError):
    """A branch or loop body whose output types differ from what they must match."""


def jax_type(aval) -> str:
    """JAX's short spelling of a type: float32[2,3]."""
    return f"{aval.dtype.name}[{','.join(str(d) for d in aval.shape)}]"


def _mismatch(a, b) -> str:
    """JAX's ', so the dtypes do not match, and the shapes do not match'."""
    parts = [f"the {what} do not match" for what, differs in (
        ("dtypes", a.dtype != b.dtype), ("shapes", a.shape != b.shape)) if differs]
    if len(parts) < 2:
        return "".join(", so " + p for p in parts)
    return ", so " + ", ".join(parts[:-1]) + ", and " + parts[-1]


# -- where two structures differ, as JAX's tree_util.equality_errors says it ------------------

class _PytreeLeaf:
    """A leaf's stand-in while two structures are compared."""


def structure_differences(tree1, tree2) -> list[tuple]:
    """(key path, what tree1 has there, what tree2 has, why they differ) for each place two
    structures part, the first at each path only, worded as JAX's equality_errors."""
    leaf = _PytreeLeaf()
    one = tree_unflatten(tree1, [leaf] * _leaf_count(tree1))
    two = tree_unflatten(tree2, [leaf] * _leaf_count(tree2))
    # Structures that compare unequal differ somewhere; the fallback names both whole.
    return list(_differences((), one, two)) or [((), tree1, tree2, "their structures differ")]


def _leaf_count(tree) -> int:
    return 1 if tree.kind is None else sum(map(_leaf_count, tree.children))


def _described(x) -> str:
    return "pytree leaf" if isinstance(x, _PytreeLeaf) else str(type(x))


def _differences(path, one, two):
    kind1, aux1, children1 = _split(one, None)
    kind2, aux2, children2 = _split(two, None)
    if kind1 is None and kind2 is None:
        return
    if type(one) is not type(two):
        yield path, _described(one), _described(two), "their Python types differ"
        return
    if type(one) in (list, tuple) and len(one) != len(two):
        name = type(one).__name__
        yield (path, f"{name} of length {len(one)}", f"{name} of length {len(two)}",
               "the lengths do not match")
        return
    keyed1, keyed2 = _keyed_children(one) or [], _keyed_children(two) or []
    if len(children1) != len(children2):
        keys = {k for k, _ in keyed1} ^ {k for k, _ in keyed2}
        named = " ".join(repr(k.key) for k in keys if hasattr(k, "key"))
        yield (path, _with_children(one, len(children1)), _with_children(two, len(children2)),
               "the numbers of children do not match"
               + (f", with the symmetric difference of key sets: {{{named}}}" if named else ""))
        return
    if aux1 != aux2:
        yield (path, f"{type(one)} with pytree metadata {aux1}",
               f"{type(two)} with pytree metadata {aux2}",
               "the pytree node metadata does not match")
        return
    for (key, child1), (_, child2) in zip(keyed1, keyed2):
        yield from _differences((*path, key), child1, child2)


def _with_children(x, count: int) -> str:
    return f"{type(x)} with {count} child{'ren' if count > 1 else ''}"


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
    diffs = [f"{n1} output{_at(path)} is a {one} but {n2} output{_at(path)} is a {two}, "
             f"so {why}" for path, one, two, why in structure_differences(t1, t2)]
    return CarryTypeError(
        f"{api_name} branch outputs must have the same pytree structure, but they differ:\n\n"
        f"{n1} is {function_info(f1)}\n{n2} is {function_info(f2)}\n\n"
        f"{_itemised(diffs, capitalized=False)}\n"
        f"Revise {n1} and/or {n2} so that they have the same pytree structure.")


def _at(path) -> str:
    return f" at path {keystr(path)}" if path else ""


def _itemised(diffs: list[str], capitalized: bool = True) -> str:
    """JAX's listing of structure differences: one as a sentence, several as bullets."""
    if len(diffs) == 1:
        first = diffs[0][0].upper() + diffs[0][1:] if capitalized else diffs[0]
        return first + ".\n"
    return "\n".join(f"  * {d};\n" for d in diffs[:-1]) + f"  * {diffs[-1]}.\n"


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
    carry = _carry_name(body_fun, position)
    diffs = [f"{_component(carry, keystr(path))} is a {one} but the corresponding component "
             f"of the carry output is a {two}, so {why}"
             for path, one, two, why in structure_differences(in_tree, out_tree)]
    return CarryTypeError(
        f"{name} function carry input and carry output must have the same pytree "
        f"structure, but they differ:\n\n{_itemised(diffs)}\n"
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
        f"differ:\n\n{_itemised(diffs)}\n"
        "Revise the function so that all output types match the corresponding input types."
        + _HINT)
