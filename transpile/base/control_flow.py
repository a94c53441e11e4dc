"""Structured control flow: `cond`/`switch`, `while_loop`, `fori_loop` and `scan`, as
`jax.lax` has them.

Under `jit` they trace their branch or body functions once into nested IR regions, which
become real `if`/`while`/`for` in the generated C: a million-iteration loop compiles like a
ten-iteration one. Bodies may close over traced values of the enclosing function. Outside
`jit` the same functions run eagerly, as Python control flow over NumPy values.
`transpile.lax` re-exports them; `transpile.numpy` may build on them.
"""
from __future__ import annotations

import numpy as np

from .. import dtypes
from .. import primitives as P
from ..core import ShapedArray, Tracer, aval_of, bind, current_trace
from .control_flow_checks import (check_branches, check_callable, check_cond_output,
                                  check_fori_bounds, check_index, check_predicate,
                                  check_scan_output)
from ..eager_mode import jit_disabled
from ..eager_results import eager_tree
from ..errors import ConcretizationError, describe_function
from ..ir import IR, Var
from ..pytree import tree_flatten, tree_unflatten
from ..strength import is_marked
from ..tracing import trace_subfunction
from . import carry_types
from .operands import as_bool, astype, elementwise, is_weak, operand, weak_flags


def _tracing() -> bool:
    return current_trace() is not None


def _flat_avals(leaves):
    return [aval_of(operand(x)) for x in leaves]


def _deps(leaves):
    return [x.deps if isinstance(x, Tracer) else frozenset() for x in leaves]


def _trace_region(fun, treedef, avals, deps, what, wrap=None, strong_outputs=(), described=None):
    """Trace `fun(*unflattened args)`; returns (ir, captured tracers, output treedef).

    Outputs whose position is in `strong_outputs` are made strongly typed (so branches that
    differ only in weak typing agree, as JAX promotes them)."""
    out_tree = []

    def flat(tracers):
        args = wrap(tracers) if wrap else (tree_unflatten(treedef, tracers),)
        leaves, tree = tree_flatten(fun(*args))
        out_tree.append(tree)
        leaves = [operand(x) for x in leaves]
        return [_strong(x) if i in strong_outputs else x for i, x in enumerate(leaves)]
    ir, captured, _ = trace_subfunction(flat, avals, deps, what, described=described or fun)
    return ir, captured, out_tree[0]


def _region_operands(leaves):
    """Values passed into a region (carries, branch operands, scanned arrays) as operands. A
    function's weak result (`tnp.sign(0)`) is strong for NumPy (strength.py), but inside the
    region it is a fresh argument that carries no mark: make it strong on the way in."""
    operands = [operand(x) for x in leaves]     # (not map: lax.map is re-exported here)
    return [_strong(x) if is_marked(x) else x for x in operands]


def _strong(x):
    aval = aval_of(x)
    if not aval.weak_type:
        return x
    return bind(P.convert_element_type, x, new_dtype=aval.dtype, weak_type=False)


def _merge_captures(regions):
    """Give every region the union of all regions' captures, as extra trailing invars."""
    union, index = [], {}
    for _, captured, _ in regions:
        for c in captured:
            if id(c) not in index:
                index[id(c)] = len(union)
                union.append(c)
    merged = []
    for ir, captured, tree in regions:
        own = dict(zip((id(c) for c in captured), ir.invars[len(ir.invars) - len(captured):]))
        explicit = ir.invars[:len(ir.invars) - len(captured)]
        extra = [own.get(id(c)) or Var(c.aval) for c in union]
        merged.append((IR([], explicit + extra, ir.eqns, ir.outvars), tree))
    return merged, union


def _weak_mismatches(irs) -> set:
    """Output positions where some branches are weakly typed and others are not."""
    if len({len(ir.outvars) for ir in irs}) != 1:
        return set()
    return {k for k in range(len(irs[0].outvars))
            if len({ir.outvars[k].aval.weak_type for ir in irs}) > 1
            and len({ir.outvars[k].aval.strong() for ir in irs}) == 1}


def _types(ir, start=0):
    return [v.aval.str_short() for v in ir.outvars[start:]]


# -- branches ---------------------------------------------------------------------------------

def cond(pred, true_fun, false_fun, *operands):
    """`true_fun(*operands)` if pred else `false_fun(*operands)`; only one branch runs."""
    check_callable("lax.cond", true_fun=true_fun, false_fun=false_fun)
    check_predicate(pred)
    if not _tracing():     # eagerly, the branch gets EagerArrays (so `.at` works) as traced
        operands = eager_tree(operands)
        _check_branches_eagerly("cond", [false_fun, true_fun], operands)
        return true_fun(*operands) if bool(np.asarray(pred)) else false_fun(*operands)
    index = astype(as_bool(operand(pred)), dtypes.int32)
    return _switch(index, [false_fun, true_fun], operands, "cond")


def switch(index, branches, *operands):
    """`branches[index](*operands)`, with index clamped into range as in JAX."""
    branches = check_branches(branches)
    check_index(index)
    if not _tracing():
        operands = eager_tree(operands)
        _check_branches_eagerly("switch", branches, operands)
        i = int(np.clip(np.asarray(index), 0, len(branches) - 1))
        return branches[i](*operands)
    index = operand(index)
    if aval_of(index).shape != () or not dtypes.is_int(aval_of(index).dtype):
        raise TypeError(f"lax.switch index must be an integer scalar, got "
                        f"{aval_of(index).str_short()}")
    return _switch(index, branches, operands, "switch")


def _branch_regions(branches, operands, api_name):
    """Each branch traced on the operands' types, checked to agree (JAX's TypeError if not);
    returns the operand leaves and the regions."""
    leaves, treedef = tree_flatten(operands)
    leaves = _region_operands(leaves)
    avals, deps = _flat_avals(leaves), _deps(leaves)

    def trace_all(strong=()):
        return [_trace_region(b, treedef, avals, deps, "a lax.cond/switch branch",
                              wrap=lambda t: tree_unflatten(treedef, t), strong_outputs=strong)
                for b in branches]
    regions = trace_all()
    mixed = _weak_mismatches([ir for ir, _, _ in regions])
    if mixed:
        regions = trace_all(mixed)
    _check_branch_types(api_name, branches, regions)
    return leaves, regions


def _check_branch_types(api_name, branches, regions):
    names = carry_types.branch_names(api_name, len(branches))
    # JAX compares cond's true_fun with false_fun, and switch's branch 0 with each other.
    first = 1 if api_name == "cond" else 0
    others = [i for i in range(len(branches)) if i != first]
    first_ir, _, first_tree = regions[first]
    for i in others:
        ir, _, tree = regions[i]
        pair, funs = (names[first], names[i]), (branches[first], branches[i])
        if tree != first_tree:
            raise carry_types.branch_structure_error(api_name, pair, funs,
                                                     (first_tree, tree))
        if _types(ir) != _types(first_ir):
            raise carry_types.branch_type_error(
                api_name, pair, funs, first_tree, [v.aval for v in first_ir.outvars],
                [v.aval for v in ir.outvars])


def _check_branches_eagerly(api_name, branches, operands):
    """Eagerly only one branch runs, but JAX traces them all and refuses branches whose
    types differ: trace them here too. A branch that cannot be traced (it needs a concrete
    value) runs eagerly as before, unchecked."""
    _checked_once(branches, operands, lambda: _branch_regions(branches, operands, api_name))


# Eager checks already passed, by the functions' code and the types they were traced with:
# tracing costs ~10x an eager cond's own time, and a loop of eager calls repeats the same
# check. (A function whose globals change type between calls is checked only the first time.)
_EAGER_CHECKED: set = set()


def _type_key(value):
    aval = getattr(value, "aval", None)
    if aval is not None or hasattr(value, "dtype") and hasattr(value, "shape"):
        return ("array", tuple(np.shape(value)), str(value.dtype))
    if isinstance(value, (bool, int, float, complex)):
        return type(value)
    return ("object", id(value))


def _checked_once(funs, operands, check):
    """Run `check` (which traces funs on the operands' types and raises CarryTypeError on a
    mismatch) unless it passed before for the same code and types. Any other error while
    tracing leaves the eager call unchecked, as before."""
    try:
        leaves, treedef = tree_flatten((operands, [f.__closure__ or () for f in funs]))
        key = (tuple(f.__code__ for f in funs), treedef,
               tuple(_type_key(getattr(x, "cell_contents", x)) for x in leaves),
               dtypes.config._token)
        hash(key)
    except (AttributeError, TypeError, ValueError):
        key = None                  # not plain functions: check every time
    if key is not None and key in _EAGER_CHECKED:
        return
    try:
        check()
    except carry_types.CarryTypeError:
        raise
    except Exception:       # noqa: BLE001 (untraceable eagerly-written code stays allowed)
        return
    if key is not None:
        if len(_EAGER_CHECKED) > 4096:
            _EAGER_CHECKED.clear()
        _EAGER_CHECKED.add(key)


def _switch(index, branches, operands, api_name):
    leaves, regions = _branch_regions(branches, operands, api_name)
    first_tree = regions[0][2]
    merged, captured = _merge_captures(regions)
    index = astype(index, dtypes.int32) if aval_of(index).dtype != dtypes.int32 else index
    outs = bind(P.cond, index, *leaves, *captured, branches=tuple(ir for ir, _ in merged))
    return tree_unflatten(first_tree, outs)


# -- loops ------------------------------------------------------------------------------------

def _loop_carry(init, what, trace_body, body_fun=None, carry_position=0):
    """Trace a loop body whose outputs must match its carry; weakly typed initial values
    (Python numbers) take the dtype the body produces, as in JAX.

    `trace_body(treedef, avals, deps)` returns (region, the tree of the new carry). Returns
    the initial carry leaves (converted to the carry dtypes), their treedef and the region.
    """
    leaves, treedef = tree_flatten(init)
    leaves = _region_operands(leaves)
    avals = _flat_avals(leaves)
    for _ in range(3):
        region, out_tree = trace_body(treedef, avals, _deps(leaves))
        outs = [v.aval for v in region[0].outvars[:len(avals)]]
        if out_tree == treedef and [o.strong() for o in outs] == [a.strong() for a in avals]:
            converted = [x if aval_of(x).dtype == a.dtype else astype(x, a.dtype)
                         for x, a in zip(leaves, avals)]
            return converted, treedef, region
        if out_tree != treedef or len(outs) != len(avals):
            raise carry_types.carry_structure_error(what, body_fun, carry_position, treedef,
                                                    out_tree)
        if not _promotable(avals, outs):
            raise carry_types.carry_type_error(what, body_fun, carry_position, treedef, avals,
                                               outs)
        avals = [o if a.weak_type and a != o else a for a, o in zip(avals, outs)]
    raise TypeError(f"{what}: the carry types do not settle; give the initial values explicit "
                    "dtypes")


def _promotable(avals, outs) -> bool:
    return all(a.shape == o.shape and (a.dtype == o.dtype or a.weak_type)
               for a, o in zip(avals, outs))


def while_loop(cond_fun, body_fun, init_val):
    """Repeat `val = body_fun(val)` while `cond_fun(val)`; returns the final value."""
    check_callable("lax.while_loop", cond_fun=cond_fun, body_fun=body_fun)

    def trace_body(treedef, avals, deps):
        region = _trace_region(body_fun, treedef, avals, deps, "lax.while_loop body_fun")
        return region, region[2]
    if not _tracing():
        val = eager_tree(init_val)
        _check_carry_eagerly(val, "while_loop body", trace_body, body_fun, 0)
        carry_type = _eager_carry_type(val)
        while _eager_predicate(cond_fun, val):
            val = body_fun(val)
            _check_eager_carry(carry_type, val, body_fun)
        return val
    leaves, treedef, body = _loop_carry(init_val, "while_loop body", trace_body, body_fun)
    cond = _trace_region(cond_fun, treedef, _flat_avals(leaves), _deps(leaves),
                         "lax.while_loop cond_fun")
    check_cond_output(cond[2], [v.aval for v in cond[0].outvars],
                      describe_function(cond_fun))
    ((cond_ir, _), (body_ir, _)), captured = _merge_captures([cond, body])
    outs = bind(P.while_loop, *leaves, *captured, cond=cond_ir, body=body_ir,
                n_carry=len(leaves))
    return tree_unflatten(treedef, _forwarded_carry(outs, leaves, body_ir, 0))


def _forwarded_carry(outs, init, body_ir, first):
    """A loop's carry outputs, those the body passes through unchanged (its output is its
    input, `first` inputs after the start) replaced by their initial values, as JAX does:
    a value that only rides along the loop (a weight matrix) keeps its identity, so vmap
    leaves it unbatched and a cond whose branches both return it needs no select."""
    return [x if body_ir.outvars[k] is body_ir.invars[first + k] else out
            for k, (out, x) in enumerate(zip(outs, init))] + list(outs[len(init):])


def _eager_predicate(cond_fun, val) -> bool:
    """cond_fun(val) as a Python bool, after JAX's check that it is one boolean scalar."""
    leaves, tree = tree_flatten(cond_fun(val))
    check_cond_output(tree, [aval_of(operand(x)) for x in leaves],
                      describe_function(cond_fun))
    return bool(np.asarray(leaves[0]))


def _check_carry_eagerly(init, what, trace_body, body_fun, carry_position, other_types=()):
    """Eagerly the body runs on values, but JAX traces it once and refuses a body that
    changes its carry's types: trace it here too. A body that cannot be traced (it needs a
    concrete value) runs eagerly as before, checked only for its carry's shapes."""
    _checked_once([body_fun], (init, other_types),
                  lambda: _loop_carry(init, what, trace_body, body_fun, carry_position))


def _check_first_step(init, new, what, body_fun, carry_position):
    """An eager loop's first step checked as JAX checks its traced body: the same carry
    structure, and dtypes and shapes that match (a weak initial value may take the body's
    dtype), else JAX's TypeError. The step's own output is checked rather than a second
    trace of the body, so the body's Python side effects run once per step (the seed's
    `next(it)` inside a fori_loop)."""
    init_leaves, treedef = tree_flatten(init)
    new_leaves, new_tree = tree_flatten(new)
    if new_tree != treedef or len(new_leaves) != len(init_leaves):
        raise carry_types.carry_structure_error(what, body_fun, carry_position, treedef,
                                                new_tree)
    avals = _flat_avals(_region_operands(init_leaves))
    outs = _flat_avals(_region_operands(new_leaves))
    if [o.strong() for o in outs] != [a.strong() for a in avals] and \
            not _promotable(avals, outs):
        raise carry_types.carry_type_error(what, body_fun, carry_position, treedef, avals,
                                           outs)


def _eager_carry_type(val):
    leaves, treedef = tree_flatten(val)
    return treedef, [np.shape(x) for x in leaves]


def _check_eager_carry(carry_type, val, body_fun):
    """As the traced loop checks its body once: the carry keeps its structure and shapes
    (otherwise JAX's TypeError, rather than a loop whose condition never changes)."""
    if _eager_carry_type(val) != carry_type:
        treedef, shapes = carry_type
        raise TypeError(f"lax.while_loop body_fun {describe_function(body_fun)} output and "
                        f"input must have identical types: the carry was {treedef} of shapes "
                        f"{shapes}, the body returned {_eager_carry_type(val)[0]} of shapes "
                        f"{_eager_carry_type(val)[1]}")


def check_unroll(unroll, what: str):
    """JAX's `unroll=` (an int >= 0 or a bool), checked as JAX checks it. It asks JAX to
    replicate the body; transpile emits one compiled loop either way (the C compiler unrolls
    as it sees fit), so the results are the same and only the check remains."""
    if isinstance(unroll, Tracer):
        raise ConcretizationError(f"Abstract tracer value encountered where concrete value is "
                                  f"expected: {unroll!r}\nThe `unroll` argument to `{what}` "
                                  f"expects a concrete `int` or `bool` value.")
    if not isinstance(unroll, (int, np.integer)):
        raise TypeError(f"The `unroll` argument to `{what}` expects a concrete `int` or "
                        f"`bool`, got {unroll!r}")
    if not isinstance(unroll, bool) and unroll < 0:
        raise ValueError("`unroll` must be a `bool` or a non-negative `int`.")


def fori_loop(lower, upper, body_fun, init_val, *, unroll=None):
    """`for i in range(lower, upper): val = body_fun(i, val)`, as a compiled loop.
    `unroll` is accepted as in JAX (see check_unroll); as JAX, it needs static bounds."""
    check_callable("lax.fori_loop", body_fun=body_fun)
    if unroll is not None:
        check_unroll(unroll, "fori_loop")
        if unroll is not False and unroll != 1 and (isinstance(lower, Tracer)
                                                     or isinstance(upper, Tracer)):
            raise ValueError("Can only use `unroll` in `fori_loop` if the loop bounds are "
                             "statically known.")
    check_fori_bounds(aval_of(operand(lower)), aval_of(operand(upper)))
    if not all(dtypes.is_int(aval_of(operand(b)).dtype) for b in (lower, upper)):
        return _float_fori_loop(operand(lower), operand(upper), body_fun, init_val)
    if not _tracing():
        val = eager_tree(init_val)
        checked = _fori_index_aval(operand(lower), operand(upper)) is None
        for i in range(int(lower), int(upper)):
            new = body_fun(i, val)
            if not checked:
                _check_first_step(val, new, "scan body", body_fun, _FORI_CARRY)
                checked = True
            val = new
        return val
    lower, upper = operand(lower), operand(upper)
    index_dtype = dtypes.result_type([aval_of(lower).dtype, aval_of(upper).dtype],
                                     weak_flags([lower, upper]))
    if not dtypes.is_int(index_dtype):
        kinds = f"{aval_of(lower).dtype} and {aval_of(upper).dtype}"
        raise TypeError(f"lax.fori_loop bounds must be integers of one common integer type; "
                        f"{kinds} promote to {index_dtype} (JAX requires equal types): cast "
                        f"one, e.g. upper.astype(lower.dtype)")
    if index_dtype == dtypes.uint64:
        return _uint64_fori_loop(lower, upper, body_fun, init_val)
    # JAX runs a fori_loop with static bounds as a scan, otherwise as a while_loop, and
    # names the carry by its place in the (i, carry) pair; its messages say so.
    what = "while_loop body" if isinstance(lower, Tracer) or isinstance(upper, Tracer) \
        else "scan body"
    leaves, treedef, (body_ir, captured, _) = _loop_carry(
        init_val, what, _fori_trace_body(body_fun, _fori_index_aval(lower, upper)), body_fun,
        _FORI_CARRY)
    outs = bind(P.for_loop, astype(lower, index_dtype), astype(upper, index_dtype), *leaves,
                *captured, body=body_ir, n_carry=len(leaves))
    return tree_unflatten(treedef, _forwarded_carry(outs, leaves, body_ir, 1))


_FORI_CARRY = "loop_carry[1]"


def _fori_index_aval(lower, upper):
    """The loop index's type (None for bounds that are not integers). Python-int bounds give
    a weakly typed index, as in JAX: `x_f32 * i` stays float32."""
    index_dtype = dtypes.result_type([aval_of(lower).dtype, aval_of(upper).dtype],
                                     weak_flags([lower, upper]))
    if not dtypes.is_int(index_dtype):
        return None
    return ShapedArray((), index_dtype, is_weak(lower) and is_weak(upper))


def _fori_trace_body(body_fun, index_aval):
    def trace_body(treedef, avals, deps):
        def wrap(tracers):
            return tracers[0], tree_unflatten(treedef, tracers[1:])
        region = _trace_region(body_fun, treedef, [index_aval] + avals,
                               [frozenset()] + deps, "lax.fori_loop body_fun", wrap=wrap)
        return region, region[2]
    return trace_body


def _float_fori_loop(lower, upper, body_fun, init_val):
    """Float bounds, which JAX takes when both have one dtype: the body sees lower,
    lower + 1, ... while below upper. The loop counts its trips in int64, as the uint64 one."""
    dt = aval_of(lower).dtype
    if dt != aval_of(upper).dtype or not dtypes.is_float(dt):
        raise TypeError("lower and upper arguments to fori_loop must have equal types, got "
                        f"{np.dtype(dt).name} and {np.dtype(aval_of(upper).dtype).name}; "
                        "use integer bounds, or two of one float dtype")
    trips = elementwise("ceil", elementwise("sub", upper, lower))
    trips = astype(elementwise("max", trips, operand(np.zeros((), dt))), dtypes.int64)

    def body(trip, index_and_val):
        index, val = index_and_val     # the float index is carried, not made from `trip`
        return elementwise("add", index, operand(np.ones((), dt))), body_fun(index, val)
    return fori_loop(np.int64(0), trips, body, (lower, init_val))[1]


def _uint64_fori_loop(lower, upper, body_fun, init_val):
    """uint64 bounds: the compiled loop counts in int64, where bounds from 2**63 up would be
    negative. Count the trips instead (a count beyond int64 could never finish anyway) and
    give the body lower + trip, in uint64."""
    lower, upper = astype(lower, dtypes.uint64), astype(upper, dtypes.uint64)
    ahead = elementwise("gt", upper, lower)
    trips = bind(P.select, ahead, elementwise("sub", upper, lower), operand(np.uint64(0)))
    trips = astype(elementwise("min", trips, np.uint64(2**63 - 1)), dtypes.int64)

    def body(trip, val):
        return body_fun(elementwise("add", lower, astype(trip, dtypes.uint64)), val)
    return fori_loop(np.int64(0), trips, body, init_val)


def scan(f, init, xs=None, length=None, reverse=False, unroll=1, _split_transpose=False):
    """`carry, y = f(carry, x)` over the leading axis of xs; returns (carry, stacked ys).
    `unroll` is accepted as in JAX (see check_unroll)."""
    check_callable("lax.scan", f=f)
    check_unroll(unroll, "scan")
    x_leaves, x_tree = tree_flatten(xs)
    x_leaves = _region_operands(x_leaves)
    lengths = {aval_of(x).shape[0] for x in x_leaves if aval_of(x).shape}
    if any(not aval_of(x).shape for x in x_leaves):
        raise ValueError("scan got value with no leading axis to scan over: every leaf of xs "
                         "needs one (lax.scan)")
    if isinstance(length, Tracer):
        raise ConcretizationError(f"Abstract tracer value encountered where concrete value is "
                                  f"expected: {length!r}\nThe `length` argument to `scan` "
                                  "expects a concrete `int` value: pass a Python int (mark it "
                                  "static with jit's static_argnums)")
    if length is None:
        if len(lengths) != 1:
            raise ValueError(f"lax.scan needs xs with one leading length or an explicit length; "
                             f"got lengths {sorted(lengths)}")
        length = lengths.pop()
    elif lengths and lengths != {length}:
        raise ValueError(f"scan got `length` argument of {length} which disagrees with leading "
                         f"axis sizes {sorted(lengths)}.")
    if length == 0 and jit_disabled():
        # JAX runs a scan as a Python loop under disable_jit, which cannot know the types
        # of the outputs of a body never called; it refuses, and so do we
        raise ValueError("zero-length scan is not supported in disable_jit() mode because "
                         "the output type is unknown.")
    slice_avals = [ShapedArray(aval_of(x).shape[1:], aval_of(x).dtype) for x in x_leaves]
    y_tree = []

    def trace_body(treedef, avals, deps):
        def body(*args):
            carry, x = args
            new_carry, y = check_scan_output(f(carry, x))
            y_leaves, tree = tree_flatten(y)
            y_tree.append(tree)
            return (new_carry, *y_leaves)

        def wrap(tracers):
            n = len(avals)
            return tree_unflatten(treedef, tracers[:n]), tree_unflatten(x_tree, tracers[n:])
        region = _trace_region(body, treedef, avals + slice_avals,
                               deps + [frozenset()] * len(slice_avals), "lax.scan f", wrap=wrap,
                               described=f)
        out_tree = region[2]        # (new carry, *y leaves)
        return region, out_tree.children[0]
    if not _tracing():
        _check_carry_eagerly(eager_tree(init), "scan body", trace_body, f, 0,
                             tuple(str(a) for a in slice_avals))
        return _eager_scan(f, init, x_leaves, x_tree, length, reverse)
    leaves, treedef, (body_ir, captured, _) = _loop_carry(init, "scan body", trace_body, f)
    outs = bind(P.scan, *leaves, *x_leaves, *captured, body=body_ir, n_carry=len(leaves),
                n_xs=len(x_leaves), length=int(length), reverse=bool(reverse))
    outs = _forwarded_carry(outs, leaves, body_ir, 0)
    carry = tree_unflatten(treedef, outs[:len(leaves)])
    return carry, tree_unflatten(y_tree[-1], outs[len(leaves):])


def _eager_scan(f, init, x_leaves, x_tree, length, reverse):
    carry, ys = eager_tree(init), []
    carry_type = _eager_carry_type(carry)
    for i in (range(length - 1, -1, -1) if reverse else range(length)):
        x = tree_unflatten(x_tree, [eager_tree(np.asarray(leaf)[i]) for leaf in x_leaves])
        carry, y = check_scan_output(f(carry, x))
        if _eager_carry_type(carry) != carry_type:      # as the traced scan checks its body
            raise TypeError(f"lax.scan body function {describe_function(f)} carry input and "
                            f"carry output must have equal types: the carry was "
                            f"{carry_type[0]} of shapes {carry_type[1]}, the body returned "
                            f"{_eager_carry_type(carry)[0]} of shapes "
                            f"{_eager_carry_type(carry)[1]}")
        ys.append(y)
    if reverse:
        ys.reverse()
    if not ys:
        return carry, _empty_ys(f, carry, x_leaves, x_tree)
    y_leaves = [tree_flatten(y)[0] for y in ys]
    _, y_def = tree_flatten(ys[0])
    stacked = [_stack_steps([yl[j] for yl in y_leaves]) for j in range(len(y_leaves[0]))]
    return carry, tree_unflatten(y_def, stacked)


def _stack_steps(values):
    """One y leaf of every step, stacked in the dtype the traced scan gives it: the steps'
    dtypes promoted (a first step's Python-number y is weak, as the traced carry it came
    from once the body's output decides its type)."""
    values = [operand(v) for v in values]
    dt = dtypes.result_type([aval_of(v).dtype for v in values], weak_flags(values))
    return np.stack([np.asarray(v).astype(dt, copy=False) for v in values])


def _empty_ys(f, carry, x_leaves, x_tree):
    """The stacked outputs of a scan of length 0: f's output structure and dtypes, learnt
    from one call on zeros shaped like an x slice, with a leading axis of length 0 (as JAX
    gives; its abstract evaluation is this call without the values)."""
    zeros = [eager_tree(np.zeros(np.shape(leaf)[1:], np.asarray(leaf).dtype))
             for leaf in x_leaves]
    with np.errstate(all="ignore"):
        _, y = check_scan_output(f(carry, tree_unflatten(x_tree, zeros)))
    y_leaves, y_def = tree_flatten(y)
    return tree_unflatten(y_def, [np.zeros((0,) + np.shape(v), np.asarray(v).dtype)
                                  for v in y_leaves])
