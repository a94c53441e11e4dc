"""Record jax.scipy.ndimage.map_coordinates on a fixed set of cases, for
tests/test_scipy_ndimage.py (CI never imports jax).

    /tmp/jaxenv/bin/python tools/record_jax_ndimage.py   # writes tests/data/jax_ndimage.json
"""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
from ndimage_cases import cases  # noqa: E402


def main():
    import jax
    from jax.scipy.ndimage import map_coordinates
    jax.config.update("jax_enable_x64", False)
    out = []
    for name, x, cs, order, mode, cval in cases():
        got = np.asarray(map_coordinates(x, cs, order, mode=mode, cval=cval))
        out.append({"name": name, "order": order, "mode": mode, "cval": cval,
                    "dtype": str(got.dtype), "values": got.tolist()})
    path = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "jax_ndimage.json")
    with open(path, "w") as f:
        json.dump({"jax": jax.__version__, "cases": out}, f, indent=0)


if __name__ == "__main__":
    main()
