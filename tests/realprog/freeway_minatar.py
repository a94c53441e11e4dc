"""MinAtar Freeway in gymnax's style: car rows as an (8, 4) int table set with .at[i, :].set()
of a Python list mixing ints and traced values, speeds from jax.random.randint and directions
from jax.random.choice(shape=), cars moved on per-car timers with jnp.where, collisions
pushing the chicken back, trails in a bool observation indexed by traced channel numbers, and
the episode as a lax.scan, vmapped over 3 seeds."""
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax


def randomize_cars(speeds, directions, old_cars, initialize):
    signed = directions * speeds
    fresh = jnp.zeros((8, 4), dtype=int)
    for i in range(8):
        fresh = fresh.at[i, :].set([0, i + 1, jnp.abs(signed[i]), signed[i]])
        old_cars = old_cars.at[i, 2:4].set([jnp.abs(signed[i]), signed[i]])
    cars = initialize * fresh + (1 - initialize) * old_cars
    return jnp.array(cars, dtype=int)


def draw_speeds(key):
    key_speed, key_dir = jax.random.split(key)
    speeds = jax.random.randint(key_speed, shape=(8,), minval=1, maxval=6)
    directions = jax.random.choice(key_dir, jnp.array([-1, 1]), shape=(8,))
    return speeds, directions


def observe(state):
    obs = jnp.zeros((10, 10, 7), dtype=bool).at[state["pos"], 4, 0].set(True)
    for i in range(8):
        car = state["cars"][i]
        obs = obs.at[car[1], car[0], 1].set(True)
        back = jnp.where(car[3] > 0, car[0] - 1, car[0] + 1)
        back = jnp.where(back < 0, 9, jnp.where(back > 9, 0, back))
        channel = 1 + jnp.abs(car[3])
        obs = obs.at[car[1], back, channel].set(True)
    return obs


def step(state, inputs):
    key, action = inputs
    moving = state["move_timer"] == 0
    up = moving & (action == 2)
    down = moving & (action == 4)
    pos = jnp.clip(state["pos"] - up + down, 0, 9)
    move_timer = jnp.where(up | down, 3, jnp.maximum(state["move_timer"] - 1, 0))
    reward = (pos == 0).astype(jnp.float32)
    pos = jnp.where(pos == 0, 9, pos)
    cars = state["cars"]
    hit = False
    for i in range(8):
        car = cars[i]
        hit = hit | ((car[0] == 4) & (car[1] == pos))
        due = car[2] == 0
        x = jnp.where(due, car[0] + jnp.sign(car[3]), car[0])
        x = jnp.where(x < 0, 9, jnp.where(x > 9, 0, x))
        timer = jnp.where(due, jnp.abs(car[3]), car[2] - 1)
        cars = cars.at[i, 0].set(x).at[i, 2].set(timer)
        hit = hit | ((x == 4) & (car[1] == pos))
    pos = jnp.where(hit, jnp.minimum(pos + 1, 9), pos)
    speeds, directions = draw_speeds(key)
    cars = jnp.where(reward > 0, randomize_cars(speeds, directions, cars, 0), cars)
    state = {"pos": pos, "cars": cars, "move_timer": move_timer, "time": state["time"] + 1}
    return state, (reward, hit, observe(state).sum(axis=(0, 1)))


def episode(key, actions):
    key_init, key_run = jax.random.split(key)
    speeds, directions = draw_speeds(key_init)
    state = {"pos": jnp.int32(9), "cars": randomize_cars(speeds, directions,
                                                         jnp.zeros((8, 4), dtype=int), 1),
             "move_timer": jnp.int32(3), "time": jnp.int32(0)}
    final, (rewards, hits, counts) = lax.scan(
        step, state, (jax.random.split(key_run, actions.shape[0]), actions))
    return final["cars"], final["pos"], rewards.sum(), hits, counts


@jax.jit
def program(seed, actions):
    keys = jax.random.split(jax.random.PRNGKey(seed), actions.shape[0])
    return jax.vmap(episode)(keys, actions)


def inputs():
    rng = np.random.default_rng(34)
    return np.int32(1), rng.choice(np.array([0, 2, 2, 2, 4], np.int32), (3, 40))
