"""Lower layers never import higher ones (STYLE.md, DESIGN.md's architecture): checked on the
source, every import statement including those inside functions, so a lazy import that would
hide a cycle fails here too."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "transpile"
RUNTIME = Path(__file__).resolve().parents[1] / "runtime"

# Layer -> the transpile modules it must never import. The front end (numpy, lax, random,
# scipy) and the entry points (api, cli) sit on top; rules, passes and codegen below them;
# core, dtypes and errors at the bottom; the runtime beside the compiler, needing none of it.
# Inside the front end, lax builds on numpy and both on base (the bind wrappers, dynamic
# slicing and structured control flow): numpy never imports lax, base neither of them.
LAX = {"lax", "lax_ops", "lax_conv", "lax_reduce_window", "lax_sorting", "lax_special",
       "lax_gather", "lax_gather_checks", "lax_fft", "lax_zeta", "lax_rng_bits",
       "lax_reduce_precision", "lax_platform", "lax_ragged",
       "lax_composite", "lax_threefry", "lax_primitive_names"}
ABOVE_NUMPY = LAX | {"random", "scipy", "nn", "ops", "api", "cli", "export"}
FRONT_END_AND_API = ABOVE_NUMPY | {"numpy", "base"}
FORBIDDEN = {
    "numpy": ABOVE_NUMPY,
    "base": ABOVE_NUMPY | {"numpy", "batching", "autodiff", "passes", "codegen", "backends"},
    "core.py": FRONT_END_AND_API | {"rules", "passes", "codegen", "tracing", "backends"},
    "dtypes.py": FRONT_END_AND_API | {"rules", "passes", "codegen", "tracing", "core"},
    "errors.py": FRONT_END_AND_API | {"rules", "passes", "codegen", "tracing", "core"},
    "precision.py": FRONT_END_AND_API | {"rules", "passes", "codegen", "tracing", "core"},
    "eager_array.py": FRONT_END_AND_API | {"rules", "passes", "codegen", "tracing", "core",
                                           "backends", "strength", "eager_results"},
    "ir.py": FRONT_END_AND_API | {"rules", "passes", "codegen", "backends"},
    "rules": FRONT_END_AND_API | {"passes", "codegen", "backends"},
    "passes": FRONT_END_AND_API | {"codegen", "backends"},
    "codegen": FRONT_END_AND_API | {"backends"},
}


def _imported_transpile_modules(path: Path, root: Path = PACKAGE.parent) -> set[str]:
    """First component below `transpile` of every module `path` (a file under `root`)
    imports."""
    package_parts = path.relative_to(root).with_suffix("").parts[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package_parts[:len(package_parts) - (node.level - 1)] if node.level else ()
            module = ".".join(base + tuple((node.module or "").split(".")) if node.module
                              else base)
            names = [module] if node.module else [f"{module}.{a.name}" for a in node.names]
        else:
            continue
        for name in names:
            parts = name.strip(".").split(".")
            if parts[0] == "transpile" and len(parts) > 1:
                found.add(parts[1])
    return found


def _files(layer: str):
    target = PACKAGE / layer
    if not target.exists():
        target = PACKAGE / f"{layer}.py"
    return sorted(target.rglob("*.py")) if target.is_dir() else [target] * target.exists()


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_lower_layer_imports_nothing_above_it(layer):
    assert _files(layer), f"transpile has no module or package {layer!r} to check"
    for path in _files(layer):
        bad = _imported_transpile_modules(path) & FORBIDDEN[layer]
        assert not bad, f"{path.relative_to(PACKAGE.parent)} imports higher layer(s) {bad}"


def test_runtime_needs_no_compiler_module():
    for path in sorted(RUNTIME.rglob("*.py")):
        imported = _imported_transpile_modules(path) - {"runtime"}
        assert not imported, f"{path.name} imports transpile.{imported}: the runtime must not"


def test_the_check_sees_lazy_and_relative_imports(tmp_path):
    """The checker itself: function-local, relative and absolute imports are all found."""
    probe = tmp_path / "transpile" / "codegen" / "probe.py"
    probe.parent.mkdir(parents=True)
    probe.write_text("import transpile.lax\n"
                     "def f():\n    from ..numpy import array\n    from .. import api\n"
                     "    from . import c_ops\n")
    assert _imported_transpile_modules(probe, tmp_path) == {"lax", "numpy", "api", "codegen"}


def _imported_siblings(path: Path, package: str) -> set[str]:
    """Modules of `package` (a dotted name under transpile) that `path`, one of its files,
    imports: at module level or inside functions, relatively or absolutely."""
    own = tuple(package.split("."))
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            candidates = [tuple(a.name.split(".")) for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = own[:len(own) - (node.level - 1)] if node.level else ()
            module = base + tuple(node.module.split(".")) if node.module else base
            candidates = [module] + [module + (a.name,) for a in node.names]
        else:
            continue
        for name in candidates:
            if name[:len(own)] == own and len(name) > len(own):
                found.add(name[len(own)])
    return found - {path.stem}


def _circle(graph: dict[str, set[str]]) -> list[str] | None:
    """One circle in `graph` (module -> the modules it imports; names outside the graph are
    ignored), as a path a -> b -> ... -> a, or None."""
    state: dict[str, str] = {}          # "open" while on the path, "done" after

    def visit(module, path):
        state[module] = "open"
        for nxt in sorted(graph.get(module, ())):
            if nxt not in graph:
                continue
            if state.get(nxt) == "open":
                return path[path.index(nxt):] + [nxt] if nxt in path else path + [nxt]
            if nxt not in state:
                found = visit(nxt, path + [nxt])
                if found:
                    return found
        state[module] = "done"
        return None
    for module in graph:
        if module not in state:
            found = visit(module, [module])
            if found:
                return found
    return None


def import_cycle(directory: Path, package: str) -> list[str] | None:
    """One import circle among the modules of `directory` (as a path a -> b -> ... -> a),
    or None."""
    return _circle({p.stem: _imported_siblings(p, package)
                    for p in sorted(directory.glob("*.py"))})


@pytest.mark.parametrize("package", ["codegen", "backends"])
def test_no_import_circle(package):
    """Lowering, rendering and the backends are layered modules, not a knot: a circle (even
    through a lazy import inside a function) means a shared piece belongs in a module below."""
    cycle = import_cycle(PACKAGE / package, f"transpile.{package}")
    assert cycle is None, f"import circle in transpile/{package}: {' -> '.join(cycle)}"


def test_the_circle_check_finds_lazy_and_relative_circles(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "a.py").write_text("from .b import f\n")
    (package / "b.py").write_text("def f():\n    from . import c\n")
    (package / "c.py").write_text("import transpile.pkg.a\n")
    (package / "d.py").write_text("from .a import f\n")
    assert import_cycle(package, "transpile.pkg") == ["a", "b", "c", "a"]
    (package / "c.py").write_text("import os\n")
    assert import_cycle(package, "transpile.pkg") is None


def test_only_the_command_line_imports_the_linter():
    """The linter reads transpile's public tables; the compiler never imports the linter
    (only `transpile lint`'s dispatch in cli.py does, lazily)."""
    lint = PACKAGE / "lint"
    importers = sorted(
        path.relative_to(PACKAGE).as_posix()
        for path in PACKAGE.rglob("*.py")
        if lint not in path.parents and "lint" in _imported_transpile_modules(path)
    )
    assert importers == ["cli.py"]


def test_front_end_layers_form_no_circle():
    """numpy, lax's modules, base and the libraries on them import one way only: a circle
    (numpy needing lax while lax needs numpy) is what made imports hide inside functions."""
    layers = sorted(FRONT_END_AND_API - {"api", "cli", "export"})
    graph = {layer: set().union(*(_imported_transpile_modules(p) for p in _files(layer)))
             - {layer} for layer in layers}
    cycle = _circle(graph)
    assert cycle is None, f"import circle in the front end: {' -> '.join(cycle)}"


def test_the_circle_finder_finds_circles_between_layers():
    assert _circle({"numpy": {"lax_ops"}, "lax_ops": {"base", "lax"}, "lax": {"numpy"}}) == \
        ["numpy", "lax_ops", "lax", "numpy"]
    assert _circle({"lax": {"numpy", "base"}, "numpy": {"base"}, "base": set()}) is None
