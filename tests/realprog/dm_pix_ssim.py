"""dm_pix's image metrics: SSIM with a separable Gaussian window built as jnp.convolve(...,
mode="valid", precision=HIGHEST) vmapped over flattened rows along each axis (moveaxis and
reshape), the variance clipping by finfo(float32).eps, plus MAE/MSE/PSNR/SIMSE; jitted over an
NHWC batch and, for one pair, differentiated with respect to the distorted image."""
import jax
import jax.numpy as jnp
import numpy as np


def mse(a, b):
    return jnp.square(a - b).mean(axis=(-3, -2, -1))


def psnr(a, b):
    return -10.0 * jnp.log(mse(a, b)) / jnp.log(10.0)


def simse(a, b):
    alpha = (a * b).sum(axis=(-3, -2, -1), keepdims=True) / \
        (b * b).sum(axis=(-3, -2, -1), keepdims=True)
    return mse(a, alpha * b)


def gaussian_filter(filter_size=7, sigma=1.5):
    hw = filter_size // 2
    shift = (2 * hw - filter_size + 1) / 2
    taps = jnp.exp(-0.5 * ((jnp.arange(filter_size) - hw + shift) / sigma) ** 2)
    taps /= jnp.sum(taps)
    blur_1d = jax.vmap(lambda z: jnp.convolve(z, taps, mode="valid",
                                              precision=jax.lax.Precision.HIGHEST))

    def along(z, axis):
        flat = jnp.moveaxis(z, axis, -1).reshape((-1, z.shape[axis]))
        others = [z.shape[i] for i in range(z.ndim) if i != z.ndim + axis]
        return jnp.moveaxis(blur_1d(flat).reshape(tuple(others) + (-1,)), -1, axis)

    return lambda z: along(along(z, -2), -3)


def ssim(a, b, max_val=1.0, k1=0.01, k2=0.03):
    blur = gaussian_filter()
    mu0, mu1 = blur(a), blur(b)
    mu00, mu11, mu01 = mu0 * mu0, mu1 * mu1, mu0 * mu1
    eps = jnp.finfo(jnp.float32).eps ** 2
    s00 = jnp.maximum(eps, blur(a ** 2) - mu00)
    s11 = jnp.maximum(eps, blur(b ** 2) - mu11)
    s01 = blur(a * b) - mu01
    s01 = jnp.sign(s01) * jnp.minimum(jnp.sqrt(s00 * s11), jnp.abs(s01))
    c1, c2 = (k1 * max_val) ** 2, (k2 * max_val) ** 2
    ssim_map = (2 * mu01 + c1) * (2 * s01 + c2) / ((mu00 + mu11 + c1) * (s00 + s11 + c2))
    return jnp.mean(ssim_map, list(range(-3, 0)))


@jax.jit
def program(clean, noise):
    noisy = jnp.clip(clean + noise, 0.0, 1.0)
    metrics = {"mae": jnp.abs(clean - noisy).mean(axis=(-3, -2, -1)), "mse": mse(clean, noisy),
               "psnr": psnr(clean, noisy), "simse": simse(clean, noisy),
               "ssim": ssim(clean, noisy)}
    ssim_grad = jax.grad(lambda b: ssim(clean[0], b))(noisy[0])
    return metrics, ssim_grad


def inputs():
    rng = np.random.default_rng(21)
    clean = rng.uniform(0, 1, (3, 16, 12, 3)).astype(np.float32)
    noise = (0.1 * rng.standard_normal((3, 16, 12, 3))).astype(np.float32)
    return clean, noise
