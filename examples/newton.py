"""Newton's method for square roots with `lax.while_loop`: a value-dependent loop, compiled.

    python examples/newton.py
"""
import numpy as np

import transpile as tp
import transpile.numpy as tnp
from transpile import lax


@tp.jit
def newton_sqrt(a, tolerance=1e-12):
    """sqrt(a) for every element, iterating x <- (x + a / x) / 2 until all have converged."""
    def not_converged(state):
        x, step, count = state
        return (tnp.max(tnp.abs(step)) > tolerance) & (count < 100)

    def improve(state):
        x, _, count = state
        new_x = 0.5 * (x + a / x)
        return new_x, new_x - x, count + 1

    start = (tnp.maximum(a, 1.0), tnp.ones_like(a), 0)
    root, _, iterations = lax.while_loop(not_converged, improve, start)
    return root, iterations


def main():
    a = np.random.default_rng(0).uniform(0.01, 1e6, size=1000)
    root, iterations = newton_sqrt(a)
    np.testing.assert_allclose(root, np.sqrt(a), rtol=1e-12)
    print(f"sqrt of {a.size} values converged in {int(iterations)} Newton steps; "
          f"max relative error {np.max(np.abs(root - np.sqrt(a)) / np.sqrt(a)):.1e}")
    print(tp.make_ir(newton_sqrt.fun)(a))


if __name__ == "__main__":
    main()
