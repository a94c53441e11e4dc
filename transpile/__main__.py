"""`python -m transpile ...` is the `transpile` command."""
import sys

from .cli import main

sys.exit(main())
