"""The floor `transpile.numpy` and `transpile.lax` both stand on.

Every front-end function ends in a few wrappers that bind primitives onto the trace (or run
them eagerly): operand checks and conversions (`operands`), dynamic slicing and iotas
(`slicing`), and structured control flow (`control_flow`). They live here, below both public
namespaces, so that `transpile.lax` builds on `transpile.numpy` and `transpile.numpy` never
needs `transpile.lax` (tests/test_layering.py holds both to that). This package imports
neither, and nothing at package level: a module here loads only what it uses.
"""
