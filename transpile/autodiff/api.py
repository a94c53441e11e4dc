"""The differentiation API, with JAX's names, signatures and errors: `grad`,
`value_and_grad`, `jvp`, `vjp`, `linearize`, `jacfwd`, `jacrev`, `hessian`.

Each traces the function it differentiates (with respect to the `argnums` arguments, any
pytrees of arrays) and emits its derivative on the current trace: eagerly it runs on NumPy,
under `jit` it is part of the one traced program."""
from __future__ import annotations

import functools

import numpy as np

from .. import dtypes, transform_cache
from ..core import Tracer, aval_of, current_trace, ensure_operand
from ..device_array import DeviceArray
from ..errors import ConcretizationError
from ..eager_array import eager
from ..pytree import tree_flatten, tree_unflatten
from ..strength import is_marked
from . import ops
from .control_flow import ReverseModeError
from .jvp import has_tangent_space, jvp_eval
from .linearize import linearize_ir
from .tracing_fun import trace_to_ir

# JAX's dtype of the tangents and cotangents of integer and boolean values: no data.
float0 = np.dtype([("float0", np.void, 0)])

# Jacobians with at most this many basis vectors unroll them; more batch them with vmap
# (one batched copy of the linear program in the IR, whatever the size).
UNROLL_LIMIT = 16


# -- arguments --------------------------------------------------------------------------------

def _argnums(argnums, what: str):
    nums = argnums if isinstance(argnums, (tuple, list)) else (argnums,)
    for n in nums:
        if not isinstance(n, (int, np.integer)) or isinstance(n, bool):
            raise TypeError(f"{what}: argnums must be an int or a tuple of ints, got {argnums!r}")
    return tuple(int(n) for n in nums)


def _argnums_key(argnums):
    """argnums as given, hashable: an int and a one-element tuple give different trees."""
    return argnums if isinstance(argnums, (int, np.integer)) else tuple(argnums)


def _check_argnums(nums, args, what, given=None):
    for n in nums:
        if not -len(args) <= n < len(args) and what in ("jacfwd", "jacrev"):
            # (JAX's jacobians check argnums as jit checks static_argnums)
            raise ValueError(
                f"{what}: positional argument indices, e.g. for `static_argnums`, must have "
                f"value greater than or equal to -len(args) and less than len(args), but got "
                f"value {n} for len(args) == {len(args)}.")
        if not -len(args) <= n < len(args):
            shown = given if given is not None else nums
            raise TypeError(
                f"{what}: differentiating with respect to argnums={shown} requires at least "
                f"{max(nums) + 1} positional arguments to be passed by the caller, but got only "
                f"{len(args)} positional arguments.")
    return tuple(n % len(args) for n in nums)


def _leaf(x):
    """A differentiated argument leaf as an operand (a function's weak result, marked
    virtually strong, is made strong so its traced type is NumPy's)."""
    x = ensure_operand(x, "argument")
    if is_marked(x):
        return ops.convert(x, x.aval.dtype)
    if isinstance(x, (np.ndarray, np.generic)):
        # in the dtype it is traced with (JAX's rules without x64 make 64-bit data 32-bit):
        # a custom rule or an eager loop body sees the value itself
        dt = aval_of(x).dtype
        if x.dtype != dt:
            return x.astype(dt)
    return x


def _known_values(leaves):
    """The leaves' values if all are known: outside any trace, or inside an eager
    differentiation's trace that knows them (grad of grad); else None."""
    trace = current_trace()
    if trace is not None and not getattr(trace, "concrete", False):
        return None
    values = [x.concrete if isinstance(x, Tracer) else x for x in leaves]
    return None if any(v is None for v in values) else values


def _check_inexact(leaves, what: str, allow_int: bool):
    for x in leaves:
        dt = aval_of(x).dtype
        if not dtypes.is_inexact(dt) and not allow_int:
            raise TypeError(
                f"{what} requires real- or complex-valued inputs (input dtype that is a "
                f"sub-dtype of np.inexact), but got {dt.name}. If you want to use Boolean- or "
                "integer-valued inputs, use vjp or set allow_int to True.")


def _result(x):
    """Eagerly, every result is an array (an EagerArray: NumPy with `.at`), not a scalar."""
    if current_trace() is None and not isinstance(x, Tracer):
        return eager(np.asarray(x))
    return x


def _results(tree):
    leaves, treedef = tree_flatten(tree)
    return tree_unflatten(treedef, [_result(x) for x in leaves])


def _zero_cotangent(aval):
    if has_tangent_space(aval):
        return ops.zeros(aval)
    return np.zeros(aval.shape, float0)


# -- tracing a function with respect to some arguments ---------------------------------------

def _parameter_name(fun, index: int) -> str:
    """The name of `fun`'s positional parameter `index` (for errors that name arguments)."""
    import inspect
    try:
        params = [p.name for p in inspect.signature(fun).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        params = []
    return params[index] if index < len(params) else f"args[{index}]"


class _Traced:
    """`fun` traced with respect to its `argnums` arguments: flat leaves in, flat outputs
    (then aux leaves) out, with the trees to rebuild both."""

    def __init__(self, fun, args, nums, has_aux, what):
        self.fun, self.nums, self.has_aux, self.what = fun, nums, has_aux, what
        diff = tuple(args[i] for i in nums)
        leaves, self.in_tree = tree_flatten(diff)
        self.leaves = [_leaf(x) for x in leaves]
        self.avals = [aval_of(x) for x in self.leaves]
        self.out_tree = self.aux_tree = None
        self.n_out = 0
        self.args = args
        leaf_names = []
        for n, arg in zip(nums, diff):
            leaf_names += [_parameter_name(fun, n)] * len(tree_flatten(arg)[0])
        try:
            self.ir, self.consts, self.captured = trace_to_ir(self._flat, self.avals,
                                                              leaf_names, fun)
        except ConcretizationError:
            values = _known_values(self.leaves)
            if values is None:
                raise
            # Eagerly, as JAX's grad: trace again knowing the arguments' values, so that
            # Python control flow on them picks this call's path (not cached: transform_cache
            # runs this path, uncached, for a function whose cached trace failed so)
            self.ir, self.consts, self.captured = trace_to_ir(self._flat, self.avals,
                                                              leaf_names, fun, values)

    def _flat(self, tracers):
        new_args = list(self.args)
        for i, a in zip(self.nums, tree_unflatten(self.in_tree, tracers)):
            new_args[i] = a
        out = self.fun(*new_args)
        aux_leaves = []
        if self.has_aux:
            if not (isinstance(out, (tuple, list)) and len(out) == 2):
                raise TypeError(f"expected function with aux output to return a two-element "
                                f"tuple, but got type {type(out)} (in {self.what} with "
                                "has_aux=True: return (output, auxiliary data))")
            out, aux = out
            aux_leaves, self.aux_tree = tree_flatten(aux)
        out_leaves, self.out_tree = tree_flatten(out)
        self.n_out = len(out_leaves)
        return [ensure_operand(o, "output") for o in out_leaves] + \
            [ensure_operand(a, "auxiliary output") for a in aux_leaves]

    @property
    def all_inputs(self):
        return self.leaves + self.captured

    def wrt(self):
        return [True] * len(self.leaves) + [False] * len(self.captured)

    def split_outputs(self, outs):
        return outs[:self.n_out], outs[self.n_out:]

    def aux(self, aux_leaves):
        return _results(tree_unflatten(self.aux_tree, aux_leaves))

    def input_tree(self, leaves):
        """Per-argument trees: a single argnum gives its tree, a tuple of them a tuple."""
        tree = tree_unflatten(self.in_tree, leaves)
        return tree


def _linearized(traced):
    lin = linearize_ir(traced.ir, traced.consts, traced.wrt(), traced.what)
    outs, residuals = lin.forward(traced.all_inputs)
    return lin, outs, residuals


def _input_cotangents(traced, lin, cts):
    """One cotangent per differentiated leaf, zeros (float0 for integers) where none."""
    it = iter(cts)
    per_leaf = []
    for aval, w in zip(traced.avals, lin.wrt[:len(traced.leaves)]):
        ct = next(it) if w else None
        per_leaf.append(_zero_cotangent(aval) if ct is None else ops.fit(ct, aval))
    return [_result(c) for c in per_leaf]


def _single_or_tuple(argnums, tree):
    return tree[0] if isinstance(argnums, int) else tree


# -- vjp, grad, value_and_grad -------------------------------------------------------------

def _cotangent_dtype_fits(ct, out_aval) -> bool:
    """JAX's pullback takes a cotangent of its output's tangent dtype (a Python number of
    the same kind stands for one); an integer output's cotangent is float0 (checked before)."""
    ct_aval = aval_of(ct)
    if not has_tangent_space(out_aval):
        return True
    if ct_aval.weak_type:
        return dtypes.is_inexact(ct_aval.dtype) or dtypes.is_int(ct_aval.dtype)
    return ct_aval.dtype == out_aval.dtype


def vjp(fun, *primals, has_aux=False):
    """(fun(*primals), vjp_fun[, aux]): vjp_fun(ct) gives the cotangents of all primals."""
    nums = tuple(range(len(primals)))
    traced = _Traced(fun, primals, nums, has_aux, "vjp")
    lin, outs, residuals = _linearized(traced)
    out_leaves, aux_leaves = traced.split_outputs(outs)
    out_avals = [aval_of(o) for o in out_leaves]
    out_tree = traced.out_tree

    def vjp_fun(ct):
        ct_leaves, ct_tree = tree_flatten(ct)
        if ct_tree != out_tree:
            raise ValueError(f"unexpected tree structure of argument to vjp function: got "
                             f"{ct_tree}, but expected to match {out_tree}")
        for c, a in zip(ct_leaves, out_avals):
            if isinstance(c, np.ndarray) and c.dtype == float0:   # an integer output's
                if c.shape != a.shape:                            # (JAX's zero cotangent)
                    raise ValueError(f"unexpected shape {c.shape} of the float0 cotangent "
                                     f"of an output of shape {a.shape}")
                continue
            if aval_of(c).shape != a.shape or not _cotangent_dtype_fits(c, a):
                raise ValueError(f"unexpected JAX type (e.g. shape/dtype) for argument to vjp "
                                 f"function: got {aval_of(c).str_short()}, but expected "
                                 f"{a.str_short()} because the corresponding output of the "
                                 "function had that type")
        cts = [ensure_operand(c) if has_tangent_space(a) and not (
            isinstance(c, np.ndarray) and c.dtype == float0) else None
               for c, a in zip(ct_leaves, out_avals)]
        cts += [None] * len(aux_leaves)
        in_cts = lin.transpose(residuals, cts)
        return tuple(traced.input_tree(_input_cotangents(traced, lin, in_cts)))

    primal_out = _results(tree_unflatten(out_tree, out_leaves))
    if has_aux:
        return primal_out, vjp_fun, traced.aux(aux_leaves)
    return primal_out, vjp_fun


def value_and_grad(fun, argnums=0, has_aux=False, holomorphic=False, allow_int=False,
                   reduce_axes=()):
    """`fun`'s value and its gradient with respect to the `argnums` arguments."""
    nums = _argnums(argnums, "value_and_grad")

    def value_and_grad_traced(diff, args, kwargs):
        bound = functools.partial(fun, **kwargs) if kwargs else fun
        traced = _Traced(bound, args, diff, has_aux, "grad")
        _check_inexact(traced.leaves, "grad", allow_int)
        lin, outs, residuals = _linearized(traced)
        out_leaves, aux_leaves = traced.split_outputs(outs)
        _check_scalar_output(out_leaves, traced.out_tree, holomorphic)
        out = out_leaves[0]
        seed = ops.full(1, aval_of(out).strong())
        in_cts = lin.transpose(residuals, [seed] + [None] * len(aux_leaves))
        grads = traced.input_tree(_input_cotangents(traced, lin, in_cts))
        grads = _single_or_tuple(argnums, grads)
        value = _result(out)
        if has_aux:
            return (value, traced.aux(aux_leaves)), grads
        return value, grads
    transformed = _transformation(fun, nums, argnums, "grad", value_and_grad_traced,
                                  ("value_and_grad", _argnums_key(argnums), has_aux,
                                   holomorphic, allow_int))
    transformed.__wrapped_transformation__ = "value_and_grad"
    return transformed


def _is_array(x) -> bool:
    return isinstance(x, (np.ndarray, np.generic, DeviceArray))


def _transformation(fun, nums, given, what, traced, key):
    """The public function of a differentiating transformation of `fun`: it checks the
    argnums, runs `traced(diff, args, kwargs)` inside a trace, and eagerly goes through the
    trace cache. `key` (the transformation and its parameters) is how jit and the cache
    recognise it (`__transpile_transform__`)."""
    @functools.wraps(fun)
    def transformed(*args, **kwargs):
        diff = _check_argnums(nums, args, what, given)
        if current_trace() is None:
            return _cached_eagerly(transformed, diff, args, kwargs,
                                   lambda: traced(diff, args, kwargs))
        return traced(diff, args, kwargs)
    transformed.__transpile_transform__ = (fun, key)
    return transformed


def _cached_eagerly(transformed, diff, args, kwargs, run):
    """An eager call of `transformed` (a differentiating transformation of a function)
    through transform_cache: the differentiated arguments and every array are the traced
    program's inputs; other values (Python numbers the function may use as sizes or
    flags) are passed as they are and key the entry by value."""
    def traced_positions(leaves):
        positions, k = [], 0
        for i, arg in enumerate(args):
            for x in tree_flatten(arg)[0]:
                if i in diff or _is_array(x):
                    positions.append(k)
                k += 1
        return positions + [j for j in range(k, len(leaves)) if _is_array(leaves[j])]
    return transform_cache.call(transformed, (), args, kwargs, traced_positions,
                                lambda a, k: transformed(*a, **k), run)


def _check_scalar_output(out_leaves, out_tree, holomorphic):
    if len(out_leaves) != 1 or out_tree.kind is not None:
        raise TypeError(f"Gradient only defined for scalar-output functions. Output was "
                        f"{out_tree} of {len(out_leaves)} values.")
    a = aval_of(out_leaves[0])
    if a.shape != ():
        raise TypeError(f"Gradient only defined for scalar-output functions. Output had "
                        f"shape: {a.shape}.")
    if not dtypes.is_float(a.dtype) and not (holomorphic and dtypes.is_complex(a.dtype)):
        raise TypeError(
            f"grad requires real-valued outputs (output dtype that is a sub-dtype of "
            f"np.floating), but got {a.dtype.name}. For holomorphic differentiation, pass "
            "holomorphic=True. For differentiation of non-holomorphic functions involving "
            "complex outputs, use jax.vjp directly.")


def grad(fun, argnums=0, has_aux=False, holomorphic=False, allow_int=False, reduce_axes=()):
    """The gradient of scalar-valued `fun` with respect to its `argnums` arguments, as
    `jax.grad`: same pytree structure as those arguments."""
    value_and_grad_f = value_and_grad(fun, argnums, has_aux, holomorphic, allow_int)

    @functools.wraps(fun)
    def grad_fun(*args, **kwargs):
        value, g = value_and_grad_f(*args, **kwargs)
        return (g, value[1]) if has_aux else g
    grad_fun.__transpile_transform__ = (value_and_grad_f, ("grad",))
    return grad_fun


# -- forward mode ---------------------------------------------------------------------------

def _check_tangents(primals, tangents):
    if not isinstance(primals, (tuple, list)) or not isinstance(tangents, (tuple, list)):
        raise TypeError("primal and tangent arguments to jvp must be tuples or lists; found "
                        f"{type(primals).__name__} and {type(tangents).__name__}.")
    p_leaves, p_tree = tree_flatten(tuple(primals))
    t_leaves, t_tree = tree_flatten(tuple(tangents))
    if p_tree != t_tree:
        raise TypeError("primal and tangent arguments to jvp must have the same tree "
                        f"structure; primals have tree structure {p_tree} whereas tangents "
                        f"have tree structure {t_tree}.")
    out = []
    for p, t in zip(p_leaves, t_leaves):
        pa = aval_of(ensure_operand(p))
        if isinstance(t, np.ndarray) and t.dtype == float0 or not has_tangent_space(pa):
            out.append(None)
            continue
        t = ensure_operand(t)
        ta = aval_of(t)
        if ta.shape != pa.shape:
            raise ValueError(f"jvp called with different primal and tangent shapes; got "
                             f"primal shape {pa.shape} and tangent shape {ta.shape}")
        if ta.dtype != pa.dtype:
            raise TypeError(f"primal and tangent arguments to jvp do not match; dtypes must "
                            f"be equal. Got primal dtype {pa.dtype.name} and so expected "
                            f"tangent dtype {pa.dtype.name}, but got tangent dtype "
                            f"{ta.dtype.name} instead.")
        out.append(t)
    return out


def _output_tangent(t, out):
    a = aval_of(out)
    return _result(_zero_cotangent(a) if t is None else t)


def jvp(fun, primals, tangents, has_aux=False):
    """(fun(*primals), its directional derivative along `tangents`), as `jax.jvp`."""
    t_leaves = _check_tangents(primals, tangents)
    primals = tuple(primals)
    traced = _Traced(fun, primals, tuple(range(len(primals))), has_aux, "jvp")
    outs, touts = jvp_eval(traced.ir, traced.consts, traced.all_inputs,
                           t_leaves + [None] * len(traced.captured))
    out_leaves, aux_leaves = traced.split_outputs(outs)
    t_out = [_output_tangent(t, o) for t, o in zip(touts, out_leaves)]
    result = (_results(tree_unflatten(traced.out_tree, out_leaves)),
              tree_unflatten(traced.out_tree, t_out))
    return (*result, traced.aux(aux_leaves)) if has_aux else result


def linearize(fun, *primals, has_aux=False):
    """(fun(*primals), f_jvp): f_jvp(*tangents) evaluates the linearized function, reusing
    the primal computation, as `jax.linearize`."""
    traced = _Traced(fun, primals, tuple(range(len(primals))), has_aux, "linearize")
    lin, outs, residuals = _linearized(traced)
    out_leaves, aux_leaves = traced.split_outputs(outs)

    def f_jvp(*tangents):
        t_leaves = _check_tangents(primals, tangents)
        wrt_t = [t for t, w in zip(t_leaves, lin.wrt) if w]
        wrt_t = [ops.zeros(a) if t is None else t
                 for t, a in zip(wrt_t, [v.aval for v in lin.tangent_in])]
        touts = lin.apply(residuals, wrt_t)
        return tree_unflatten(traced.out_tree, [_output_tangent(t, o) for t, o in
                                                 zip(touts, out_leaves)])
    out = _results(tree_unflatten(traced.out_tree, out_leaves))
    return (out, f_jvp, traced.aux(aux_leaves)) if has_aux else (out, f_jvp)


# -- Jacobians -------------------------------------------------------------------------------

def _basis_columns(count, each):
    """`each(basis vector)` for the `count` basis vectors, each result stacked along a new
    leading axis. A few are unrolled (`each(i)` with an int); more are batched with vmap
    (one batched linear program, as JAX's jacfwd/jacrev), or, where vmap has no rule for
    something in the program, run in a lax.scan (one copy of it, looped)."""
    if count <= UNROLL_LIMIT:
        columns = [each(i) for i in range(count)]
        return [_stack([c[k] for c in columns]) for k in range(len(columns[0]))] \
            if columns else None
    from ..batching import vmap
    from ..lax import scan
    eye = np.eye(count)
    try:
        return list(vmap(lambda row: tuple(each(row)))(eye))
    except NotImplementedError:
        _, stacked = scan(lambda carry, row: (carry, tuple(each(row))), 0, eye)
        return list(stacked)


def _is_float0(x) -> bool:
    return isinstance(x, np.ndarray) and x.dtype == float0


def _stack(values):
    from .. import numpy as tnp
    if values and _is_float0(values[0]):        # an integer input's (allow_int): no data
        return np.zeros((len(values),) + values[0].shape, float0)
    return tnp.stack(values)


def _unit_vector(index, count, avals):
    """The basis vector `index` (an int, or a traced one-hot row) cut into pieces of
    `avals`' shapes and dtypes."""
    pieces, start = [], 0
    for a in avals:
        if isinstance(index, int):
            flat = np.zeros(a.size, a.dtype)
            if start <= index < start + a.size:
                flat[index - start] = 1
            pieces.append(flat.reshape(a.shape))
        else:
            piece = ops.slice_(index, (start,), (start + a.size,))
            pieces.append(ops.reshape(ops.convert(piece, a.dtype), a.shape))
        start += a.size
    return pieces


def _jacobian_blocks(stacked, out_avals, in_avals, forward):
    """Blocks jac[o][i] of shape out_shape + in_shape from the per-basis stacks: forward
    mode stacks output tangents along the inputs' basis, reverse mode input cotangents
    along the outputs' basis."""
    from .. import numpy as tnp
    blocks = [[None] * len(in_avals) for _ in out_avals]
    basis_avals, other_avals = (in_avals, out_avals) if forward else (out_avals, in_avals)
    for k, other in enumerate(other_avals):
        column = stacked[k]                      # (basis size, *other.shape)
        start = 0
        for b, basis in enumerate(basis_avals):
            nb, no = len(basis.shape), len(other.shape)
            if _is_float0(column):
                shape = (other.shape + basis.shape) if forward else \
                    (basis.shape + other.shape)
                part = np.zeros(shape, float0)
                if forward:
                    blocks[k][b] = part
                else:
                    blocks[b][k] = part
                start += basis.size
                continue
            part = column[start:start + basis.size]
            start += basis.size
            part = tnp.reshape(part, basis.shape + other.shape)
            if forward:                          # (in..., out...) -> (out..., in...)
                part = tnp.transpose(part, tuple(range(nb, nb + no)) + tuple(range(nb)))
                blocks[k][b] = part
            else:                                # (out..., in...) already
                blocks[b][k] = part
    return blocks


def _jacobian_tree(traced, blocks, argnums):
    out_items = []
    for row in blocks:
        per_arg = traced.input_tree([_result(b) for b in row])
        out_items.append(_single_or_tuple(argnums, per_arg))
    return tree_unflatten(traced.out_tree, out_items)


def jacfwd(fun, argnums=0, has_aux=False, holomorphic=False):
    """The Jacobian of `fun` by forward mode (one linear pass per input element)."""
    nums = _argnums(argnums, "jacfwd")

    def jacfwd_traced(diff, args, kwargs):
        bound = functools.partial(fun, **kwargs) if kwargs else fun
        traced = _Traced(bound, args, diff, has_aux, "jacfwd")
        _check_real_inputs(traced.leaves, "jacfwd", holomorphic)
        in_avals = traced.avals
        count = sum(a.size for a in in_avals)
        try:                    # linearize once, then one linear pass per basis vector
            lin, outs, residuals = _linearized(traced)

            def push(tangents):
                return lin.apply(residuals, tangents)
        except ReverseModeError:  # a while loop: the whole JVP per basis vector instead
            outs = None

            def push(tangents):
                return jvp_eval(traced.ir, traced.consts, traced.all_inputs,
                                tangents + [None] * len(traced.captured))[1]
        if outs is None:
            from .evaluate import eval_ir
            outs = eval_ir(traced.ir, traced.consts, traced.all_inputs)
        out_leaves, aux_leaves = traced.split_outputs(outs)
        out_avals = [aval_of(o) for o in out_leaves]

        def column(index):
            touts = push(_unit_vector(index, count, in_avals))
            return [ops.instantiate(t, a) if has_tangent_space(a) else ops.zeros(
                a.__class__(a.shape, np.dtype(np.float64))) for t, a in zip(touts, out_avals)]
        stacked = _basis_columns(count, column) if count else \
            [ops.zeros(a.__class__((0,) + a.shape, a.dtype)) for a in out_avals]
        blocks = _jacobian_blocks(stacked, out_avals, in_avals, forward=True)
        jac = _jacobian_tree(traced, blocks, argnums)
        return (jac, traced.aux(aux_leaves)) if has_aux else jac
    return _transformation(fun, nums, argnums, "jacfwd", jacfwd_traced,
                           ("jacfwd", _argnums_key(argnums), has_aux, holomorphic))


def _check_real_inputs(leaves, what, holomorphic):
    for x in leaves:
        dt = aval_of(x).dtype
        if not (dtypes.is_float(dt) or holomorphic and dtypes.is_complex(dt)):
            raise TypeError(f"{what} requires real-valued inputs (input dtype that is a "
                            f"sub-dtype of np.floating), but got {dt.name}. For holomorphic "
                            "differentiation, pass holomorphic=True. For differentiation of "
                            "non-holomorphic functions involving complex inputs or integer "
                            f"inputs, use jax.jvp directly.")


def jacrev(fun, argnums=0, has_aux=False, holomorphic=False, allow_int=False):
    """The Jacobian of `fun` by reverse mode (one backward pass per output element)."""
    nums = _argnums(argnums, "jacrev")

    def jacrev_traced(diff, args, kwargs):
        bound = functools.partial(fun, **kwargs) if kwargs else fun
        traced = _Traced(bound, args, diff, has_aux, "jacrev")
        _check_inexact(traced.leaves, "jacrev", allow_int)
        lin, outs, residuals = _linearized(traced)
        out_leaves, aux_leaves = traced.split_outputs(outs)
        out_avals = [aval_of(o) for o in out_leaves]
        _check_jacrev_outputs(out_avals, holomorphic)
        in_avals = traced.avals
        count = sum(a.size for a in out_avals)

        def row(index):
            cts = [c if has_tangent_space(a) else None
                   for c, a in zip(_unit_vector(index, count, out_avals), out_avals)]
            in_cts = lin.transpose(residuals, cts + [None] * len(aux_leaves))
            return _input_cotangents(traced, lin, in_cts)
        stacked = _basis_columns(count, row) if count else \
            [ops.zeros(a.__class__((0,) + a.shape, a.dtype)) for a in in_avals]
        blocks = _jacobian_blocks(stacked, out_avals, in_avals, forward=False)
        jac = _jacobian_tree(traced, blocks, argnums)
        return (jac, traced.aux(aux_leaves)) if has_aux else jac
    return _transformation(fun, nums, argnums, "jacrev", jacrev_traced,
                           ("jacrev", _argnums_key(argnums), has_aux, holomorphic, allow_int))


def _check_jacrev_outputs(out_avals, holomorphic):
    """JAX's check: reverse mode needs real (or, holomorphic, complex) outputs."""
    for a in out_avals:
        ok = dtypes.is_complex(a.dtype) if holomorphic else dtypes.is_float(a.dtype)
        if not ok:
            wanted = "complex-valued outputs (output dtype that is a sub-dtype of " \
                "np.complexfloating)" if holomorphic else "real-valued outputs (output dtype " \
                "that is a sub-dtype of np.floating)"
            raise TypeError(f"jacrev requires {wanted}, but got {a.dtype.name}. For "
                            "differentiation of functions with integer outputs, use jax.vjp "
                            "directly.")


jacobian = jacrev            # jax.jacobian


def hessian(fun, argnums=0, has_aux=False, holomorphic=False):
    """The Hessian of scalar `fun`: jacfwd(jacrev(fun)), as `jax.hessian`."""
    return jacfwd(jacrev(fun, argnums, has_aux=has_aux, holomorphic=holomorphic), argnums,
                  has_aux=has_aux, holomorphic=holomorphic)

