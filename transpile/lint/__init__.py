"""`transpile lint`: find concretization hazards in jitted code statically (analysis on Python's
own parser, fixes built and checked with libcst: see engine.py for why).

Library use:

    from transpile.lint import LintConfig, lint_source
    for finding in lint_source(source, "model.py", LintConfig()):
        print(finding.code, finding.line, finding.text)

The command line is `transpile.lint.cli.main(argv)`; the rules live in `transpile.lint.rules`,
one module per rule. Linting needs no NumPy: what the linter reads from `transpile` (its
public names, the tracer methods that concretize) is read on first use (`from_transpile.py`),
and the compiler never imports the linter.
"""

from .config import LintConfig, find_config, load_config
from .engine import lint_source
from .fixer import fix_source
from .model import Applicability, Edit, Finding, Fix
from .rules import ALL_RULES, RULES_BY_CODE

__all__ = [
    "ALL_RULES",
    "Applicability",
    "Edit",
    "Finding",
    "Fix",
    "LintConfig",
    "RULES_BY_CODE",
    "find_config",
    "fix_source",
    "lint_source",
    "load_config",
]
