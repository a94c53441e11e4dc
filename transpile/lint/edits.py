"""Building fixes: text edits at exact positions of the original source (as ruff does), so the
rest of the file, its formatting and its comments are never touched.

The central one adds names to a jit site's `static_argnames`, in whichever form the site uses:

    @tp.jit                           ->  @partial(tp.jit, static_argnames=['n'])
    @tp.jit(static_argnames=['m'])    ->  @tp.jit(static_argnames=['m', 'n'])
    @partial(tp.jit)                  ->  @partial(tp.jit, static_argnames=['n'])
    g = tp.jit(f)                     ->  g = tp.jit(f, static_argnames=['n'])

Existing arguments, comments and line breaks inside the call are kept.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from .jitsites import JitSite
from .model import Edit

if TYPE_CHECKING:
    from .engine import ModuleContext


def static_argnames_fix(ctx: ModuleContext, site: JitSite, names: list[str]) -> tuple[str, list[Edit] | None]:
    """(the edited decorator or call as the user will see it, the edits; None if not editable)."""
    if site.form == "bare":
        spelling, import_edit = partial_reference(ctx)
        text = f"{spelling}({ctx.code(site.jit_expr)}, static_argnames={names!r})"
        edits = [ctx.replace_edit(site.edit_node, text)] + ([import_edit] if import_edit else [])
        return _display(site, text), edits
    assert site.options is not None
    edit = _add_static_argnames(ctx, site.options, names)
    if edit is None:
        return f"add {names!r} to static_argnames", None
    return _display(site, _apply(ctx, site.options, edit)), [edit]


def _display(site: JitSite, text: str) -> str:
    """The edited decorator or `jit(...)` call, as one line for the message."""
    text = " ".join(text.split()).replace("( ", "(").replace(" )", ")")
    return f"@{text}" if site.decorator_of is not None else text


def _apply(ctx: ModuleContext, node: ast.AST, edit: Edit) -> str:
    """The text of `node` with `edit` (inside it) applied."""
    start = ctx.offset(*ctx.start(node))
    end = ctx.offset(*ctx.end(node))
    return ctx.source[start : edit.start] + edit.content + ctx.source[edit.end : end]


def _add_static_argnames(ctx: ModuleContext, call: ast.Call, names: list[str]) -> Edit | None:
    for keyword in call.keywords:
        if keyword.arg == "static_argnames":
            return _merge_names(ctx, keyword.value, names)
    listed = f"static_argnames={names!r}"
    parts = [*call.args, *call.keywords]
    if parts:
        last = max(parts, key=lambda part: (part.end_lineno, part.end_col_offset))
        line, column = ctx.end(last)
        rest = ctx.source[ctx.offset(line, column) : ctx.offset(*ctx.end(call)) - 1]
        if rest.lstrip().startswith(",") and "\n" in rest:
            # One argument per line with a trailing comma: the new one gets its own line,
            # indented like the last, after any comment on the last one's line.
            text = ctx.line_text(last.lineno)
            indent = text[: len(text) - len(text.lstrip())]
            return ctx.insert_edit(line + 1, f"{indent}{listed},{ctx.newline}")
        return ctx.insert_at(line, column, f", {listed}")
    line, column = ctx.end(call)
    return ctx.insert_at(line, column - 1, listed)  # before the closing parenthesis


def _merge_names(ctx: ModuleContext, value: ast.expr, names: list[str]) -> Edit | None:
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        quote = ctx.code(value)[0] if ctx.code(value)[:1] in "'\"" else "'"
        items = ", ".join(f"{quote}{name}{quote}" for name in [value.value, *names])
        return ctx.replace_edit(value, f"[{items}]")
    if not isinstance(value, (ast.List, ast.Tuple)):
        return None
    if not all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in value.elts):
        return None
    if not value.elts:
        bracket = "[]" if isinstance(value, ast.List) else "()"
        inner = ", ".join(repr(name) for name in names) + ("," if isinstance(value, ast.Tuple) and len(names) == 1 else "")
        return ctx.replace_edit(value, f"{bracket[0]}{inner}{bracket[1]}")
    text = ctx.code(value.elts[0])
    quote = text[0] if text[:1] in "'\"" else "'"
    added = "".join(f", {quote}{name}{quote}" for name in names)
    return ctx.insert_at(*ctx.end(value.elts[-1]), added)


def partial_reference(ctx: ModuleContext) -> tuple[str, Edit | None]:
    """How to spell functools.partial here, and the import to add when it is not imported."""
    spelled = ctx.names.spelling("functools.partial")
    if spelled:
        return spelled, None
    taken = "partial" in ctx.index.module.bound
    if taken and "functools" in ctx.names.imports:
        return "functools.partial", None
    statement = "import functools" if taken else "from functools import partial"
    return ("functools.partial" if taken else "partial"), ctx.insert_edit(import_line(ctx), statement + ctx.newline)


def import_line(ctx: ModuleContext) -> int:
    """The line before which a new import goes: after the docstring and the leading imports."""
    line = 1
    for position, statement in enumerate(ctx.tree.body):
        is_import = isinstance(statement, (ast.Import, ast.ImportFrom))
        is_docstring = position == 0 and _is_docstring(statement)
        if not (is_import or is_docstring):
            break
        line = statement.end_lineno + 1
    return line


def _is_docstring(statement: ast.stmt) -> bool:
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    )


def as_tuple(ctx: ModuleContext, node: ast.List) -> str:
    """`[a, b]` -> `(a, b)`; `[a]` -> `(a,)`, keeping the elements' own text."""
    inner = ctx.code(node)[1:-1]
    if len(node.elts) == 1 and not inner.rstrip().endswith(","):
        inner = inner.rstrip() + ","
    return f"({inner})"


def call_of(ctx: ModuleContext, func: str, *args: ast.expr) -> str:
    """`func(a, b)` from the arguments' own text (parenthesised where a comma would split them)."""
    return f"{func}({', '.join(_argument(ctx, arg) for arg in args)})"


def _argument(ctx: ModuleContext, node: ast.expr) -> str:
    text = ctx.code(node)
    if isinstance(node, (ast.NamedExpr, ast.Lambda, ast.Tuple)) and not text.startswith("("):
        return f"({text})"
    return text
