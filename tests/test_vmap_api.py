"""vmap's API: composition with jit and itself, closures, random keys, axis_size, keyword
arguments, dtypes, the rule table's coverage, and the error messages (JAX's wording)."""
import re

import numpy as np
import pytest

import transpile as tp
import transpile.numpy as tnp
from transpile import lax, random
from transpile import primitives as P
from transpile.batching import batching_rules
from transpile.batching.table import UnbatchableRule, rule_for

from conftest import assert_same

X = np.arange(12.0).reshape(3, 4)


def test_nested_vmap_is_an_outer_product():
    a, b = np.arange(3.0), np.arange(5.0) + 1
    outer = tp.vmap(tp.vmap(lambda s, t: s * t, in_axes=(None, 0)), in_axes=(0, None))
    assert_same(outer(a, b), np.outer(a, b))
    assert_same(tp.jit(outer)(a, b), np.outer(a, b))


def test_vmap_of_jit_and_jit_of_vmap_of_jit():
    f = tp.jit(lambda x: tnp.sin(x).sum() * x)
    expected = np.stack([np.sin(x).sum() * x for x in X])
    assert_same(tp.vmap(f)(X), expected, rtol=1e-12)
    assert_same(tp.jit(tp.vmap(f))(X), expected, rtol=1e-12)


def test_jit_of_vmap_is_one_program_over_the_whole_batch():
    ir = tp.make_ir(tp.vmap(lambda x, w: tnp.tanh(x @ w), in_axes=(0, None)))(
        np.ones((8, 3)), np.ones((3, 2)))
    text = str(ir)
    assert "f64[8,3]" in text and "f64[8,2]" in text
    assert not any(k in text for k in ("while", "for_loop", "scan")), text


def test_vmap_inside_jit_closes_over_traced_values():
    @tp.jit
    def f(xs, y):
        return tp.vmap(lambda x: x * y + xs.sum())(xs)
    assert_same(f(X, 2.0), X * 2.0 + X.sum())


def test_vmap_closes_over_numpy_constants_eagerly_and_under_jit():
    const = np.array([1.0, -1.0, 2.0, 0.5])
    g = tp.vmap(lambda x: x * const)
    assert_same(g(X), X * const)
    assert_same(tp.jit(g)(X), X * const)


def test_vmap_inside_a_loop_body():
    f = tp.jit(lambda xs: lax.fori_loop(0, 3, lambda i, c: tp.vmap(lambda r: r[::-1] + i)(c), xs))
    expected = X
    for i in range(3):
        expected = expected[:, ::-1] + i
    assert_same(f(X), expected)


@pytest.mark.parametrize("jit", [False, True])
def test_random_keys_batch(jit):
    keys = random.split(random.PRNGKey(3), 5)
    draw = tp.vmap(random.normal)
    uniform = tp.vmap(lambda k: random.uniform(k, (3,)))
    if jit:
        draw, uniform = tp.jit(draw), tp.jit(uniform)
    assert_same(draw(keys), np.stack([random.normal(k) for k in keys]))
    assert_same(uniform(keys), np.stack([random.uniform(k, (3,)) for k in keys]))


def test_axis_size_with_nothing_mapped():
    out = tp.vmap(lambda v: v * 2, in_axes=None, axis_size=3)(np.arange(4.0))
    assert_same(out, np.tile(np.arange(4.0) * 2, (3, 1)))


@pytest.mark.parametrize("jit", [False, True])
def test_an_empty_batch(jit):
    f = tp.vmap(lambda x, i: tnp.cumsum(x)[i] * 2 + x.sum())
    f = tp.jit(f) if jit else f
    out = f(np.zeros((0, 3)), np.zeros(0, np.int64))
    assert out.shape == (0,) and out.dtype == np.float64


def test_keyword_arguments_are_mapped_along_axis_0():
    out = tp.vmap(lambda x, *, y: x + y, in_axes=1)(X, y=np.ones((4, 3)))
    assert_same(out, X.T + 1)


def test_out_axes_pytree_and_negative():
    f = tp.vmap(lambda x: {"a": x, "s": x.sum()}, in_axes=0, out_axes={"a": -1, "s": 0})
    out = f(X)
    assert_same(out["a"], X.T)
    assert_same(out["s"], X.sum(axis=1))


def test_dtypes_follow_the_member_program():
    x32 = X.astype(np.float32)
    assert tp.vmap(lambda x: x * 2 + 1.5)(x32).dtype == np.float32
    assert tp.vmap(lambda x, s: x * s, in_axes=(0, None))(x32, 3.0).dtype == np.float32
    assert tp.jit(tp.vmap(lambda x: x.astype(np.int16)))(X).dtype == np.int16
    out = tp.vmap(lambda x: (x > 2).sum())(X)
    assert out.dtype == np.int64 and isinstance(out, np.ndarray)


def test_debug_print_inside_vmap_prints_the_batch(capsys):
    tp.vmap(lambda x: tp.debug.print("v={}", x.sum()))(X)
    assert "v=[ 6. 22. 38.]" in capsys.readouterr().out.replace("\n", "")


def test_python_control_flow_on_a_batched_value_is_a_concretization_error():
    with pytest.raises(tp.ConcretizationError):
        tp.vmap(lambda x: x if x.sum() > 0 else -x)(X)


# -- the rule table -------------------------------------------------------------------------

def test_every_primitive_has_a_batching_rule_or_a_declared_refusal():
    missing = [name for name in P.all_primitives() if name not in batching_rules]
    assert not missing, f"primitives without a batching rule: {missing}"


def test_declared_refusals_name_the_primitive_and_vmap():
    refusals = {n: r for n, r in batching_rules.items() if isinstance(r, UnbatchableRule)}
    for name, rule in refusals.items():
        with pytest.raises(NotImplementedError, match=rf"vmap of the primitive '{name}'"):
            rule(2, [np.zeros(2)], [0])
    with pytest.raises(NotImplementedError, match="vmap of the primitive 'no_such_prim'"):
        rule_for("no_such_prim")


# -- errors (JAX's wording) -----------------------------------------------------------------

def test_inconsistent_sizes_name_both_arguments_and_sizes():
    with pytest.raises(ValueError) as info:
        tp.vmap(lambda x, y: x + y)(np.ones(3), np.ones(4))
    text = str(info.value)
    assert "inconsistent sizes" in text
    assert "size 3: axis 0 of argument x of type f64[3]" in text
    assert "size 4: axis 0 of argument y of type f64[4]" in text


def test_inconsistent_sizes_count_the_axes_of_each_size():
    with pytest.raises(ValueError) as info:
        tp.vmap(lambda a, b, c: a)(np.ones(3), np.ones(3), {"k": np.ones(4)})
    text = str(info.value)
    assert "most axes (2 of them) had size 3, e.g. axis 0 of argument a of type f64[3]" in text
    assert "one axis had size 4: axis 0 of argument c['k'] of type f64[4]" in text


def test_axis_size_disagreeing_with_an_argument():
    with pytest.raises(ValueError, match=r"the `axis_size` argument was 5"):
        tp.vmap(lambda x: x, axis_size=5)(np.ones(3))


def test_axis_out_of_range():
    with pytest.raises(ValueError, match=re.escape(
            "map its argument along axis 2, which implies that its rank should be at least 3, "
            "but is only 2 (its shape is (3, 4))")):
        tp.vmap(lambda x: x, in_axes=2)(X)


def test_nothing_mapped_without_axis_size():
    with pytest.raises(ValueError, match="at least one non-None value in in_axes"):
        tp.vmap(lambda x: x, in_axes=None)(X)


def test_in_axes_length_must_match_the_arguments():
    with pytest.raises(ValueError, match=r"len\(in_axes\)=2, len\(args\)=1"):
        tp.vmap(lambda x: x, in_axes=(0, 0))(X)


@pytest.mark.parametrize("spec", [1.0, "0", {"x": 0}])
def test_in_axes_of_the_wrong_type(spec):
    with pytest.raises(TypeError, match="vmap in_axes must be an int, None, or"):
        tp.vmap(lambda x: x, in_axes=spec)


def test_out_axes_of_the_wrong_type():
    with pytest.raises(TypeError, match="vmap out_axes must be an int, None, or"):
        tp.vmap(lambda x: x, out_axes=(0, 1.5))


def test_in_axes_not_a_prefix_of_the_argument():
    with pytest.raises(ValueError, match="tree prefix"):
        tp.vmap(lambda p: p["a"], in_axes=({"b": 0},))({"a": X})


def test_out_axes_none_for_a_batched_result():
    with pytest.raises(ValueError, match=r"got axis spec None but output was batched on axis 0"):
        tp.vmap(lambda x: x * 2, out_axes=None)(X)


def test_out_axes_none_for_an_unbatched_result_is_fine():
    out = tp.vmap(lambda x, c: (x, c * 2), in_axes=(0, None), out_axes=(0, None))(X, 3.0)
    assert_same(out[1], np.asarray(6.0))


def test_not_callable():
    with pytest.raises(TypeError, match="vmap requires a callable"):
        tp.vmap(3)


# -- vectorize (jax.numpy.vectorize on vmap) ------------------------------------------------

def test_vectorize_broadcasts_like_numpy():
    vectorize = tnp.vectorize          # the public name, as jax.numpy.vectorize
    f = vectorize(lambda a, b: tnp.where(a > b, a - b, b * 2))
    a, b = np.arange(6.0).reshape(2, 1, 3), np.linspace(0, 5, 4).reshape(4, 1)
    expected = np.vectorize(lambda a, b: a - b if a > b else b * 2)(a, b)
    assert_same(f(a, b), expected)
    assert_same(tp.jit(f)(a, b), expected)


def test_vectorize_with_a_signature_and_excluded():
    from transpile.batching.vectorize import vectorize
    dot = vectorize(lambda u, v: u @ v, signature="(n),(n)->()")
    a, b = np.arange(12.0).reshape(4, 3), np.arange(3.0)
    assert_same(dot(a, b), a @ b)
    stats = vectorize(lambda v, p: (v.sum() ** p, v * 2), signature="(n)->(),(n)",
                      excluded={1})
    s, d = stats(np.ones((2, 5, 3)), 2)
    assert_same(s, np.full((2, 5), 9.0))
    assert_same(d, np.full((2, 5, 3), 2.0))


def test_vectorize_errors():
    from transpile.batching.vectorize import vectorize
    dot = vectorize(lambda u, v: u @ v, signature="(n),(n)->()")
    with pytest.raises(ValueError, match="inconsistent size for core dimension 'n': 2 vs 3"):
        dot(np.ones((4, 3)), np.ones(2))
    with pytest.raises(ValueError, match=r"output shape \(\) does not match core dimensions"):
        vectorize(lambda v: v.sum(), signature="(n)->(n)")(np.ones((4, 3)))
    with pytest.raises(ValueError, match="not a valid gufunc signature"):
        vectorize(lambda v: v, signature="(n)->")(np.ones(3))


def test_unmapped_arguments_reach_the_function_unchanged():
    """As in JAX: an in_axes=None argument is not traced, so a Python int can be a shape or a
    loop count and any object (a string, a function) can be passed."""
    def f(x, n, how, scale):
        assert type(n) is int and how == "roll" and callable(scale)
        return scale(tnp.roll(x, n) * tnp.ones(n + 1)[:4].sum())
    g = tp.vmap(f, in_axes=(0, None, None, None))
    expected = np.stack([np.roll(x, 2) * 3.0 * 2 for x in X])
    assert_same(g(X, 2, "roll", lambda v: v * 2), expected)
    assert_same(tp.jit(lambda x: g(x, 2, "roll", lambda v: v * 2))(X), expected)


def test_no_arguments():
    assert_same(tp.vmap(lambda: tnp.arange(3.0), axis_size=2)(), np.tile(np.arange(3.0), (2, 1)))
    with pytest.raises(ValueError, match="must be passed at least one argument containing an "
                                         "array or axis_size must be specified"):
        tp.vmap(lambda: tnp.arange(3.0))()
