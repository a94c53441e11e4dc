"""Which public names of jax.numpy (with linalg and fft) and jax.lax exist in transpile, and
which of their parameters transpile's functions accept.

JAX is not a dependency: run this with a Python that has JAX installed, or install it
somewhere outside the repository and point at it, e.g.

    pip install --target /tmp/jaxpkgs jax jaxlib
    python benchmarks/coverage_jax.py --jax-path /tmp/jaxpkgs [--missing]

The JAX path is appended to sys.path (after transpile's own numpy), so the NumPy that
transpile runs on is the one it normally uses. Existence is what is counted, not behaviour:
the test suite checks behaviour. A parameter counts as accepted when transpile's function
names it, or takes **kwargs, or (for JAX's positional-only parameters) takes as many
positional parameters; one listed with a trailing `~` is accepted in its position under
another name (`lax.argmax(x, ...)` where JAX says `operand`).
"""
from __future__ import annotations

import argparse
import inspect
import sys

MODULES = [("jax.numpy", "transpile.numpy"), ("jax.numpy.linalg", "transpile.numpy.linalg"),
           ("jax.numpy.fft", "transpile.numpy.fft"), ("jax.lax", "transpile.lax")]

# Names that are not API to port: primitives objects (`add_p`), collectives across devices,
# sharding, tokens and the low-precision float formats JAX exposes for accelerators.
NOT_COUNTED_SUFFIXES = ("_p",)
NOT_COUNTED = {
    "jax.lax": {"all_gather", "all_to_all", "axis_index", "axis_size", "pbroadcast", "pcast",
                "pmax", "pmean", "pmin", "ppermute", "precv", "psend", "pshuffle", "psum",
                "psum_scatter", "pswapaxes", "ragged_all_to_all", "after_all",
                "create_token", "with_sharding_constraint", "composite", "platform_dependent",
                "dce_sink", "stage"},
}


def public_names(module) -> list[str]:
    names = getattr(module, "__all__", None) or dir(module)
    return sorted(n for n in names if not n.startswith("_")
                  and not type(getattr(module, n, None)).__name__ == "module")


def counted_names(jax_module: str, module) -> list[str]:
    skip = NOT_COUNTED.get(jax_module, set())
    return [n for n in public_names(module)
            if n not in skip and not n.endswith(NOT_COUNTED_SUFFIXES)]


def _signature(fn):
    try:
        return inspect.signature(fn)
    except (TypeError, ValueError):           # builtins and some classes have none
        return None


def missing_parameters(theirs, ours) -> list[str]:
    """JAX's parameters of `theirs` that `ours` cannot be called with."""
    sig_theirs, sig_ours = _signature(theirs), _signature(ours)
    if sig_theirs is None or sig_ours is None or inspect.isclass(theirs):
        return []
    kinds = [p.kind for p in sig_ours.parameters.values()]
    if inspect.Parameter.VAR_KEYWORD in kinds:
        return []
    takes_varargs = inspect.Parameter.VAR_POSITIONAL in kinds
    positional = [p for p in sig_ours.parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    missing = []
    for i, p in enumerate(sig_theirs.parameters.values()):
        if p.kind is p.VAR_POSITIONAL:
            if not takes_varargs:
                missing.append("*" + p.name)
        elif p.kind is p.VAR_KEYWORD:
            continue
        elif p.kind is p.POSITIONAL_ONLY:
            if i >= len(positional) and not takes_varargs:
                missing.append(p.name)
        elif p.name not in sig_ours.parameters:
            # Same position, another name: callable positionally, not by keyword.
            renamed = (p.kind is p.POSITIONAL_OR_KEYWORD and i < len(positional)
                       and positional[i].name not in sig_theirs.parameters)
            missing.append(p.name + ("~" if renamed else ""))
    return missing


def coverage(jax_module: str, ours_module: str):
    """(names counted, names present, names missing, {name: missing parameters})."""
    import importlib
    theirs = importlib.import_module(jax_module)
    names = counted_names(jax_module, theirs)
    try:
        ours = importlib.import_module(ours_module)
    except ImportError:                       # e.g. an older transpile without linalg
        return names, [], names, {}
    present = [n for n in names if hasattr(ours, n)]
    missing = [n for n in names if not hasattr(ours, n)]
    params = {}
    for n in present:
        lacking = missing_parameters(getattr(theirs, n), getattr(ours, n))
        if lacking:
            params[n] = lacking
    return names, present, missing, params


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jax-path", help="a directory holding an installed jax (appended "
                        "to sys.path)")
    parser.add_argument("--missing", action="store_true",
                        help="list the missing names and parameters")
    args = parser.parse_args(argv)
    if args.jax_path:
        import numpy  # noqa: F401  (transpile's NumPy first, before the JAX path is seen)
        sys.path.append(args.jax_path)
    try:
        import jax  # noqa: F401
    except ImportError:
        print("JAX is not importable: install it outside the repository and pass --jax-path")
        return 1
    total_names = total_params = 0
    for jax_module, ours_module in MODULES:
        names, present, missing, params = coverage(jax_module, ours_module)
        n_params = sum(len(v) for v in params.values())
        total_names += len(missing)
        total_params += n_params
        print(f"{jax_module:18s} {len(present):4d} of {len(names):4d} names exist in "
              f"{ours_module}; {n_params} parameters missing from {len(params)} of them")
        if args.missing:
            print("  missing names: " + ", ".join(missing))
            print("  missing parameters: " + "; ".join(
                f"{n}({', '.join(v)})" for n, v in sorted(params.items())))
    print(f"total: {total_names} names and {total_params} parameters missing")
    return 0


if __name__ == "__main__":
    sys.exit(main())
