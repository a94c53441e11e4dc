"""Record JAX's results for its example training loops (tests/jax_example_programs.py:
mnist_classifier_fromscratch, kernel_lsq, differentially_private_sgd on synthetic data) as
test data for tests/test_jax_examples.py. JAX is not a dependency of transpile: run

    /tmp/jaxenv/bin/python tools/record_jax_examples.py tests/data/jax_examples.json

with a Python that has jax (0.10.2 recorded the committed file). Each program runs in 64-bit
mode ("x64") and in JAX's default 32-bit mode ("x32"); every named result is stored with its
dtype, shape and values.
"""
from __future__ import annotations

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))

import jax  # noqa: E402
import jax.example_libraries.optimizers  # noqa: E402,F401  (imported by name in the programs)
import jax.example_libraries.stax  # noqa: E402,F401
import numpy as np  # noqa: E402

from jax_example_programs import PROGRAMS  # noqa: E402


def leaf_record(x):
    x = np.asarray(x)
    return {"dtype": str(x.dtype), "shape": list(x.shape), "values": x.ravel().tolist()}


def main(path):
    recorded = {}
    for mode, x64 in (("x64", True), ("x32", False)):
        jax.config.update("jax_enable_x64", x64)
        recorded[mode] = {name: {k: leaf_record(v) for k, v in program(jax).items()}
                          for name, program in PROGRAMS.items()}
    with open(path, "w") as fh:
        json.dump({"jax_version": jax.__version__, "modes": recorded}, fh, indent=None,
                  separators=(",", ":"), sort_keys=True)
        fh.write("\n")
    for mode, table in recorded.items():
        for name, results in table.items():
            shown = {k: np.round(v["values"][:4], 5).tolist() for k, v in results.items()}
            print(mode, name, shown)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/data/jax_examples.json")
