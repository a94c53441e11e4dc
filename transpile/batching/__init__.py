"""vmap: batching transformation (the batching-rule table, the IR replay, the API).

Importing this package registers every rule module in `batching_rules`.
"""
from . import (collectives, rules_autodiff_markers, rules_control, rules_conv,  # noqa: F401
               rules_effects, rules_elementwise, rules_indexing, rules_linalg, rules_reductions,
               rules_structural)
from .table import batching_rules
from .vmap import vmap

__all__ = ["batching_rules", "vmap"]
