"""The jax.numpy / jax.lax functions and fixes of issue #19 against JAX's recorded values
(tests/jax_extras_cases.py, tools/record_jax_extras.py): under JAX's dtype rules with x64
on, eagerly and under jit (one C build per group of cases, not per case)."""
from __future__ import annotations

import transpile.lax as tlax
import transpile.numpy as tnp
from jax_extras_cases import GROUPS
from recorded_cases import RecordedCases

JAX_CASES = RecordedCases("jax_extras.json", GROUPS, (tnp, tlax))
# The shared tests (recorded_cases.py): eager and jit results against JAX's.
globals().update(JAX_CASES.tests(every_case_recorded=False))
