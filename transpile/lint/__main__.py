"""`python -m transpile.lint ARGS` runs the linter (same as `transpile lint ARGS`)."""

import sys

from .cli import main

sys.exit(main())
