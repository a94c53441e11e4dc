"""vmap's axis specifications: checking `in_axes`/`out_axes`, matching them to the arguments
and results (a spec is a tree prefix: an int or None stands for a whole subtree), and finding
the batch size, with JAX's error messages."""
from __future__ import annotations

import collections
import inspect

from ..core import aval_of
from ..pytree import LEAF, TreeDef, tree_flatten


def check_spec(name: str, spec, top_level: bool) -> None:
    """TypeError unless `spec` is an int, None, or a container with those as leaves."""
    if top_level and not (spec is None or type(spec) in (int, tuple)):
        raise TypeError(f"vmap {name} must be an int, None, or a tuple of entries corresponding "
                        f"to the positional arguments passed to the function, but got {spec}.")
    leaves, _ = tree_flatten(spec, is_leaf=lambda x: x is None)
    if not all(leaf is None or type(leaf) is int for leaf in leaves):
        raise TypeError(f"vmap {name} must be an int, None, or (nested) container with those "
                        f"types as leaves, but got {spec}.")


def _num_leaves(td: TreeDef) -> int:
    return 1 if td.kind is None else sum(_num_leaves(c) for c in td.children)


def broadcast_prefix(name: str, spec, values_def: TreeDef) -> list:
    """One axis per leaf of `values_def`: each int/None in `spec` covers its whole subtree."""
    out: list = []
    stack = [(spec, values_def, "")]
    while stack:
        s, td, path = stack.pop()
        if s is None or type(s) is int:
            out.extend([s] * _num_leaves(td))
            continue
        children, sdef = tree_flatten(s, is_leaf=lambda x, top=s: x is not top)
        if td == LEAF or sdef.kind is not td.kind or sdef.aux != td.aux \
                or len(children) != len(td.children):
            raise ValueError(
                f"vmap {name} specification must be a tree prefix of the corresponding value; "
                f"at {name}{path} the specification is {s!r} but the value has structure {td}")
        keys = td.aux if td.kind is dict else range(len(children))
        for child, child_td, key in reversed(list(zip(children, td.children, keys))):
            stack.append((child, child_td, f"{path}[{key!r}]"))
    return out


def normalize(axis, shape, what: str) -> int | None:
    """A mapped axis of an array of this shape as a non-negative int (JAX's message if it
    is out of range)."""
    if axis is None:
        return None
    ndim = len(shape)
    if not -ndim <= axis < ndim:
        min_rank = axis + 1 if axis >= 0 else -axis
        raise ValueError(f"vmap was requested to map its {what} along axis {axis}, which "
                         f"implies that its rank should be at least {min_rank}, but is only "
                         f"{ndim} (its shape is {tuple(shape)})")
    return axis % ndim


def argument_names(fun, leaf_paths) -> list[str]:
    """'argument x', "argument params['w']", "args[2]", "kwargs['y']" for each flat leaf
    path ("args[0]['w']"...), naming positional arguments by `fun`'s signature as JAX does."""
    try:
        params = list(inspect.signature(fun).parameters.values())
    except (TypeError, ValueError):
        params = []
    positional = [p.name for p in params if p.kind in (inspect.Parameter.POSITIONAL_ONLY,
                                                       inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    names = []
    for path in leaf_paths:
        if not path.startswith("args["):
            names.append(path)
            continue
        close = path.index("]")
        index, rest = int(path[5:close]), path[close + 1:]
        names.append(f"argument {positional[index]}{rest}" if index < len(positional)
                     else path)
    return names


def batch_size(leaves, axes, names, axis_size) -> int:
    """The one size of every mapped axis (and of axis_size if given), or JAX's ValueError."""
    sizes = [None if a is None else aval_of(x).shape[a] for x, a in zip(leaves, axes)]
    found = {s for s in sizes if s is not None}
    if axis_size is not None:
        found.add(axis_size)
    if len(found) == 1:
        return found.pop()
    if not found and not leaves:
        raise ValueError("vmap wrapped function must be passed at least one argument "
                         "containing an array or axis_size must be specified")
    if not found:
        raise ValueError("vmap must have at least one non-None value in in_axes or axis_size "
                         "must be specified")
    lines = ["vmap got inconsistent sizes for array axes to be mapped:"]
    if axis_size is not None:
        lines.append(f"  * the `axis_size` argument was {axis_size};")
    counts = collections.Counter(s for s in sizes if s is not None)
    for rank, (size, count) in enumerate(counts.most_common()):
        i = sizes.index(size)
        where = f"axis {axes[i]} of {names[i]} of type {aval_of(leaves[i]).str_short()}"
        if count == 1:
            lines.append(f"  * one axis had size {size}: {where};")
        else:
            many = "most" if rank == 0 else "some"
            lines.append(f"  * {many} axes ({count} of them) had size {size}, e.g. {where};")
    raise ValueError("\n".join(lines))
