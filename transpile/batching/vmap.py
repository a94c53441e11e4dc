"""`vmap`: a function mapped over an axis of its arguments, as one batched computation.

`fun` is traced once on one member's shapes; its IR is then replayed with batched values
(transform.py). Under a trace (inside `jit`, another vmap, a loop body) the replay is
recorded there; called eagerly, vmap records the batched program in a trace of its own and
runs it with the reference interpreter, so results are NumPy arrays either way.
"""
from __future__ import annotations

import functools

from ..core import ShapedArray, aval_of, current_trace, ensure_operand, trace_context
from ..eager_array import eager
from ..errors import describe_function
from ..pytree import tree_flatten, tree_leaf_paths, tree_unflatten
from ..rules.impl import evaluate
from ..tracing import Trace, trace_subfunction
from .axes import argument_names, batch_size, broadcast_prefix, check_spec, normalize
from .moves import broadcast_batch, moveaxis
from .transform import batch_ir


def vmap(fun, in_axes=0, out_axes=0, axis_name=None, axis_size=None, spmd_axis_name=None):
    """Vectorise `fun` over axis `in_axes` of its arguments, as `jax.vmap`.

    in_axes: an int, None (not mapped) or a tuple with one entry per positional argument,
    each an int, None or a container matching that argument's structure (a prefix of it);
    keyword arguments are mapped along axis 0. out_axes: where the batch axis goes in each
    result, in the same forms. axis_size: the batch size when no argument is mapped.
    axis_name and spmd_axis_name are accepted for compatibility; transpile has no collective
    operations (psum...) that would use them.
    """
    if not callable(fun):
        raise TypeError(f"vmap requires a callable as its first argument, got {fun!r} of type "
                        f"{type(fun).__name__}")
    if isinstance(in_axes, list):      # as JAX: a list is taken for the tuple it stands for
        in_axes = tuple(in_axes)
    check_spec("in_axes", in_axes, top_level=True)
    check_spec("out_axes", out_axes, top_level=False)

    @functools.wraps(fun)
    def vmapped(*args, **kwargs):
        if isinstance(in_axes, tuple) and len(in_axes) != len(args):
            raise ValueError("vmap in_axes must be an int, None, or a tuple of entries "
                             "corresponding to the positional arguments passed to the "
                             f"function, but got len(in_axes)={len(in_axes)}, "
                             f"len(args)={len(args)}")
        leaves, treedef = tree_flatten((args, kwargs))
        leaves = [ensure_operand(x, "a vmapped argument") for x in leaves]
        paths = tree_leaf_paths(args, "args") + tree_leaf_paths(kwargs, "kwargs")
        names = argument_names(fun, paths)
        axes = broadcast_prefix("in_axes", (in_axes, 0), treedef)
        axes = [normalize(a, aval_of(x).shape, "argument") for x, a in zip(leaves, axes)]
        size = batch_size(leaves, axes, names, axis_size)
        call = _Call(fun, treedef, names, size, out_axes)
        if current_trace() is None:
            return call.eagerly(leaves, axes)
        return call.traced(leaves, axes)
    return vmapped


class _Call:
    """One call of a vmapped function: trace one member, replay batched, place results."""

    def __init__(self, fun, treedef, names, size, out_axes):
        self.fun, self.treedef, self.names = fun, treedef, names
        self.size, self.out_axes = size, out_axes
        self.out_tree = None

    def traced(self, leaves, axes):
        ir, captured = self._trace_member(leaves, axes)
        outs, dims = batch_ir(ir, list(leaves) + captured,
                              list(axes) + [None] * len(captured), self.size)
        return tree_unflatten(self.out_tree, self._place(outs, dims))

    def eagerly(self, leaves, axes):
        """Record the batched program in a trace of its own, then run it on NumPy."""
        trace = Trace(f"vmap of {describe_function(self.fun)}",
                      getattr(self.fun, "__name__", "f"))
        with trace_context(trace):
            tracers = [trace.new_argument(aval_of(x), name) for x, name in zip(leaves,
                                                                                self.names)]
            outs = self.traced(tracers, axes)
            out_leaves, out_tree = tree_flatten(outs)
            ir = trace.to_ir(out_leaves)
        results = evaluate(ir, trace.consts, leaves)
        return tree_unflatten(out_tree, [eager(r) for r in results])

    def _trace_member(self, leaves, axes):
        avals = [_member_aval(aval_of(x), a) for x, a in zip(leaves, axes)]
        deps = [frozenset([name]) for name in self.names]

        def member(tracers):
            args, kwargs = tree_unflatten(self.treedef, tracers)
            out_leaves, self.out_tree = tree_flatten(self.fun(*args, **kwargs))
            return [ensure_operand(o, "a result of the vmapped function") for o in out_leaves]
        ir, captured, _ = trace_subfunction(member, avals, deps, "vmap of", described=self.fun)
        return ir, captured

    def _place(self, outs, dims):
        specs = broadcast_prefix("out_axes", self.out_axes, self.out_tree)
        paths = tree_leaf_paths(tree_unflatten(self.out_tree, outs), "")
        return [self._place_one(x, d, spec, path)
                for x, d, spec, path in zip(outs, dims, specs, paths)]

    def _place_one(self, x, dim, spec, path):
        if spec is None:
            if dim is not None:
                raise ValueError(f"at vmap out_axes{path}, got axis spec None but output was "
                                 f"batched on axis {dim}")
            return x
        dst = normalize(spec, (None,) * (aval_of(x).ndim + (dim is None)), "output")
        return broadcast_batch(x, self.size, dst) if dim is None else moveaxis(x, dim, dst)


def _member_aval(aval: ShapedArray, axis) -> ShapedArray:
    if axis is None:
        return aval
    shape = aval.shape[:axis] + aval.shape[axis + 1:]
    return ShapedArray(shape, aval.dtype, aval.weak_type)
