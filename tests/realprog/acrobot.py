"""Acrobot in gymnax's style: a module-level torque table indexed by the traced action, an RK4
integrator written with Python arithmetic on jnp arrays, angle wrapping and bounding."""
import jax
import jax.numpy as jnp
import numpy as np

AVAIL_TORQUE = jnp.array([-1.0, 0.0, 1.0])
DT = 0.2
LINK_LENGTH_1, LINK_MASS_1, LINK_MASS_2 = 1.0, 1.0, 1.0
LINK_COM_POS_1, LINK_COM_POS_2, LINK_MOI = 0.5, 0.5, 1.0
MAX_VEL_1, MAX_VEL_2 = 4 * jnp.pi, 9 * jnp.pi


def dsdt(s_augmented, _):
    m1, m2, l1 = LINK_MASS_1, LINK_MASS_2, LINK_LENGTH_1
    lc1, lc2, i1, i2, g = LINK_COM_POS_1, LINK_COM_POS_2, LINK_MOI, LINK_MOI, 9.8
    a = s_augmented[-1]
    s = s_augmented[:-1]
    theta1, theta2, dtheta1, dtheta2 = s[0], s[1], s[2], s[3]
    d1 = m1 * lc1 ** 2 + m2 * (l1 ** 2 + lc2 ** 2 + 2 * l1 * lc2 * jnp.cos(theta2)) + i1 + i2
    d2 = m2 * (lc2 ** 2 + l1 * lc2 * jnp.cos(theta2)) + i2
    phi2 = m2 * lc2 * g * jnp.cos(theta1 + theta2 - jnp.pi / 2.0)
    phi1 = (-m2 * l1 * lc2 * dtheta2 ** 2 * jnp.sin(theta2)
            - 2 * m2 * l1 * lc2 * dtheta2 * dtheta1 * jnp.sin(theta2)
            + (m1 * lc1 + m2 * l1) * g * jnp.cos(theta1 - jnp.pi / 2) + phi2)
    ddtheta2 = (a + d2 / d1 * phi1 - m2 * l1 * lc2 * dtheta1 ** 2 * jnp.sin(theta2) - phi2) / (
        m2 * lc2 ** 2 + i2 - d2 ** 2 / d1)
    ddtheta1 = -(d2 * ddtheta2 + phi1) / d1
    return jnp.array([dtheta1, dtheta2, ddtheta1, ddtheta2, 0.0])


def rk4(y0, t):
    k1 = dsdt(y0, t)
    k2 = dsdt(y0 + DT / 2.0 * k1, t + DT / 2.0)
    k3 = dsdt(y0 + DT / 2.0 * k2, t + DT / 2.0)
    k4 = dsdt(y0 + DT * k3, t + DT)
    return y0 + DT / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4)


def wrap(x, m, big):
    diff = big - m
    go_up = x < m
    go_down = x >= big
    return jnp.where(go_up, x + diff, jnp.where(go_down, x - diff, x))


@jax.jit
def program(state, action):
    torque = AVAIL_TORQUE[action]
    s_augmented = jnp.append(state, torque)
    ns = rk4(s_augmented, 0.0)[:4]
    joint1 = wrap(ns[0], -jnp.pi, jnp.pi)
    joint2 = wrap(ns[1], -jnp.pi, jnp.pi)
    vel1 = jnp.clip(ns[2], -MAX_VEL_1, MAX_VEL_1)
    vel2 = jnp.clip(ns[3], -MAX_VEL_2, MAX_VEL_2)
    done = -jnp.cos(joint1) - jnp.cos(joint2 + joint1) > 1.0
    obs = jnp.array([jnp.cos(joint1), jnp.sin(joint1), jnp.cos(joint2), jnp.sin(joint2),
                     vel1, vel2])
    return obs, done


def inputs():
    rng = np.random.default_rng(2)
    return rng.uniform(-0.1, 0.1, 4).astype(np.float32), np.int32(2)
