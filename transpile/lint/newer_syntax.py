"""Parse code written for a newer Python than the one running the linter.

The analysis reads Python's own `ast`, which only knows the running interpreter's grammar. Code
for Python 3.8-3.11 parses on any 3.11+, but Python 3.12 added syntax that 3.11 rejects:
f-strings that reuse their own quote, backslashes or comments inside replacement fields (PEP
701), the `type X = ...` statement and generic parameter lists `def f[T](...)` /
`class C[T]: ...` (PEP 695, with 3.13's defaults `[T = int]`); 3.14 adds t-strings and
`except` without parentheses. None of
these change what tracing does, so when the plain parse fails, this module rewrites just those
constructs into text the running parser accepts, *keeping every other character at its line
and column* (findings and fixes use exact positions), and parses again:

- a PEP 701 f-string keeps its expressions when swapping the nested strings' quotes makes it
  legal, else becomes a blank string of the same shape (its fields are lost, nothing else);
- `[T, *Ts, **P]` after a `def`/`class` name becomes spaces (`def f   (x)` is legal);
- `type X = v` becomes `_ =  X = v` (the alias is still bound, to its value);
- `t"..."` becomes `f"..."`;
- `except A, B:` (3.14) becomes `except A| B:`.

Code that still does not parse is reported with the *first* parser error (E999), which is the
one a user of the running Python would see.
"""

from __future__ import annotations

import ast
import io
import tokenize

_PREFIX_LETTERS = frozenset("rRbBuUfFtT")
_IDENTIFIER_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")


def parse_any_version(source: str, path: str) -> ast.Module:
    """`ast.parse`, falling back to the newer-syntax rewrite; raises the first SyntaxError."""
    try:
        return ast.parse(source, filename=path)
    except SyntaxError as first:
        lowered = lower_newer_syntax(source)
        if lowered == source:
            raise
        try:
            return ast.parse(lowered, filename=path)
        except (SyntaxError, ValueError):
            raise first from None


def lower_newer_syntax(source: str) -> str:
    """`source` with 3.12+ constructs rewritten in place (same length, same line breaks)."""
    text = list(source)
    for start, end, replacement in _FStringScanner(source).rewrites():
        text[start:end] = replacement
    lowered = "".join(text)
    try:
        return _lower_type_parameters(lowered)
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return lowered


# -- PEP 701 f-strings ------------------------------------------------------------------------


class _FStringScanner:
    """Finds string literals (skipping comments) and, for f-strings the running parser
    rejects, a same-length replacement."""

    def __init__(self, source: str):
        self.source = source
        self.found: list[tuple[int, int, str]] = []

    def rewrites(self) -> list[tuple[int, int, str]]:
        source, position, length = self.source, 0, len(self.source)
        while position < length:
            char = source[position]
            if char == "#":
                newline = source.find("\n", position)
                position = length if newline < 0 else newline
            elif char in "'\"":
                position = self._string(position, position)
            elif char in _IDENTIFIER_START or not char.isascii():
                word_end = position
                while word_end < length and (source[word_end].isalnum() or source[word_end] == "_"):
                    word_end += 1
                word_end = max(word_end, position + 1)
                is_prefix = len(source[position:word_end]) <= 3 and set(source[position:word_end]) <= _PREFIX_LETTERS
                if is_prefix and word_end < length and source[word_end] in "'\"":
                    position = self._string(position, word_end)
                else:
                    position = word_end
            else:
                position += 1
        return self.found

    def _string(self, start: int, quote_at: int) -> int:
        """Scan the literal whose prefix starts at `start`; return the index past its end."""
        prefix = self.source[start:quote_at].lower()
        quote = self._quote(quote_at)
        if "f" not in prefix and "t" not in prefix:
            return self._plain_end(quote_at + len(quote), quote, raw="r" in prefix)
        body = quote_at + len(quote)
        problems: list[bool] = []
        nested: list[tuple[int, int]] = []
        end = self._fstring_end(body, quote, problems, nested)
        if problems or "t" in prefix:
            self.found.append((start, end, self._lowered_fstring(start, quote_at, end, quote, problems, nested)))
        return end

    def _quote(self, at: int) -> str:
        char = self.source[at]
        return char * 3 if self.source.startswith(char * 3, at) else char

    def _plain_end(self, position: int, quote: str, raw: bool) -> int:
        source, length = self.source, len(self.source)
        while position < length:
            if source[position] == "\\":
                position += 2
            elif source.startswith(quote, position):
                return position + len(quote)
            elif source[position] == "\n" and len(quote) == 1:
                return position  # unterminated: let the parser report it
            else:
                position += 1
        return length

    def _fstring_end(self, position: int, quote: str, problems: list, nested: list) -> int:
        source, length = self.source, len(self.source)
        while position < length:
            char = source[position]
            if source.startswith(quote, position):
                return position + len(quote)
            if char == "\\":
                position += 2
            elif char == "{" and source.startswith("{{", position):
                position += 2
            elif char == "{":
                position = self._field(position + 1, quote, problems, nested)
            elif char == "\n" and len(quote) == 1:
                return position
            else:
                position += 1
        return length

    def _field(self, position: int, quote: str, problems: list, nested: list) -> int:
        """Scan one replacement field's expression (and format spec) past its closing `}`."""
        source, length, depth = self.source, len(self.source), 0
        while position < length:
            char = source[position]
            if char in "([{":
                depth += 1
            elif char in ")]" or (char == "}" and depth > 0):
                depth -= 1
            elif char == "}":
                return position + 1
            elif char == "#":
                problems.append(True)
                newline = source.find("\n", position)
                position = length if newline < 0 else newline
                continue
            elif char == "\\":
                problems.append(True)
            elif char == ":" and depth == 0 and not source.startswith(":=", position):
                return self._format_spec(position + 1, quote, problems, nested)
            elif char in "'\"":
                inner_quote = self._quote(position)
                end = self._string(position, position)
                if quote[0] == inner_quote[0] or "\\" in source[position:end]:
                    problems.append(True)
                    nested.append((position, end))
                position = end
                continue
            elif char in _IDENTIFIER_START:
                word_end = position
                while word_end < length and (source[word_end].isalnum() or source[word_end] == "_"):
                    word_end += 1
                word = source[position:word_end]
                if len(word) <= 3 and set(word) <= _PREFIX_LETTERS and word_end < length and source[word_end] in "'\"":
                    end = self._string(position, word_end)
                    if quote[0] == self.source[word_end] or "\\" in source[position:end]:
                        problems.append(True)
                        nested.append((position, end))
                    position = end
                else:
                    position = word_end
                continue
            position += 1
        return length

    def _format_spec(self, position: int, quote: str, problems: list, nested: list) -> int:
        source, length = self.source, len(self.source)
        while position < length:
            char = source[position]
            if char == "{":
                position = self._field(position + 1, quote, problems, nested)
            elif char == "}":
                return position + 1
            elif source.startswith(quote, position):
                return position  # unterminated field: the outer scan ends the string
            else:
                position += 1
        return length

    def _lowered_fstring(self, start, quote_at, end, quote, problems, nested) -> str:
        text = list(self.source[start:end])
        for index in range(quote_at - start):  # t-strings read as f-strings
            if text[index] in "tT":
                text[index] = "f"
        swapped = _swap_nested_quotes(self.source, start, text, nested, quote)
        if swapped is not None:
            candidate = "".join(swapped)
            try:
                ast.parse(candidate, mode="eval")
                return candidate
            except SyntaxError:
                pass
        return _blank_string(self.source[start:end], quote_at - start, quote)


def _swap_nested_quotes(source, start, text, nested, quote) -> list[str] | None:
    """Nested strings that reuse the outer quote, requoted with the other quote character."""
    other = "'" if quote[0] == '"' else '"'
    for begin, finish in nested:
        literal = source[begin:finish]
        body_start = begin
        while source[body_start] not in "'\"":
            body_start += 1
        inner_quote = source[body_start] * (3 if source.startswith(source[body_start] * 3, body_start) else 1)
        inside = source[body_start + len(inner_quote) : finish - len(inner_quote)]
        if len(inner_quote) == 3 or other in inside or "\\" in literal:
            return None
        text[body_start - start] = other
        text[finish - 1 - start] = other
    return text


def _blank_string(literal: str, prefix_length: int, quote: str) -> str:
    """A plain string literal with `literal`'s length and line breaks."""
    body = literal[prefix_length + len(quote) : len(literal) - len(quote)]
    blank_body = "".join("\n" if char == "\n" else " " for char in body)
    closing = quote if literal.endswith(quote) and len(literal) >= prefix_length + 2 * len(quote) else ""
    if not closing:
        return literal  # unterminated: nothing to lower
    return " " * prefix_length + quote + blank_body + closing


# -- PEP 695 type parameters and `type` statements ---------------------------------------------

_STATEMENT_START = frozenset({tokenize.NEWLINE, tokenize.NL, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING})


def _lower_type_parameters(source: str) -> str:
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    lines = source.splitlines(keepends=True)
    edits: list[tuple[tuple[int, int], tuple[int, int], str]] = []
    for index, token in enumerate(tokens[:-2]):
        following, after = tokens[index + 1], tokens[index + 2]
        if token.type != tokenize.NAME or following.type != tokenize.NAME:
            continue
        if token.string in ("def", "class") and after.string == "[":
            edits.append(_blank_brackets(tokens, index + 2))
        elif token.string == "type" and after.string in ("=", "[") and _starts_statement(tokens, index):
            gap = following.start[1] - token.start[1]
            if following.start[0] == token.start[0] and gap >= 4:
                edits.append((token.start, following.start, "_ =" + " " * (gap - 3)))
                if after.string == "[":
                    edits.append(_blank_brackets(tokens, index + 2))
    edits.extend(_unparenthesized_excepts(tokens))
    for start, end, replacement in sorted(edits, reverse=True):
        lines = _replace(lines, start, end, replacement)
    return "".join(lines)


def _unparenthesized_excepts(tokens) -> list:
    """`except A, B:` (3.14, PEP 758) becomes `except A| B:`: one expression, same length."""
    edits = []
    for index, token in enumerate(tokens):
        if token.type != tokenize.NAME or token.string != "except":
            continue
        depth, commas = 0, []
        for following in tokens[index + 1 :]:
            if following.type == tokenize.OP and following.string in "([{":
                depth += 1
            elif following.type == tokenize.OP and following.string in ")]}":
                depth -= 1
            elif depth == 0 and following.string == ",":
                commas.append(following)
            elif depth == 0 and following.string in (":", "as"):
                if following.string == ":":
                    edits.extend((comma.start, comma.end, "|") for comma in commas)
                break
            elif following.type in (tokenize.NEWLINE, tokenize.ENDMARKER):
                break
    return edits


def _starts_statement(tokens, index: int) -> bool:
    previous = tokens[index - 1] if index else None
    return previous is None or previous.type in _STATEMENT_START or previous.string == ";"


def _blank_brackets(tokens, open_index: int) -> tuple[tuple[int, int], tuple[int, int], str]:
    depth = 0
    for token in tokens[open_index:]:
        if token.string in "([{" and token.type == tokenize.OP:
            depth += 1
        elif token.string in ")]}" and token.type == tokenize.OP:
            depth -= 1
            if depth == 0:
                return tokens[open_index].start, token.end, None
    raise tokenize.TokenError("unbalanced type parameters")


def _replace(lines: list[str], start, end, replacement: str | None) -> list[str]:
    (first_line, first_column), (last_line, last_column) = start, end
    if replacement is not None:  # one line, same length
        line = lines[first_line - 1]
        lines[first_line - 1] = line[:first_column] + replacement + line[last_column:]
        return lines
    for number in range(first_line, last_line + 1):
        line = lines[number - 1]
        begin = first_column if number == first_line else 0
        finish = last_column if number == last_line else len(line.rstrip("\r\n"))
        lines[number - 1] = line[:begin] + " " * (finish - begin) + line[finish:]
    return lines
