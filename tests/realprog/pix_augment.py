"""dm_pix-style augmentations: flips, rot90, brightness/contrast/gamma, rgb<->hsv, random crop."""
import jax
import jax.numpy as jnp
import numpy as np


def rgb_to_hsv(rgb):
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    maxc = jnp.max(rgb, axis=-1)
    minc = jnp.min(rgb, axis=-1)
    v = maxc
    delta = maxc - minc
    s = jnp.where(maxc > 0, delta / jnp.where(maxc > 0, maxc, 1.0), 0.0)
    safe = jnp.where(delta > 0, delta, 1.0)
    rc, gc, bc = (maxc - r) / safe, (maxc - g) / safe, (maxc - b) / safe
    h = jnp.where(r == maxc, bc - gc, jnp.where(g == maxc, 2.0 + rc - bc, 4.0 + gc - rc))
    h = jnp.where(delta > 0, (h / 6.0) % 1.0, 0.0)
    return jnp.stack([h, s, v], axis=-1)


def hsv_to_rgb(hsv):
    h, s, v = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    i = jnp.floor(h * 6.0)
    f = h * 6.0 - i
    p, q, t = v * (1 - s), v * (1 - s * f), v * (1 - s * (1 - f))
    i = i.astype(jnp.int32) % 6
    r = jnp.choose(i, [v, q, p, p, t, v], mode="clip")
    g = jnp.choose(i, [t, v, v, q, p, p], mode="clip")
    b = jnp.choose(i, [p, p, t, v, v, q], mode="clip")
    return jnp.stack([r, g, b], axis=-1)


@jax.jit
def program(image, seed):
    key = jax.random.PRNGKey(seed)
    k1, k2, k3 = jax.random.split(key, 3)
    img = jnp.where(jax.random.uniform(k1) < 0.5, jnp.flip(image, axis=1), image)
    img = jnp.rot90(img, k=1, axes=(0, 1))
    img = jnp.clip(img + 0.1, 0.0, 1.0)
    mean = jnp.mean(img, axis=(0, 1), keepdims=True)
    img = jnp.clip((img - mean) * 1.3 + mean, 0.0, 1.0)
    img = img ** 0.8
    hsv = rgb_to_hsv(img)
    hsv = hsv.at[..., 0].set((hsv[..., 0] + 0.05) % 1.0)
    back = hsv_to_rgb(hsv)
    off = jax.random.randint(k2, (2,), 0, 5)
    crop = jax.lax.dynamic_slice(back, (off[0], off[1], 0), (8, 8, 3))
    gray = jnp.dot(crop, jnp.array([0.2989, 0.587, 0.114]))
    return crop, gray, hsv.mean(axis=(0, 1)), jnp.histogram(gray, bins=5, range=(0.0, 1.0))[0]


def inputs():
    rng = np.random.default_rng(2)
    return rng.random((12, 12, 3)).astype(np.float32), np.int32(4)
