"""A pseudo-spectral 2-D Navier-Stokes solver in jax-cfd's style: vorticity on a periodic grid,
wavenumbers from jnp.fft.fftfreq/rfftfreq, the stream function by a Poisson solve in Fourier
space (rfft2/irfft2), the nonlinear term with 2/3-rule dealiasing, and Crank-Nicolson/explicit
RK2 steps in a jitted lax.fori_loop; enstrophy and energy reported."""
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

N = 32
VISCOSITY = 1e-3
DT = 0.01


def wavenumbers(n):
    kx = jnp.fft.fftfreq(n, d=1.0 / n)
    ky = jnp.fft.rfftfreq(n, d=1.0 / n)
    return jnp.meshgrid(kx, ky, indexing="ij")


KX, KY = wavenumbers(N)
K2 = KX ** 2 + KY ** 2
K2_SAFE = jnp.where(K2 == 0, 1.0, K2)
DEALIAS = (jnp.abs(KX) < N / 3) & (jnp.abs(KY) < N / 3)


def velocity(omega_hat):
    psi_hat = omega_hat / K2_SAFE
    u = jnp.fft.irfft2(1j * KY * psi_hat, s=(N, N))
    v = jnp.fft.irfft2(-1j * KX * psi_hat, s=(N, N))
    return u, v


def nonlinear(omega_hat):
    u, v = velocity(omega_hat)
    dwdx = jnp.fft.irfft2(1j * KX * omega_hat, s=(N, N))
    dwdy = jnp.fft.irfft2(1j * KY * omega_hat, s=(N, N))
    return -jnp.fft.rfft2(u * dwdx + v * dwdy) * DEALIAS


def step(_, omega_hat):
    half = (omega_hat + 0.5 * DT * nonlinear(omega_hat)) / (1 + 0.5 * DT * VISCOSITY * K2)
    explicit = omega_hat + DT * nonlinear(half) - 0.5 * DT * VISCOSITY * K2 * omega_hat
    return explicit / (1 + 0.5 * DT * VISCOSITY * K2)


@jax.jit
def program(omega0):
    omega_hat = jnp.fft.rfft2(omega0)
    omega_hat = lax.fori_loop(0, 40, step, omega_hat)
    omega = jnp.fft.irfft2(omega_hat, s=(N, N))
    u, v = velocity(omega_hat)
    return omega, 0.5 * jnp.mean(omega ** 2), 0.5 * jnp.mean(u ** 2 + v ** 2), \
        jnp.abs(omega_hat).max()


def inputs():
    x = np.linspace(0, 2 * np.pi, N, endpoint=False)
    xx, yy = np.meshgrid(x, x, indexing="ij")
    rng = np.random.default_rng(24)
    omega = np.sin(xx) * np.cos(2 * yy) + 0.3 * np.cos(3 * xx + yy) \
        + 0.05 * rng.standard_normal((N, N))
    return (omega.astype(np.float32),)
