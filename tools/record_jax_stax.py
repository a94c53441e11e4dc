"""Record tests/stax_cases.py under JAX (jax.example_libraries), for
tests/test_example_libraries.py (CI never imports jax).

    /tmp/jaxenv/bin/python tools/record_jax_stax.py    # writes tests/data/jax_stax.json
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
import stax_cases  # noqa: E402


def main():
    import jax
    import jax.numpy as jnp
    from jax.example_libraries import optimizers, stax
    out = stax_cases.run(jax, jnp, stax, optimizers)
    path = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "jax_stax.json")
    with open(path, "w") as f:
        json.dump({"jax": jax.__version__, "results": out}, f, indent=1)


if __name__ == "__main__":
    main()
