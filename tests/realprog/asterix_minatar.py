"""MinAtar Asterix in gymnax's style: an (8, 5) int entity table, spawning with
jax.random.choice (with p=), a random slot order from jax.random.permutation searched by a
lax.while_loop, Python loops over entities with .at[] updates, collisions summed into Python
ints and int arrays, and a bool observation cast to float32; rolled out with lax.scan."""
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

ACTIONS = jnp.array([0, 1, 2, 3, 4])


def free_slot(key, occupied):
    order = jax.random.permutation(key, jnp.arange(8))
    shuffled = occupied[order]

    def searching(val):
        return jnp.logical_and(val[0] < 7, val[1] == 0)

    def advance(val):
        val = val.at[0].set(val[0] + 1)
        return val.at[1].set(shuffled[val[0]] == 0)

    found = lax.while_loop(searching, advance, jnp.array([0, 0]))
    return order[found[0]], found[1]


def spawn(key, entities):
    key_lr, key_gold, key_slot = jax.random.split(key, 3)
    lr = jax.random.choice(key_lr, jnp.array([1, 0]))
    gold = jax.random.choice(key_gold, jnp.array([1, 0]), p=jnp.array([1 / 3, 2 / 3]))
    slot, free = free_slot(key_slot, entities[:, 4])
    return jnp.array([(1 - lr) * 9, slot + 1, lr, gold, free]), slot


def move_player(state, action):
    x, y = state["player_x"], state["player_y"]
    x = (jnp.maximum(0, x - 1) * (action == 1) + jnp.minimum(9, x + 1) * (action == 3)
         + x * jnp.logical_and(action != 1, action != 3))
    y = (jnp.maximum(1, y - 1) * (action == 2) + jnp.minimum(8, y + 1) * (action == 4)
         + y * jnp.logical_and(action != 2, action != 4))
    return dict(state, player_x=x, player_y=y)


def move_entities(state):
    done, reward = 0, jnp.array(0)
    entities = state["entities"]
    for i in range(8):
        e = entities[i]
        hit = jnp.logical_and(jnp.logical_and(e[0] == state["player_x"],
                                              e[1] == state["player_y"]), e[4] != 0)
        gold = jnp.logical_and(hit, e[3])
        reward += gold
        entities = entities.at[i].set(e * (1 - gold))
        done += jnp.logical_and(hit, 1 - e[3])
    time_to_move = state["move_timer"] == 0
    move_timer = lax.select(time_to_move, state["move_speed"], state["move_timer"])
    before = entities
    for i in range(8):
        e = entities[i]
        filled = e[4] != 0
        e = e.at[0].set(lax.select(filled, e[0] + e[2] - (1 - e[2]), e[0]))
        outside = jnp.logical_or(e[0] < 0, e[0] > 9)
        entities = lax.select(time_to_move, entities.at[i].set(e * filled * (1 - outside)),
                              before)
        hit = jnp.logical_and(jnp.logical_and(e[0] == state["player_x"],
                                              e[1] == state["player_y"]), filled)
        gold = jnp.logical_and(hit, e[3])
        reward += lax.select(time_to_move, gold, False) * 1
        entities = lax.select(time_to_move, entities.at[i].set(entities[i] * (1 - gold)),
                              before)
        done += lax.select(time_to_move, jnp.logical_and(hit, 1 - e[3]), False)
    return dict(state, entities=entities, move_timer=move_timer), reward, jnp.bool_(done > 0)


def observe(state):
    obs = jnp.zeros((10, 10, 5), dtype=bool)
    obs = obs.at[state["player_y"], state["player_x"], 0].set(1)
    for i in range(8):
        e = state["entities"][i]
        channel = (3 * e[3] + (1 - e[3])) * e[4] + 4 * (1 - e[4])
        obs = obs.at[e[1], e[0], channel].set(1)
        back = (e[0] - 1) * e[2] + (e[0] + 1) * (1 - e[2])
        obs = obs.at[e[1], back, 2 * e[4] + 4 * (1 - e[4])].set(
            jnp.logical_and(back >= 0, back <= 9))
    return obs[:, :, :4].astype(jnp.float32)


def step(state, inputs):
    key, action = inputs
    spawn_now = state["spawn_timer"] == 0
    entity, slot = spawn(key, state["entities"])
    state = dict(state,
                 entities=lax.select(spawn_now, state["entities"].at[slot].set(entity),
                                     state["entities"]),
                 spawn_timer=lax.select(spawn_now, state["spawn_speed"], state["spawn_timer"]))
    state = move_player(state, ACTIONS[action])
    state, reward, done = move_entities(state)
    state = dict(state, spawn_timer=state["spawn_timer"] - 1,
                 move_timer=state["move_timer"] - 1, time=state["time"] + 1)
    return state, (observe(state).sum(axis=(0, 1)), reward.astype(jnp.float32), done)


@jax.jit
def program(seed, actions):
    state = {"player_x": 5, "player_y": 5, "spawn_speed": 3, "spawn_timer": 3,
             "move_speed": 2, "move_timer": 2, "entities": jnp.zeros((8, 5), dtype=int),
             "time": 0}
    state = jax.tree_util.tree_map(jnp.asarray, state)
    keys = jax.random.split(jax.random.PRNGKey(seed), actions.shape[0])
    final, (channel_counts, rewards, dones) = lax.scan(step, state, (keys, actions))
    return final["entities"], final["player_x"], channel_counts, rewards, dones


def inputs():
    rng = np.random.default_rng(13)
    return np.int32(4), rng.integers(0, 5, 40).astype(np.int32)
