"""Collectives over a named vmap axis, as JAX's `lax.psum`, `lax.pmean`, `lax.pmax`,
`lax.pmin`, `lax.axis_index` under `vmap(f, axis_name="i")`: the sum (mean, maximum,
minimum) of a value over all members of the batch, and each member's position in it.

A member is traced on its own, so a collective is recorded as an equation (`psum`,
`axis_index`, each naming its axis); the vmap of that name resolves it while replaying
the member batched: psum sums the batch dimension away (the result is the same for every
member: unbatched), pmax and pmin reduce it with max and min, axis_index is an iota along it. The vmap of another name (nested
vmaps) passes it on batched, for its own vmap to resolve. Outside any vmap of its name a
collective is JAX's NameError ("unbound axis name").
"""
from __future__ import annotations

import math
import threading

import numpy as np

from .. import dtypes
from .. import primitives as P
from ..core import ShapedArray, aval_of, bind, is_python_scalar
from ..passes.typecheck import sub_irs
from ..pytree import tree_map
from ..rules.abstract import abstract_rules
from .table import register


class _Axes(threading.local):
    def __init__(self):
        self.bound: list = []        # (name, size) of every enclosing vmap that has a name
        self.batching: list = []     # the name of each vmap replaying a member, innermost last


_axes = _Axes()


class bound_axis:
    """While a named vmap traces its member: collectives may name it."""

    def __init__(self, name, size):
        self.entry = (name, size)

    def __enter__(self):
        _axes.bound.append(self.entry)

    def __exit__(self, *exc):
        _axes.bound.pop()


class batching_axis:
    """While a vmap replays its member batched: the axis its collectives sum over."""

    def __init__(self, name):
        self.name = name

    def __enter__(self):
        _axes.batching.append(self.name)

    def __exit__(self, *exc):
        _axes.batching.pop()


def _names(axis_name) -> tuple:
    return tuple(axis_name) if isinstance(axis_name, (tuple, list)) else (axis_name,)


def _axis_size(name) -> int:
    for bound, size in reversed(_axes.bound):
        if bound == name:
            return size
    raise NameError(f"unbound axis name: {name}. The following axis names (e.g. defined by "
                    f"vmap) are available to collective operations: "
                    f"{[n for n, _ in _axes.bound]}")


def psum(x, axis_name, *, axis_index_groups=None):
    """The sum of `x` (a pytree) over the members of the vmap(s) named `axis_name`."""
    if axis_index_groups is not None:
        raise NotImplementedError("lax.psum: axis_index_groups is not supported")
    names = _names(axis_name)
    sizes = [_axis_size(n) for n in names]

    def one(leaf):
        if is_python_scalar(leaf):          # psum(1, "i") is the axis size, as in JAX
            return leaf * int(np.prod(sizes))
        for name in names:
            leaf = bind(P.psum, leaf, axis_name=name)
        return leaf
    return tree_map(one, x)


def _extremum(prim, what):
    def collective(x, axis_name, *, axis_index_groups=None):
        if axis_index_groups is not None:
            raise NotImplementedError(f"lax.{what}: axis_index_groups is not supported")
        names = _names(axis_name)
        for name in names:
            _axis_size(name)

        def one(leaf):
            for name in names:
                leaf = bind(prim, leaf, axis_name=name)
            return leaf
        return tree_map(one, x)
    collective.__name__ = collective.__qualname__ = what
    collective.__doc__ = (f"The {'maximum' if what == 'pmax' else 'minimum'} of `x` (a pytree) "
                          f"over the members of the vmap(s) named `axis_name`.")
    return collective


pmax = _extremum(P.pmax, "pmax")
pmin = _extremum(P.pmin, "pmin")


def pmean(x, axis_name, *, axis_index_groups=None):
    """The mean of `x` over the members of the vmap(s) named `axis_name`."""
    count = int(np.prod([_axis_size(n) for n in _names(axis_name)]))
    from .. import numpy as tnp
    return tree_map(lambda s: tnp.divide(s, count), psum(x, axis_name,
                                                         axis_index_groups=axis_index_groups))


def axis_size(axis_name) -> int:
    """The number of members of the vmap named `axis_name` (of all of them, for a tuple of
    names), a Python int as in JAX: a static value, usable as a shape or a loop length."""
    return math.prod(_axis_size(n) for n in _names(axis_name))


def axis_index(axis_name):
    """This member's position along the vmap axis named `axis_name` (int32, as JAX)."""
    _axis_size(axis_name)
    return bind(P.axis_index, axis_name=axis_name, dtype=dtypes.int32)


# -- rules --------------------------------------------------------------------------------

def _psum_abstract(x, *, axis_name):
    return ShapedArray(x.shape, x.dtype, x.weak_type)


def _axis_index_abstract(*, axis_name, dtype):
    return ShapedArray((), dtypes.canonicalize(dtype))


abstract_rules["psum"] = _psum_abstract
abstract_rules["pmax"] = _psum_abstract
abstract_rules["pmin"] = _psum_abstract
abstract_rules["axis_index"] = _axis_index_abstract


def _resolving(axis_name) -> bool:
    return bool(_axes.batching) and _axes.batching[-1] == axis_name


@register("psum")
def psum_batching(size, values, dims, *, axis_name):
    x, = values
    d, = dims
    if _resolving(axis_name):
        if d is None:                       # the same value in every member
            return bind(P.get("mul"), x, np.asarray(size, aval_of(x).dtype)[()]), None
        return bind(P.reduce_sum, x, axes=(d,)), None
    return bind(P.psum, x, axis_name=axis_name), d


def _extremum_batching(prim, reduction):
    def rule(size, values, dims, *, axis_name):
        x, = values
        d, = dims
        if _resolving(axis_name):           # every member holds the same value: it is the
            if d is None:                   # maximum (minimum) itself
                return x, None
            return bind(reduction, x, axes=(d,)), None
        return bind(prim, x, axis_name=axis_name), d
    return rule


register("pmax")(_extremum_batching(P.pmax, P.reduce_max))
register("pmin")(_extremum_batching(P.pmin, P.reduce_min))


@register("axis_index")
def axis_index_batching(size, values, dims, *, axis_name, dtype):
    if _resolving(axis_name):
        return bind(P.iota, dtype=dtype, shape=(size,), dimension=0), 0
    return bind(P.axis_index, axis_name=axis_name, dtype=dtype), None


COLLECTIVES = frozenset({"psum", "pmax", "pmin", "axis_index"})


def resolves_here(eqn) -> bool:
    """Must the replay hand `eqn` to its rule even with unbatched operands? A collective of
    an axis being resolved must; so must a loop, cond or call whose body holds one (a while
    loop over an unbatched carry whose predicate reads `axis_index`: the predicate, and so
    the loop, differs from member to member)."""
    if not _axes.batching:
        return False
    if eqn.prim.name in COLLECTIVES:
        return _resolving(eqn.params["axis_name"])
    return any(resolves_here(inner) for ir in sub_irs(eqn) for inner in ir.eqns)
