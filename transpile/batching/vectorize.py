"""`vectorize`: NumPy's generalized-ufunc broadcasting, built on vmap (as `jax.numpy.vectorize`).

`pyfunc` is written for one element (or for its core dimensions, given by a signature such
as "(n),(n)->()"); the leading "loop" dimensions of the arguments broadcast against each
other and each loop dimension becomes one vmap. An argument of size 1 (or absent) in a loop
dimension is not mapped there but shared.

Not yet exported from `transpile.numpy` (the integrator adds `vectorize` there).
"""
from __future__ import annotations

import functools
import re

import numpy as np

from .. import primitives as P
from ..core import aval_of, bind, ensure_operand
from .vmap import vmap

_DIM = r"\w+"
_CORE = rf"\((?:{_DIM}(?:,{_DIM})*)?\)"
_SIGNATURE = re.compile(rf"^{_CORE}(?:,{_CORE})*->{_CORE}(?:,{_CORE})*$")


def parse_signature(signature: str):
    """'(m,n),(n)->(m)' -> ([('m', 'n'), ('n',)], [('m',)])."""
    compact = signature.replace(" ", "")
    if not _SIGNATURE.match(compact):
        raise ValueError(f"not a valid gufunc signature: {signature}")
    ins, outs = compact.split("->")
    return _core_dims(ins), _core_dims(outs)


def _core_dims(part: str) -> list[tuple[str, ...]]:
    return [tuple(re.findall(_DIM, arg)) for arg in re.findall(_CORE, part)]


def vectorize(pyfunc, *, excluded=frozenset(), signature=None):
    """Vectorise `pyfunc` with broadcasting, as `jax.numpy.vectorize`. `excluded` names
    positional indexes or keyword names passed through unchanged; other keyword arguments
    are passed through unchanged too."""
    if any(not isinstance(e, (str, int)) for e in excluded):
        raise TypeError("vectorize can only exclude integer or string arguments, but "
                        f"excluded={excluded!r}")
    if any(isinstance(e, int) and e < 0 for e in excluded):
        raise ValueError(f"excluded={excluded!r} contains negative numbers")
    context = f"on vectorized function with excluded={excluded!r} and signature={signature!r}"

    @functools.wraps(pyfunc)
    def wrapped(*args, **kwargs):
        fixed = {i: a for i, a in enumerate(args) if i in excluded}
        mapped = [ensure_operand(a) for i, a in enumerate(args) if i not in excluded]

        def member(*values):
            it = iter(values)
            full = [fixed[i] if i in fixed else next(it) for i in range(len(args))]
            return pyfunc(*full, **kwargs)
        in_core, out_core = (parse_signature(signature) if signature is not None
                             else ([()] * len(mapped), None))
        if len(in_core) != len(mapped):
            raise TypeError(f"wrong number of positional arguments: expected {len(in_core)}, "
                            f"got {len(mapped)}")
        loop_shape, sizes = _loop_shape(mapped, in_core, context)
        checked = member if out_core is None else _checking(member, out_core, sizes, context)
        return _mapped_call(checked, mapped, in_core, loop_shape)
    return wrapped


def _loop_shape(args, in_core, context):
    """The broadcast loop shape, and the size of every named core dimension."""
    sizes, loops = {}, []
    for arg, core in zip(args, in_core):
        shape = aval_of(arg).shape
        if len(shape) < len(core):
            raise ValueError(f"input with shape {shape} does not have enough dimensions for "
                             f"all core dimensions {core} {context}")
        for name, size in zip(core, shape[len(shape) - len(core):]):
            if sizes.setdefault(name, size) != size:
                raise ValueError(f"inconsistent size for core dimension {name!r}: {size} vs "
                                 f"{sizes[name]} {context}")
        loops.append(shape[:len(shape) - len(core)])
    return np.broadcast_shapes(*loops), sizes


def _checking(fun, out_core, sizes, context):
    """`fun`, checking that its results have the signature's core shapes."""
    def checked(*args):
        out = fun(*args)
        outs = out if isinstance(out, tuple) else (out,)
        if len(outs) != len(out_core) or (len(out_core) > 1) != isinstance(out, tuple):
            raise TypeError(f"wrong number of output arguments: expected {len(out_core)}, got "
                            f"{len(outs)} {context}")
        for o, core in zip(outs, out_core):
            shape = aval_of(ensure_operand(o)).shape
            if len(shape) != len(core) or any(sizes.setdefault(n, s) != s
                                               for n, s in zip(core, shape)):
                raise ValueError(f"output shape {shape} does not match core dimensions {core} "
                                 f"{context}")
        return out
    return checked


def _mapped_call(fun, args, in_core, loop_shape):
    """One vmap per loop dimension; an argument of size 1 there is shared (squeezed)."""
    squeezed, axes_per_level = [], []
    for arg, core in zip(args, in_core):
        shape = aval_of(arg).shape
        own_loop = shape[:len(shape) - len(core)]
        loop = (1,) * (len(loop_shape) - len(own_loop)) + own_loop
        keep = [n != 1 for n in loop]
        squeezed.append(_drop_unit_loop_axes(arg, loop, shape[len(shape) - len(core):]))
        axes_per_level.append(keep)
    levels = list(zip(*axes_per_level)) if args else [()] * len(loop_shape)
    expand = [k for k, level in enumerate(levels) if not any(level)]
    vectorized = fun
    for level in reversed([lv for lv in levels if any(lv)]):
        vectorized = vmap(vectorized, in_axes=tuple(0 if m else None for m in level))
    out = vectorized(*squeezed)
    if not expand:
        return out
    return tuple(_insert_unit_axes(o, expand) for o in out) if isinstance(out, tuple) \
        else _insert_unit_axes(out, expand)


def _drop_unit_loop_axes(x, loop, core_shape):
    kept = tuple(n for n in loop if n != 1) + tuple(core_shape)
    return x if aval_of(x).shape == kept else bind(P.reshape, x, new_sizes=kept)


def _insert_unit_axes(x, positions):
    x = ensure_operand(x)
    shape = list(aval_of(x).shape)
    for p in positions:
        shape.insert(p, 1)
    return bind(P.reshape, x, new_sizes=tuple(shape))
