"""Mandelbrot escape counts on a grid with `lax.fori_loop`, compiled to one parallel loop.

    python examples/mandelbrot.py
"""
import time

import numpy as np

import transpile as tp
import transpile.numpy as tnp
from transpile import lax


def mandelbrot(c_re, c_im, iterations=100):
    """How many of `iterations` steps of z <- z^2 + c each point stays within |z| <= 2."""
    def step(i, state):
        z_re, z_im, count = state
        re2, im2 = z_re * z_re, z_im * z_im
        inside = re2 + im2 <= 4.0
        new_re = tnp.where(inside, re2 - im2 + c_re, z_re)
        new_im = tnp.where(inside, 2.0 * z_re * z_im + c_im, z_im)
        return new_re, new_im, count + inside.astype(tnp.int32)

    zeros = tnp.zeros_like(c_re)
    start = (zeros, zeros, tnp.zeros(c_re.shape, dtype=tnp.int32))
    return lax.fori_loop(0, iterations, step, start)[2]


def grid(width=400, height=300):
    re = np.linspace(-2.2, 1.0, width)
    im = np.linspace(-1.2, 1.2, height)
    return np.meshgrid(re, im)


def main():
    c_re, c_im = grid()
    fast = tp.jit(mandelbrot, static_argnames=["iterations"])
    counts = fast(c_re, c_im)
    assert np.array_equal(counts, mandelbrot(c_re, c_im))      # eager NumPy, same function
    start = time.perf_counter()
    fast(c_re, c_im)
    jit_ms = 1e3 * (time.perf_counter() - start)
    start = time.perf_counter()
    mandelbrot(c_re, c_im)
    numpy_ms = 1e3 * (time.perf_counter() - start)
    print(f"400x300 grid, 100 iterations: transpile {jit_ms:.1f} ms, eager NumPy "
          f"{numpy_ms:.1f} ms ({numpy_ms / jit_ms:.0f}x)")
    chars = " .:-=+*#%@"
    for row in counts[::20, ::8]:
        print("".join(chars[min(c * len(chars) // 101, len(chars) - 1)] for c in row))


if __name__ == "__main__":
    main()
