"""Which public names of jax.numpy, jax.numpy.linalg and jax.lax exist in transpile.

JAX is not a dependency: install it somewhere outside the repository and point at it, e.g.

    pip install --target /tmp/jaxpkgs jax jaxlib
    python benchmarks/coverage_jax.py --jax-path /tmp/jaxpkgs [--missing]

The JAX path is appended to sys.path (after transpile's own numpy), so the NumPy that
transpile runs on is the one it normally uses. Existence is what is counted, not behaviour:
the test suite checks behaviour.
"""
from __future__ import annotations

import argparse
import sys

MODULES = [("jax.numpy", "transpile.numpy"), ("jax.numpy.linalg", "transpile.numpy.linalg"),
           ("jax.lax", "transpile.lax")]


def public_names(module) -> list[str]:
    names = getattr(module, "__all__", None) or dir(module)
    return sorted(n for n in names if not n.startswith("_")
                  and not type(getattr(module, n, None)).__name__ == "module")


def coverage(jax_module: str, ours_module: str):
    import importlib
    theirs = importlib.import_module(jax_module)
    names = public_names(theirs)
    try:
        ours = importlib.import_module(ours_module)
    except ImportError:                       # e.g. an older transpile without linalg
        return names, [], names
    present = [n for n in names if hasattr(ours, n)]
    missing = [n for n in names if not hasattr(ours, n)]
    return names, present, missing


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jax-path", help="a directory holding an installed jax (appended "
                        "to sys.path)")
    parser.add_argument("--missing", action="store_true", help="list the missing names")
    args = parser.parse_args(argv)
    if args.jax_path:
        import numpy  # noqa: F401  (transpile's NumPy first, before the JAX path is seen)
        sys.path.append(args.jax_path)
    try:
        import jax  # noqa: F401
    except ImportError:
        print("JAX is not importable: install it outside the repository and pass --jax-path")
        return 1
    for jax_module, ours_module in MODULES:
        names, present, missing = coverage(jax_module, ours_module)
        print(f"{jax_module:18s} {len(present):4d} of {len(names):4d} names exist in "
              f"{ours_module}")
        if args.missing:
            print("  missing: " + ", ".join(missing))
    return 0


if __name__ == "__main__":
    sys.exit(main())
