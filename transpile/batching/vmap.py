"""`vmap`: a function mapped over an axis of its arguments, as one batched computation.

`fun` is traced once on one member's shapes; its IR is then replayed with batched values
(transform.py). Under a trace (inside `jit`, another vmap, a loop body) the replay is
recorded there; called eagerly, vmap records the batched program in a trace of its own and
runs it with the reference interpreter, so results are NumPy arrays either way.
"""
from __future__ import annotations

import functools

import numpy as np

from .. import transform_cache
from ..core import ShapedArray, aval_of, current_trace, ensure_operand, trace_context
from ..eager_array import eager
from ..errors import describe_function
from ..pytree import tree_flatten, tree_leaf_paths, tree_unflatten
from ..rules.impl import evaluate
from ..tracing import Trace, trace_subfunction
from .collectives import batching_axis, bound_axis
from .axes import argument_names, batch_size, broadcast_prefix, check_spec, normalize
from .moves import broadcast_batch, moveaxis
from .transform import batch_ir


def vmap(fun, in_axes=0, out_axes=0, axis_name=None, axis_size=None, spmd_axis_name=None):
    """Vectorise `fun` over axis `in_axes` of its arguments, as `jax.vmap`.

    in_axes: an int, None (not mapped) or a tuple with one entry per positional argument,
    each an int, None or a container matching that argument's structure (a prefix of it);
    keyword arguments are mapped along axis 0. out_axes: where the batch axis goes in each
    result, in the same forms. axis_size: the batch size when no argument is mapped.
    axis_name names the mapped axis for the collectives inside `fun` (lax.psum, lax.pmean,
    lax.axis_index; see collectives.py); spmd_axis_name is accepted and ignored.
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
        paths = tree_leaf_paths(args, "args") + tree_leaf_paths(kwargs, "kwargs")
        names = argument_names(fun, paths)
        axes = broadcast_prefix("in_axes", (in_axes, 0), treedef)
        # Unmapped arguments other than NumPy arrays reach `fun` as they are (as in JAX): a
        # Python int stays a concrete int that `fun` may use as a shape or a loop count.
        # Unmapped NumPy arrays are traced like mapped ones, so that they index and are
        # indexed by traced values as JAX arrays are.
        leaves = [x if a is None and not isinstance(x, (np.ndarray, np.generic))
                  else ensure_operand(x, "a vmapped argument") for x, a in zip(leaves, axes)]
        axes = [None if a is None else normalize(a, aval_of(x).shape, "argument")
                for x, a in zip(leaves, axes)]
        size = batch_size(leaves, axes, names, axis_size)
        call = _Call(fun, treedef, names, size, out_axes, axis_name)
        inputs = [k for k, (x, a) in enumerate(zip(leaves, axes))
                  if a is not None or isinstance(x, (np.ndarray, np.generic))]
        if current_trace() is None:
            return transform_cache.call(vmapped, (), args, kwargs, lambda _: inputs,
                                        lambda a, k: vmapped(*a, **k),
                                        lambda: call.eagerly(leaves, axes, inputs))
        return call.traced(leaves, axes, inputs)
    vmapped.__transpile_transform__ = (fun, ("vmap", repr(in_axes), repr(out_axes),
                                             axis_size, axis_name))
    return vmapped


class _Call:
    """One call of a vmapped function: trace one member, replay batched, place results."""

    def __init__(self, fun, treedef, names, size, out_axes, axis_name=None):
        self.fun, self.treedef, self.names = fun, treedef, names
        self.size, self.out_axes = size, out_axes
        self.axis_name = axis_name          # what collectives (lax.psum) call this axis
        self.out_tree = None

    def traced(self, leaves, axes, inputs):
        """Trace one member, then replay it batched on the current trace. `inputs` lists the
        positions of the leaves that become the member's traced inputs (the mapped ones and
        the unmapped arrays); the other leaves are passed to `fun` unchanged."""
        with bound_axis(self.axis_name, self.size):
            ir, captured = self._trace_member(leaves, axes, inputs)
        with batching_axis(self.axis_name):
            outs, dims = batch_ir(ir, [leaves[k] for k in inputs] + captured,
                                  [axes[k] for k in inputs] + [None] * len(captured),
                                  self.size)
        return tree_unflatten(self.out_tree, self._place(outs, dims))

    def eagerly(self, leaves, axes, inputs):
        """Record the batched program in a trace of its own, then run it on NumPy."""
        trace = Trace(f"vmap of {describe_function(self.fun)}",
                      getattr(self.fun, "__name__", "f"))
        with trace_context(trace):
            tracers = list(leaves)
            for k in inputs:
                tracers[k] = trace.new_argument(aval_of(leaves[k]), self.names[k])
            outs = self.traced(tracers, axes, inputs)
            out_leaves, out_tree = tree_flatten(outs)
            ir = trace.to_ir(out_leaves)
        results = evaluate(ir, trace.consts, [leaves[k] for k in inputs])
        return tree_unflatten(out_tree, [eager(r) for r in results])

    def _trace_member(self, leaves, axes, inputs):
        avals = [_member_aval(aval_of(leaves[k]), axes[k]) for k in inputs]
        deps = [frozenset([self.names[k]]) for k in inputs]

        def member(tracers):
            full = list(leaves)
            for k, t in zip(inputs, tracers):
                full[k] = t
            args, kwargs = tree_unflatten(self.treedef, full)
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
