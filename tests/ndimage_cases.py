"""The map_coordinates cases recorded from JAX (tools/record_jax_ndimage.py) and checked by
tests/test_scipy_ndimage.py."""
import numpy as np


def cases():
    """(name, input, coordinates, order, mode, cval): deterministic, with exact halves,
    points outside the array on both sides, integer inputs and integer coordinates."""
    rng = np.random.default_rng(11)
    image = rng.normal(size=(5, 6)).astype(np.float32)
    ints = rng.integers(-50, 50, size=(4, 7)).astype(np.int32)
    line = np.arange(6, dtype=np.float32) ** 2
    halves = np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 5.5, 6.5], np.float32)
    coords = rng.uniform(-3, 9, size=(2, 12)).astype(np.float32)
    coords[:, :4] = [[-0.5, 0.5, 2.0, 4.5], [5.5, -1.0, 3.0, 6.5]]
    for mode in ("constant", "nearest", "wrap", "mirror", "reflect"):
        for order in (0, 1):
            yield f"image-{mode}-{order}", image, list(coords), order, mode, 0.0
            yield f"ints-{mode}-{order}", ints, list(coords[:, ::-1]), order, mode, -7.0
            yield f"line-{mode}-{order}", line, [halves], order, mode, 1.5
    yield "int-coordinates", image, [np.array([0, 4, -1, 7]), np.array([1, 5, 2, -3])], 1, \
        "constant", 2.0
