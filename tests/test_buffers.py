"""Buffer assignment (DESIGN.md "Buffers", issue 8): values against NumPy and the interpret
backend, inputs never written, and the generated C: updates in place inside loops (no
whole-array loop in the loop body), unchanged carries never copied, changed carries
double-buffered by pointer swaps, swapped buffers never `restrict`."""
import re

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile import lax
from conftest import assert_same

N = 48


def run_checked(fun, *args, static_argnames=(), **kwargs):
    """CPU result, checked against the interpreter, twice (the second call reuses buffers),
    and with every input left exactly as it was."""
    copies = [np.array(a, copy=True) for a in args]
    ref = tp.jit(fun, backend="interpret", static_argnames=static_argnames)(*args, **kwargs)
    f = tp.jit(fun, backend="cpu", static_argnames=static_argnames)
    for _ in range(2):
        out = f(*args, **kwargs)
        for got, want in zip(_leaves(out), _leaves(ref)):
            assert_same(got, want, rtol=1e-12 if np.asarray(got).dtype.kind == "f" else None)
        for a, before in zip(args, copies):
            np.testing.assert_array_equal(a, before, err_msg="an input was modified")
    return out


def _leaves(tree):
    from transpile.pytree import tree_flatten
    return tree_flatten(tree)[0]


# -- reading the generated C -----------------------------------------------------------------

def kernel_bodies(source: str) -> dict:
    """{kernel name: its comment line and text} for each commented `static ... void NAME(...)
    {...}` (kernels are named after their function and what they write: `jacobi_out0`)."""
    text = source[:source.index("int tp_entry")]
    starts = list(re.finditer(r"/\*[^\n]*\*/\nstatic [^\n]*?void ((?!tp_)\w+)\(", text))
    ends = [m.start() for m in starts[1:]] + [len(text)]
    return {m.group(1): text[m.start():end] for m, end in zip(starts, ends)}


def entry(source: str) -> str:
    return source[source.index("int tp_entry"):]


def kernel_calls(text: str, source: str) -> list:
    """The kernels `text` (a part of the entry) calls, in order."""
    names = kernel_bodies(source)
    return [name for name in re.findall(r"\b(\w+)\(", text) if name in names]


def loop_body_calls(source: str) -> list:
    """Kernels called inside the entry's first loop (including the loop's restore block)."""
    text = entry(source)
    start = text.index("for (int64_t it")
    depth, body = 0, []
    for i, ch in enumerate(text[start:], start):
        depth += ch == "{"
        depth -= ch == "}"
        if ch == "}" and depth == 0:
            body = text[start:i]
            break
    return kernel_calls(body, source)


def iterations(kernel_text: str) -> int:
    """Iterations of a kernel's loop nest (product of its `for` extents)."""
    extents = [int(n) for n in re.findall(r"for \(int64_t i\d+ = 0; i\d+ < (\d+);", kernel_text)]
    return int(np.prod(extents)) if extents else 1


def loop_text(entry_text: str) -> str:
    """The entry's first `for (int64_t it...)` loop, through its closing brace."""
    start = entry_text.index("for (int64_t it")
    depth, i = 0, entry_text.index("{", start)
    while True:
        depth += {"{": 1, "}": -1}.get(entry_text[i], 0)
        if depth == 0:
            return entry_text[start:i + 1]
        i += 1


def source_of(fun, *args, **kwargs) -> str:
    return tp.jit(fun, static_argnames=tuple(kwargs)).lower(*args, **kwargs).source


# -- element updates in a loop -------------------------------------------------------------

def diagonal_updates(a, steps):
    def step(i, a):
        return a.at[i, i].set(a[i, i] * 2.0 + 1.0)
    return lax.fori_loop(0, steps, step, a)


def np_diagonal_updates(a, steps):
    a = a.copy()
    for i in range(steps):
        a[i, i] = a[i, i] * 2.0 + 1.0
    return a


def test_element_update_loop_values_and_inputs():
    a = np.random.default_rng(0).standard_normal((N, N))
    out = run_checked(diagonal_updates, a, steps=N, static_argnames=("steps",))
    assert_same(out, np_diagonal_updates(a, N))


def test_element_update_loop_is_one_store_per_step():
    source = source_of(diagonal_updates, np.zeros((N, N)), steps=N)
    bodies = kernel_bodies(source)
    calls = loop_body_calls(source)
    assert calls, "the loop calls no kernel"
    for name in calls:
        assert iterations(bodies[name]) == 1, f"{name} loops over the array:\n{bodies[name]}"
        assert "in place" in bodies[name]
    # One copy of the input into the carry, before the loop: inputs are never written.
    assert "initial carry" in source and "swap" not in entry(source)


def test_static_slice_update_in_a_loop_and_outside():
    def f(a):
        b = a.at[1:-1, 1:-1].set(0.0)
        return lax.fori_loop(0, 3, lambda i, c: c.at[1:-1, 2:].add(c[1:-1, :-2] * 0.5), b)
    a = np.random.default_rng(1).standard_normal((6, 7))
    expected = a.copy()
    expected[1:-1, 1:-1] = 0.0
    for _ in range(3):
        expected[1:-1, 2:] += expected[1:-1, :-2] * 0.5
    assert_same(run_checked(f, a), expected, rtol=1e-12)


# -- unchanged carries -------------------------------------------------------------------------

def forward_substitution(lower, b):
    def step(i, state):
        low, x = state
        return low, x.at[i].set((b[i] - tnp.dot(low[i], x)) / low[i, i])
    return lax.fori_loop(0, b.shape[0], step, (lower, tnp.zeros_like(b)))


def test_unchanged_carry_is_never_copied():
    rng = np.random.default_rng(2)
    lower = np.tril(rng.standard_normal((N, N))) + N * np.eye(N)
    b = rng.standard_normal(N)
    low_out, x = run_checked(forward_substitution, lower, b)
    assert_same(low_out, lower)
    np.testing.assert_allclose(lower @ x, b, rtol=1e-10)
    source = source_of(forward_substitution, lower, b)
    bodies = kernel_bodies(source)
    for name, text in bodies.items():
        assert iterations(text) < N * N, f"{name} copies the unchanged matrix:\n{text}"


def test_carry_initialised_from_an_input_that_is_also_returned():
    def f(a):
        return a, lax.fori_loop(0, 4, lambda i, c: c.at[i].multiply(3.0), a), a * 2
    a = np.arange(1.0, 7.0)
    a_out, looped, doubled = run_checked(f, a)
    assert_same(a_out, a)
    assert_same(looped, np.array([3.0, 6.0, 9.0, 12.0, 5.0, 6.0]))
    assert_same(doubled, a * 2)


# -- double buffering (pointer swaps) ----------------------------------------------------------

def jacobi(a, steps):
    def step(_, a):
        return a.at[1:-1, 1:-1].set(0.25 * (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2]
                                            + a[1:-1, 2:]))
    return lax.fori_loop(0, steps, step, a)


def np_jacobi(a, steps):
    a = a.copy()
    for _ in range(steps):
        a[1:-1, 1:-1] = 0.25 * (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:])
    return a


@pytest.mark.parametrize("steps", [0, 1, 2, 5])
def test_stencil_carry_swaps_pointers_for_odd_and_even_trip_counts(steps):
    a = np.random.default_rng(3).standard_normal((9, 10))
    out = run_checked(jacobi, a, steps=steps, static_argnames=("steps",))
    assert_same(out, np_jacobi(a, steps), rtol=1e-12)


def test_stencil_loop_has_no_copy_inside_and_no_restrict_on_swapped_buffers():
    source = source_of(jacobi, np.zeros((9, 10)), steps=5)     # odd: the carry goes home
    text = entry(source)
    swaps = re.findall(r"\{ double \*swap = (\w+); \1 = (\w+); \2 = swap; \}", text)
    assert swaps, text
    bodies = kernel_bodies(source)
    loop = loop_text(text)
    kernels = kernel_calls(loop, source)
    # The stencil's window and the borders kept around it; nothing copies the whole array.
    assert sum("(the window)" in bodies[k] for k in kernels) == 1
    assert all("the update reads most of the old array" in bodies[k] for k in kernels)
    for k in kernels:
        assert "dynamic_update_slice" in bodies[k] and iterations(bodies[k]) < 9 * 10
    for current, spare in swaps:
        for body in bodies.values():
            signature = body[body.index("static "):body.index(") {")]
            assert not re.search(rf"restrict {current}\b|restrict {spare}\b", signature), \
                signature


def test_two_step_loop_of_swapped_carries_is_not_miscompiled():
    """Regression: with `restrict` on swapped buffers, gcc -O3 inlined both iterations of a
    2-trip loop and hoisted the second one's loads above the first one's stores."""
    def f(x):
        return lax.fori_loop(0, 2, lambda i, v: v.at[1:].set(v[:-1] + v[1:] * 0.5), x)
    x = np.arange(1.0, 40.0)
    expected = x.copy()
    for _ in range(2):
        expected[1:] = expected[:-1] + expected[1:] * 0.5
    assert_same(run_checked(f, x), expected, rtol=1e-12)


def test_carries_exchanged_with_each_other():
    def f(a, b):
        return lax.fori_loop(0, 3, lambda i, ab: (ab[1] + 1.0, ab[0] * 2.0), (a, b))
    a, b = np.arange(5.0), np.arange(5.0) * 10
    out = run_checked(f, a, b)
    x, y = a, b
    for _ in range(3):
        x, y = y + 1.0, x * 2.0
    assert_same(out[0], x)
    assert_same(out[1], y)


@pytest.mark.parametrize("limit", [3.0, 4.0])
def test_while_loop_swaps_with_an_iteration_count_known_only_at_run_time(limit):
    def f(x, limit):
        def body(s):
            v, k = s
            return v.at[1:].set(v[:-1] * 0.5 + v[1:]), k + 1.0
        return lax.while_loop(lambda s: s[1] < limit, body, (x, 0.0))
    x = np.arange(6.0)
    v, k = run_checked(f, x, limit)
    expected = x.copy()
    for _ in range(int(limit)):
        expected[1:] = expected[:-1] * 0.5 + expected[1:]
    assert_same(v, expected, rtol=1e-12)


def test_scan_carry_double_buffered():
    def f(x, xs):
        def step(c, row):
            new = c.at[1:].set(c[:-1] + row[1:])
            return new, new.sum()
        return lax.scan(step, x, xs)
    x, xs = np.arange(4.0), np.arange(20.0).reshape(5, 4)
    carry, ys = run_checked(f, x, xs)
    c, expected_ys = x.copy(), []
    for row in xs:
        c = np.concatenate([c[:1], c[:-1] + row[1:]])
        expected_ys.append(c.sum())
    assert_same(carry, c, rtol=1e-12)
    assert_same(ys, np.array(expected_ys), rtol=1e-12)


def test_nested_loops_both_swapping():
    def f(a):
        def outer(i, a):
            inner = lax.fori_loop(0, i, lambda j, b: b.at[1:].set(b[:-1] + 1.0), a)
            return inner.at[:-1].set(inner[1:] * 0.5)
        return lax.fori_loop(0, 3, outer, a)
    a = np.arange(7.0)
    expected = a.copy()
    for i in range(3):
        for _ in range(i):
            expected[1:] = expected[:-1] + 1.0
        expected[:-1] = expected[1:] * 0.5
    assert_same(run_checked(f, a), expected, rtol=1e-12)


# -- when the old value is still needed ---------------------------------------------------------

def test_update_reading_a_shifted_window_of_itself():
    """The window is small: computed into a temporary before the buffer changes under it."""
    def f(x):
        return lax.fori_loop(0, 4, lambda i, v: v.at[2:5].set(v[1:4] * 2.0 + v[3:6]), x)
    x = np.arange(10.0)
    expected = x.copy()
    for _ in range(4):
        expected[2:5] = expected[1:4] * 2.0 + expected[3:6]
    assert_same(run_checked(f, x), expected, rtol=1e-12)
    bodies = kernel_bodies(source_of(f, x))
    assert any("changes under it" in b for b in bodies.values())


def test_old_value_used_after_the_update_is_kept():
    def f(x):
        def step(i, s):
            v, total = s
            new = v.at[i].set(-1.0)
            return new, total + v.sum() + new[i]      # reads the old v after the update
        return lax.fori_loop(0, 4, step, (x, 0.0))
    x = np.arange(1.0, 6.0)
    v, total = run_checked(f, x)
    expected_v, expected_total = x.copy(), 0.0
    for i in range(4):
        old_sum = expected_v.sum()
        expected_v[i] = -1.0
        expected_total += old_sum + expected_v[i]
    assert_same(v, expected_v)
    assert_same(total, np.float64(expected_total), rtol=1e-12)
    # The one update that is not in place says why, in the C.
    assert "into a new buffer: the old array is read after the update" in source_of(f, x)


def test_chained_updates_and_traced_out_of_bounds_index():
    def f(x, k):
        def step(i, v):
            return v.at[i].add(1.0).at[i + 1].multiply(2.0).at[k].set(99.0)
        return lax.fori_loop(0, 3, step, x)
    x = np.arange(6.0)
    for k in (2, 6, -7):                      # in bounds, and dropped on either side
        expected = x.copy()
        for i in range(3):
            expected[i] += 1.0
            expected[i + 1] *= 2.0
            if -6 <= k < 6:
                expected[k] = 99.0
        assert_same(run_checked(f, x, k), expected)


def test_update_outside_loops_leaves_input_alone():
    def f(x):
        y = tnp.exp(x)
        return y.at[0].set(0.0).at[-1].set(1.0), x.at[2].set(5.0)
    x = np.linspace(0.0, 1.0, 6)
    y, z = run_checked(f, x)
    expected = np.exp(x)
    expected[0], expected[-1] = 0.0, 1.0
    assert_same(y, expected, max_ulp=1)
    expected_z = x.copy()
    expected_z[2] = 5.0
    assert_same(z, expected_z)


@pytest.mark.parametrize("index", [(slice(1, 3), slice(0, 4), slice(2, 5)),
                                   (slice(0, 1), slice(None), slice(None)),
                                   (slice(2, None), slice(1, -1), 0)])
def test_static_window_update_into_a_new_buffer_keeps_the_rest(index):
    """Static starts: the window and the boxes around it are separate loops."""
    def f(x):
        return tnp.exp(x).at[index].set(x[index] * -2.0)
    x = np.random.default_rng(4).standard_normal((3, 4, 5))
    expected = np.exp(x)
    expected[index] = x[index] * -2.0
    assert_same(run_checked(f, x), expected, max_ulp=1)


@pytest.mark.parametrize("shape, axis, rows_outside", [((7, 300), 0, True),
                                                       ((3, 5, 2100), 1, True),
                                                       ((2100, 3), 0, True),
                                                       ((3, 5, 2100), 2, False)])
def test_column_reductions_walk_rows_and_match_numpy(shape, axis, rows_outside):
    """The innermost output loop over contiguous outputs: the reduced loop goes inside it
    (outer output loops, as in the 3-D case, stay outside). A reduction along the
    contiguous axis keeps the output-outside layout."""
    x = np.random.default_rng(5).standard_normal(shape)
    x[0, 0] = np.nan
    for fun in (lambda a: a.sum(axis=axis), lambda a: a.max(axis=axis),
                lambda a: (a > 0).any(axis=axis), lambda a: a.astype(np.float32).min(axis=axis)):
        assert_same(run_checked(fun, x), fun(x), rtol=1e-12)
    assert ("rows outside" in source_of(lambda a: a.sum(axis=axis), x)) == rows_outside


@pytest.mark.parametrize("dtype", [np.float32, np.int8])
def test_column_sums_with_a_wider_accumulator_walk_rows(dtype):
    """A float32 sum accumulates in double, an int8 one in a wider unsigned type: a block of
    accumulators of that type walks the rows (a bias gradient's sum over the batch), and
    the result is still the wide sum rounded (wrapped) once."""
    rng = np.random.default_rng(6)
    x = (rng.standard_normal((300, 70)) * 1e3).astype(dtype)
    if dtype == np.float32:
        x[::2] *= 1e4                  # large terms that cancel: float32 partial sums would not
        x[1::2] = -x[::2] + rng.standard_normal((150, 70)).astype(dtype)
    expected = x.astype(np.float64).sum(axis=0).astype(dtype) if dtype == np.float32 \
        else x.sum(axis=0)
    assert "rows outside" in source_of(lambda a: a.sum(axis=0), x)
    # (not run_checked: the interpreter sums float32 in float32, NumPy's way, far less exactly)
    assert_same(tp.jit(lambda a: a.sum(axis=0))(x), expected,
                max_ulp=1 if dtype == np.float32 else 0)


# -- loops nested in loops, loops running in their initial value's buffer ---------------------

def row_sweeps(a, steps):
    """NPBench's seidel_2d shape: a time loop around a row loop around a column loop."""
    n = a.shape[0]

    def row(i, a):
        a = a.at[i, 1:-1].set(a[i, 1:-1] + a[i - 1, :-2] + a[i + 1, 2:])
        return lax.fori_loop(1, n - 1, lambda j, a: a.at[i, j].set((a[i, j] + a[i, j - 1]) / 3),
                             a)
    return lax.fori_loop(0, steps, lambda _, a: lax.fori_loop(1, n - 1, row, a), a)


def np_row_sweeps(a, steps):
    a, n = a.copy(), a.shape[0]
    for _ in range(steps):
        for i in range(1, n - 1):
            a[i, 1:-1] = a[i, 1:-1] + a[i - 1, :-2] + a[i + 1, 2:]
            for j in range(1, n - 1):
                a[i, j] = (a[i, j] + a[i, j - 1]) / 3
    return a


@pytest.mark.parametrize("steps", [1, 2, 3])
def test_nested_loops_update_one_buffer_in_place(steps):
    a = np.random.default_rng(7).standard_normal((12, 12))
    out = run_checked(row_sweeps, a, steps=steps, static_argnames=("steps",))
    assert_same(out, np_row_sweeps(a, steps), rtol=1e-12)
    source = source_of(row_sweeps, np.zeros((N, N)), steps=steps)
    bodies = kernel_bodies(source)
    assert "swap" not in entry(source), entry(source)
    for name in loop_body_calls(source):
        assert iterations(bodies[name]) < N * N, f"{name} copies the array:\n{bodies[name]}"


def test_loop_over_a_value_it_also_captures_or_that_is_read_after():
    def f(a):
        y = a * 2.0
        captured = lax.fori_loop(0, 3, lambda i, c: c.at[i].add(y[i + 1]), y)
        z = a + 1.0
        read_after = lax.fori_loop(0, 3, lambda i, c: c.at[i].multiply(2.0), z)
        w = a - 1.0
        twice = lax.fori_loop(0, 2, lambda i, pq: (pq[0].at[0].add(1.0), pq[1].at[1].add(2.0)),
                              (w, w))
        return captured, read_after, z[0] + z[1], twice
    a = np.arange(1.0, 7.0)
    captured, read_after, z01, (p, q) = run_checked(f, a)
    y = a * 2.0
    assert_same(captured, y + np.array([y[1], y[2], y[3], 0, 0, 0]))
    assert_same(read_after, (a + 1.0) * np.array([2, 2, 2, 1, 1, 1]))
    assert_same(z01, np.float64(2.0 + 3.0))
    assert_same(p, (a - 1.0) + np.array([2.0, 0, 0, 0, 0, 0]))
    assert_same(q, (a - 1.0) + np.array([0, 4.0, 0, 0, 0, 0]))


def test_update_whose_value_reads_the_array_which_is_read_again_later():
    def f(a):
        b = a * 3.0
        c = b.at[0].set(b[1] + b[2])
        return c * 2.0, b[2] - 1.0
    a = np.arange(1.0, 5.0)
    c2, b2 = run_checked(f, a)
    b = a * 3.0
    assert_same(c2, np.array([b[1] + b[2], b[1], b[2], b[3]]) * 2.0)
    assert_same(b2, b[2] - 1.0)


def pressure_sweeps(p, steps):
    """cavity_flow's pressure sweeps: a stencil that must double-buffer, then border updates."""
    def sweep(_, p):
        p = p.at[1:-1, 1:-1].set(0.25 * (p[1:-1, 2:] + p[1:-1, :-2] + p[2:, 1:-1] + p[:-2, 1:-1])
                                 + 1.0)
        p = p.at[:, 0].set(p[:, 1])
        return p.at[-1, :].set(0.0)
    return lax.fori_loop(0, steps, sweep, p)


def np_pressure_sweeps(p, steps):
    p = p.copy()
    for _ in range(steps):
        p[1:-1, 1:-1] = 0.25 * (p[1:-1, 2:] + p[1:-1, :-2] + p[2:, 1:-1] + p[:-2, 1:-1]) + 1.0
        p[:, 0] = p[:, 1]
        p[-1, :] = 0.0
    return p


@pytest.mark.parametrize("steps", [1, 2, 3])
def test_updates_after_a_double_buffered_stencil_store_into_the_spare_buffer(steps):
    a = np.random.default_rng(8).standard_normal((9, 10))
    out = run_checked(pressure_sweeps, a, steps=steps, static_argnames=("steps",))
    assert_same(out, np_pressure_sweeps(a, steps), rtol=1e-12)
    source = source_of(pressure_sweeps, np.zeros((N, N)), steps=steps)
    bodies = kernel_bodies(source)
    text = entry(source)
    loop = loop_text(text)
    # One pass over the array (the window and the borders it keeps) plus the updated borders;
    # storing the updates into a buffer of their own would copy the array a second time.
    work = sum(iterations(bodies[name]) for name in kernel_calls(loop, source))
    assert work < 1.5 * N * N, loop


def test_while_and_scan_nested_in_a_loop_body_run_in_its_carry():
    def f(a):
        def body(i, c):
            c = c.at[i].add(1.0)
            c = lax.while_loop(lambda s: s[0] < 3,
                               lambda s: (s[0] + 1, s[1].at[s[0]].multiply(2.0)), (0, c))[1]
            return lax.scan(lambda c, x: (c.at[0].add(x * 2.0), x), c, tnp.arange(3.0))[0]
        return lax.fori_loop(0, 4, body, a * 1.5)
    a = np.arange(1.0, 7.0)
    expected = a * 1.5
    for i in range(4):
        expected[i] += 1.0
        expected[:3] *= 2.0
        for x in range(3):
            expected[0] += x * 2.0
    assert_same(run_checked(f, a), expected, rtol=1e-12)
    assert "double *swap" not in entry(source_of(f, a))    # (the while's counter swaps)


def test_an_interchanged_loop_running_in_its_starting_buffer_compiles():
    """An elementwise fori_loop (interchanged: elements outside, steps inside) whose initial
    carry is built in the output's buffer runs in that buffer: its kernel reads and writes
    one pointer, which must be declared once (JAX-mode fuzz seed 510191: gcc refused a kernel
    with `out0` as two parameters)."""
    x = np.arange(24, dtype=np.uint8).reshape(2, 3, 4)

    def f(x):
        c = tnp.concatenate([x, x, x], axis=2)
        d = c * c
        return lax.fori_loop(0, 3, lambda i, v: v * d + i.astype(np.uint8), c)
    expected = np.concatenate([x, x, x], axis=2)
    d = expected * expected
    for i in range(3):
        expected = expected * d + np.uint8(i)
    assert_same(run_checked(f, x), expected)


def test_whole_array_set_is_the_new_value_not_a_copy():
    """`x.at[:].set(y)` (NPBench's gemm, doitgen, floyd_warshall) is y itself, cast to x's
    dtype: no update kernel, no copy of y into a new buffer; a full-size dynamic_slice is x."""
    a, b = np.arange(12.0).reshape(3, 4), np.ones((3, 4), np.float32)
    f = tp.jit(lambda a, b: (a.at[:].set(b * 2), lax.dynamic_slice(a, (1, 2), (3, 4)) + 1))
    source = f.lower(a, b).source
    assert "dynamic_update_slice" not in source and "dynamic_slice" not in source
    got, sliced = f(a, b)
    assert got.dtype == np.float64 and np.all(got == 2) and np.all(sliced == a + 1)
    assert a[0, 1] == 1.0                           # the input is untouched


# -- reshapes: no copy of a reshaped operand or result --------------------------------------

def _kernel_types(fun, *args):
    return [type(k).__name__ for k in tp.jit(fun).lower(*args)._prepared.program.kernels]


def test_reshaped_reshape_and_reshaped_product_result_need_no_copy():
    """doitgen: `reshape(reshape(A) @ C4)`. A reshape of a reshape reads the first one's
    operand (A itself, in place), and a result that is a reshape of a product is computed
    straight into the result's memory: the product is the only kernel."""
    rng = np.random.default_rng(7)
    a, c4 = rng.standard_normal((6, 5, 8)), rng.standard_normal((8, 8))

    def doitgen(a, c4):
        rows = tnp.reshape(tnp.reshape(a, (6, 5, 1, 8)), (30, 8)) @ c4
        return a.at[:].set(tnp.reshape(rows, (6, 5, 8)))
    assert _kernel_types(doitgen, a, c4) == ["MatmulKernel"]
    got = run_checked(doitgen, a, c4)
    np.testing.assert_allclose(got, (a.reshape(30, 8) @ c4).reshape(6, 5, 8), rtol=1e-12)


def test_values_computed_into_a_reshaped_result_are_still_read_and_returned_apart():
    """The product computed into result 0 is read again by later kernels, from there; a
    second reshape of it is its own result, a copy (results never share memory); back to
    the operand's own shape, a reshape chain is no reshape at all."""
    rng = np.random.default_rng(8)
    a, b = rng.standard_normal((6, 5)), rng.standard_normal((5, 4))

    def f(a, b):
        p = a @ b
        return p.reshape(-1), p.reshape(4, 6), p.sum(axis=1).reshape(2, 3) * 2.0, \
            a.reshape(30).reshape(6, 5) + 1.0
    first, second, sums, back = run_checked(f, a, b)
    p = a @ b
    assert not np.shares_memory(first, second)
    np.testing.assert_allclose(first, p.reshape(-1), rtol=1e-12)
    np.testing.assert_allclose(second, p.reshape(4, 6), rtol=1e-12)
    np.testing.assert_allclose(sums, p.sum(axis=1).reshape(2, 3) * 2.0, rtol=1e-12)
    np.testing.assert_array_equal(back, a + 1.0)
    assert "= reshape" not in tp.jit(lambda a: a.reshape(30).reshape(6, 5) + 1.0).lower(a).source


@pytest.mark.parametrize("trips", [0, 1, 2, 3, 4, 7, 8])
def test_a_loop_of_known_even_length_needs_no_copy_home(trips):
    """A carry swapped an even number of times ends in its own buffer: no restore kernel is
    compiled (crc16's scan of 8 bits had two), and the answers are the same either way."""
    def f(x):
        stepped = lax.fori_loop(0, trips, lambda i, v: v.at[1:].set(v[:-1] * 0.5 + v[1:]), x)
        scanned, _ = lax.scan(lambda c, _: (c[::-1] * 2.0, None), x, None, length=trips)
        return stepped, scanned
    x = np.arange(1.0, 12.0)
    expected_step, expected_scan = x.copy(), x.copy()
    for _ in range(trips):
        expected_step[1:] = expected_step[:-1] * 0.5 + expected_step[1:]
        expected_scan = expected_scan[::-1] * 2.0
    stepped, scanned = run_checked(f, x)
    assert_same(stepped, expected_step, rtol=1e-12)
    assert_same(scanned, expected_scan, rtol=1e-12)
    source = source_of(f, x)
    assert ("_restore(" in source) == (trips % 2 == 1), source
