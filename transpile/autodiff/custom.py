"""User-defined derivatives (`custom_jvp`, `custom_vjp`) and `checkpoint`, as JAX's.

Outside any differentiation a decorated function is just called. While a differentiating
transformation traces, the call is recorded as one equation carrying the function's IR and
the user's rule; the transformation then applies the rule instead of differentiating the
function's body (`jvp_rules.custom_jvp_call_jvp`, `custom_vjp_call_jvp`)."""
from __future__ import annotations

import functools

from .. import primitives as P
from ..core import aval_of, bind, ensure_operand
from ..pytree import tree_flatten, tree_unflatten
from ..tracing import trace_subfunction
from . import checkpoint_policies  # noqa: F401  (tp.checkpoint_policies)
from . import ops
from .evaluate import differentiating


def _split_nondiff(args, nondiff_argnums):
    nondiff = tuple(args[i] for i in nondiff_argnums)
    diff = tuple(a for i, a in enumerate(args) if i not in nondiff_argnums)
    return nondiff, diff


def _merge(nondiff_argnums, nondiff, diff):
    it_n, it_d = iter(nondiff), iter(diff)
    total = len(nondiff) + len(diff)
    return tuple(next(it_n) if i in nondiff_argnums else next(it_d) for i in range(total))


class _CustomBase:
    def __init__(self, fun, nondiff_argnums=()):
        functools.update_wrapper(self, fun)
        self.fun = fun
        self.nondiff_argnums = tuple(nondiff_argnums)

    def _trace(self, args):
        """(flat operands, their tree, the IR of fun, captured tracers, output tree)."""
        nondiff, diff = _split_nondiff(args, self.nondiff_argnums)
        leaves, in_tree = tree_flatten(diff)
        leaves = [ensure_operand(x) for x in leaves]
        out_tree = []

        def flat(tracers):
            full = _merge(self.nondiff_argnums, nondiff, tree_unflatten(in_tree, tracers))
            out_leaves, tree = tree_flatten(self.fun(*full))
            out_tree.append(tree)
            return [ensure_operand(o) for o in out_leaves]
        avals = [aval_of(x) for x in leaves]
        ir, captured, _ = trace_subfunction(flat, avals, [frozenset()] * len(avals),
                                            f"a {type(self).__name__} function",
                                            described=self.fun)
        return nondiff, leaves, in_tree, ir, captured, out_tree[0]

    def __get__(self, obj, objtype=None):       # methods: bind like a function would
        return self if obj is None else functools.partial(self, obj)


class custom_jvp(_CustomBase):
    """A function with a user-defined JVP rule: `f.defjvp(rule)` where
    `rule(primals, tangents) -> (primal_out, tangent_out)`, or `f.defjvps(*rules)`, one
    `rule(g, ans, *primals)` per argument. Reverse mode transposes the rule's tangent
    computation, as in JAX. Values being differentiated must be passed as arguments (closing
    over one raises UnexpectedTracerError, as in JAX)."""

    def __init__(self, fun, nondiff_argnums=()):
        super().__init__(fun, nondiff_argnums)
        self.jvp = None

    def defjvp(self, jvp, symbolic_zeros=False):
        self.jvp = jvp
        return jvp

    def defjvps(self, *jvps):
        def jvp(primals, tangents):
            ans = self.fun(*primals)
            parts = [rule(t, ans, *primals) for rule, t in zip(jvps, tangents)
                     if rule is not None]
            out_leaves, out_tree = tree_flatten(ans)
            total = None
            for part in parts:
                total = part if total is None else _tree_add(total, part)
            if total is None:
                total = tree_unflatten(out_tree, [ops.zeros(aval_of(o)) for o in out_leaves])
            return ans, total
        self.jvp = jvp

    def __call__(self, *args):
        if self.jvp is None:
            raise AttributeError(f"No JVP defined for custom_jvp function "
                                 f"{getattr(self.fun, '__name__', self.fun)} using defjvp.")
        if not differentiating():
            return self.fun(*args)
        nondiff, leaves, in_tree, ir, captured, out_tree = self._trace(args)

        def rule(primals, tangents):
            p = tree_unflatten(in_tree, primals)
            t = tree_unflatten(in_tree, tangents)
            out, t_out = self.jvp(*nondiff, tuple(p), tuple(t))
            out_leaves, tree = tree_flatten(out)
            t_leaves, t_tree = tree_flatten(t_out)
            if tree != out_tree or t_tree != out_tree:
                raise TypeError(f"Custom JVP rule of {getattr(self.fun, '__name__', 'f')} must "
                                f"produce primal and tangent outputs with the structure of the "
                                f"function's output {out_tree}; got {tree} and {t_tree}")
            out_leaves = [ensure_operand(o) for o in out_leaves]
            t_leaves = [ensure_operand(x) for x in t_leaves]
            for o, t in zip(out_leaves, t_leaves):
                if aval_of(t).shape != aval_of(o).shape:
                    raise TypeError(
                        f"Custom JVP rule of {getattr(self.fun, '__name__', 'f')} must produce "
                        "primal and tangent outputs with corresponding shapes and dtypes: "
                        f"primal {aval_of(o).str_short()}, tangent {aval_of(t).str_short()}")
            return out_leaves, t_leaves
        outs = bind(P.custom_jvp_call, *leaves, *captured, call=ir, rule=rule,
                    n_args=len(leaves))
        return tree_unflatten(out_tree, outs)


def _tree_add(a, b):
    la, ta = tree_flatten(a)
    lb, _ = tree_flatten(b)
    return tree_unflatten(ta, [ops.add(x, y) for x, y in zip(la, lb)])


class custom_vjp(_CustomBase):
    """A function with a user-defined VJP: `f.defvjp(fwd, bwd)` where `fwd(*args) ->
    (out, residuals)` and `bwd(residuals, ct_out) -> tuple of cotangents, one per argument`
    (None for zero). Forward mode (jvp) of it raises TypeError, as in JAX."""

    def __init__(self, fun, nondiff_argnums=()):
        super().__init__(fun, nondiff_argnums)
        self.fwd = self.bwd = None

    def defvjp(self, fwd, bwd, symbolic_zeros=False, optimize_remat=False):
        self.fwd, self.bwd = fwd, bwd

    def __call__(self, *args):
        if self.fwd is None:
            raise AttributeError(f"No VJP defined for custom_vjp function "
                                 f"{getattr(self.fun, '__name__', self.fun)} using defvjp.")
        if not differentiating():
            return self.fun(*args)
        nondiff, leaves, in_tree, ir, captured, out_tree = self._trace(args)
        outs = bind(P.custom_vjp_call, *leaves, *captured, call=ir,
                    fwd=functools.partial(self._fwd_flat, nondiff, in_tree, out_tree),
                    bwd=self.bwd, n_args=len(leaves), remat=self.remat)
        return tree_unflatten(out_tree, outs)

    remat = False

    def _fwd_flat(self, nondiff, in_tree, out_tree, primals):
        diff = tree_unflatten(in_tree, primals)
        full = _merge(self.nondiff_argnums, nondiff, diff)
        result = self.fwd(*full)
        if not (isinstance(result, (tuple, list)) and len(result) == 2):
            raise TypeError(f"Custom VJP fwd rule {getattr(self.fwd, '__name__', 'fwd')} must "
                            "return a pair (primal output, residuals)")
        out, res = result
        out_leaves, tree = tree_flatten(out)
        if tree != out_tree:
            raise TypeError(f"Custom VJP fwd rule must produce primal outputs with the "
                            f"structure of the function's output {out_tree}; got {tree}")
        res_leaves, res_tree = tree_flatten(res)
        res_leaves = [ensure_operand(r) for r in res_leaves]

        def backward(residuals, cts):
            ct = tree_unflatten(out_tree, cts)
            in_cts = self.bwd(*nondiff, tree_unflatten(res_tree, residuals), ct)
            if not isinstance(in_cts, (tuple, list)) or len(in_cts) != len(diff):
                raise TypeError(f"Custom VJP bwd rule must produce a tuple of length equal to "
                                f"the number of differentiable arguments ({len(diff)}); got "
                                f"{type(in_cts).__name__}")
            flat = []
            for arg, c in zip(diff, in_cts):
                arg_leaves = tree_flatten(arg)[0]
                if c is None:
                    flat += [None] * len(arg_leaves)
                else:
                    flat += [ensure_operand(x) for x in tree_flatten(c)[0]]
            return flat
        return [ensure_operand(o) for o in out_leaves], res_leaves, backward


class _Rematerialized(custom_vjp):
    """`checkpoint(fun)` under differentiation: a custom_vjp whose forward pass keeps only
    the arguments, and whose backward pass recomputes `fun` on them (its VJP, traced then)."""
    remat = True

    def __init__(self, fun):
        super().__init__(fun)
        self.defvjp(self._save_inputs, self._recompute)

    def _save_inputs(self, *args):
        return self.fun(*args), args

    def _recompute(self, args, ct):
        from .api import vjp
        return vjp(self.fun, *args)[1](ct)


def checkpoint(fun=None, *, prevent_cse=True, policy=None, static_argnums=()):
    """`jax.checkpoint`/`remat`: under reverse-mode differentiation the function's
    intermediate values are not stored for the backward pass but recomputed there from its
    arguments (the backward pass runs it again). `policy` (which values to save anyway),
    `prevent_cse` and `static_argnums` are accepted and ignored: nothing is saved but the
    arguments. Forward mode differentiates the body as written."""
    if fun is None:
        return functools.partial(checkpoint, prevent_cse=prevent_cse, policy=policy,
                                 static_argnums=static_argnums)

    @functools.wraps(fun)
    def checkpointed(*args, **kwargs):
        bound = functools.partial(fun, **kwargs) if kwargs else fun
        if not differentiating():
            return bound(*args)
        return _Rematerialized(bound)(*args)
    return checkpointed


remat = checkpoint


def closure_convert(fun, *example_args):
    """`jax.closure_convert`: (converted, consts), where `converted(*args, *consts)` computes
    `fun(*args)` and `consts` are the traced values `fun` closes over (of an enclosing jit or
    differentiation), hoisted so that a custom_vjp function can take them as arguments.
    Outside any trace nothing is traced, and consts is empty."""
    leaves, in_tree = tree_flatten(example_args)
    leaves = [ensure_operand(x) for x in leaves]
    out_tree = []

    def flat(tracers):
        out_leaves, tree = tree_flatten(fun(*tree_unflatten(in_tree, tracers)))
        out_tree.append(tree)
        return [ensure_operand(o) for o in out_leaves]
    ir, captured, _ = trace_subfunction(flat, [aval_of(x) for x in leaves],
                                        [frozenset()] * len(leaves), "closure_convert of",
                                        described=fun)

    def converted(*args_and_consts):
        args, consts = args_and_consts[:len(example_args)], args_and_consts[len(example_args):]
        from .evaluate import eval_ir
        arg_leaves, tree = tree_flatten(args)
        if tree != in_tree:
            raise TypeError(f"closure_convert: the converted function takes arguments "
                            f"structured as {in_tree}, got {tree}")
        return tree_unflatten(out_tree[0], eval_ir(ir, [], list(arg_leaves) + list(consts)))
    return converted, list(captured)


class _Static:
    """A value carried in a pytree's structure, not its leaves (a custom_gradient rule
    riding along the residuals)."""

    def __init__(self, value):
        self.value = value


def _register_static():
    from ..pytree import register_pytree_node
    register_pytree_node(_Static, lambda s: ((), s.value), lambda value, _: _Static(value))


_register_static()


def custom_gradient(fun):
    """`jax.custom_gradient`: `fun(*args)` returns (output, vjp_rule), `vjp_rule(ct)` the
    tuple of the arguments' cotangents. A custom_vjp whose residuals are the values the
    rule closes over (closure_convert)."""
    @custom_vjp
    def wrapped(*args):
        return fun(*args)[0]

    def fwd(*args):
        out, rule = fun(*args)
        converted, consts = closure_convert(rule, out)
        return out, (_Static(converted), consts)

    def bwd(res, ct):
        converted, consts = res
        cts = converted.value(ct, *consts)
        return tuple(cts) if isinstance(cts, (tuple, list)) else (cts,)
    wrapped.defvjp(fwd, bwd)
    return functools.wraps(fun)(lambda *args: wrapped(*args))
