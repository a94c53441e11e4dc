"""Batching the differentiation markers of transpile/autodiff.

Those primitives exist only while a differentiating transformation traces a function, so
vmap meets them only inside grad (`grad(lambda p: vmap(f)(p, xs).sum())`); `vmap(grad(f))`
never does, as grad has replaced them before vmap reads the IR.

- stop_gradient is elementwise: batched as it is.
- custom_jvp_call/custom_vjp_call are batched as JAX batches them: the function's IR is
  replayed batched, and the user's rule (jvp, or fwd and bwd) is wrapped in a vmap of its
  own, so that when differentiation later applies the rule it runs once on the whole batch.
  Batched operands are moved to axis 0 first and every output is batched along axis 0, so
  the rule's outputs and the function's agree whatever the rule computes.
"""
from __future__ import annotations

from .. import primitives as P
from ..core import ShapedArray, aval_of, bind
from ..tracing import trace_subfunction
from .moves import moveaxis
from .table import declare_unbatchable, register
from .transform import batch_ir, settle


@register("stop_gradient")
def stop_gradient_batching(size, values, dims):
    return bind(P.get("stop_gradient"), values[0]), dims[0]


def _front(values, dims):
    """Batched operands with their batch axis first; their dims (0 or None)."""
    return ([v if d is None else moveaxis(v, d, 0) for v, d in zip(values, dims)],
            [None if d is None else 0 for d in dims])


def _batched_call(call, values, dims, size):
    """The function's IR batched: every output batched along axis 0."""
    def run(tracers):
        outs, out_dims = batch_ir(call, tracers, dims, size)
        return settle(outs, out_dims, [True] * len(outs), size)
    avals = [aval_of(v) for v in values]
    ir, captured, _ = trace_subfunction(run, avals, [frozenset()] * len(avals),
                                        "vmap of a custom-derivative function")
    return ir, captured


def _vmap(fun, in_axes, size):
    from .vmap import vmap           # the API module imports this package's rules
    return vmap(fun, in_axes=in_axes, out_axes=0, axis_size=size)


@register("custom_jvp_call")
def custom_jvp_call_batching(size, values, dims, *, call, rule, n_args):
    values, dims = _front(values, dims)
    arg_dims = tuple(dims[:n_args])

    def batched_rule(primals, tangents):
        # A tangent has its primal's shape (the JVP instantiates zeros so), hence its dim.
        def member(p, t):
            outs, touts = rule(list(p), list(t))
            return tuple(outs), tuple(touts)
        outs, touts = _vmap(member, (arg_dims, arg_dims), size)(tuple(primals), tuple(tangents))
        return list(outs), list(touts)
    ir, captured = _batched_call(call, values, dims, size)
    outs = bind(P.get("custom_jvp_call"), *values, *captured, call=ir, rule=batched_rule,
                n_args=n_args)
    return list(outs), [0] * len(outs)


@register("custom_vjp_call")
def custom_vjp_call_batching(size, values, dims, *, call, fwd, bwd, n_args, remat=False):
    values, dims = _front(values, dims)
    arg_dims = tuple(dims[:n_args])
    member_avals = [_member_aval(aval_of(v), d) for v, d in zip(values[:n_args], arg_dims)]
    ir, captured = _batched_call(call, values, dims, size)
    outs = bind(P.get("custom_vjp_call"), *values, *captured, call=ir,
                fwd=_batched_fwd(fwd, arg_dims, member_avals, size), bwd=bwd,
                n_args=n_args, remat=remat)
    return list(outs), [0] * len(outs)


def _batched_fwd(fwd, arg_dims, member_avals, size):
    """`fwd` on flat lists, vmapped: outputs and residuals batched along axis 0, and a
    backward pass that is the member's vmapped, cotangents of unbatched arguments summed
    over the batch (each member contributed to them)."""
    def batched(args):
        backwards = []

        def member(*a):
            outs, residuals, backward = fwd(list(a))
            backwards.append(backward)
            return tuple(outs), tuple(residuals)
        outs, residuals = _vmap(member, arg_dims, size)(*args)
        backward = backwards[0]

        def member_backward(res, cts):
            in_cts = backward(list(res), list(cts))
            return tuple(_zeros(a) if c is None else c for c, a in zip(in_cts, member_avals))

        def batched_backward(res, cts):
            in_cts = _vmap(member_backward, (0, 0), size)(tuple(res), tuple(cts))
            return [c if d is not None else bind(P.reduce_sum, c, axes=(0,))
                    for c, d in zip(in_cts, arg_dims)]
        return list(outs), list(residuals), batched_backward
    return batched


def _member_aval(aval, dim):
    return aval if dim is None else ShapedArray(aval.shape[1:], aval.dtype, aval.weak_type)


def _zeros(aval):
    from ..autodiff import ops       # zeros typed as the argument (weak type included)
    return ops.zeros(aval)


declare_unbatchable("custom_vjp_lin", "the linearized custom_vjp is reverse-mode only")
