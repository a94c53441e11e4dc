"""Record how JAX behaves for the API behaviours transpile copies (tests/test_jax_api_compat.py).

JAX is not a dependency of transpile: run this with an environment that has it, e.g.

    /tmp/jaxenv/bin/python tools/record_jax_api.py tests/data/jax_api.json

Each case is a small program run under JAX 0.10 (x64 off, JAX's default): the result as a
nested list with its dtype, or the exception's type name and message. The tests compare
transpile's values with the results and check that its errors are of the same kind and name
the same thing (the wording differs where transpile's message says more).
"""
from __future__ import annotations

import json
import sys


def _result(fn):
    import numpy as np
    try:
        out = fn()
    except Exception as e:   # noqa: BLE001  (recording whatever JAX raises is the point)
        return {"error": type(e).__name__, "message": str(e).splitlines()[0][:300]}
    if isinstance(out, (str, bool)) or out is None:
        return {"value": out}
    if isinstance(out, tuple):
        return {"tuple": [_result(lambda o=o: o) for o in out]}
    a = np.asarray(out)
    return {"value": a.tolist(), "dtype": str(a.dtype), "shape": list(a.shape)}


def cases():
    import jax
    import jax.numpy as jnp
    import numpy as np
    from jax import lax

    const = jnp.array([0, 9])
    host = np.array([0, 9])

    def setitem(x):
        x[0] = 1.0
        return x

    def static_names_bad(x, n):
        return x * n

    def posonly(x, /, n):
        return x * n

    def scan_sum(unroll):
        def body(c, x):
            return c + x, c * x
        return lax.scan(body, 0.0, jnp.arange(5.0), unroll=unroll)

    yield "index_module_constant_with_tracer", lambda: jax.jit(lambda i: const[i])(1)
    yield "index_numpy_constant_with_tracer", lambda: jax.jit(lambda i: host[i])(1)
    yield "setitem_on_tracer", lambda: jax.jit(setitem)(jnp.zeros(3))
    yield "jit_static_argnames_unknown", lambda: jax.jit(static_names_bad,
                                                        static_argnames=("m",))
    yield "jit_static_argnames_positional_only", lambda: jax.jit(posonly,
                                                                static_argnames=("x",))
    yield "jit_static_argnums_out_of_range", lambda: jax.jit(static_names_bad,
                                                            static_argnums=(2,))
    yield "jit_static_argnums_negative_out_of_range", lambda: jax.jit(static_names_bad,
                                                                     static_argnums=(-3,))
    yield "jit_static_argnums_varargs_any", lambda: str(type(jax.jit(lambda *a: a[0],
                                                                     static_argnums=(5,))))
    c = jnp.array([[True, False, True], [False, False, True]])
    yield "where_size", lambda: jnp.where(c, size=4)
    yield "where_size_fill", lambda: jnp.where(c, size=4, fill_value=-1)
    yield "where_size_truncates", lambda: jnp.where(c, size=2)
    yield "where_size_jit", lambda: jax.jit(lambda c: jnp.where(c, size=4, fill_value=7))(c)
    yield "scan_unroll_2", lambda: scan_sum(2)
    yield "scan_unroll_true", lambda: scan_sum(True)
    yield "fori_unroll_3", lambda: lax.fori_loop(0, 7, lambda i, a: a + i, 0, unroll=3)
    yield "fori_unroll_traced_bound", lambda: jax.jit(
        lambda n: lax.fori_loop(0, n, lambda i, a: a + i, 0, unroll=2))(5)
    yield "sum_of_list_jit", lambda: jax.jit(lambda: jnp.sum([1, 2, 3]))()
    yield "sum_of_list_eager", lambda: jnp.sum([1, 2, 3])
    yield "arange_complex", lambda: jnp.arange(1 + 2j)
    x = jnp.arange(6.0).reshape(2, 3)
    yield "clip_min_max", lambda: jnp.clip(jnp.arange(6), min=1, max=4)
    yield "clip_min_only", lambda: jnp.clip(jnp.arange(6), min=2)
    yield "reshape_order_F", lambda: jnp.reshape(x, (3, 2), order="F")
    yield "reshape_order_F_1d", lambda: jnp.reshape(x, -1, order="F")
    yield "size_axis", lambda: jnp.size(x, 1)
    yield "size_axis_negative", lambda: jnp.size(x, -2)
    yield "nansum_initial", lambda: jnp.nansum(jnp.array([1.0, np.nan]), initial=5.0)
    yield "nanmax_initial", lambda: jnp.nanmax(jnp.array([1.0, np.nan]), initial=5.0)
    yield "nanmin_initial", lambda: jnp.nanmin(jnp.array([1.0, np.nan, 3.0]), initial=-1.0)
    yield "nanprod_initial", lambda: jnp.nanprod(jnp.array([2.0, np.nan]), initial=3.0)
    yield "make_jaxpr_str_starts", lambda: str(jax.make_jaxpr(lambda x: x + 1)(1.0))[:11]
    yield "compiled_call", lambda: jax.jit(lambda x: x * 2).lower(x).compile()(x)
    yield "compiled_as_text_is_str", lambda: isinstance(
        jax.jit(lambda x: x * 2).lower(x).compile().as_text(), str)
    yield "default_backend", lambda: jax.default_backend()
    yield "devices_platform", lambda: jax.devices()[0].platform
    yield "block_until_ready_tree", lambda: jax.block_until_ready((x, {"a": x}))[1]["a"]
    yield "numpy_sum_on_tracer", lambda: jax.jit(lambda x: np.sum(x))(x)


def main(path):
    import jax
    recorded = {"jax_version": jax.__version__}
    for name, fn in cases():
        recorded[name] = _result(fn)
    with open(path, "w") as f:
        json.dump(recorded, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/data/jax_api.json")
