"""A differential fuzzer for transpile: random programs, every intermediate checked.

`generate.program(seed)` draws a small random program over `transpile.numpy` and `lax`
(values.py draws its inputs, ops.py holds one entry per operation: how to call it in
transpile and in plain NumPy). `oracle.check_batch` compiles many programs into one jitted
function (unfused: every intermediate an output; fused: only the final ones), calls each
twice, runs the interpreter too, and checks every value against NumPy applied to the
*compiled* values of its own inputs, so one wrong op is reported once, not downstream.
`findings.py` classifies and deduplicates what differs; `known.py` lists the classes that are
still open, with reproducers; `shrink.py` makes a finding's program small.
"""
