"""A differential fuzzer for transpile: random programs, every intermediate checked.

`generate.program(seed)` draws a small random program over `transpile.numpy` and `lax`
(values.py draws its inputs, ops.py holds one entry per operation: how to call it in
transpile and in plain NumPy). `oracle.check_batch` compiles many programs into one jitted
function (unfused: every intermediate an output; fused: only the final ones), calls each
twice, runs the interpreter too, and checks every value against NumPy applied to the
*compiled* values of its own inputs, so one wrong op is reported once, not downstream.
ops_contexts.py puts ops where issue 20's wrong answers hid: an op applied to a constant
in the same node (its C operand is the literal, also unfused), one transcendental function
inside a cond, scan (reversed too), fori_loop or while_loop body, and reductions take a
`dtype=` (bool included). `findings.py` classifies and deduplicates what differs; `known.py`
lists the classes that are still open, with reproducers; `shrink.py` makes a finding's
program small.

What is deliberately not compared, and why:
- float -> int casts of NaN, inf or out-of-range values: NumPy leaves them undefined (its own
  loops disagree); those elements are masked (compare.py, oracle._cast_mask).
- integer `x ** -n`: transpile follows JAX there (README); NumPy raises on the values, so such
  ops are dropped while drawing (a value-dependent error, not a type error).
- arithmetic on Python-int *arguments* outside the partner's dtype: NumPy 2 raises on the
  value, which a traced argument cannot do at trace time; comparisons with them are checked
  (NumPy answers exactly). Python ints beyond int64 are never arguments (refused, as in JAX).
- `.at[...]` updates take values of the array's own kind, where JAX (cast first) and NumPy
  (combine, then cast) would differ.
- transcendental functions: up to 8 ulp (compare.MAX_ULP); float sums, means, products and
  matmuls: within a bound from the magnitudes of their terms (a lost term or a race is far
  outside it).
"""
