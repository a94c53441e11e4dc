"""What known functions do to traced values, as tables (one place to extend the analysis).

Names here are unqualified members of a namespace (`builtins`, the array namespace
`transpile.numpy`, `transpile.lax`, `numpy`, `math`): the analysis first resolves a call's
qualified name, then looks the member up here.
"""

from __future__ import annotations

# Array attributes known at trace time: branching on them is fine.
STATIC_ATTRIBUTES = frozenset(
    {"shape", "ndim", "dtype", "size", "itemsize", "nbytes", "weak_type", "aval", "__class__"}
)

# Builtins whose result is a concrete Python value whatever their arguments.
CONCRETE_BUILTINS = frozenset(
    {
        "len", "isinstance", "issubclass", "type", "callable", "hasattr", "id", "repr", "str",
        "format", "print", "dir", "vars", "super", "object", "setattr", "delattr",
    }
)  # fmt: skip

# Builtins that compare or truth-test their arguments in Python.
COMPARING_BUILTINS = frozenset({"min", "max", "sorted", "any", "all"})

# Builtins that iterate their argument and keep element values.
PASS_THROUGH_BUILTINS = frozenset({"list", "tuple", "iter", "reversed"})

# Array-namespace functions that only look at shapes and dtypes.
CONCRETE_ARRAY_FUNCTIONS = frozenset(
    {"shape", "ndim", "size", "result_type", "dtype", "iinfo", "finfo", "issubdtype", "isdtype",
     "can_cast", "promote_types", "iscomplexobj", "isrealobj", "isscalar", "issubsctype",
     "isdtype", "is_weakly_typed", "broadcast_shapes"}
)  # fmt: skip

# lax functions that answer a Python value while tracing (the size of a named mesh axis).
CONCRETE_LAX_FUNCTIONS = frozenset({"axis_size", "dtype", "broadcast_shapes"})
# lax functions that fold Python constants to a Python value: `lax.psum(1, "i")` is the size
# of axis "i" (JAX's idiom for it), not a tracer.
CONSTANT_FOLDING_LAX_FUNCTIONS = frozenset({"psum"})

# Functions outside the array namespace that answer a Python bool from types, shapes and
# dtypes alone (qualified names): `if eqx.is_array(x):` is decided while tracing.
PYTHON_BOOL_FUNCTIONS = frozenset(
    {"equinox.is_array", "equinox.is_array_like", "equinox.is_inexact_array",
     "equinox.is_inexact_array_like", "jax.dtypes.issubdtype", "jax.dtypes.is_weakly_typed",
     "jax.core.is_concrete", "jax.tree_util.all_leaves", "jax.tree_util.treedef_is_leaf",
     "chex.is_array", "numpy.iscomplexobj", "numpy.isrealobj", "numpy.isscalar",
     "numpy.issubdtype", "numpy.ndim", "numpy.shape", "numpy.size",
     # pytree structure is static: treedefs, their equality, and leaf counts
     "jax.tree.structure", "jax.tree_util.tree_structure", "jax.tree_structure",
     "jax.tree_util.treedef_children", "jax.tree_util.treedef_tuple"}
)  # fmt: skip

# NumPy functions that turn their argument into a host array or scalar (`__array__`,
# `__float__`): these fail on tracers under every jit. Other NumPy functions reach
# transpile's tracers through `__array_ufunc__`/`__array_function__` and trace under
# `transpile.jit` (not under `jax.jit`).
HOST_CONVERSIONS = frozenset(
    {"array", "asarray", "asanyarray", "ascontiguousarray", "asfortranarray", "asarray_chkfinite",
     "float64", "float32", "float16", "int64", "int32", "int16", "int8", "uint8", "uint32",
     "uint64", "bool_", "complex128", "complex64", "frombuffer", "copy"}
)  # fmt: skip

# Array-namespace functions whose listed arguments set the output shape: (positions, keywords).
SHAPE_PARAMETERS: dict[str, tuple[tuple[int, ...], tuple[str, ...]]] = {
    "zeros": ((0,), ("shape",)),
    "ones": ((0,), ("shape",)),
    "empty": ((0,), ("shape",)),
    "full": ((0,), ("shape",)),
    "zeros_like": ((), ("shape",)),
    "ones_like": ((), ("shape",)),
    "empty_like": ((), ("shape",)),
    "full_like": ((), ("shape",)),
    "arange": ((0, 1, 2), ("start", "stop", "step")),
    "linspace": ((2,), ("num",)),
    "logspace": ((2,), ("num",)),
    "geomspace": ((2,), ("num",)),
    "eye": ((0, 1), ("N", "M")),
    "identity": ((0,), ("n",)),
    "tri": ((0, 1), ("N", "M")),
    "reshape": ((1,), ("newshape", "shape")),
    "broadcast_to": ((1,), ("shape",)),
    "tile": ((1,), ("reps",)),
    "repeat": ((1,), ("repeats",)),
    "resize": ((1,), ("new_shape",)),
}

# Array methods whose arguments set the output shape (None: every positional argument).
SHAPE_METHODS: dict[str, tuple[tuple[int, ...] | None, tuple[str, ...]]] = {
    "reshape": (None, ("shape", "newshape")),
    "resize": (None, ("new_shape",)),
    "repeat": ((0,), ("repeats",)),
}

# lax functions and the positions of the functions they trace.
LAX_BODIES: dict[str, tuple[int, ...]] = {
    "associative_scan": (0,),
    "cond": (1, 2),
    "switch": (1,),
    "while_loop": (0, 1),
    "fori_loop": (2,),
    "scan": (0,),
    "map": (0,),
}

# Methods that mutate their receiver (list, dict, set, deque, bytearray).
MUTATING_METHODS = frozenset(
    {
        "append", "extend", "insert", "pop", "remove", "clear", "update", "setdefault", "add",
        "discard", "sort", "reverse", "popitem", "appendleft", "extendleft", "popleft",
        "intersection_update", "difference_update", "symmetric_difference_update",
        "__setitem__", "__delitem__",
    }
)  # fmt: skip

# Array-namespace functions whose output shape depends on the data (unless given `size=`);
# `where` only in its one-argument form.
DATA_DEPENDENT_SHAPE = frozenset(
    {"nonzero", "argwhere", "flatnonzero", "unique", "unique_values", "unique_counts",
     "unique_inverse", "unique_all", "where", "extract", "compress"}
)  # fmt: skip

# Array-namespace functions that return boolean arrays (masks).
MASK_FUNCTIONS = frozenset(
    {"isnan", "isinf", "isfinite", "isneginf", "isposinf", "signbit", "isclose", "logical_and",
     "logical_or", "logical_not", "logical_xor", "greater", "greater_equal", "less", "less_equal",
     "equal", "not_equal", "isin"}
)  # fmt: skip

# Class field helpers whose `static=True` / `pytree_node=False` marks a field as static
# metadata of a pytree dataclass (equinox.field, flax.struct.field, dataclasses.field with
# metadata=dict(static=True)).
STATIC_FIELD_KEYWORDS = {"static": True, "pytree_node": False}

# Transformations `t(f, ...)` that return a function running `f` on the arguments it is called
# with (traced under an enclosing jit): `jax.grad(f)(w, x)`, `jax.vmap(lambda r: ...)(xs)`.
# Keyed by the last part of the qualified name; the package must be a JAX-family one.
FUNCTION_TRANSFORMS = frozenset(
    {"grad", "value_and_grad", "vmap", "pmap", "jacfwd", "jacrev", "jacobian", "hessian",
     "checkpoint", "remat", "custom_jvp", "custom_vjp", "named_call", "filter_grad",
     "filter_value_and_grad", "filter_vmap", "filter_checkpoint", "filter_pmap", "jit",
     "filter_jit", "shard_map", "pjit", "closure_convert"}
)  # fmt: skip
TRANSFORM_PACKAGES = frozenset({"jax", "equinox", "transpile", "flax"})  # flax.nnx.grad, nnx.vmap, ...
BATCHING_TRANSFORMS = frozenset({"vmap", "pmap", "filter_vmap", "filter_pmap"})

# Functions that call their function argument at once (while tracing) with the data they are
# given: member -> (position of the function, positions of the data it is called with).
# `None` for the data: every positional argument after the function.
IMMEDIATE_CALLERS: dict[str, tuple[int, tuple[int, ...] | None]] = {
    "tree_map": (0, None),
    "tree_map_with_path": (0, None),
    "vjp": (0, None),
    "linearize": (0, None),
    "eval_shape": (0, None),
    "filter_eval_shape": (0, None),
    "checkify": (0, None),
}

# Array operations inside jit are staged out even on constant inputs (JAX's "omnistaging";
# transpile's tracing does the same): `int(jnp.ceil(x.shape[0] / 2))` fails while tracing.
STAGING_NAMESPACES = ("jax.numpy", "jax.lax", "jax.nn", "jax.random", "transpile.numpy", "transpile.lax")

# Logging calls: they run once, while tracing; with a traced argument they log a tracer.
LOGGING_METHODS = frozenset({"debug", "info", "warning", "warn", "error", "exception", "critical", "log", "fatal"})

# Shape-determining arguments of functions outside the array namespace, by qualified name:
# (positions, keywords) as in SHAPE_PARAMETERS.
SHAPE_ARGUMENTS: dict[str, tuple[tuple[int, ...], tuple[str, ...]]] = {
    "jax.nn.one_hot": ((1,), ("num_classes",)),
    "jax.random.normal": ((1,), ("shape",)),
    "jax.random.uniform": ((1,), ("shape",)),
    "jax.random.bernoulli": ((2,), ("shape",)),
    "jax.random.randint": ((1,), ("shape",)),
    "jax.random.categorical": ((), ("shape",)),
    "jax.random.choice": ((2,), ("shape",)),
    "jax.random.permutation": ((), ()),
    "jax.random.split": ((1,), ("num",)),
    "jax.random.truncated_normal": ((3,), ("shape",)),
    "jax.random.gamma": ((2,), ("shape",)),
    "jax.random.exponential": ((1,), ("shape",)),
    "jax.random.gumbel": ((1,), ("shape",)),
    "jax.random.laplace": ((1,), ("shape",)),
    "jax.random.rademacher": ((1,), ("shape",)),
    "jax.random.orthogonal": ((1,), ("shape",)),
    "jax.lax.scan": ((), ("length",)),
    "jax.lax.dynamic_slice": ((2,), ("slice_sizes",)),
    "jax.lax.dynamic_slice_in_dim": ((2,), ("slice_size",)),
    "jax.lax.broadcast": ((1,), ("sizes",)),
    "jax.lax.broadcast_in_dim": ((1,), ("shape",)),
    "jax.lax.reshape": ((1,), ("new_sizes",)),
    "jax.lax.iota": ((1,), ("size",)),
    "jax.lax.full": ((0,), ("shape",)),
    "jax.lax.top_k": ((1,), ("k",)),
    "jax.image.resize": ((1,), ("shape",)),
    "transpile.lax.scan": ((), ("length",)),
    "transpile.lax.dynamic_slice": ((2,), ("slice_sizes",)),
    "transpile.random.normal": ((1,), ("shape",)),
    "transpile.random.uniform": ((1,), ("shape",)),
}
