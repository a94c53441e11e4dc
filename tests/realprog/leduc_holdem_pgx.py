"""pgx's Leduc Hold'em: int8 chips, rounds and raise counts (jnp.int8 applied to traced
bools and ints), lax.switch over operand-free branches that update chips or return legal
masks, rewards chosen by nested lax.select of float32 pairs, a card deal by
jax.random.permutation(..., independent=True), a frozen registered dataclass with `replace`,
and a bool observation; 32 hands of random legal play vmapped over a scan."""
import dataclasses

import jax
import jax.numpy as jnp
import numpy as np

CALL, RAISE, FOLD = 0, 1, 2
INVALID_ACTION = jnp.int8(-1)
MAX_RAISE = jnp.int8(2)
TRUE = jnp.bool_(True)


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class State:
    current_player: jax.Array
    first_player: jax.Array
    cards: jax.Array
    legal_action_mask: jax.Array
    terminated: jax.Array
    reward: jax.Array
    last_action: jax.Array
    chips: jax.Array
    round: jax.Array
    raise_count: jax.Array

    def replace(self, **changes):
        return dataclasses.replace(self, **changes)


def init(key):
    k1, k2 = jax.random.split(key)
    player = jnp.int8(jax.random.bernoulli(k1))
    deck = jax.random.permutation(k2, jnp.int8([0, 0, 1, 1, 2, 2]), independent=True)
    return State(player, player, deck[:3], jnp.bool_([1, 1, 0]), jnp.bool_(False),
                 jnp.float32([0, 0]), INVALID_ACTION, jnp.ones(2, dtype=jnp.int8),
                 jnp.int8(0), jnp.int8(0))


def unit_reward(state):
    me, other = state.current_player, 1 - state.current_player
    pair = state.cards[me] == state.cards[2]
    opponent_pair = state.cards[other] == state.cards[2]
    win = pair | (~opponent_pair & (state.cards[me] > state.cards[other]))
    reward = jax.lax.select(win, jnp.float32([-1, -1]).at[me].set(1),
                            jnp.float32([-1, -1]).at[other].set(1))
    return jax.lax.select(state.cards[me] == state.cards[other], jnp.float32([0, 0]), reward)


def round_over_check(state, action):
    over = (action == FOLD) | ((state.last_action != INVALID_ACTION) & (action == CALL))
    terminated = over & (state.round == 1)
    reward = jax.lax.select(terminated & (action == FOLD),
                            jnp.float32([-1, -1]).at[1 - state.current_player].set(1),
                            jnp.float32([0, 0]))
    reward = jax.lax.select(terminated & (action != FOLD), unit_reward(state), reward)
    return over, terminated, reward


def step(state, action):
    action = jnp.int8(action)
    player = state.current_player
    chips = jax.lax.switch(action, [
        lambda: state.chips.at[player].set(state.chips[1 - player]),
        lambda: state.chips.at[player].set(jnp.max(state.chips) + (state.round + 1) * 2),
        lambda: state.chips])
    over, terminated, reward = round_over_check(state, action)
    raise_count = jax.lax.select(over, jnp.int8(0),
                                 state.raise_count + jnp.int8(action == RAISE))
    reward *= jnp.min(chips)
    legal = jax.lax.switch(action, [lambda: jnp.bool_([1, 1, 0]), lambda: jnp.bool_([1, 1, 1]),
                                    lambda: jnp.bool_([0, 0, 0])])
    legal = legal.at[RAISE].set(raise_count < MAX_RAISE)
    return state.replace(
        current_player=jax.lax.select(over, state.first_player, 1 - player),
        last_action=jax.lax.select(over, INVALID_ACTION, action), legal_action_mask=legal,
        terminated=terminated, reward=reward, round=state.round + jnp.int8(over), chips=chips,
        raise_count=raise_count)


def observe(state, player):
    obs = jnp.zeros(34, dtype=jnp.bool_)
    obs = obs.at[state.cards[player]].set(TRUE)
    obs = jax.lax.select(state.round == 1, obs.at[3 + state.cards[2]].set(TRUE), obs)
    obs = obs.at[6 + state.chips[player]].set(TRUE)
    return obs.at[20 + state.chips[1 - player]].set(TRUE)


def act(state, key):
    logits = jnp.log(state.legal_action_mask.astype(jnp.float32))
    action = jax.random.categorical(key, logits)
    new = step(state, action)
    state = jax.tree_util.tree_map(lambda a, b: jnp.where(state.terminated, a, b), state, new)
    return state, state.reward


def hand(key):
    k_init, k_play = jax.random.split(key)
    state, rewards = jax.lax.scan(act, init(k_init), jax.random.split(k_play, 8))
    return state.cards, state.chips, state.round, state.terminated, rewards[-1], \
        observe(state, 0)


@jax.jit
def program(seed):
    return jax.vmap(hand)(jax.random.split(jax.random.PRNGKey(seed), 32))


def inputs():
    return (np.int32(8),)
