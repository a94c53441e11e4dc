"""Record JAX's results for the third transformation table (tests/transform_cases3.py) as
test data for tests/test_transform_matrix3.py. JAX is not a dependency of transpile: run

    /tmp/jaxenv/bin/python tools/record_jax_transforms3.py tests/data/jax_transforms3.json

with a Python that has jax (0.10.2 recorded the committed file). Each case runs in 64-bit
("x64") and JAX's default 32-bit ("x32") mode, stored as record_jax_transforms2.py stores
the second table's (the same record format, written by its functions).
"""
from __future__ import annotations

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests"))
sys.path.insert(0, HERE)

import jax  # noqa: E402

from record_jax_transforms2 import MODES, record  # noqa: E402
from transform_cases3 import cases  # noqa: E402


def main(path):
    recorded = {}
    for mode, x64 in MODES.items():
        jax.config.update("jax_enable_x64", x64)
        recorded[mode] = {name: record(thunk) for name, thunk in cases(jax).items()}
    with open(path, "w") as fh:
        json.dump({"jax_version": jax.__version__, "modes": recorded}, fh, indent=None,
                  separators=(",", ":"), sort_keys=True)
        fh.write("\n")
    for mode, table in recorded.items():
        errors = {n: r for n, r in table.items() if "error" in r}
        print(f"{mode}: {len(table)} cases, {len(errors)} errors")
        for name, r in errors.items():
            print(f"  {name}: {r['jax_class']}({r['error']}): {r['message'][:110]}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/data/jax_transforms3.json")
