"""Image operations in dm_pix's style on an HWC float image batch: grayscale by a weighted sum,
brightness/contrast adjustment, flips, HSV-style value channel, a 3x3 box blur by summing
shifted slices, and a centre crop; vmapped over the batch."""
import jax
import jax.numpy as jnp
import numpy as np


def rgb_to_grayscale(image):
    weights = jnp.array([0.2989, 0.5870, 0.1140], dtype=image.dtype)
    return jnp.sum(image * weights, axis=-1, keepdims=True)


def adjust_contrast(image, factor):
    mean = jnp.mean(image, axis=(-3, -2), keepdims=True)
    return factor * (image - mean) + mean


def adjust_brightness(image, delta):
    return image + delta


def box_blur(image):
    padded = jnp.pad(image, ((1, 1), (1, 1), (0, 0)), mode="reflect")
    h, w = image.shape[:2]
    total = sum(padded[i:i + h, j:j + w] for i in range(3) for j in range(3))
    return total / 9.0


def center_crop(image, size):
    h, w = image.shape[:2]
    top, left = (h - size) // 2, (w - size) // 2
    return image[top:top + size, left:left + size]


def augment(image, delta, factor):
    image = adjust_brightness(image, delta)
    image = adjust_contrast(image, factor)
    image = jnp.clip(image, 0.0, 1.0)
    flipped = jnp.flip(image, axis=1)
    return {"gray": rgb_to_grayscale(flipped), "blur": center_crop(box_blur(image), 6),
            "value": jnp.max(image, axis=-1), "updown": image[::-1].mean()}


program = jax.jit(jax.vmap(augment))


def inputs():
    rng = np.random.default_rng(10)
    images = rng.uniform(0, 1, (3, 10, 8, 3)).astype(np.float32)
    return (images, rng.uniform(-0.2, 0.2, 3).astype(np.float32),
            rng.uniform(0.5, 1.5, 3).astype(np.float32))
