"""Jitted functions cross process boundaries: module-level ones pickle by reference and work
in another process; a script's jitted function travels by value through cloudpickle (how Dask
sends it); lambdas and local functions fail with pickle's own error."""
import os
import pickle
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import transpile as tp

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

MODULE = textwrap.dedent("""
    import functools
    import transpile as tp
    import transpile.numpy as tnp

    @tp.jit
    def decorated(x):
        return tnp.sin(x) * 2

    def plain(x, n):
        return x * n if n > 2 else x - n      # Python control flow: n must be static

    wrapped = functools.partial(tp.jit, static_argnames="n")(plain)

    @functools.partial(tp.jit, static_argnames=("n",))
    def decorated_static(x, n):
        return plain(x, n)

    class Namespace:
        @tp.jit
        def nested(x):
            return x + 1
""")

# Unpickles the functions written by the test and records what they compute.
LOADER = textwrap.dedent("""
    import pickle, sys
    import numpy as np
    with open(sys.argv[1], "rb") as f:
        data = f.read()
    functions = pickle.loads(data)
    x = np.arange(5.0)
    results = {name: fn(x, **kwargs) for name, (fn, kwargs) in functions.items()}
    results["types"] = sorted({type(fn).__name__ for fn, _ in functions.values()})
    # The same pickle again (the next task): the same jitted object, its compiled code kept.
    again = pickle.loads(data)
    results["reused"] = all(again[name][0] is fn for name, (fn, _) in functions.items())
    results["traces"] = sum(fn.cache_info().misses for fn, _ in functions.values())
    with open(sys.argv[2], "wb") as f:
        pickle.dump(results, f)
""")


@pytest.fixture
def jitmod(tmp_path, monkeypatch):
    (tmp_path / "jitmod.py").write_text(MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    import jitmod
    yield jitmod
    sys.modules.pop("jitmod", None)


def _run_loader(tmp_path, functions, cache_dir):
    with open(tmp_path / "functions.pkl", "wb") as f:
        pickle.dump(functions, f)
    (tmp_path / "loader.py").write_text(LOADER)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), REPO]),
               TRANSPILE_CACHE_DIR=str(cache_dir))
    done = subprocess.run([sys.executable, str(tmp_path / "loader.py"),
                           str(tmp_path / "functions.pkl"), str(tmp_path / "results.pkl")],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    with open(tmp_path / "results.pkl", "rb") as f:
        return pickle.load(f)


def test_module_level_jitted_functions_pickle_by_reference(jitmod):
    for fn in (jitmod.decorated, jitmod.decorated_static, jitmod.Namespace.nested):
        data = pickle.dumps(fn)
        assert b"jitmod" in data and len(data) < 200           # a name, not the code
        assert pickle.loads(data) is fn
    # Built from a module-level function: pickled as the function plus the jit options.
    data = pickle.dumps(jitmod.wrapped)
    assert b"plain" in data and b"decorated" not in data
    assert pickle.loads(data) is jitmod.wrapped            # the same process: the same object


def test_unpickled_in_another_process_they_compute_the_same(jitmod, tmp_path, cache_dir):
    functions = {"decorated": (jitmod.decorated, {}),
                 "wrapped": (jitmod.wrapped, {"n": 4}),
                 "decorated_static": (jitmod.decorated_static, {"n": 1}),
                 "nested": (jitmod.Namespace.nested, {})}
    results = _run_loader(tmp_path, functions, cache_dir)
    assert results.pop("types") == ["Jitted"]
    assert results.pop("reused") and results.pop("traces") == 4
    x = np.arange(5.0)
    expected = {"decorated": np.sin(x) * 2, "wrapped": x * 4, "decorated_static": x - 1,
                "nested": x + 1}
    for name, value in expected.items():
        np.testing.assert_allclose(results[name], value, rtol=1e-15, err_msg=name)


def test_a_scripts_jitted_function_travels_by_value_with_cloudpickle(tmp_path, cache_dir):
    pytest.importorskip("cloudpickle", reason="cloudpickle (Dask's pickler) is not installed")
    script = tmp_path / "script.py"
    script.write_text(textwrap.dedent("""
        import sys, cloudpickle
        import transpile as tp, transpile.numpy as tnp

        @tp.jit
        def f(x, n):
            return tnp.cos(x) + n

        with open(sys.argv[1], "wb") as out:
            cloudpickle.dump({"f": (f, {"n": 2.0})}, out)
    """))
    env = dict(os.environ, PYTHONPATH=REPO, TRANSPILE_CACHE_DIR=str(cache_dir))
    done = subprocess.run([sys.executable, str(script), str(tmp_path / "functions.pkl")],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    (tmp_path / "loader.py").write_text(LOADER)
    env["PYTHONPATH"] = REPO       # the script's module is not importable there
    done = subprocess.run([sys.executable, str(tmp_path / "loader.py"),
                           str(tmp_path / "functions.pkl"), str(tmp_path / "results.pkl")],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    with open(tmp_path / "results.pkl", "rb") as f:
        results = pickle.load(f)
    np.testing.assert_allclose(results["f"], np.cos(np.arange(5.0)) + 2.0, rtol=1e-15)
    # By value, each unpickling makes a new function object; it maps back to one jitted one.
    assert results["reused"] and results["traces"] == 1


def test_lambdas_and_local_functions_give_pickles_own_error():
    def local(x):
        return x + 1

    for fn in (tp.jit(lambda x: x * 2), tp.jit(local)):
        with pytest.raises((pickle.PicklingError, AttributeError), match="lambda|local"):
            pickle.dumps(fn)


def test_public_functions_and_jits_of_them_pickle_by_reference():
    """The public namespaces wrap their functions (weak-result marking, eager results with
    `.at`); each wrapper is its namespace's attribute, so pickle finds the same object."""
    import transpile.numpy as tnp
    from transpile import lax
    for fn in (tnp.sum, tnp.linalg.solve, tnp.linalg.svd, lax.cumsum, lax.fori_loop,
               lax.argmax, tp.random.normal, tp.random.PRNGKey, tp.scipy.special.erf):
        assert pickle.loads(pickle.dumps(fn)) is fn
    jitted = pickle.loads(pickle.dumps(tp.jit(lax.cumsum)))
    np.testing.assert_array_equal(jitted(np.arange(4.0)), [0, 1, 3, 6])
