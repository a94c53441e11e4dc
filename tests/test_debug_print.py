"""tp.debug.print: runtime values from compiled code on every call, in program order (also
inside lax loops and branches); the same text eagerly and with backend="interpret"."""
from __future__ import annotations

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile import lax

BACKENDS = ("cpu", "interpret")


def _program(x, n):
    tp.debug.print("start x={} n={n}", x, n=n)
    total = x.sum()
    tp.debug.print("total {t:.2f}", t=total)

    def body(i, carry):
        tp.debug.print("  step {} carry {}", i, carry)
        return carry * 2
    out = lax.fori_loop(0, 3, body, total)
    tp.debug.print("same twice {}", out)
    tp.debug.print("same twice {}", out)
    tp.debug.print("never used {}", x + 1)          # its value feeds nothing: still printed
    return out


def _expected(x, n):
    total = x.sum()
    lines = [f"start x={x} n={n}", f"total {total:.2f}"]
    carry = total
    for i in range(3):
        lines.append(f"  step {i} carry {carry}")
        carry = carry * 2
    lines += [f"same twice {carry}"] * 2 + [f"never used {x + 1}"]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("backend", BACKENDS)
def test_prints_runtime_values_on_every_call_in_order(backend, capsys):
    f = tp.jit(_program, backend=backend)
    for x, n in ((np.arange(3.0), 4), (np.array([0.5, 1.5, -2.0]), 7)):
        out = f(x, n)
        assert capsys.readouterr().out == _expected(x, np.int64(n))
        assert out == x.sum() * 8
    assert f.cache_info().misses == 1


def test_eager_prints_the_same_text(capsys):
    x = np.arange(3.0)
    _program(x, np.int64(4))
    assert capsys.readouterr().out == _expected(x, np.int64(4))


@pytest.mark.parametrize("backend", BACKENDS)
def test_inside_while_scan_and_cond(backend, capsys):
    def f(x):
        def cond(c):
            return c[0] < 3

        def body(c):
            tp.debug.print("while {}", c[0])
            return c[0] + 1, c[1]
        _, y = lax.while_loop(cond, body, (np.int32(0), x))

        def scan_body(c, xi):
            tp.debug.print("scan {} {}", c, xi)
            return c + xi, c
        total, _ = lax.scan(scan_body, np.float32(0), y)

        def negative(v):
            tp.debug.print("negative branch {}", v)
            return -v

        def positive(v):
            tp.debug.print("positive branch {}", v)
            return v
        return lax.cond(total > 0, positive, negative, total)
    x = np.array([1.0, 2.0], np.float32)
    tp.jit(f, backend=backend)(x)
    assert capsys.readouterr().out == ("while 0\nwhile 1\nwhile 2\nscan 0.0 1.0\n"
                                       "scan 1.0 2.0\npositive branch 3.0\n")


@pytest.mark.parametrize("dtype", [np.bool_, np.uint8, np.int32, np.float32, np.float64])
def test_dtypes_shapes_and_pytrees(dtype, capsys):
    x = (np.arange(6) % 3).astype(dtype).reshape(2, 3)

    def f(x):
        tp.debug.print("{a} | {b} | {c}", a=x, b={"row": x[0]}, c=x[:0])
        tp.debug.print("scalar {}", x[1, 2])
        return x
    tp.jit(f)(x)
    compiled = capsys.readouterr().out
    f(x)
    assert compiled == capsys.readouterr().out
    assert compiled == f"{x} | {({'row': x[0]})} | {x[:0]}\nscalar {x[1, 2]}\n"


def test_constant_arguments_print_on_every_call(capsys):
    f = tp.jit(lambda x: (tp.debug.print("constant {} {}", 3, np.float32(0.5)), x)[1])
    f(1.0)
    f(2.0)
    assert capsys.readouterr().out == "constant 3 0.5\n" * 2


def test_format_errors_are_raised_after_the_call():
    f = tp.jit(lambda x: (tp.debug.print("{missing}", x), x + 1)[1])
    with pytest.raises(KeyError, match="missing"):
        f(1.0)
    with pytest.raises(TypeError, match="fmt must be a str"):
        tp.debug.print(3)


def test_the_c_source_calls_the_hook_in_place():
    source = tp.jit(_program).lower(np.arange(3.0), 4).source
    assert source.count("if (tp_debug_hook) tp_debug_hook(") == 6     # one per print
    assert "_set_debug_hook" in source
