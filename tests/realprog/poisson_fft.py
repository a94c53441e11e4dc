"""A periodic 2-D Poisson solve with rfft2/irfft2 and a spectral gradient with fftfreq."""
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def program(rho):
    n = rho.shape[0]
    k = 2 * jnp.pi * jnp.fft.fftfreq(n)
    kr = 2 * jnp.pi * jnp.fft.rfftfreq(n)
    kx, ky = jnp.meshgrid(k, kr, indexing="ij")
    k2 = kx ** 2 + ky ** 2
    rho_hat = jnp.fft.rfft2(rho - rho.mean())
    phi_hat = jnp.where(k2 > 0, -rho_hat / jnp.where(k2 > 0, k2, 1.0), 0.0)
    phi = jnp.fft.irfft2(phi_hat, s=rho.shape)
    gx = jnp.fft.irfft2(1j * kx * phi_hat, s=rho.shape)
    spectrum = jnp.abs(jnp.fft.fftshift(jnp.fft.fft2(rho)))
    return phi, gx, spectrum[:3, :3], jnp.fft.ifft(jnp.fft.fft(rho[0])).real


def inputs():
    rng = np.random.default_rng(4)
    return (rng.normal(size=(12, 12)).astype(np.float32),)
