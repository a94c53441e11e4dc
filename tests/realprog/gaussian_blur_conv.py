"""dm_pix-style Gaussian blur: a separable kernel applied per channel with
lax.conv_general_dilated (NHWC, feature_group_count = channels), as dm_pix writes it."""
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax


def gaussian_kernel(sigma, size):
    x = jnp.arange(size) - (size - 1) / 2
    k = jnp.exp(-0.5 * (x / sigma) ** 2)
    return k / jnp.sum(k)


@jax.jit
def program(image):
    channels = image.shape[-1]
    k = gaussian_kernel(1.0, 5)
    kernel_v = jnp.tile(k.reshape(5, 1, 1, 1), (1, 1, 1, channels))
    kernel_h = jnp.tile(k.reshape(1, 5, 1, 1), (1, 1, 1, channels))
    dn = lax.conv_dimension_numbers(image[None].shape, kernel_v.shape, ("NHWC", "HWIO", "NHWC"))
    out = lax.conv_general_dilated(image[None], kernel_v, (1, 1), "SAME",
                                   dimension_numbers=dn, feature_group_count=channels)
    out = lax.conv_general_dilated(out, kernel_h, (1, 1), "SAME",
                                   dimension_numbers=dn, feature_group_count=channels)
    return out[0]


def inputs():
    rng = np.random.default_rng(11)
    return (rng.uniform(0, 1, (12, 10, 3)).astype(np.float32),)
