"""MinAtar Space Invaders in gymnax's style: float bullet/alien maps shifted with jnp.roll
(the aliens by a traced shift), count_nonzero, logical_and of float maps and bools, the
nearest alien found by iterating a Python for-loop over a traced argsort result (tracer
iteration, traced column indexing, jnp.array of mixed bool/float/int tracers, then
dtype=int), and lax.select over whole maps; 4 episodes vmapped over a scan."""
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

SHOT_COOL_DOWN, MOVE_INTERVAL, SHOT_INTERVAL = 5, 6, 10


def reset():
    return {"pos": 5, "f_bullets": jnp.zeros((10, 10)), "e_bullets": jnp.zeros((10, 10)),
            "aliens": jnp.zeros((10, 10)).at[0:4, 2:9].set(1), "alien_dir": -1,
            "move_interval": MOVE_INTERVAL, "move_timer": MOVE_INTERVAL,
            "shot_timer_aliens": SHOT_INTERVAL, "shot_timer": 0, "time": 0, "terminal": False}


def step_agent(action, s):
    fire = jnp.logical_and(action == 5, s["shot_timer"] == 0)
    f_bullets = lax.select(fire, s["f_bullets"].at[9, s["pos"]].set(1), s["f_bullets"])
    shot_timer = lax.select(fire, SHOT_COOL_DOWN, s["shot_timer"])
    pos = lax.select(action == 1, jnp.maximum(0, s["pos"] - 1), s["pos"])
    pos = lax.select(action == 3, jnp.minimum(9, pos + 1), pos)
    f_bullets = jnp.roll(f_bullets, -1, axis=0).at[9, :].set(0)
    e_bullets = jnp.roll(s["e_bullets"], 1, axis=0).at[0, :].set(0)
    terminal = jnp.logical_or(s["terminal"], e_bullets[9, s["pos"]])
    return dict(s, pos=pos, f_bullets=f_bullets, e_bullets=e_bullets, shot_timer=shot_timer,
                terminal=terminal)


def step_aliens(s):
    hit_1 = s["aliens"][9, s["pos"]]
    move = s["move_timer"] == 0
    move_timer = lax.select(move, jnp.minimum(jnp.count_nonzero(s["aliens"]),
                                              s["move_interval"]), s["move_timer"])
    at_left = jnp.logical_and(jnp.sum(s["aliens"][:, 0]) > 0, s["alien_dir"] < 0)
    at_right = jnp.logical_and(jnp.sum(s["aliens"][:, 9]) > 0, s["alien_dir"] > 0)
    border = jnp.logical_and(move, jnp.logical_or(at_left, at_right))
    alien_dir = lax.select(border, -1 * s["alien_dir"], s["alien_dir"])
    hit_2 = jnp.logical_and(border, jnp.sum(s["aliens"][9, :]) > 0)
    aliens = lax.select(move, lax.select(border, jnp.roll(s["aliens"], 1, axis=0),
                                         jnp.roll(s["aliens"], alien_dir, axis=1)),
                        s["aliens"])
    hit_3 = jnp.logical_and(move, aliens[9, s["pos"]])
    terminal = jnp.logical_or(s["terminal"], (hit_1 + hit_2 + hit_3) > 0)
    return dict(s, move_timer=move_timer, alien_dir=alien_dir, aliens=aliens,
                terminal=terminal)


def nearest_alien(pos, aliens):
    distance = jnp.array([jnp.abs(jnp.array([i for i in range(10)]) - pos)])
    order = jnp.argsort(distance).squeeze()
    found = jnp.zeros(3)
    exists = jnp.sum(aliens, axis=0) > 0
    for i in order[::-1]:
        row = jnp.max(aliens[:, i] * jnp.arange(aliens[:, i].shape[0]))
        found = exists[i] * found.at[:].set(jnp.array([exists[i], row, i])) \
            + (1 - exists[i]) * found
    found = jnp.array(found, dtype=int)
    return found[0], found[1], found[2]


def step_shoot(s):
    reward = 0
    shoot = s["shot_timer_aliens"] == 0
    shot_timer_aliens = lax.select(shoot, SHOT_INTERVAL, s["shot_timer_aliens"])
    exists, row, column = nearest_alien(s["pos"], s["aliens"])
    e_bullets = lax.select(jnp.logical_and(shoot, exists),
                           s["e_bullets"].at[row, column].set(1), s["e_bullets"])
    kills = jnp.logical_and(s["aliens"], s["aliens"] == s["f_bullets"])
    reward += jnp.sum(kills)
    return dict(s, shot_timer_aliens=shot_timer_aliens, e_bullets=e_bullets,
                aliens=s["aliens"] * (1 - kills), f_bullets=s["f_bullets"] * (1 - kills)), reward


def step(s, action):
    s = step_shoot(step_aliens(step_agent(action, s)))
    s, reward = s
    cleared = jnp.count_nonzero(s["aliens"]) == 0
    s = dict(s, shot_timer=s["shot_timer"] - (s["shot_timer"] > 0),
             move_timer=s["move_timer"] - 1, shot_timer_aliens=s["shot_timer_aliens"] - 1,
             aliens=lax.select(cleared, s["aliens"].at[0:4, 2:8].set(1), s["aliens"]),
             time=s["time"] + 1)
    obs = jnp.zeros((10, 10, 4), dtype=bool).at[9, s["pos"], 0].set(1)
    obs = obs.at[:, :, 1].set(s["aliens"]).at[:, :, 2].set(s["f_bullets"])
    obs = obs.at[:, :, 3].set(s["e_bullets"])
    return s, (reward, s["terminal"], obs.sum(axis=(0, 1)))


def episode(actions):
    state = jax.tree_util.tree_map(jnp.asarray, reset())
    final, (rewards, terminal, counts) = lax.scan(step, state, actions)
    return final["aliens"], final["pos"], rewards, terminal, counts


@jax.jit
def program(actions):
    return jax.vmap(episode)(actions)


def inputs():
    rng = np.random.default_rng(27)
    return (rng.choice(np.array([0, 1, 3, 5], np.int32), (4, 40)),)
