"""dm_pix's colour augmentations: RGB<->HSV and RGB->HSL by chains of jnp.where on split
channels with finfo eps guards, adjust_hue/adjust_saturation through HSV, random brightness,
contrast and gamma draws from split keys, grayscale by tensordot with tile, and random flips
by lax.cond; per image with vmap over a batch of keys and images under jit."""
import jax
import jax.numpy as jnp
import numpy as np


def split_channels(image, axis=-1):
    return jnp.split(image, 3, axis=axis)[0].squeeze(axis), \
        jnp.take(image, 1, axis=axis), jnp.take(image, 2, axis=axis)


def rgb_to_hsv(image):
    eps = jnp.finfo(image.dtype).eps
    image = jnp.where(jnp.abs(image) < eps, 0., image)
    red, green, blue = split_channels(image)
    value = jnp.maximum(jnp.maximum(red, green), blue)
    range_ = value - jnp.minimum(jnp.minimum(red, green), blue)
    safe_value = jnp.where(value > 0, value, 1.)
    norm = 1. / (6. * jnp.where(range_ > 0, range_, 1.))
    saturation = jnp.where(value > 0, range_ / safe_value, 0.)
    hue = jnp.where(value == green, norm * (blue - red) + 2. / 6., norm * (red - green) + 4. / 6.)
    hue = jnp.where(value == red, norm * (green - blue), hue)
    hue = jnp.where(range_ > 0, hue, 0.) + (hue < 0.)
    return jnp.stack([hue, saturation, value], axis=-1)


def hsv_to_rgb(image):
    hue, saturation, value = split_channels(image)
    dh = (hue % 1.0) * 6.
    dr = jnp.clip(jnp.abs(dh - 3.) - 1., 0., 1.)
    dg = jnp.clip(2. - jnp.abs(dh - 2.), 0., 1.)
    db = jnp.clip(2. - jnp.abs(dh - 4.), 0., 1.)
    rest = 1. - saturation
    return jnp.stack([value * (rest + saturation * d) for d in (dr, dg, db)], axis=-1)


def rgb_to_hsl(image):
    red, green, blue = split_channels(image)
    c_max = jnp.maximum(red, jnp.maximum(green, blue))
    c_min = jnp.minimum(red, jnp.minimum(green, blue))
    c_sum, c_diff = c_max + c_min, c_max - c_min
    flat = c_min == c_max
    rc, gc, bc = ((c_max - c) / c_diff for c in (red, green, blue))
    eps = jnp.finfo(jnp.float32).eps
    h = jnp.where(flat, 0, (jnp.where(red == c_max, bc - gc,
                                      jnp.where(green == c_max, 2 + rc - bc, 4 + gc - rc))
                            / 6) % 1)
    s = jnp.where(flat, 0, (c_diff + eps) / (2 * eps + jnp.where(c_sum <= 1, c_sum, 2 - c_sum)))
    return jnp.stack([h, s, c_sum / 2], axis=-1)


def grayscale(image):
    gray = jnp.tensordot(image, jnp.array([0.2989, 0.5870, 0.1140], dtype=image.dtype),
                         axes=(-1, -1))
    return jnp.tile(jnp.expand_dims(gray, -1), [1, 1, 3])


def augment(key, image):
    keys = jax.random.split(key, 6)
    hsv = rgb_to_hsv(image)
    hue_delta = jax.random.uniform(keys[0], (), minval=-0.1, maxval=0.1)
    hsv = hsv.at[..., 0].set((hsv[..., 0] + hue_delta) % 1.0)
    factor = jax.random.uniform(keys[1], (), minval=0.5, maxval=1.5)
    hsv = hsv.at[..., 1].set(jnp.clip(hsv[..., 1] * factor, 0., 1.))
    image = hsv_to_rgb(hsv)
    image = image + jax.random.uniform(keys[2], (), minval=-0.1, maxval=0.1)
    contrast = jax.random.uniform(keys[3], (), minval=0.8, maxval=1.2)
    mean = jnp.mean(image, axis=(-3, -2), keepdims=True)
    image = contrast * (image - mean) + mean
    gamma = jax.random.uniform(keys[4], (), minval=0.8, maxval=1.2)
    image = jnp.clip(image, 0.0, 1.0) ** gamma
    image = jax.lax.cond(jax.random.bernoulli(keys[5]), lambda x: jnp.flip(x, axis=1),
                         lambda x: x, image)
    return image, rgb_to_hsl(image), grayscale(image)


@jax.jit
def program(seed, images):
    keys = jax.random.split(jax.random.PRNGKey(seed), images.shape[0])
    out, hsl, gray = jax.vmap(augment)(keys, images)
    round_trip = hsv_to_rgb(rgb_to_hsv(images))
    return out, hsl, gray, round_trip


def inputs():
    rng = np.random.default_rng(22)
    images = rng.uniform(0, 1, (4, 6, 5, 3)).astype(np.float32)
    images[0, 0, 0] = 0.5           # a grey pixel: zero range, zero hue
    images[1, 1, 1] = [0.2, 0.2, 0.9]
    return np.int32(9), images
