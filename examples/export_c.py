"""Export a jitted function as a standalone C library, build it with make, and call it from C.

    python examples/export_c.py

The exported folder needs no Python, NumPy or cffi: copy it anywhere with a C compiler.
"""
import os
import shutil
import subprocess
import tempfile

import numpy as np

import transpile as tp
import transpile.numpy as tnp


@tp.jit
def normalize(x):
    """Each row scaled to unit length, and the row lengths."""
    norms = tnp.sqrt(tnp.sum(x * x, axis=1))
    return x / norms[:, None], norms


# A C program using the library: the header gives the function and its arguments' shapes.
APP = r"""
#include <stdio.h>
#include "normalize.h"

int main(void) {
    double x[4][3], unit[4][3], norms[4];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 3; j++) x[i][j] = i * 3 + j + 1;
    if (normalize(&x[0][0], &unit[0][0], norms) != NORMALIZE_OK) return 1;
    for (int i = 0; i < 4; i++)
        printf("%.17g %.17g %.17g %.17g\n", norms[i], unit[i][0], unit[i][1], unit[i][2]);
    return 0;
}
"""


def main():
    if not (shutil.which("make") and shutil.which("cc")):
        print("skipped: building the exported library needs make and cc")
        return
    x = np.arange(1.0, 13.0).reshape(4, 3)
    with tempfile.TemporaryDirectory() as work:
        lib = os.path.join(work, "lib")
        library = normalize.lower(x).export(lib, name="normalize")
        print(f"exported {', '.join(library.files)}")
        with open(os.path.join(lib, "normalize.h")) as f:
            print(next(line for line in f if "int normalize(" in line).strip(" *\n"))
        subprocess.run(["make", "-C", lib], check=True, capture_output=True)
        with open(os.path.join(work, "app.c"), "w") as f:
            f.write(APP)
        app = os.path.join(work, "app")
        subprocess.run(["cc", os.path.join(work, "app.c"), "-I", lib,
                        os.path.join(lib, "libnormalize.a"), "-fopenmp", "-lm", "-o", app],
                       check=True)
        printed = subprocess.run([app], check=True, capture_output=True, text=True).stdout
    got = np.array([line.split() for line in printed.splitlines()], dtype=np.float64)
    norms = np.sqrt(np.sum(x * x, axis=1))
    np.testing.assert_allclose(got[:, 0], norms, rtol=1e-15)
    np.testing.assert_allclose(got[:, 1:], x / norms[:, None], rtol=1e-15)
    print(f"the C program's results match NumPy; row lengths: {got[:, 0]}")


if __name__ == "__main__":
    main()
