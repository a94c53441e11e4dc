"""transpile's JAX dtype rules (transpile.config, transpile_dtype_rules="jax") against JAX's
own result dtypes and weak types, recorded by tools/record_jax_dtypes.py for the operation x
dtype table of tests/jax_dtype_cases.py, with 64-bit mode off and on; plus the setting itself
(config API, cache keys) and a real program that needs JAX's rules (a CartPole step)."""
from __future__ import annotations

import hashlib
import json
import os
import sys
import warnings

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile import lax

sys.path.insert(0, os.path.dirname(__file__))
import jax_dtype_cases as table  # noqa: E402
from jax_dtype_check import eager_token, traced_token  # noqa: E402

RECORDED = json.load(open(os.path.join(os.path.dirname(__file__), "data", "jax_dtypes.json")))

# Where transpile's JAX mode is known to differ from JAX, by case-name prefix, with why (some
# only with x64 on or off; the test checks that the list is still needed).
KNOWN = {
    "arctan2(": "complex arctan2 is not implemented (NumPy has no complex arctan2 loop)",
    "var(complex": "var/std of complex values return complex (also in NumPy mode; issue #19)",
    "std(complex": "var/std of complex values return complex (also in NumPy mode; issue #19)",
    "logical_not(py:": "a Python scalar's logical_not is strongly typed (JAX: weak bool)",
    "matmul(": "matmul's int x uint64 join (a weak float64 in JAX) is strong",
    "power(bool,py:int)": "bool ** Python int computes in the default int (JAX: int32)",
    "op_pow(bool,py:int)": "bool ** Python int computes in the default int (JAX: int32)",
}
def _known(name):
    return next((why for prefix, why in KNOWN.items() if name.startswith(prefix)), None)


def test_recorded_cases_are_these_cases():
    names = "\n".join(name for name, _, _ in table.cases())
    assert hashlib.sha256(names.encode()).hexdigest() == RECORDED["cases_sha256"], \
        "tests/jax_dtype_cases.py changed: rerun tools/record_jax_dtypes.py"


@pytest.mark.parametrize("how", ["traced", "eager"])
@pytest.mark.parametrize("mode", ["x32", "x64"])
def test_result_dtypes_are_jaxs(mode, how):
    wanted = RECORDED["modes"][mode]["results"].split()
    wrong, still_known = [], set()
    with tp.config.settings(transpile_dtype_rules="jax", jax_enable_x64=mode == "x64"):
        for (name, call, kinds), want in zip(table.cases(), wanted):
            got = eager_token(call, kinds) if how == "eager" else traced_token(call, kinds)
            why = _known(name)
            if got != want and why is None:
                wrong.append(f"{name}: JAX {want}, transpile {got}")
            elif got != want:
                still_known.add(why)
    assert not wrong, f"{len(wrong)} cases differ from JAX:\n" + "\n".join(wrong[:40])
    # The known differences are real (each still shows up somewhere in x32 or x64).
    assert still_known


def test_numpy_rules_stay_the_default_and_differ():
    """The same table under NumPy's rules is NumPy's: int32 + Python float is float64."""
    assert tp.config.transpile_dtype_rules in ("numpy", "jax")
    with tp.config.settings(transpile_dtype_rules="numpy"):
        x = np.ones(3, np.int32)
        assert tnp.multiply(x, 0.5).dtype == np.float64
        assert tnp.sin(x).dtype == np.float64
        assert "__array_ufunc__" not in type(tnp.arange(2)).__dict__   # NumPy's own, fast
    with tp.config.settings(transpile_dtype_rules="jax", jax_enable_x64=False):
        assert tnp.multiply(x, 0.5).dtype == np.float32
        eager = tnp.arange(3)        # an EagerArray: its operators follow JAX's rules too
        assert (eager * 0.5).dtype == np.float32 and (eager / 2).dtype == np.float32
        assert np.sin(eager).dtype == np.float32
        assert tnp.arange(3).dtype == np.int32 and tnp.zeros(2).dtype == np.float32
        assert tnp.asarray(np.ones(2)).dtype == np.float32     # 64-bit data canonicalised
    with tp.config.settings(transpile_dtype_rules="jax", jax_enable_x64=True):
        assert tnp.multiply(x, 0.5).dtype == np.float64        # a weak float: float_ now
        assert tnp.multiply(x.astype(np.float32), 0.5).dtype == np.float32   # the partner's
        assert tnp.arange(3).dtype == np.int64 and tnp.zeros(2).dtype == np.float64


def test_config_rejects_bad_settings():
    with pytest.raises(ValueError, match="transpile_dtype_rules"):
        tp.config.update("transpile_dtype_rules", "torch")
    with pytest.raises(AttributeError, match="jax_enable_x64"):
        tp.config.update("jax_enable_x32", True)
    with pytest.raises(TypeError, match="bool"):
        tp.config.update("jax_enable_x64", "yes")


def test_environment_variables_set_the_start(monkeypatch):
    from transpile.config import Config
    monkeypatch.setenv("TRANSPILE_DTYPE_RULES", "jax")
    monkeypatch.setenv("JAX_ENABLE_X64", "1")
    cfg = Config()
    assert cfg.token() == "jax-x64" and cfg.jax_enable_x64
    monkeypatch.setenv("JAX_ENABLE_X64", "maybe")
    with pytest.raises(ValueError, match="JAX_ENABLE_X64"):
        Config()


def test_the_setting_is_part_of_the_jit_cache_key():
    f = tp.jit(lambda x: x * 0.5)
    x = np.arange(4, dtype=np.int32)
    with tp.config.settings(transpile_dtype_rules="numpy"):
        assert f(x).dtype == np.float64
    with tp.config.settings(transpile_dtype_rules="jax", jax_enable_x64=False):
        assert f(x).dtype == np.float32
        assert f.cache_info().misses == 1
    with tp.config.settings(transpile_dtype_rules="jax", jax_enable_x64=True):
        assert f(np.ones(2, np.int64)).dtype == np.float64
    with tp.config.settings(transpile_dtype_rules="numpy"):
        assert f(x).dtype == np.float64 and f.cache_info().hits == 1


def test_disk_cache_key_names_the_rules():
    """The generated source, which the disk cache's key hashes, names JAX's rules; under
    NumPy's rules it is what it was before the setting existed."""
    def f(x):
        return x + 1
    x = np.ones(3, np.float32)
    with tp.config.settings(transpile_dtype_rules="numpy"):
        numpy_source = tp.jit(f).lower(x).source
    with tp.config.settings(transpile_dtype_rules="jax", jax_enable_x64=False):
        jax_source = tp.jit(f).lower(x).source
    assert "dtype rules" not in numpy_source
    assert "dtype rules: JAX's (jax-x32)" in jax_source
    assert jax_source.replace(" * dtype rules: JAX's (jax-x32)\n", "") == numpy_source


def _cartpole_step(state, action):
    """gymnax's CartPole step (float32 state, Python-float constants, an int32 action)."""
    gravity, masscart, masspole, length, tau, force_mag = 9.8, 1.0, 0.1, 0.5, 0.02, 10.0
    total_mass, polemass_length = masspole + masscart, masspole * length
    x, x_dot, theta, theta_dot = state[0], state[1], state[2], state[3]
    force = force_mag * action - force_mag * (1 - action)
    costheta, sintheta = tnp.cos(theta), tnp.sin(theta)
    temp = (force + polemass_length * theta_dot ** 2 * sintheta) / total_mass
    thetaacc = (gravity * sintheta - costheta * temp) / (
        length * (4.0 / 3.0 - masspole * costheta ** 2 / total_mass))
    xacc = temp - polemass_length * thetaacc * costheta / total_mass
    return tnp.stack([x + tau * x_dot, x_dot + tau * xacc, theta + tau * theta_dot,
                      theta_dot + tau * thetaacc])


def _rollout(state, actions):
    def body(carry, a):
        nxt = _cartpole_step(carry, a)
        # A cond whose branches must agree: 0.5 * int32 is a weak float (float32 here).
        reward = lax.cond(a > 0, lambda: 0.5 * a, lambda: tnp.float32(0.0))
        return nxt, reward
    return lax.scan(body, state, actions)


def test_cartpole_rollout_stays_float32_under_jax_rules():
    state = np.array([0.01, -0.02, 0.03, 0.04], np.float32)
    actions = np.array([1, 0, 1, 1, 0], np.int32)
    with tp.config.settings(transpile_dtype_rules="jax", jax_enable_x64=False):
        final, rewards = tp.jit(_rollout)(state, actions)
    assert final.dtype == np.float32 and rewards.dtype == np.float32
    # The same steps in NumPy at float32 (the weak constants take the state's precision).
    expected = state.copy()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for a in actions:
            expected = _cartpole_step_numpy(expected, np.float32(a))
    np.testing.assert_allclose(final, expected, rtol=1e-5)
    np.testing.assert_array_equal(rewards, np.where(actions > 0, 0.5 * actions, 0.0))


def _cartpole_step_numpy(s, a):
    f = np.float32
    force = f(10.0) * a - f(10.0) * (f(1) - a)
    c, si = np.cos(s[2]), np.sin(s[2])
    temp = (force + f(0.05) * s[3] ** 2 * si) / f(1.1)
    th = (f(9.8) * si - c * temp) / (f(0.5) * (f(4.0 / 3.0) - f(0.1) * c ** 2 / f(1.1)))
    xa = temp - f(0.05) * th * c / f(1.1)
    return np.array([s[0] + f(0.02) * s[1], s[1] + f(0.02) * xa, s[2] + f(0.02) * s[3],
                     s[3] + f(0.02) * th], np.float32)


def test_cartpole_under_numpy_rules_changes_the_carry_type():
    """Why JAX programs need the switch: NumPy's rules make 0.5 * int32 float64, and the
    cond's branches (float64 and float32) disagree."""
    state = np.zeros(4, np.float32)
    with tp.config.settings(transpile_dtype_rules="numpy"):
        with pytest.raises(TypeError):
            tp.jit(_rollout)(state, np.array([1, 0], np.int32))


@pytest.mark.parametrize("mode", ["x32", "x64"])
def test_edge_values_where_jax_and_numpy_differ(mode):
    """Out-of-range float -> int casts saturate (NaN -> 0) and integer // by zero gives -1/-2
    as in JAX; shifts past the width and % by zero give JAX's (and NumPy mode's) 0 / -1."""
    edges = RECORDED["modes"][mode]["edge_values"]
    i32 = np.array([7, -7, 0], np.int32)
    with tp.config.settings(transpile_dtype_rules="jax", jax_enable_x64=mode == "x64"):
        cast = tp.jit(lambda x: x.astype(np.int32))
        to_u8 = tp.jit(lambda x: x.astype(np.uint8))
        assert cast(np.array([1e10, -1e10, np.nan, np.inf], np.float32)).tolist() == \
            edges["float32_to_int32"]
        assert to_u8(np.array([300.0, -1.0, np.nan], np.float32)).tolist() == \
            edges["float32_to_uint8"]
        assert tp.jit(lambda x: x << 40)(i32).tolist() == edges["left_shift_int32_by_40"]
        assert tp.jit(lambda x: x >> 40)(i32).tolist() == edges["right_shift_int32_by_40"]
        assert tp.jit(lambda x: x % 0)(i32).tolist() == edges["remainder_by_zero_int32"]
        assert tp.jit(lambda x: x // 0)(i32).tolist() == edges["floor_divide_by_zero_int32"]
        assert (tnp.asarray(i32) // 0).tolist() == edges["floor_divide_by_zero_int32"]
    with tp.config.settings(transpile_dtype_rules="numpy"):
        assert tp.jit(lambda x: x // 0)(i32).tolist() == [0, 0, 0]     # NumPy mode: NumPy's


def test_floor_divide_by_a_python_int_that_wraps_to_zero():
    """A Python int divisor divides as the value it wraps to: uint8 // -256 divides by 0
    (JAX's 255), int8 // 257 by 1; a wrapped dividend 256 // int8 is 0 // y. The expected
    lists are JAX 0.10.2's answers (x64 on)."""
    u8, i8 = np.array([3, 1, 7, 254], np.uint8), np.array([3, -1, 0, -4], np.int8)
    with tp.config.settings(transpile_dtype_rules="jax", jax_enable_x64=True):
        out = tp.jit(lambda x, y: (x // -2**63, x // -256, x // 3, 256 // y, 300 // y,
                                   y // -256, y // 257))(u8, i8)
    assert [o.tolist() for o in out] == [[255] * 4, [255] * 4, [1, 0, 2, 84], [0, 0, -1, 0],
                                         [14, -44, -2, -11], [-2, -2, -1, -2], [3, -1, 0, -4]]
    assert [o.dtype for o in out] == [np.uint8] * 3 + [np.int8] * 4


@pytest.mark.parametrize("jit", [False, True], ids=["eager", "jit"])
def test_integer_array_to_a_python_int_power_is_exact(jit):
    """An integer array ** a Python int is JAX's integer_pow: the exponent is not wrapped into
    the array's dtype (uint8 ** 257 is x ** 257 modulo 256) and a negative one raises
    TypeError. Expected lists: JAX 0.10.2's answers (x64 on)."""
    u8, i8 = np.array([3, 1, 7, 254], np.uint8), np.array([3, -1, 0, -4], np.int8)
    with tp.config.settings(transpile_dtype_rules="jax", jax_enable_x64=True):
        run = tp.jit if jit else (lambda f: lambda *a: f(*map(tnp.asarray, a)))
        out = run(lambda x, y: (x ** 257, y ** 3, tnp.power(y, 257), x ** 2**40))(u8, i8)
        assert [o.tolist() for o in out] == [[3, 1, 7, 0], [27, -1, 0, -64], [3, -1, 0, 0],
                                             [1, 1, 1, 0]]
        with pytest.raises(TypeError, match="negative power"):
            run(lambda y: y ** -1)(i8)
    with pytest.raises(ValueError, match="negative"):    # NumPy's error type
        run(lambda y: y ** -1)(i8)


@pytest.mark.parametrize("mode", ["eager", "jit"])
@pytest.mark.parametrize("x64", [False, True], ids=["x32", "x64"])
def test_random_matches_jax_under_jax_rules(x64, mode):
    """jax.random's recorded numbers (tests/data/jax_random.json) under JAX's rules: the
    cases JAX recorded with x64 off, and on, replayed in that mode (default dtypes included:
    float32/int32 without x64, float64/int64 with it)."""
    import test_random as recorded
    checked = 0
    with tp.config.settings(transpile_dtype_rules="jax", jax_enable_x64=x64):
        for fn_name in recorded.EXACT + ["normal"]:
            cases = [c for c in recorded.CASES[fn_name] if c["x64"] == x64]
            if not cases:
                continue
            statics, arrays = zip(*(recorded._split_kwargs(c["kwargs"]) for c in cases))
            keys = [recorded.R.PRNGKey(c["seed"]) for c in cases]
            fn = getattr(recorded.R, fn_name)

            def body(keys, arrays, fn=fn, statics=statics):
                return [fn(k, **s, **a) for k, s, a in zip(keys, statics, arrays)]
            for case, got in zip(cases, recorded._run(mode, body, keys, list(arrays))):
                want = recorded._expected(case["expected"])
                if fn_name == "normal":
                    limit = 4 if want.dtype == np.float32 else 2e3
                    assert recorded._ulps(got, want).max() <= limit, case
                else:
                    recorded._assert_bits(got, want, f"{fn_name} {case}")
                checked += 1
    assert checked >= 10


def test_explicit_64_bit_requests_warn_as_in_jax():
    with tp.config.settings(transpile_dtype_rules="jax", jax_enable_x64=False):
        with pytest.warns(UserWarning, match="float64 in zeros .* truncated to float32"):
            assert tnp.zeros(3, dtype="float64").dtype == np.float32
        with pytest.warns(UserWarning, match="int64 in arange"):
            assert tnp.arange(3, dtype=np.int64).dtype == np.int32
    for rules, x64 in (("jax", True), ("numpy", False)):
        with tp.config.settings(transpile_dtype_rules=rules, jax_enable_x64=x64):
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                assert tnp.zeros(3, dtype="float64").dtype == np.float64


@pytest.mark.parametrize("x64", [False, True], ids=["x32", "x64"])
@pytest.mark.parametrize("how", ["eager", "jit"])
def test_python_int_beyond_the_default_int_raises_in_every_function(x64, how):
    """JAX converts each Python int operand to its default int first, so 2**64 (x64) or
    2**40 (x32) raises OverflowError in `where`, `clip` and the rest, not only in arithmetic
    (fuzz seed 320126 returned a value). The message says what to do in each mode."""
    big = 2**64 if x64 else 2**40
    c = np.array([True, False])
    fn = (lambda c: tnp.where(c, 1.5, big)) if how == "eager" else \
        tp.jit(lambda c: tnp.where(c, 1.5, big))
    with tp.config.settings(transpile_dtype_rules="jax", jax_enable_x64=x64):
        with pytest.raises(OverflowError, match="np.uint64" if x64 else "enable x64"):
            fn(c)
        assert tnp.where(c, 1.5, 12345).tolist() == [1.5, 12345.0]


def test_int64_constants_reach_the_c_as_their_int32_aval_under_jax_rules():
    """Without x64 an int64 NumPy constant is an int32 value in the IR; the C must get
    int32 bytes. The transpose of a strided slice (a max pool's gradient) captures int64
    positions, and under jit they were read as int32: the gradient landed elsewhere."""
    x = np.arange(1.0, 21.0, dtype=np.float32).reshape(4, 5)
    loss = lambda x: tnp.sum(x[::2, 1::2] ** 2)          # noqa: E731
    expected = np.zeros_like(x)
    expected[::2, 1::2] = 2 * x[::2, 1::2]
    pool = lambda x: tnp.sum(lax.reduce_window(x, -tnp.inf, lax.max, (2, 2), (2, 2),  # noqa
                                               "VALID") ** 2)
    with tp.config.settings(transpile_dtype_rules="jax", jax_enable_x64=False):
        np.testing.assert_array_equal(tp.jit(tp.grad(loss))(x), expected)
        np.testing.assert_array_equal(tp.grad(loss)(x), expected)
        np.testing.assert_array_equal(tp.jit(tp.grad(pool))(x), tp.grad(pool)(x))
        assert np.count_nonzero(tp.jit(tp.grad(pool))(x)) == 4


def test_logical_ops_promote_a_python_float_first_as_jax():
    """JAX promotes both operands to one dtype before testing against zero: 1e-40 with a
    float16 array is 0.0 (JAX 0.10.2: logical_xor gives [True, True, False] here); NumPy's
    rules test the Python value (fuzz seed 2000000044, --jax x32, fused and not)."""
    x = np.array([1.0, 2.0, 0.0], np.float16)
    fn = lambda v: tnp.logical_xor(1e-40, tnp.ceil(v))     # noqa: E731
    with tp.config.settings(transpile_dtype_rules="jax"):
        assert tnp.logical_xor(1e-40, x).tolist() == [True, True, False]
        assert tp.jit(fn)(x).tolist() == [True, True, False]
        assert tnp.logical_and(1e-40, x).tolist() == [False, False, False]
    assert tnp.logical_xor(1e-40, x).tolist() == np.logical_xor(1e-40, x).tolist()


def test_round_refuses_what_jax_refuses():
    """JAX 0.10.2: round of booleans is a ValueError, of integers with negative decimals a
    NotImplementedError; computing the latter through float32 (x32) gave 2801280512 for
    round(2801280549, -2) (fuzz seed 510359). NumPy's rules keep NumPy's answers."""
    u = np.array([2801280549, 15], np.uint32)
    with tp.config.settings(transpile_dtype_rules="jax", jax_enable_x64=False):
        with pytest.raises(ValueError, match="bool"):
            tnp.round(np.array([True, False]))
        with pytest.raises(NotImplementedError, match="decimals < 0"):
            tp.jit(lambda u: tnp.round(u, -2))(u)
        assert tnp.round(u, 1).tolist() == [2801280549, 15]
    assert tnp.round(u, -2).tolist() == np.round(u, -2).tolist()
