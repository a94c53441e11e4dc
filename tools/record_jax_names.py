"""Record JAX's values for the everyday names transpile mirrors (jax.nn, jax.nn.initializers,
jax.scipy.special, jax.scipy.stats, dtype introspection, tree_util key paths, lax.Precision and
preferred_element_type), as test data for tests/test_nn.py, test_scipy_stats.py,
test_dtype_api.py, test_tree_paths.py and test_precision.py.

JAX is not a dependency of transpile; run with a separate environment that has it:

    /tmp/jaxenv/bin/python tools/record_jax_names.py tests/data/jax_names.json

x64 is on (float64 cases are JAX's float64 answers; float32 inputs stay float32). Arrays are
stored as {"array": flat values, "shape": [...], "dtype": name}, dtypes as
{"dtype_name": name}; floats print exactly (a float32 widened to a Python float
round-trips), NaN and infinities as JSON's NaN/Infinity.
"""
from __future__ import annotations

import dataclasses
import json
import sys
from collections import namedtuple

import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax import lax  # noqa: E402

FLOATS = ("float32", "float64")
X = [-30.0, -5.0, -2.5, -1.0, -0.5, -1e-3, 0.0, 1e-3, 0.5, 1.0, 2.5, 5.0, 30.0]
PROB = [0.0, 1e-300, 1e-30, 1e-10, 1e-3, 0.1, 0.3, 0.5, 0.7, 0.9, 1 - 1e-10, 1.0]
POS = [1e-3, 0.1, 0.5, 1.0, 2.0, 3.5, 10.0, 50.0]


def arr(values, dtype, shape=None):
    a = np.asarray(values, dtype=dtype)
    return a if shape is None else a.reshape(shape)


def encode(value):
    if isinstance(value, (jax.Array, np.ndarray, np.generic)):
        a = np.asarray(value)
        return {"array": a.ravel().tolist(), "shape": list(a.shape), "dtype": str(a.dtype)}
    if isinstance(value, np.dtype) or (isinstance(value, type) and hasattr(value, "dtype")):
        return {"dtype_name": np.dtype(value).name}
    if isinstance(value, lax.Precision):
        return {"precision": value.name}
    if isinstance(value, (tuple, list)):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        return {k: encode(v) for k, v in value.items()}
    return value


def resolve(path: str):
    obj = {"jnp": jnp, "lax": lax, "nn": jax.nn, "special": jax.scipy.special,
           "stats": jax.scipy.stats}[path.split(".")[0]]
    for part in path.split(".")[1:]:
        obj = getattr(obj, part)
    return obj


# Where JAX's float32 answer is less accurate than a float64 computation rounded once (its
# incomplete gamma and beta functions and betaln run in float32), SciPy's float64 value on the
# same float32 inputs, rounded to float32, is recorded beside it as "scipy".
SCIPY_CHECKED = {"special.gammainc", "special.gammaincc", "special.betainc", "special.betaln"}


def case(fn, *args, **kwargs):
    out = resolve(fn)(*args, **kwargs)
    entry = {"fn": fn, "args": encode(list(args)), "kwargs": encode(kwargs), "out": encode(out)}
    if fn in SCIPY_CHECKED and args[0].dtype == np.float32:
        import scipy.special
        exact = getattr(scipy.special, fn.split(".")[1])(*(a.astype(np.float64) for a in args))
        entry["scipy"] = encode(exact.astype(np.float32))
    return entry


def activation_cases():
    names = ["relu", "relu6", "sigmoid", "softplus", "soft_sign", "silu", "swish",
             "log_sigmoid", "leaky_relu", "hard_tanh", "elu", "celu", "selu", "gelu",
             "hard_sigmoid", "hard_silu", "hard_swish", "sparse_plus", "sparse_sigmoid",
             "squareplus", "mish", "identity", "tanh"]
    cases = []
    for dt in FLOATS:
        x = arr(X, dt)
        cases += [case(f"nn.{n}", x) for n in names]
        cases += [case("nn.leaky_relu", x, negative_slope=0.2), case("nn.elu", x, alpha=0.5),
                  case("nn.celu", x, alpha=2.0), case("nn.gelu", x, approximate=False),
                  case("nn.squareplus", x, b=2.0),
                  case("nn.log1mexp", arr(POS, dt)),
                  case("nn.glu", arr(np.linspace(-3, 3, 12), dt, (2, 6))),
                  case("nn.glu", arr(np.linspace(-3, 3, 12), dt, (2, 6)), axis=0)]
    cases.append(case("nn.relu", arr([-3, 0, 4], "int32")))
    return cases


def softmax_cases():
    cases = []
    mask = arr([[True, False, True, True], [False, False, True, False],
                [True, True, True, True]], "bool")
    for dt in FLOATS:
        m = arr([[1.0, 2.0, 3.0, -1.0], [0.5, -40.0, 7.0, 7.0], [100.0, 101.0, 99.0, 0.0]], dt)
        for fn in ("nn.softmax", "nn.log_softmax"):
            cases += [case(fn, m), case(fn, m, axis=0), case(fn, m, axis=None),
                      case(fn, m, axis=(0, 1)), case(fn, m, where=mask)]
        for fn in ("nn.logsumexp", "special.logsumexp"):
            cases += [case(fn, m), case(fn, m, axis=1), case(fn, m, axis=0, keepdims=True)]
        signed = arr([[1.0, 2.0, 3.0], [2.0, 2.0, 0.5]], dt)
        weights = arr([[1.0, -1.0, 0.5], [1.0, -1.0, 0.0]], dt)
        cases += [case("special.logsumexp", signed, axis=1, b=weights, return_sign=True),
                  case("special.logsumexp", signed, b=arr([2.0, -0.5, 1.0], dt)),
                  case("special.logsumexp", m, axis=1, where=mask),
                  case("nn.logmeanexp", m, axis=1),
                  case("nn.standardize", m), case("nn.standardize", m, axis=0, epsilon=1e-3),
                  case("nn.standardize", m, axis=None),
                  case("nn.standardize", m, mean=arr(1.0, dt), variance=arr(4.0, dt)),
                  case("nn.standardize", m, where=mask)]
    idx = arr([0, 2, -1, 3, 1], "int32")
    cases += [case("nn.one_hot", idx, 3), case("nn.one_hot", idx, 4, dtype=jnp.float32),
              case("nn.one_hot", idx, 3, axis=0), case("nn.one_hot", idx, 3, dtype=jnp.int32),
              case("nn.one_hot", arr([[1, 0], [2, 2]], "int64"), 3, dtype=jnp.bool_)]
    return cases


def special_cases():
    cases = []
    for dt in FLOATS:
        x, p, pos = arr(X, dt), arr(PROB, dt), arr(POS, dt)
        cases += [case(f"special.{n}", x) for n in
                  ("expit", "ndtr", "log_ndtr", "i0e", "i1e", "erf", "erfc", "entr")]
        cases += [case("special.logit", p), case("special.ndtri", p),
                  case("special.gammaln", pos), case("special.entr", p),
                  case("special.i0e", arr([-700.0, 7.5, 29.0, 31.0, 120.0, 1e4], dt)),
                  case("special.i1e", arr([-700.0, 7.5, 29.0, 31.0, 120.0, 1e4], dt)),
                  case("special.log_ndtr", arr([-1e3, -60.0, -39.0, -21.0, -11.0, 7.0, 40.0], dt)),
                  case("special.betaln", pos, arr(POS[::-1], dt)),
                  case("special.gammainc", arr([0.5, 1, 2.5, 10, 100, 1000, 3, 2, 0.2], dt),
                       arr([0.1, 1, 3, 8, 120, 990, 0, np.inf, 25], dt)),
                  case("special.gammaincc", arr([0.5, 1, 2.5, 10, 100, 1000, 3, 2, 0.2], dt),
                       arr([0.1, 1, 3, 8, 120, 990, 0, np.inf, 25], dt)),
                  case("special.betainc", arr([0.5, 2, 5, 100, 1, 3, 0.1], dt),
                       arr([0.5, 3, 1, 80, 2, 3, 0.2], dt),
                       arr([0.3, 0.5, 0.99, 0.55, 1, 0, 1e-3], dt)),
                  case("special.i0", arr([-30.0, -2.5, 0.0, 1.0, 7.5, 40.0], dt)),
                  case("special.i1", arr([-30.0, -2.5, 0.0, 1.0, 7.5, 40.0], dt)),
                  case("special.gamma", arr([-2.5, -1.5, -1.0, -0.5, 0.5, 1.0, 4.5, 10.0], dt)),
                  case("special.gammasgn", arr([-2.5, -1.5, -1.0, -0.0, 0.0, 0.5, np.inf], dt)),
                  case("special.loggamma", arr([-1.5, 0.5, 1.0, 4.5, 100.0], dt)),
                  case("special.factorial", arr([-1.0, 0.0, 1.0, 5.0, 10.5], dt)),
                  case("special.beta", arr([0.5, 2.0, -0.5, 3.0], dt),
                       arr([0.5, 3.0, 1.25, 4.0], dt)),
                  case("special.poch", arr([0.5, 2.0, 3.0, 1.5], dt),
                       arr([0.0, 3.0, 2.5, -0.5], dt)),
                  case("special.multigammaln", arr([2.5, 4.0, 10.0], dt), 3),
                  case("special.rel_entr", arr([0.0, 0.0, 0.5, 0.2, 1.0, -1.0], dt),
                       arr([0.0, 1.0, 0.25, 0.0, 2.0, 1.0], dt)),
                  case("special.kl_div", arr([0.0, 0.0, 0.5, 0.2, 1.0, -1.0], dt),
                       arr([0.0, 1.0, 0.25, 0.0, 2.0, 1.0], dt)),
                  case("special.softmax", arr([[1.0, 2.0], [3.0, -1.0]], dt)),
                  case("special.softmax", arr([[1.0, 2.0], [3.0, -1.0]], dt), axis=1),
                  case("special.log_softmax", arr([[1.0, 2.0], [3.0, -1.0]], dt), axis=0),
                  case("special.xlogy", arr([0.0, 0.0, 1.0, 2.0, -1.0, 3.0], dt),
                       arr([0.0, 5.0, 1.0, 0.5, 2.0, 0.0], dt)),
                  case("special.xlog1py", arr([0.0, 0.0, 1.0, 2.0, -1.0, 3.0], dt),
                       arr([-1.0, 5.0, 1e-8, 0.5, 2.0, -1.0], dt))]
    return cases


def stats_cases():
    cases = []
    for dt in FLOATS:
        x, p, pos = arr(X, dt), arr(PROB, dt), arr(POS, dt)
        for fn in ("pdf", "logpdf", "cdf", "logcdf", "sf", "logsf"):
            cases += [case(f"stats.norm.{fn}", x), case(f"stats.norm.{fn}", x, 1.5, 2.0)]
        cases += [case("stats.norm.ppf", p), case("stats.norm.ppf", p, -1.0, 3.0),
                  case("stats.norm.isf", p, 0.5, 2.0)]
        mean = arr([0.5, -1.0], dt)
        cov = arr([[2.0, 0.3], [0.3, 0.5]], dt)
        pts = arr([[0.0, 0.0], [1.0, -2.0], [3.0, 1.0]], dt)
        cases += [case("stats.multivariate_normal.logpdf", pts, mean, cov),
                  case("stats.multivariate_normal.pdf", pts, mean, cov),
                  case("stats.multivariate_normal.logpdf", arr([0.2, 0.1, -0.4], dt),
                       arr([0.0, 0.0, 0.0], dt),
                       arr([[1.0, 0.2, 0.0], [0.2, 1.5, 0.1], [0.0, 0.1, 0.7]], dt))]
        unit = arr([-0.5, 0.0, 0.1, 0.25, 0.5, 0.9, 1.0, 1.5], dt)
        for fn in ("pdf", "logpdf"):
            cases += [case(f"stats.beta.{fn}", unit, 2.0, 3.0),
                      case(f"stats.beta.{fn}", unit, 0.5, 0.5),
                      case(f"stats.beta.{fn}", arr([0.5, 1.0, 2.0], dt), 2.0, 2.0, 0.5, 2.0),
                      case(f"stats.gamma.{fn}", pos, 2.5),
                      case(f"stats.gamma.{fn}", arr([-1.0, 0.0, 0.5, 3.0], dt), 1.0),
                      case(f"stats.gamma.{fn}", pos, 3.0, 0.5, 2.0),
                      case(f"stats.uniform.{fn}", unit), case(f"stats.uniform.{fn}", x, -1.0, 3.0)]
        for fn in ("cdf", "logcdf", "sf", "logsf"):
            cases += [case(f"stats.gamma.{fn}", pos, 2.5),
                      case(f"stats.gamma.{fn}", pos, 3.0, 0.5, 2.0),
                      case(f"stats.beta.{fn}", unit, 2.0, 3.0),
                      case(f"stats.beta.{fn}", arr([0.5, 1.0, 2.0], dt), 2.0, 2.0, 0.5, 2.0)]
        cases += [case("stats.uniform.cdf", x, -1.0, 3.0), case("stats.uniform.ppf", p, -1.0, 3.0)]
        k = arr([-1.0, 0.0, 1.0, 2.0, 3.0, 7.0, 20.0, 2.5], dt)
        for fn in ("pmf", "logpmf", "cdf"):
            cases += [case(f"stats.poisson.{fn}", k, 3.0), case(f"stats.poisson.{fn}", k, 0.5, 1.0)]
        b = arr([-1.0, 0.0, 1.0, 2.0, 0.5], dt)
        for fn in ("pmf", "logpmf", "cdf"):
            cases += [case(f"stats.bernoulli.{fn}", b, 0.3)]
        cases += [case("stats.bernoulli.ppf", arr([0.0, 0.2, 0.7, 0.71, 1.0], dt), 0.3)]
    return cases


def dtype_api():
    names = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
             "float32", "float64", "complex64", "complex128"]
    kinds = ["bool", "signed integer", "unsigned integer", "integral", "real floating",
             "complex floating", "numeric"]
    abstract = ["generic", "number", "integer", "signedinteger", "unsignedinteger", "inexact",
                "floating", "complexfloating", "bool_"]

    def finfo(d):
        f = jnp.finfo(d)
        return {k: float(getattr(f, k)) if k not in ("bits", "nmant", "nexp", "precision",
                                                      "minexp", "maxexp") else int(getattr(f, k))
                for k in ("bits", "eps", "epsneg", "max", "min", "tiny", "smallest_normal",
                          "smallest_subnormal", "resolution", "nmant", "nexp", "precision",
                          "minexp", "maxexp")}

    return {
        "names": names,
        "finfo": {d: finfo(d) for d in ("float32", "float64")},
        "iinfo": {d: {"min": int(jnp.iinfo(d).min), "max": int(jnp.iinfo(d).max),
                      "bits": int(jnp.iinfo(d).bits)} for d in names[1:9]},
        "promote_types": {f"{a},{b}": str(jnp.promote_types(a, b)) for a in names for b in names},
        "can_cast": {f"{a},{b}": bool(jnp.can_cast(a, b)) for a in names for b in names},
        "issubdtype": {f"{a},{k}": bool(jnp.issubdtype(getattr(jnp, a), getattr(jnp, k)))
                       for a in names for k in abstract + ["float32", "int32"]},
        "isdtype": {f"{a},{k}": bool(jnp.isdtype(jnp.dtype(a), k)) for a in names for k in kinds},
        "dtype": {a: str(jnp.dtype(a)) for a in names},
        "result_type": {
            "int8,uint8": str(jnp.result_type(jnp.int8, jnp.uint8)),
            "float32,float32": str(jnp.result_type(jnp.float32, jnp.float32)),
            "int16,python_float": str(jnp.result_type(jnp.int16, 1.0)),
            "float32,python_int": str(jnp.result_type(jnp.float32, 3)),
            "uint8,python_int": str(jnp.result_type(jnp.uint8, 3)),
            "python_int,python_float": str(jnp.result_type(1, 2.0)),
            "float32_array,python_complex": str(jnp.result_type(jnp.ones(2, jnp.float32), 1j)),
            "bool,int8": str(jnp.result_type(jnp.bool_, jnp.int8)),
        },
    }


def tree_paths():
    tu = jax.tree_util
    Point = namedtuple("Point", ["x", "y"])

    @tu.register_dataclass
    @dataclasses.dataclass
    class Params:
        w: object
        b: object

    class Box:
        def __init__(self, a, b):
            self.a, self.b = a, b

    tu.register_pytree_node(Box, lambda s: ((s.a, s.b), None), lambda _, c: Box(*c))

    class Keyed:
        def __init__(self, left, right):
            self.left, self.right = left, right

    tu.register_pytree_with_keys(
        Keyed, lambda s: (((tu.GetAttrKey("left"), s.left), (tu.DictKey("r"), s.right)), None),
        lambda _, c: Keyed(*c))

    trees = {
        "nested": {"b": [1, (2, 3)], "a": None, "c": {"z": 4, "y": [5]}},
        "namedtuple": [Point(1, 2), Point(x=(3, 4), y=None)],
        "dataclass": {"layer": Params(w=1, b=[2, 3])},
        "registered": (Box(1, [2, 3]), 4),
        "with_keys": [Keyed(1, {"q": 2})],
        "int_keys": {2: "a", 1: "b"},
        "leaf": 7,
    }
    out = {}
    for name, tree in trees.items():
        pairs, _ = tu.tree_flatten_with_path(tree)
        out[name] = {"paths": [[repr(k) for k in path] for path, _ in pairs],
                     "keystr": [tu.keystr(path) for path, _ in pairs],
                     "keystr_simple": [tu.keystr(path, simple=True, separator="/")
                                       for path, _ in pairs],
                     "leaves": [leaf for _, leaf in pairs],
                     "mapped": tu.tree_leaves(tu.tree_map_with_path(
                         lambda p, v: f"{tu.keystr(p)}={v}", tree))}
    return out


def precision():
    P = lax.Precision
    i8 = arr([100, 100, 100, -128], "int8")
    f32 = arr([[1.0, 2.0], [3.0, 4.5]], "float32")
    v32 = arr([1.0 + 2**-20, 3.0], "float32")
    cases = [
        case("jnp.dot", i8, i8, preferred_element_type=jnp.int32),
        case("jnp.dot", i8, i8),
        case("jnp.matmul", f32, f32, precision=P.HIGHEST, preferred_element_type=jnp.float64),
        case("jnp.dot", v32, v32, preferred_element_type=jnp.float64),
        case("jnp.inner", i8, i8, preferred_element_type=jnp.int16),
        case("jnp.tensordot", f32, f32, axes=1, precision="highest"),
        case("jnp.einsum", "ij,jk->ik", arr([[1, 2], [3, 4]], "int16"),
             arr([[5, 6], [7, 8]], "int16"), preferred_element_type=jnp.float32),
        case("lax.dot", i8, i8, preferred_element_type=jnp.int32),
        case("lax.dot_general", f32, f32, (((1,), (0,)), ((), ())), precision=P.HIGH,
             preferred_element_type=jnp.float64),
    ]
    names = {s: str(P(s)) for s in ("default", "high", "highest", "bfloat16", "tensorfloat32",
                                    "float32", "fastest")}
    return {"cases": cases, "names": names, "members": [m.name for m in P],
            "values": {m.name: m.value for m in P}}


def initializers():
    I = jax.nn.initializers
    key = jax.random.PRNGKey(0)
    builders = [
        ("zeros", None), ("ones", None), ("constant", {"value": -0.5}),
        ("normal", {}), ("normal", {"stddev": 2.0}), ("uniform", {"scale": 3.0}),
        ("truncated_normal", {}),
        ("truncated_normal", {"stddev": 1.5, "lower": -1.0, "upper": 3.0}),
        ("glorot_normal", {}), ("glorot_uniform", {}), ("xavier_normal", {}),
        ("xavier_uniform", {}), ("lecun_normal", {}), ("lecun_uniform", {}), ("he_normal", {}),
        ("he_uniform", {}), ("kaiming_normal", {}), ("kaiming_uniform", {}),
        ("variance_scaling", {"scale": 2.0, "mode": "fan_avg", "distribution": "uniform"}),
        ("variance_scaling", {"scale": 0.5, "mode": "fan_geo_avg", "distribution": "normal",
                              "in_axis": 0, "out_axis": 2}),
        ("variance_scaling", {"scale": 1.0, "mode": "fan_out",
                              "distribution": "truncated_normal"}),
        ("orthogonal", {}), ("orthogonal", {"scale": 2.0, "column_axis": 0}),
    ]
    cases = []
    for name, params in builders:
        for dt in FLOATS:
            for shape in ((4, 3), (2, 3, 5)):
                if len(shape) == 2 and params and params.get("out_axis") == 2:
                    continue      # that layout needs three axes
                init = getattr(I, name) if params is None else getattr(I, name)(**params)
                out = init(key, shape, jnp.dtype(dt))
                cases.append({"name": name, "params": params, "shape": list(shape),
                              "dtype": dt, "out": encode(out)})
    tn = jax.random.truncated_normal(jax.random.PRNGKey(3), -1.5, 0.5, (6,), jnp.float32)
    tn64 = jax.random.truncated_normal(jax.random.PRNGKey(3), -1.5, 0.5, (6,), jnp.float64)
    return {"cases": cases, "random_truncated_normal": {"float32": encode(tn),
                                                         "float64": encode(tn64)}}


def main(path):
    data = {"jax_version": jax.__version__,
            "cases": activation_cases() + softmax_cases() + special_cases() + stats_cases(),
            "dtype_api": dtype_api(), "tree_paths": tree_paths(), "precision": precision(),
            "initializers": initializers()}
    with open(path, "w") as f:
        json.dump(data, f, separators=(",", ":"))
    print(f"wrote {path}: {len(data['cases'])} function cases")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/data/jax_names.json")
