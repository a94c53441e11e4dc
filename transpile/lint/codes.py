"""The linter's two vocabularies, as enums: the hazard kinds the trace analysis finds, and the
codes findings are reported under.

Hazards are what the analysis sees (a traced `if`, a traced `range()`); codes are what users
select, ignore, `# noqa` and read in reports. Every rule declares the hazard kinds it turns into
findings (`Rule.reports`), and a test checks that each kind has exactly one rule, so a kind the
analysis records can never go unreported by a typo in a string.
"""

from __future__ import annotations

from enum import Enum


class HazardKind(Enum):
    """A place where tracing needs a concrete Python value (the analysis' findings)."""

    IF = "if"
    ELIF = "elif"
    WHILE = "while"
    IFEXP = "ifexp"  # a if c else b
    ASSERT = "assert"
    COMPIF = "compif"  # [x for x in xs if c]
    MATCH = "match"  # a `case` comparing a traced `match` subject
    CONVERT = "convert"  # bool()/int()/float()/.item()/math.*/numpy conversions, min()/max()
    RANGE = "range"
    SHAPE = "shape"  # a shape-setting argument: zeros(n), x.reshape(n), one_hot(y, n)
    SLICE = "slice"  # x[:n]
    AND = "and"
    OR = "or"
    NOT = "not"
    CHAIN = "chain"  # a < x < b
    MASK = "mask"  # x[x > 0], x.at[mask]
    DATASHAPE = "datashape"  # nonzero/unique without size=
    LOG = "log"  # logging a traced value
    PRINT = "print"  # printing a traced value


class Code(str, Enum):
    """A finding's code. A `str` (so "TP101" == Code.TP101, and JSON writes it as text) that
    prints as itself in messages and reports."""

    TP101 = "TP101"
    TP102 = "TP102"
    TP103 = "TP103"
    TP104 = "TP104"
    TP105 = "TP105"
    TP201 = "TP201"
    TP202 = "TP202"
    TP203 = "TP203"
    TP301 = "TP301"
    TP401 = "TP401"
    TP402 = "TP402"
    TP403 = "TP403"
    E999 = "E999"  # syntax error
    E902 = "E902"  # a file that cannot be read or analysed

    __str__ = str.__str__
    __format__ = str.__format__


# The codes the engine reports about a whole file (no rule has them), with their names.
ENGINE_CODES = {Code.E999: "syntax-error", Code.E902: "not-analysed"}
# A file that does not parse has no trustworthy comments: its E999 cannot be silenced.
UNSUPPRESSIBLE = frozenset({Code.E999})


def parse_code(text: str) -> Code | None:
    """The code spelled `text` ("tp101" too), or None for a code that is not ours (E501)."""
    try:
        return Code(text.strip().upper())
    except ValueError:
        return None
