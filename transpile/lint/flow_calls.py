"""Abstract evaluation of calls: known functions by table, module functions by analysing them.

A call to a function defined in the same module is analysed with the caller's argument values
bound to its parameters, so a hazard inside a helper is reported at the helper's line and names
the jitted function's arguments it came from. Results are memoised per (function, arguments).
Method calls keep the receiver's status: `(x > 0).any()`, `tnp.abs(x).max()` are traced when
`x` is, whatever the chain of calls and attributes in between.
"""

from __future__ import annotations

import ast

from .codes import HazardKind
from .flow_expressions import truth_taint
from .flow_state import Frame
from .flow_tables import (
    BATCHING_TRANSFORMS,
    COMPARING_BUILTINS,
    CONCRETE_ARRAY_FUNCTIONS,
    CONCRETE_BUILTINS,
    CONCRETE_LAX_FUNCTIONS,
    CONSTANT_FOLDING_LAX_FUNCTIONS,
    DATA_DEPENDENT_SHAPE,
    FUNCTION_TRANSFORMS,
    HOST_CONVERSIONS,
    IMMEDIATE_CALLERS,
    LAX_BODIES,
    LOGGING_METHODS,
    MASK_FUNCTIONS,
    MUTATING_METHODS,
    PASS_THROUGH_BUILTINS,
    PYTHON_BOOL_FUNCTIONS,
    SHAPE_ARGUMENTS,
    SHAPE_METHODS,
    SHAPE_PARAMETERS,
    STAGING_NAMESPACES,
    TRANSFORM_PACKAGES,
)
from .from_transpile import CONVERSION_DUNDERS, concretizing_methods, conversion_builtins
from .flow_values import CONCRETE, Origin, Taint, Value, container_of, join, of, taint_of, tuple_of
from .index import Function
from .resolve import positional_params

Args = list[tuple[ast.expr, str | None, Value]]  # (expression, keyword or "*"/"**", value)
LINEN_BASES = frozenset({"flax.linen.Module", "flax.linen.module.Module"})
# `nnx.merge(graphdef, state)` rebuilds the module `graphdef, state = nnx.split(module)` took apart.
NNX_SPLIT_MERGE = frozenset({"flax.nnx.merge", "flax.nnx.split"})


class CallMixin:
    def eval_call(self, node: ast.Call, frame: Frame) -> Value:
        if isinstance(node.func, ast.Call):
            transformed = self._transformed_call(node, frame)
            if transformed is not None:
                return transformed
        args: Args = []
        for arg in node.args:
            if isinstance(arg, ast.Starred):
                args.append((arg.value, "*", self.eval(arg.value, frame)))
            else:
                args.append((arg, None, self.eval(arg, frame)))
        for keyword in node.keywords:
            args.append((keyword.value, keyword.arg or "**", self.eval(keyword.value, frame)))
        handlers = (self._builtin_call, self._namespace_call, self._user_call, self._module_method_call,
                    self._method_call, self._module_call)  # fmt: skip
        for handler in handlers:
            result = handler(node, args, frame)
            if result is not None:
                return result
        return of(self.eval(node.func, frame).taint | _args_taint(args))

    # -- builtins ----------------------------------------------------------------------------
    def _builtin_call(self, node: ast.Call, args: Args, frame: Frame) -> Value | None:
        name = self.names.builtin(node.func, frame.function)
        if name is None:
            return None
        taint = _args_taint(args)
        values = [value for _, _, value in args]
        # Untraced arguments convert fine, so transpile's table is read only for traced ones.
        if name in COMPARING_BUILTINS or (taint and name in conversion_builtins()):
            if name in ("bool", "any", "all", "sorted") or (name in ("min", "max") and len(args) == 1):
                # Truth of a Python container, or the keys of a dict: only its length counts.
                taint = taint_of(Value(truth_taint(value)) for value in values) if name == "bool" else _elements(values)
            self.hazard(HazardKind.CONVERT, node, taint, frame, f"{name}()")
            return CONCRETE
        if name == "range":
            self.hazard(HazardKind.RANGE, node, taint, frame, "range()")
            return CONCRETE
        if name == "print":
            # What print shows: f-strings are text, but the tracers formatted into them count.
            shown = [self.eval(part.value, frame) for arg in node.args if isinstance(arg, ast.JoinedStr)
                     for part in arg.values if isinstance(part, ast.FormattedValue)]  # fmt: skip
            self.hazard(HazardKind.PRINT, node, taint | taint_of(shown), frame, "print")
            return CONCRETE
        if name in CONCRETE_BUILTINS:
            return CONCRETE
        if name == "enumerate" and values:
            return Value(values[0].taint, elem=tuple_of([CONCRETE, values[0].element()]), container=True)
        if name == "zip":
            return Value(taint, elem=tuple_of([value.element() for value in values]), container=True)
        if name in PASS_THROUGH_BUILTINS and values:
            return values[0]
        return of(taint)

    # -- transformations: jax.grad(f)(...), jax.vmap(lambda r: ...)(xs), tree_map(fn, tree) --
    def _transform_name(self, func: ast.expr, frame: Frame) -> str | None:
        """`grad` for `jax.grad`, `tree_map` for `jax.tree.map`; None for other functions."""
        qualified = self.names.qualified(func, frame.function)
        if not qualified or qualified.split(".", 1)[0] not in TRANSFORM_PACKAGES:
            return None
        leaf = qualified.rsplit(".", 1)[-1]
        if qualified in ("jax.tree.map", "jax.tree.map_with_path"):
            leaf = "tree_" + leaf
        return leaf if leaf in FUNCTION_TRANSFORMS or leaf in IMMEDIATE_CALLERS else None

    def _transformed_call(self, node: ast.Call, frame: Frame) -> Value | None:
        """`jax.grad(f)(w, x)`: run `f` on the outer call's arguments."""
        inner = node.func
        if not inner.args or self._transform_name(inner.func, frame) not in FUNCTION_TRANSFORMS:
            return None
        for keyword in inner.keywords:
            self.eval(keyword.value, frame)
        callables = self._callables_in(inner.args[0], frame)
        args = self._eval_args(node, frame)
        if self._transform_name(inner.func, frame) in BATCHING_TRANSFORMS:
            # vmap/pmap hand the function slices of arrays: never Python scalars.
            args = [(expr, keyword, Value(value.taint.as_array()) if value.taint else value) for expr, keyword, value in args]
        result = _args_taint(args)
        for function, prefix in callables:
            value = self.call_function(function, bind_params(function, Bound(prefix + args)), frame)
            result = result | value.taint
        return of(result.as_array()) if result else CONCRETE

    def _eval_args(self, node: ast.Call, frame: Frame) -> Args:
        args: Args = []
        for arg in node.args:
            if isinstance(arg, ast.Starred):
                args.append((arg.value, "*", self.eval(arg.value, frame)))
            else:
                args.append((arg, None, self.eval(arg, frame)))
        for keyword in node.keywords:
            args.append((keyword.value, keyword.arg or "**", self.eval(keyword.value, frame)))
        return args

    def _callables_in(self, expr: ast.expr, frame: Frame) -> list[tuple[Function, Args]]:
        """Functions an expression stands for, with the arguments `partial` binds first."""
        if isinstance(expr, ast.Call) and expr.args and self.names.is_partial(expr.func, frame.function):
            bound = self._eval_args(ast.Call(expr.func, expr.args[1:], expr.keywords), frame)
            return [(function, bound + prefix) for function, prefix in self._callables_in(expr.args[0], frame)]
        if isinstance(expr, ast.Call) and expr.args and self._transform_name(expr.func, frame) in FUNCTION_TRANSFORMS:
            return self._callables_in(expr.args[0], frame)  # jax.vmap(jax.grad(f))
        if isinstance(expr, ast.Attribute):
            resolved = self.resolver.callee(expr, frame.function)
            if resolved is not None and resolved[1]:
                # A bound method (`jax.grad(self._loss)`): the receiver fills `self`.
                return [(resolved[0], [(expr.value, None, self.eval(expr.value, frame))])]
        return [(function, []) for function in self._functions_in(expr, self.eval(expr, frame), frame)]

    def _immediate_call(self, member: str, node: ast.Call, args: Args, frame: Frame) -> Value:
        """`tree_map(fn, tree, *rest)`, `jax.vjp(f, x)`: `fn` runs now, on the data's leaves."""
        position, _ = IMMEDIATE_CALLERS[member]
        positional = [(expr, value) for expr, keyword, value in args if keyword is None]
        if position >= len(positional):
            return of(_args_taint(args).as_array())
        data = [Value(value.taint.as_array()) if value.taint else CONCRETE for _, value in positional[position + 1 :]]
        data_args: Args = [(expr, None, value) for (expr, _), value in zip(positional[position + 1 :], data)]
        result = _args_taint(args)
        for function, prefix in self._callables_in(positional[position][0], frame):
            value = self.call_function(function, bind_params(function, Bound(prefix + data_args)), frame)
            result = result | value.taint
        return of(result.as_array()) if result else CONCRETE

    # -- array namespace, lax, numpy, math -------------------------------------------------
    def _namespace_call(self, node: ast.Call, args: Args, frame: Frame) -> Value | None:
        function = frame.function
        qualified = self.names.qualified(node.func, function)
        shape_arguments = SHAPE_ARGUMENTS.get(qualified or "")
        if shape_arguments is not None:
            shape, _ = _split_args(args, *shape_arguments)
            self.hazard(HazardKind.SHAPE, node, _args_taint(shape), frame, qualified.rsplit(".", 1)[-1])
        member = self.names.member_of(node.func, self.config.array_namespaces, function)
        if member is not None:
            value = self._array_function(member, node, args, frame)
            return value if member in CONCRETE_ARRAY_FUNCTIONS else self._staged(qualified, node, frame, value)
        member = self.names.member_of(node.func, self.config.lax_namespaces, function)
        if member is not None:
            if member in CONCRETE_LAX_FUNCTIONS or (member in CONSTANT_FOLDING_LAX_FUNCTIONS and not _args_taint(args)):
                return CONCRETE
            self._trace_lax_bodies(member, args, frame)
            return self._staged(qualified, node, frame, of(_args_taint(args).as_array()))
        if qualified is None:
            return None
        if qualified in PYTHON_BOOL_FUNCTIONS:
            return CONCRETE
        transform = self._transform_name(node.func, frame)
        if transform in IMMEDIATE_CALLERS:
            return self._immediate_call(transform, node, args, frame)
        if transform in FUNCTION_TRANSFORMS and args and args[0][1] is None:
            found = self._functions_in(args[0][0], args[0][2], frame)
            if len(found) == 1:
                return Value(function=found[0])  # g = jax.grad(f); g(w, x) runs f
        if qualified.startswith("logging.") and qualified.rsplit(".", 1)[-1] in LOGGING_METHODS:
            self.hazard(HazardKind.LOG, node, _args_taint(args), frame, qualified)
            return CONCRETE
        root = qualified.split(".", 1)[0]
        if root in ("numpy", "math", "operator") and "." in qualified:
            return self._host_function(qualified, node, args, frame)
        if root in self.config.module_roots or qualified in self.pure_calls:
            return of(_args_taint(args).as_array())  # jax.nn.relu, jax.tree_util.tree_map, ...
        return None

    def _staged(self, qualified: str | None, node: ast.Call, frame: Frame, value: Value) -> Value:
        """Inside a jit, every result of that jit's own array namespace is a tracer, even of
        constants (JAX's omnistaging; transpile does the same)."""
        if value.taint or not qualified or not qualified.startswith(STAGING_NAMESPACES):
            return value
        if qualified.startswith("transpile.") == self.traced_by_jax(frame.root):
            return value  # jnp under transpile.jit (or tnp under jax.jit) runs eagerly
        origin = Origin(ast.unparse(node.func), frame.root, "staged")
        return Value(Taint(frozenset({origin}), True))

    def traced_by_jax(self, root: int) -> bool:
        site = self.sites.sites[root]
        scope = site.call.function if site.call is not None else None
        qualified = self.names.qualified(site.jit_expr, scope) or ""
        return qualified.split(".", 1)[0] != "transpile"

    def _array_function(self, member: str, node: ast.Call, args: Args, frame: Frame) -> Value:
        if member in CONCRETE_ARRAY_FUNCTIONS:
            return CONCRETE
        if member in SHAPE_PARAMETERS and not (member == "repeat" and _has_keyword(args, "total_repeat_length")):
            positions, keywords = SHAPE_PARAMETERS[member]
            shape, rest = _split_args(args, positions, keywords)
            self.hazard(HazardKind.SHAPE, node, _args_taint(shape), frame, member)
            return of(_args_taint(rest).as_array())
        taint = _args_taint(args).as_array()
        if member in DATA_DEPENDENT_SHAPE and not _has_keyword(args, "size"):
            positional = [value for _, keyword, value in args if keyword is None]
            if member != "where" or len(positional) == 1:
                self.hazard(HazardKind.DATASHAPE, node, taint, frame, member)
        if member in MASK_FUNCTIONS and taint:
            return Value(taint, mask=True)
        return of(taint)

    def _host_function(self, qualified: str, node: ast.Call, args: Args, frame: Frame) -> Value:
        """numpy/math/operator functions run in Python on concrete values."""
        member = qualified.split(".", 1)[1]
        if qualified.startswith("numpy.") and (member in CONCRETE_ARRAY_FUNCTIONS or "." in member):
            return CONCRETE  # np.shape(x), np.dtype(...), np.random.* on concrete seeds
        taint = _args_taint(args)
        if qualified.startswith("operator.") and qualified not in CONVERSION_DUNDERS:
            return of(taint)
        if qualified.startswith("numpy.") and member not in HOST_CONVERSIONS and self.traced_by_transpile(frame.root):
            return of(taint.as_array())  # NumPy protocols hand tracers to transpile.numpy
        self.hazard(HazardKind.CONVERT, node, taint, frame, qualified)
        return CONCRETE

    def traced_by_transpile(self, root: int) -> bool:
        """Whether jit site `root` is transpile's jit (whose tracers take NumPy calls)."""
        site = self.sites.sites[root]
        scope = site.call.function if site.call is not None else None
        qualified = self.names.qualified(site.jit_expr, scope) or ""
        return qualified.split(".", 1)[0] == "transpile"

    def _trace_lax_bodies(self, member: str, args: Args, frame: Frame) -> None:
        positions = LAX_BODIES.get(member, ())
        positional = [(expr, value) for expr, keyword, value in args if keyword is None]
        for position in positions:
            if position >= len(positional):
                continue
            expr, value = positional[position]
            for body in self._functions_in(expr, value, frame):
                env = {name: self._body_param(name, frame) for name in positional_params(body)}
                self.call_function(body, env, frame)

    def _functions_in(self, expr: ast.expr, value: Value, frame: Frame) -> list[Function]:
        if isinstance(expr, (ast.List, ast.Tuple)):  # lax.switch takes a list of branches
            found = []
            for element in expr.elts:
                found.extend(self._functions_in(element, self.eval(element, frame), frame))
            return found
        if value.function is not None:
            return [value.function]
        resolved = self.resolver.callee(expr, frame.function) if isinstance(expr, (ast.Name, ast.Attribute)) else None
        return [resolved[0]] if resolved else []

    @staticmethod
    def _body_param(name: str, frame: Frame) -> Value:
        # Named after the body's own parameter: that is what the user sees at the hazard.
        return Value(Taint(frozenset({Origin(name, frame.root, "body")}), True))

    # -- functions defined in this module ----------------------------------------------------
    def _user_call(self, node: ast.Call, args: Args, frame: Frame) -> Value | None:
        func = node.func
        local = frame.lookup(func.id) if isinstance(func, ast.Name) else None
        if local is not None and local.function is not None:
            callee, self_bound = local.function, False
        else:
            resolved = self.resolver.callee(func, frame.function)
            if resolved is None:
                return None
            callee, self_bound = resolved
        if callee in self.sites.by_target:
            # Calling another jitted function: it is analysed as a root of its own.
            return of(_args_taint(args).as_array())
        bound = Bound(args)
        if self_bound:
            bound.positional.insert(0, self.eval(func.value, frame))
        result = self.call_function(callee, bind_params(callee, bound), frame)
        rules = self.derivative_rules.get(getattr(callee, "name", ""))
        if rules:
            self._run_derivative_rules(rules, args, result, frame)
        return result

    def _run_derivative_rules(self, rules, args: Args, result: Value, frame: Frame) -> None:
        """A custom_jvp/custom_vjp function's rules run while tracing when it is differentiated:
        jvp(primals, tangents), fwd(*args), bwd(residuals, cotangent)."""
        values = [Value(value.taint.as_array()) if value.taint else value for _, keyword, value in args if keyword is None]
        taint = taint_of(values).as_array()
        for kind, rule in rules:
            params = positional_params(rule)
            if kind == "jvp":
                env = dict(zip(params, [tuple_of(values), tuple_of([Value(taint)] * len(values))]))
            elif kind == "fwd":
                env = dict(zip(params, values))
            else:
                env = dict(zip(params, [Value(taint), Value(result.taint.as_array() | taint)]))
            for name in params:
                env.setdefault(name, CONCRETE)
            self.call_function(rule, env, frame)

    def call_function(self, function: Function, env: dict[str, Value], caller: Frame) -> Value:
        key = (function, caller.root, tuple(sorted(env.items())))
        if key in self.call_memo:
            return self.call_memo[key]
        if function in self.active:
            return of(taint_of(env.values()))  # recursion: assume the result depends on all inputs
        self.active.add(function)
        try:
            result = self.run_function(function, env, caller.root)
        finally:
            self.active.discard(function)
        self.call_memo[key] = result
        return result

    # -- methods -------------------------------------------------------------------------------
    def _method_call(self, node: ast.Call, args: Args, frame: Frame) -> Value | None:
        func = node.func
        if not isinstance(func, ast.Attribute):
            return None
        receiver = self.eval(func.value, frame)
        method = func.attr
        taint = _args_taint(args)
        if method in LOGGING_METHODS and self._is_logger(func.value):
            self.hazard(HazardKind.LOG, node, taint, frame, f"{ast.unparse(func.value)}.{method}")
            return CONCRETE
        if method in ("apply", "apply_fn") and args:
            applied = self._module_apply(func.value, args, frame, through_state=method == "apply_fn")
            if applied is not None:
                return applied
        if method in MUTATING_METHODS and isinstance(func.value, ast.Name) and receiver.container:
            return self._mutate(func.value, receiver, method, taint, frame)
        if not receiver.taint:
            return of(taint)
        if method in concretizing_methods():
            self.hazard(HazardKind.CONVERT, node, receiver.taint, frame, f".{method}()")
            return CONCRETE
        if method in SHAPE_METHODS:
            positions, keywords = SHAPE_METHODS[method]
            shape, rest = _split_args(args, positions, keywords)
            self.hazard(HazardKind.SHAPE, node, _args_taint(shape), frame, f".{method}()")
            return of((receiver.taint | _args_taint(rest)).as_array())
        if method == "nonzero" and not receiver.container:
            self.hazard(HazardKind.DATASHAPE, node, receiver.taint, frame, ".nonzero")
        if method in ("astype", "copy", "__invert__") and receiver.mask:
            return receiver
        return self._container_method(method, receiver, taint)

    def _is_logger(self, receiver: ast.expr) -> bool:
        """`logger` bound at module level to `logging.getLogger(...)` (or absl's logging)."""
        if not isinstance(receiver, ast.Name):
            return False
        if self.names.qualified(receiver, None) in ("absl.logging", "logging"):
            return True
        nodes = self.names.index.module.bound.get(receiver.id, [])
        value = getattr(nodes[0], "value", None) if len(nodes) == 1 else None
        if not isinstance(value, ast.Call):
            return False
        return (self.names.qualified(value.func, None) or "").startswith(("logging.", "absl.logging."))

    def _module_apply(self, receiver: ast.expr, args: Args, frame: Frame, through_state: bool = False) -> Value | None:
        """`model.apply(params, x)` on a flax linen module built in this module: run its
        `__call__` (or `method=`) with `self` holding the module's static hyperparameters.
        `state.apply_fn(...)` (a TrainState made with `apply_fn=model.apply`) and a `model`
        parameter go to the module's only linen class that the module builds."""
        cls = None if through_state else self._module_class(receiver, frame)
        if cls is None and (through_state or isinstance(receiver, ast.Name)):
            cls = self._only_built_class(LINEN_BASES)
        if cls is None:
            return None
        methods = self.names.index.methods.get(cls, {})
        target = methods.get("__call__")
        for expr, keyword, _ in args:
            if keyword == "method":
                name = expr.attr if isinstance(expr, ast.Attribute) else expr.value if isinstance(expr, ast.Constant) else None
                target = methods.get(name) if isinstance(name, str) else None
        if target is None:
            return None
        data = [arg for arg in args[1:] if arg[1] not in ("method", "rngs", "mutable")]
        bound = Bound([(receiver, None, CONCRETE), *data])
        return self.call_function(target, bind_params(target, bound), frame)

    def _only_built_class(self, bases: frozenset[str]) -> ast.ClassDef | None:
        """The one class of this module deriving from `bases` (qualified) that it instantiates."""
        index = self.names.index
        classes = [
            cls for cls in index.classes
            if any(self.names.qualified(base, None) in bases for base in cls.bases)
        ]  # fmt: skip
        built = {
            value.func.id for value in index.value_of.values()
            if isinstance(value, ast.Call) and isinstance(value.func, ast.Name)
        }  # fmt: skip
        found = [cls for cls in classes if cls.name in built]
        return found[0] if len(found) == 1 else None

    def _module_call(self, node: ast.Call, args: Args, frame: Frame) -> Value | None:
        """`block(x)` on an equinox/flax module instance: run the class's `__call__` with
        `self` the instance (a pytree: its non-static fields are traced with it)."""
        func = node.func
        if not isinstance(func, ast.Name) or not self._callable_classes():
            return None
        cls = self._module_class(func, frame) or self._parameter_class(func.id, frame)
        target = self.names.index.methods.get(cls, {}).get("__call__") if cls is not None else None
        if target is None:
            return None
        bound = Bound([(func, None, frame.lookup(func.id)), *args])
        return self.call_function(target, bind_params(target, bound), frame)

    def _module_method_call(self, node: ast.Call, args: Args, frame: Frame) -> Value | None:
        """`encoder.encode(x)` on a module instance (equinox, flax.nnx) or a parameter holding
        one: run the class's method with `self` the instance, as for `encoder(x)`."""
        func = node.func
        if not isinstance(func, ast.Attribute) or not isinstance(func.value, ast.Name) or func.attr == "apply":
            return None
        if not self._callable_classes():
            return None
        cls = self._module_class(func.value, frame) or self._parameter_class(func.value.id, frame)
        target = self.names.index.methods.get(cls, {}).get(func.attr) if cls is not None else None
        if target is None or target.decorator_list:  # static/class methods, properties: not this
            return None
        bound = Bound([(func.value, None, frame.lookup(func.value.id)), *args])
        return self.call_function(target, bind_params(target, bound), frame)

    def _callable_classes(self) -> list[ast.ClassDef]:
        """This module's classes with a `__call__` (computed once)."""
        found = getattr(self, "_classes_with_call", None)
        if found is None:
            methods = self.names.index.methods
            found = self._classes_with_call = [cls for cls in self.names.index.classes if "__call__" in methods.get(cls, {})]
        return found

    def _parameter_class(self, name: str, frame: Frame) -> ast.ClassDef | None:
        """The module class a parameter holds: from its annotation, else the module's only
        `Module` subclass with a `__call__`, when the module builds one."""
        function = frame.function
        if isinstance(function, ast.Lambda) or not self.names.is_local(name, function):
            return None
        params = {p.arg: p for p in (*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs)}
        param = params.get(name)
        if param is None:
            return None
        candidates = self._callable_classes()
        if param.annotation is not None:
            wanted = ast.unparse(param.annotation).strip("'\"")
            return next((cls for cls in candidates if cls.name == wanted), None)
        instance = self._module_class(ast.Name(name), None)
        if instance in candidates:
            return instance  # `def step(counter, x)` beside a module-level `counter = Counter(...)`
        modules = [cls for cls in candidates if any("Module" in ast.unparse(base) for base in cls.bases)]
        if len(modules) > 1:  # called directly, a module is not a linen one (linen goes through apply)
            modules = [
                cls for cls in modules
                if not any(self.names.qualified(base, None) in LINEN_BASES for base in cls.bases)
            ]  # fmt: skip
        if len(modules) != 1:
            return None
        # Only a class this module builds (`model = Block(...)`) is taken to be what arrives.
        built = any(
            isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == modules[0].name
            for value in self.names.index.value_of.values()
        )
        return modules[0] if built else None

    def _module_class(self, receiver: ast.expr, frame: Frame | None) -> ast.ClassDef | None:
        """The class of `model` when it is bound (once) to `SomeClass(...)` of this module, or
        to `nnx.merge(graphdef, state)` with `graphdef, state = nnx.split(SomeClass(...))`."""
        function = frame.function if frame is not None else None
        if isinstance(receiver, ast.Call):
            value = receiver
        elif isinstance(receiver, ast.Name):
            owner = function if self.names.is_local(receiver.id, function) else None
            nodes = self.names.index.scope(owner).bound.get(receiver.id, [])
            value = getattr(nodes[0], "value", None) if len(nodes) == 1 else None
        else:
            return None
        if not isinstance(value, ast.Call):
            return None
        if value.args and self.names.qualified(value.func, function) in NNX_SPLIT_MERGE:
            return self._module_class(value.args[0], frame)
        if not isinstance(value.func, ast.Name):
            return None
        for cls in self.names.index.classes:
            if cls.name == value.func.id:
                return cls
        return None

    def _mutate(self, target: ast.Name, receiver: Value, method: str, taint: Taint, frame: Frame) -> Value:
        # A container that receives a traced value holds traced values from now on.
        if taint:
            frame.bind(target.id, join(receiver, container_of(taint)))
        return Value(receiver.taint) if method in ("pop", "popitem", "popleft") else CONCRETE

    @staticmethod
    def _container_method(method: str, receiver: Value, taint: Taint) -> Value:
        if method == "keys":
            return CONCRETE  # pytree dict keys are static
        if method == "items":
            return Value(receiver.taint, elem=tuple_of([CONCRETE, Value(receiver.taint)]), container=True)
        if method == "values":
            return Value(receiver.taint, container=True)
        return of((receiver.taint | taint).as_array())


def _args_taint(args: Args) -> Taint:
    return taint_of(value for _, _, value in args)


def _elements(values: list[Value]) -> Taint:
    """Taint of what `sorted`/`any`/`min` compare: the elements (dict keys are static)."""
    taint = Taint()
    for value in values:
        if value.container and value.elem is None and value.items is None:
            continue  # sorted(d), any(kwargs): iterating a dict yields its static keys
        taint = taint | value.element().taint
    return taint


def _has_keyword(args: Args, name: str) -> bool:
    return any(keyword == name or keyword == "**" for _, keyword, _ in args)


def _split_args(args: Args, positions: tuple[int, ...] | None, keywords: tuple[str, ...]) -> tuple[Args, Args]:
    picked, rest = [], []
    index = 0
    for arg in args:
        keyword = arg[1]
        if keyword is not None and keyword != "*":
            (picked if keyword in keywords else rest).append(arg)
            continue
        (picked if positions is None or index in positions or keyword == "*" else rest).append(arg)
        index += 1
    return picked, rest


class Bound:
    """Argument values of a call, as Python would bind them (minus defaults, which are concrete)."""

    def __init__(self, args: Args):
        self.positional: list[Value] = []
        self.keywords: dict[str, Value] = {}
        self.spread: Value | None = None  # elements of `*xs`: they fill any positional slot
        self.kwspread: Value | None = None  # values of `**kw`: they fill any keyword slot
        for _, keyword, value in args:
            if keyword == "*":
                self.spread = value.element() if self.spread is None else join(self.spread, value.element())
            elif keyword == "**":
                self.kwspread = value
            elif keyword is not None:
                self.keywords[keyword] = value
            else:
                self.positional.append(value)

    def fallback(self, name: str) -> Value:
        for candidate in (self.keywords.get(name), self.spread, self.kwspread):
            if candidate is not None:
                return candidate
        return CONCRETE


def bind_params(function: Function, bound: Bound) -> dict[str, Value]:
    params = function.args
    names = positional_params(function)
    env = {name: value for name, value in zip(names, bound.positional)}
    for name in names[len(bound.positional) :]:
        env[name] = bound.fallback(name)
    if params.vararg is not None:
        extra = bound.positional[len(names) :]
        if bound.spread is not None:
            extra.append(bound.spread)
        items = None if bound.spread else tuple(extra)
        env[params.vararg.arg] = Value(taint_of(extra), items, container=True)
    for param in params.kwonlyargs:
        env[param.arg] = bound.keywords.get(param.arg, bound.kwspread or CONCRETE)
    if params.kwarg is not None:
        known = set(env)
        rest = [value for name, value in bound.keywords.items() if name not in known]
        if bound.kwspread is not None:
            rest.append(bound.kwspread)
        env[params.kwarg.arg] = container_of(taint_of(rest))
    return env
