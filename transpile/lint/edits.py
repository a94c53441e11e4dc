"""Building fixes with libcst: new nodes rendered in place of old ones, nothing else touched.

The central one adds names to a jit site's `static_argnames`, in whichever form the site uses:

    @tp.jit                           ->  @partial(tp.jit, static_argnames=['n'])
    @tp.jit(static_argnames=['m'])    ->  @tp.jit(static_argnames=['m', 'n'])
    @partial(tp.jit)                  ->  @partial(tp.jit, static_argnames=['n'])
    g = tp.jit(f)                     ->  g = tp.jit(f, static_argnames=['n'])

Existing arguments, comments and line breaks inside the call are kept; a trailing comma in a
multi-line call gets the new argument on its own line.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import libcst as cst

from .jitsites import JitSite
from .model import Edit

if TYPE_CHECKING:
    from .engine import ModuleContext

NO_SPACE = cst.SimpleWhitespace("")
TIGHT_EQUAL = cst.AssignEqual(whitespace_before=NO_SPACE, whitespace_after=NO_SPACE)


def static_argnames_fix(ctx: ModuleContext, site: JitSite, names: list[str]) -> tuple[str, list[Edit] | None]:
    """(the edited decorator or call as the user will see it, the edits; None if not editable)."""
    if site.form == "bare":
        spelling, import_edit = partial_reference(ctx)
        new = cst.Call(
            func=cst.parse_expression(spelling),
            args=[cst.Arg(site.jit_expr), _keyword("static_argnames", _string_list(names, "'"))],
        )
        edits = [ctx.replace_edit(site.edit_node, new)] + ([import_edit] if import_edit else [])
        return _display(ctx, site, new), edits
    assert site.options is not None
    new_options = with_static_argnames(site.options, names)
    if new_options is None:
        return f"add {names!r} to static_argnames", None
    return _display(ctx, site, new_options), [ctx.replace_edit(site.options, new_options)]


def _display(ctx: ModuleContext, site: JitSite, new: cst.CSTNode) -> str:
    """The edited decorator or `jit(...)` call, as one line for the message."""
    text = " ".join(ctx.code(new).split())
    return f"@{text}" if site.decorator_of is not None else text


def with_static_argnames(call: cst.Call, names: list[str]) -> cst.Call | None:
    for position, arg in enumerate(call.args):
        if arg.keyword is not None and arg.keyword.value == "static_argnames":
            merged = _merge_names(arg.value, names)
            if merged is None:
                return None
            args = list(call.args)
            args[position] = arg.with_changes(value=merged)
            return call.with_changes(args=args)
    new_arg = _keyword("static_argnames", _string_list(names, "'"))
    return call.with_changes(args=append_item(call.args, new_arg, call.whitespace_before_args))


def _merge_names(value: cst.BaseExpression, names: list[str]) -> cst.BaseExpression | None:
    if isinstance(value, cst.SimpleString):
        return _string_list([str(value.evaluated_value), *names], value.quote)
    if not isinstance(value, (cst.List, cst.Tuple)):
        return None
    strings = [e.value for e in value.elements if isinstance(e.value, cst.SimpleString)]
    if len(strings) != len(value.elements):
        return None
    quote = strings[0].quote if strings else "'"
    opening = value.lbracket.whitespace_after if isinstance(value, cst.List) else _paren_space(value)
    elements = list(value.elements)
    for name in names:
        elements = append_item(elements, cst.Element(_string(name, quote)), opening)
    if isinstance(value, cst.Tuple) and len(elements) == 1 and not isinstance(elements[0].comma, cst.Comma):
        elements[0] = elements[0].with_changes(comma=cst.Comma())  # ('n',), not ('n')
    return value.with_changes(elements=elements)


def _paren_space(value: cst.Tuple) -> cst.BaseParenthesizableWhitespace:
    return value.lpar[0].whitespace_after if value.lpar else cst.SimpleWhitespace("")


def append_item(items: Sequence, new_item, opening: cst.BaseParenthesizableWhitespace) -> list:
    """Append to call arguments or list elements, keeping a trailing-comma layout.

    In a one-per-line layout the new item goes on its own line, indented like the first one;
    a comment after the old last item stays with it.
    """
    if not items:
        return [new_item]
    last = items[-1]
    comma = last.comma
    if not isinstance(comma, cst.Comma):
        return [*items, new_item]
    after = comma.whitespace_after
    if isinstance(opening, cst.ParenthesizedWhitespace) and isinstance(after, cst.ParenthesizedWhitespace):
        kept = comma.with_changes(whitespace_after=after.with_changes(last_line=opening.last_line))
        trailing = comma.with_changes(whitespace_after=after.with_changes(first_line=cst.TrailingWhitespace(), empty_lines=[]))
    else:
        kept = comma.with_changes(whitespace_after=cst.SimpleWhitespace(" "))
        trailing = comma
    return [*items[:-1], last.with_changes(comma=kept), new_item.with_changes(comma=trailing)]


def _keyword(name: str, value: cst.BaseExpression) -> cst.Arg:
    return cst.Arg(value=value, keyword=cst.Name(name), equal=TIGHT_EQUAL)


def _string(text: str, quote: str) -> cst.SimpleString:
    return cst.SimpleString(f"{quote}{text}{quote}")


def _string_list(names: list[str], quote: str) -> cst.List:
    return cst.List([cst.Element(_string(name, quote)) for name in names])


def partial_reference(ctx: ModuleContext) -> tuple[str, Edit | None]:
    """How to spell functools.partial here, and the import to add when it is not imported."""
    spelled = ctx.names.spelling("functools.partial")
    if spelled:
        return spelled, None
    global_scope = ctx.scopes.get(ctx.module)
    taken = global_scope is not None and "partial" in global_scope
    statement = "import functools" if taken else "from functools import partial"
    newline = ctx.module.default_newline
    return ("functools.partial" if taken else "partial"), ctx.insert_edit(import_line(ctx), statement + newline)


def import_line(ctx: ModuleContext) -> int:
    """The line before which a new import goes: after the docstring and the leading imports."""
    line = 1
    for position, statement in enumerate(ctx.module.body):
        if not isinstance(statement, cst.SimpleStatementLine):
            break
        is_import = all(isinstance(s, (cst.Import, cst.ImportFrom)) for s in statement.body)
        is_docstring = position == 0 and _is_docstring(statement)
        if not (is_import or is_docstring):
            break
        line = ctx.position(statement).end.line + 1
    return line


def _is_docstring(statement: cst.SimpleStatementLine) -> bool:
    return (
        len(statement.body) == 1
        and isinstance(statement.body[0], cst.Expr)
        and isinstance(statement.body[0].value, (cst.SimpleString, cst.ConcatenatedString))
    )


def as_tuple(node: cst.List) -> cst.Tuple:
    """`[a, b]` -> `(a, b)`; `[a]` -> `(a,)`, keeping the elements' own formatting."""
    elements = list(node.elements)
    if len(elements) == 1 and not isinstance(elements[0].comma, cst.Comma):
        elements[0] = elements[0].with_changes(comma=cst.Comma())
    return cst.Tuple(
        elements=elements,
        lpar=[cst.LeftParen(whitespace_after=node.lbracket.whitespace_after)],
        rpar=[cst.RightParen(whitespace_before=node.rbracket.whitespace_before)],
    )


def call_of(func: str, *args: cst.BaseExpression) -> cst.Call:
    return cst.Call(func=cst.parse_expression(func), args=[cst.Arg(arg) for arg in args])
