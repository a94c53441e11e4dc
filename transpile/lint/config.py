"""Settings for a lint run: defaults, `[tool.transpile.lint]` in pyproject.toml, CLI overrides.

Rule selection follows ruff: selectors are code prefixes ("TP", "TP1", "TP101", or "ALL") and
the most specific matching selector wins, so `select = ["TP"]` with `ignore = ["TP201"]` turns
off just TP201, while `select = ["TP201"]`, `ignore = ["TP2"]` keeps it.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path

from .codes import Code

DEFAULT_MAX_UNROLL = 100
# The qualified names that mean "jit this function". JAX is known without configuration (the
# hazards are the same, and users migrating lint their JAX code first); `jit-functions` adds
# others, such as "equinox.filter_jit".
DEFAULT_JIT_FUNCTIONS = ("transpile.jit", "transpile.api.jit", "jax.jit", "equinox.filter_jit", "flax.nnx.jit")
# Array and lax namespaces per package (a package not listed gets `<root>.numpy`/`<root>.lax`).
# Libraries built on JAX use JAX's own: there is no `equinox.lax` to suggest.
_JAX_BASED = ("equinox", "flax", "haiku", "chex", "jaxopt", "optax")
KNOWN_ARRAY_NAMESPACES = {
    "jax": ("jax.numpy",), "transpile": ("transpile.numpy",), **{root: ("jax.numpy",) for root in _JAX_BASED}
}  # fmt: skip
KNOWN_LAX_NAMESPACES = {
    "jax": ("jax.lax",), "transpile": ("transpile.lax",), **{root: ("jax.lax",) for root in _JAX_BASED}
}  # fmt: skip
# Directories nobody wants linted; matched against each path component like ruff's defaults.
DEFAULT_EXCLUDE = (
    ".bzr", ".direnv", ".eggs", ".git", ".hg", ".mypy_cache", ".nox", ".pants.d", ".pytest_cache",
    ".ruff_cache", ".svn", ".tox", ".venv", "__pypackages__", "__pycache__", "_build", "buck-out",
    "build", "dist", "node_modules", "site-packages", "venv", "*.egg-info",
)  # fmt: skip

CONFIG_TABLE = ("tool", "transpile", "lint")


class ConfigError(ValueError):
    """A setting is malformed or names an unknown rule: a usage error (exit status 2)."""


@dataclass(frozen=True)
class LintConfig:
    select: tuple[str, ...] = ("TP",)
    ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    max_unroll: int = DEFAULT_MAX_UNROLL
    jit_functions: tuple[str, ...] = DEFAULT_JIT_FUNCTIONS
    exclude: tuple[str, ...] = DEFAULT_EXCLUDE
    extend_exclude: tuple[str, ...] = ()
    respect_gitignore: bool = True
    # Where relative exclude and per-file-ignore patterns are anchored (the config's folder).
    root: Path = field(default_factory=Path.cwd)

    def enabled(self, code: str, path: str | None = None) -> bool:
        ignores = self.ignore + self._file_ignores(path)
        return _best_match(code, self.select) > _best_match(code, ignores)

    def _file_ignores(self, path: str | None) -> tuple[str, ...]:
        if path is None or not self.per_file_ignores:
            return ()
        relative = _relative_posix(Path(path), self.root)
        codes: list[str] = []
        for pattern, pattern_codes in self.per_file_ignores:
            if fnmatch.fnmatch(relative, pattern) or fnmatch.fnmatch(Path(path).name, pattern):
                codes.extend(pattern_codes)
        return tuple(codes)

    @property
    def module_roots(self) -> tuple[str, ...]:
        """Top-level packages whose import makes a module worth analysing ("transpile")."""
        return tuple(sorted({name.split(".")[0] for name in self.jit_functions}))

    @cached_property
    def jit_set(self) -> frozenset[str]:
        return frozenset(self.jit_functions)

    @cached_property
    def jit_leaves(self) -> tuple[str, ...]:
        """The last parts of the jit functions' names ("jit", "filter_jit"): the text check."""
        return tuple(sorted({name.rsplit(".", 1)[-1] for name in self.jit_functions}))

    @cached_property
    def array_namespaces(self) -> tuple[str, ...]:
        """`transpile.numpy`-like modules, derived from the jit functions' packages."""
        return _sibling_modules(self.jit_functions, "numpy", KNOWN_ARRAY_NAMESPACES)

    @cached_property
    def lax_namespaces(self) -> tuple[str, ...]:
        return _sibling_modules(self.jit_functions, "lax", KNOWN_LAX_NAMESPACES)


def _sibling_modules(jit_functions: tuple[str, ...], leaf: str, known: dict) -> tuple[str, ...]:
    roots = sorted({name.split(".")[0] for name in jit_functions})
    found: list[str] = []
    for root in roots:
        found.extend(name for name in known.get(root, (f"{root}.{leaf}",)) if name not in found)
    return tuple(found)


def _best_match(code: str, selectors: tuple[str, ...]) -> int:
    """Length of the longest selector that is a prefix of `code`; -1 if none; ALL counts as 0."""
    best = -1
    for selector in selectors:
        if selector == "ALL":
            best = max(best, 0)
        elif code.startswith(selector):
            best = max(best, len(selector))
    return best


def _relative_posix(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return path.as_posix()


def validate_selectors(selectors: tuple[str, ...], known_codes: frozenset[Code] = frozenset(Code)) -> None:
    for selector in selectors:
        if selector != "ALL" and not any(code.startswith(selector) for code in known_codes):
            raise ConfigError(f"unknown rule selector {selector!r}")


def selectors_of(config: LintConfig) -> tuple[str, ...]:
    """Every code selector the settings name: select, ignore and per-file ignores."""
    per_file = tuple(code for _, codes in config.per_file_ignores for code in codes)
    return config.select + config.ignore + per_file


def _toml_reader(pyproject: Path):
    """The standard library's TOML reader (Python 3.11+), or its backport `tomli` on 3.10."""
    try:
        import tomllib as reader
    except ModuleNotFoundError:
        try:
            import tomli as reader
        except ModuleNotFoundError:
            raise ConfigError(
                f"{pyproject}: reading [tool.transpile.lint] needs Python 3.11+ or the 'tomli' "
                "package; install tomli, or pass --isolated and give the settings as options"
            ) from None
    return reader


def find_config(start: Path) -> Path | None:
    """The nearest pyproject.toml at or above `start` that has a [tool.transpile.lint] table."""
    folder = start if start.is_dir() else start.parent
    for candidate in [folder.resolve(), *folder.resolve().parents]:
        pyproject = candidate / "pyproject.toml"
        if pyproject.is_file() and _lint_table(pyproject) is not None:
            return pyproject
    return None


def _lint_table(pyproject: Path) -> dict | None:
    try:
        text = pyproject.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"{pyproject}: {error}") from error
    if "transpile" not in text:
        return None  # no table of ours: nothing to parse (and no TOML reader needed)
    toml = _toml_reader(pyproject)
    try:
        data = toml.loads(text)
    except toml.TOMLDecodeError as error:
        raise ConfigError(f"{pyproject}: {error}") from error
    for key in CONFIG_TABLE:
        if not isinstance(data, dict) or key not in data:
            return None
        data = data[key]
    if not isinstance(data, dict):
        raise ConfigError(f"{pyproject}: [tool.transpile.lint] must be a table")
    return data


def load_config(pyproject: Path | None) -> LintConfig:
    """Read [tool.transpile.lint] from `pyproject`, or the defaults when there is none."""
    if pyproject is None:
        return LintConfig()
    table = _lint_table(pyproject) or {}
    return apply_table(LintConfig(root=pyproject.parent.resolve()), table, str(pyproject))


def apply_table(config: LintConfig, table: dict, where: str) -> LintConfig:
    changes: dict = {}
    for key, value in table.items():
        setter = _SETTERS.get(key)
        if setter is None:
            raise ConfigError(f"{where}: unknown setting {key!r} in [tool.transpile.lint]")
        setter(config, value, changes, f"{where}: {key}")
    return replace(config, **changes)


def _strings(value: object, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ConfigError(f"{where} must be a list of strings")
    return tuple(value)


def _set_select(config, value, changes, where):
    changes["select"] = _strings(value, where)


def _set_extend_select(config, value, changes, where):
    changes["select"] = changes.get("select", config.select) + _strings(value, where)


def _set_ignore(config, value, changes, where):
    changes["ignore"] = changes.get("ignore", config.ignore) + _strings(value, where)


def _set_per_file_ignores(config, value, changes, where):
    if not isinstance(value, dict):
        raise ConfigError(f"{where} must be a table of pattern = [codes]")
    changes["per_file_ignores"] = tuple(
        (pattern, _strings(codes, f"{where}.{pattern}")) for pattern, codes in value.items()
    )


def _set_max_unroll(config, value, changes, where):
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ConfigError(f"{where} must be a non-negative integer")
    changes["max_unroll"] = value


def _set_jit_functions(config, value, changes, where):
    changes["jit_functions"] = tuple(dict.fromkeys(DEFAULT_JIT_FUNCTIONS + _strings(value, where)))


def _set_exclude(config, value, changes, where):
    changes["exclude"] = _strings(value, where)


def _set_extend_exclude(config, value, changes, where):
    changes["extend_exclude"] = _strings(value, where)


def _set_respect_gitignore(config, value, changes, where):
    if not isinstance(value, bool):
        raise ConfigError(f"{where} must be true or false")
    changes["respect_gitignore"] = value


_SETTERS = {
    "select": _set_select,
    "extend-select": _set_extend_select,
    "ignore": _set_ignore,
    "per-file-ignores": _set_per_file_ignores,
    "max-unroll": _set_max_unroll,
    "jit-functions": _set_jit_functions,
    "exclude": _set_exclude,
    "extend-exclude": _set_extend_exclude,
    "respect-gitignore": _set_respect_gitignore,
}
SETTINGS = tuple(_SETTERS)
