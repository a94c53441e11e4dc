"""transpile: a JIT that traces NumPy-style Python into readable C you can keep.

    import transpile as tp, transpile.numpy as tnp

    @tp.jit
    def selu(x, alpha=1.67, lambda_=1.05):
        return lambda_ * tnp.where(x > 0, x, alpha * tnp.exp(x) - alpha)

The public names are loaded on first use, so `transpile lint` starts without importing
NumPy or the compiler.
"""
import importlib
import os

__version__ = "0.1.0"

# Installed, the runtime is the subpackage transpile/runtime. In a source checkout it sits
# beside this package instead (runtime/ at the top of the repository), so let imports of
# `transpile.runtime` look there too: `python -m transpile` then works from the tree.
_source_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if not os.path.isdir(os.path.join(os.path.dirname(__file__), "runtime")) and \
        os.path.isfile(os.path.join(_source_root, "runtime", "__init__.py")):
    __path__.append(_source_root)

_LAZY = {
    "jit": "api", "make_ir": "api", "block_until_ready": "api", "Jitted": "api",
    "Lowered": "api", "CacheInfo": "api", "ConcretizationError": "errors",
    "UnexpectedTracerError": "errors", "IR": "ir", "ShapedArray": "core", "Tracer": "core",
    "Array": "array_type", "DeviceArray": "device_array", "device_put": "device_array",
    "device_get": "device_array", "devices": "device_array", "device_count": "device_array",
    "default_backend": "device_array",
    "make_jaxpr": "api", "Compiled": "api",
    "local_devices": "process_api", "local_device_count": "process_api",
    "process_index": "process_api", "process_count": "process_api",
    "named_scope": "process_api", "named_call": "process_api",
    "ensure_compile_time_eval": "process_api",
    "ShapeDtypeStruct": "shape_eval", "eval_shape": "shape_eval", "disable_jit": "eager_mode",
    "pure_callback": "callbacks",
    "vmap": "batching",
    # Differentiation (transpile/autodiff/)
    "grad": "autodiff.api", "value_and_grad": "autodiff.api", "jvp": "autodiff.api",
    "vjp": "autodiff.api", "linearize": "autodiff.api", "jacfwd": "autodiff.api",
    "jacrev": "autodiff.api", "hessian": "autodiff.api", "float0": "autodiff.api",
    "jacobian": "autodiff.api", "linear_transpose": "autodiff.linear_transpose",
    "custom_jvp": "autodiff.custom", "custom_vjp": "autodiff.custom",
    "checkpoint": "autodiff.custom", "remat": "autodiff.custom",
    "checkpoint_policies": "autodiff.custom", "closure_convert": "autodiff.custom",
    "custom_gradient": "autodiff.custom",
}
_SUBMODULES = ("lax", "numpy", "tree_util", "tree", "random", "scipy", "debug", "nn", "ops",
               "config", "flatten_util", "errors")

__all__ = sorted(_LAZY) + list(_SUBMODULES)


def __getattr__(name):
    if name in _SUBMODULES:
        return importlib.import_module(f"{__name__}.{name}")
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'transpile' has no attribute {name!r}")
    importlib.import_module(f"{__name__}.numpy")   # installs the operators on tracers
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__():
    return __all__
