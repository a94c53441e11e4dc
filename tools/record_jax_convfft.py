"""Record JAX's jnp.fft, lax convolution / reduce_window and jax.scipy.signal results as
test data for tests/test_fft.py and tests/test_conv.py.

JAX is not a dependency of transpile: run this with a Python that has JAX installed,

    JAX_ENABLE_X64=1 /path/to/jax/python tools/record_jax_convfft.py tests/data/jax_convfft.json

The programs are those of tests/convfft_cases.py. 64-bit mode makes JAX's dtypes those of
NumPy (and transpile). Each result is stored with its dtype, shape and values (complex
values as [real, imaginary] pairs; floats to 13 significant digits, far finer than the
tests' tolerances, to keep the file small).
"""
from __future__ import annotations

import json
import os
import sys

os.environ.setdefault("JAX_ENABLE_X64", "1")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import jax.scipy.signal as signal  # noqa: E402
import numpy as np  # noqa: E402
from jax import lax  # noqa: E402

from convfft_cases import conv_cases, fft_cases  # noqa: E402


def record(x):
    x = np.asarray(x)
    values = np.stack([x.real, x.imag], -1) if np.iscomplexobj(x) else x
    if values.dtype.kind == "f":       # 13 digits: far below the tests' tolerances
        values = np.vectorize(lambda v: float(f"{v:.13g}"), otypes=[float])(values)
    return {"dtype": str(x.dtype), "shape": list(x.shape), "values": values.tolist()}


def main(path):
    if not jax.config.jax_enable_x64:
        raise SystemExit("run with JAX_ENABLE_X64=1")
    recorded = {}
    for name, (f, args) in {**fft_cases(jnp), **conv_cases(jnp, lax, signal)}.items():
        recorded[name] = record(jax.jit(f)(*map(jnp.asarray, args)))
    with open(path, "w") as fh:
        json.dump({"jax_version": jax.__version__, "cases": recorded}, fh,
                  separators=(",", ":"))
        fh.write("\n")
    print(f"wrote {len(recorded)} cases to {path}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "tests/data/jax_convfft.json")
