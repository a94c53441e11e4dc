"""Automatic differentiation as IR -> IR transformations (forward and reverse mode).

A function to differentiate is traced to IR (`tracing_fun.py`); forward mode walks that
IR's equations in order, applying each primitive's JVP rule (`jvp_rules.py`) and binding
what the rule computes on the current trace (`jvp.py`), so that under `jit` the derivative is
part of the one traced program and compiles to one C module. Reverse mode (`linearize.py`)
traces that JVP into a second IR, splits it by dataflow from the tangent inputs into the
primal equations and the linear tangent ones, runs the former and transposes the latter in
reverse order (`transpose.py`, rules in `transpose_rules.py`). The public functions (`grad`,
`vjp`, `jacfwd`...) are in `api.py`; custom rules in `custom.py`.

This package imports nothing at import time so that lower layers may name its modules.
"""
