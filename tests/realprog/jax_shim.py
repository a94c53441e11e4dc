"""Load a program written against JAX with `jax` and its submodules answered by transpile.

A user swapping imports writes `import transpile as jax`; the corpus keeps JAX's import lines
verbatim instead, so each module is imported while `sys.modules` maps `jax`, `jax.numpy`,
`jax.lax`, ... to transpile's modules of the same name, then the mapping is removed again (the
loaded module keeps the modules it bound). A submodule transpile does not have stays missing,
so the program fails with the ModuleNotFoundError a user would see.
"""
from __future__ import annotations

import contextlib
import importlib
import importlib.util
import sys



# JAX's public modules a program imports; each is answered by transpile's module of the same
# name when transpile has one.
PUBLIC_MODULES = ("", ".numpy", ".numpy.linalg", ".numpy.fft", ".lax", ".random", ".nn", ".ops",
                  ".nn.initializers", ".scipy", ".scipy.special", ".scipy.stats",
                  ".scipy.signal", ".scipy.linalg", ".scipy.ndimage", ".scipy.sparse",
                  ".scipy.sparse.linalg", ".scipy.optimize", ".tree_util", ".tree",
                  ".debug", ".flatten_util", ".example_libraries",
                  ".example_libraries.stax", ".example_libraries.optimizers")


@contextlib.contextmanager
def jax_as_transpile():
    """Within the block, `import jax...` imports the matching transpile module."""
    aliases = {}
    for suffix in PUBLIC_MODULES:
        try:
            module = importlib.import_module("transpile" + suffix)
        except ImportError:
            continue
        aliases["jax" + suffix] = module
    saved = {name: sys.modules[name] for name in aliases if name in sys.modules}
    sys.modules.update(aliases)
    try:
        yield
    finally:
        for name in aliases:
            sys.modules.pop(name, None)
        sys.modules.update(saved)


def load_program(path, *, with_transpile):
    """Import the program file at `path` as a fresh module (JAX or transpile underneath)."""
    module_name = "realprog_" + ("tp_" if with_transpile else "jax_") + \
        path.rsplit("/", 1)[-1][:-3]
    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    context = jax_as_transpile() if with_transpile else contextlib.nullcontext()
    with context:
        spec.loader.exec_module(module)
    return module
