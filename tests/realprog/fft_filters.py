"""Signal processing with jnp.fft: a low-pass filter by rfft/irfft, 2-D convolution by fft2,
power spectrum with fftfreq/fftshift, and an odd length (not a power of two)."""
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def program(sig, img, ker):
    n = sig.shape[0]
    F = jnp.fft.rfft(sig)
    freqs = jnp.fft.rfftfreq(n, d=0.01)
    low = jnp.fft.irfft(jnp.where(freqs < 5.0, F, 0), n=n)
    K = jnp.fft.fft2(ker, s=img.shape)
    conv = jnp.real(jnp.fft.ifft2(jnp.fft.fft2(img) * K))
    ps = jnp.fft.fftshift(jnp.abs(jnp.fft.fft(sig[:99])) ** 2)
    return low, conv, ps, jnp.fft.fftfreq(7), jnp.angle(F[:4])


def inputs():
    rng = np.random.default_rng(13)
    t = np.arange(300) * 0.01
    sig = (np.sin(2 * np.pi * 2 * t) + 0.5 * np.sin(2 * np.pi * 20 * t) + 0.1 * rng.normal(size=300))
    return sig.astype(np.float32), rng.normal(size=(24, 30)).astype(np.float32), np.ones((3, 3), np.float32) / 9
