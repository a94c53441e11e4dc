"""transpile.scipy.ndimage.map_coordinates against JAX 0.10.2's recorded answers
(tools/record_jax_ndimage.py), eagerly and under jit, every mode and order."""
import json
import os

import numpy as np
import pytest

import transpile as tp
from transpile.scipy import ndimage
from ndimage_cases import cases

RECORDED = json.load(open(os.path.join(os.path.dirname(__file__), "data", "jax_ndimage.json")))
EXPECTED = {c["name"]: c for c in RECORDED["cases"]}
CASES = list(cases())


@pytest.mark.parametrize("how", ["eager", "jit"])
def test_map_coordinates_matches_jax(how):
    assert [c[0] for c in CASES] == [c["name"] for c in RECORDED["cases"]]
    with tp.config.settings(transpile_dtype_rules="jax"):
        for name, x, coords, order, mode, cval in CASES:
            fn = lambda x, *cs: ndimage.map_coordinates(x, cs, order, mode=mode,  # noqa: E731
                                                        cval=cval)
            got = np.asarray((tp.jit(fn) if how == "jit" else fn)(x, *coords))
            want = EXPECTED[name]
            assert str(got.dtype) == want["dtype"], name
            np.testing.assert_allclose(got, np.array(want["values"], dtype=got.dtype),
                                       rtol=2e-6, atol=2e-6, err_msg=name)


def test_map_coordinates_refuses_what_jax_does_not_have():
    x = np.zeros((3, 4), np.float32)
    with pytest.raises(ValueError, match="length input.ndim"):
        ndimage.map_coordinates(x, [np.zeros(2)], 1)
    with pytest.raises(NotImplementedError, match="order 0 .* or 1"):
        ndimage.map_coordinates(x, [np.zeros(2), np.zeros(2)], 3)
    with pytest.raises(NotImplementedError, match="grid-wrap"):
        ndimage.map_coordinates(x, [np.zeros(2), np.zeros(2)], 1, mode="grid-wrap")


def test_rotating_an_image_by_map_coordinates_under_vmap():
    """dm_pix's rotate pattern: coordinates from a rotation of the output grid, one
    map_coordinates per channel through vmap; a quarter turn is exact."""
    image = np.arange(2 * 5 * 5, dtype=np.float32).reshape(2, 5, 5)

    def rotate(channel):
        i, j = np.meshgrid(np.arange(5.0), np.arange(5.0), indexing="ij")
        return ndimage.map_coordinates(channel, [j, 4 - i], order=1, mode="nearest")
    got = np.asarray(tp.jit(tp.vmap(rotate))(image))
    np.testing.assert_array_equal(got, np.stack([np.rot90(c) for c in image]))
