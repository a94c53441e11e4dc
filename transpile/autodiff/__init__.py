"""Automatic differentiation as IR -> IR transformations (forward and reverse mode).

A function to differentiate is traced to IR (`tracing_fun.py`); forward mode walks that
IR's equations in order, applying each primitive's JVP rule and binding what the rule
computes on the current trace (`jvp.py`), so that under `jit` the derivative is part of the
one traced program and compiles to one C module. Reverse mode (`linearize.py`) traces that
JVP into a second IR, splits it by dataflow from the tangent inputs into the primal
equations and the linear tangent ones, runs the former and transposes the latter in reverse
order (`transpose.py`).

Rules, one table per concern keyed by primitive: `jvp_rules.py` (with `linalg_rules.py`,
`control_flow.py` for cond and `loops.py` for scan/fori/while) and `transpose_rules.py`;
`ops.py` holds the primitives rules are written with. The public functions (`grad`, `vjp`,
`jacfwd`...) are in `api.py`; `custom_jvp`, `custom_vjp` and `checkpoint` in `custom.py`.

This package imports nothing at import time so that lower layers may name its modules.
"""
