"""pgx's Hex on a 7x7 board: a NamedTuple state with array defaults and a `color` property,
stones merged into connected groups by ids (a fori_loop of operand-free lax.cond over the six
neighbours, jnp.where on the board), the swap rule through jnp.nonzero(size=1), the legal
mask by jnp.append, the terminal test by a cond returning two edge slices and a vmap, and
observations by jnp.stack(..., dtype=bool); 8 random games vmapped over a scan."""
from functools import partial
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
from jax import Array

SIZE = 7


class GameState(NamedTuple):
    step_count: Array = jnp.int32(0)
    board: Array = jnp.zeros(SIZE * SIZE, jnp.int32)    # >0 own groups, <0 the opponent's

    @property
    def color(self):
        return self.step_count % 2


def neighbours(xy, size):
    x, y = xy // size, xy % size
    xs = jnp.array([x, x + 1, x - 1, x + 1, x - 1, x])
    ys = jnp.array([y - 1, y - 1, y, y, y + 1, y + 1])
    on_board = (0 <= xs) & (xs < size) & (0 <= ys) & (ys < size)
    return jnp.where(on_board, xs * size + ys, -1)


def place(state, action, size):
    stone = action + 1
    board = state.board.at[action].set(stone)
    adjacent = neighbours(action, size)

    def merge(i, b):
        pos = adjacent[i]
        return jax.lax.cond((pos >= 0) & (b[pos] > 0),
                            lambda: jnp.where(b == b[pos], stone, b), lambda: b)

    board = jax.lax.fori_loop(0, 6, merge, board)
    return state._replace(step_count=state.step_count + 1, board=board * -1)


def swap(state, size):
    ix = jnp.nonzero(state.board, size=1)[0]
    mirrored = (ix % size) * size + ix // size
    board = state.board.at[ix].set(0).at[mirrored].set(mirrored + 1)
    return state._replace(step_count=state.step_count + 1, board=board * -1)


def step(state, action):
    return jax.lax.cond(action != SIZE * SIZE, lambda: partial(place, size=SIZE)(state, action),
                        lambda: partial(swap, size=SIZE)(state))


def legal_action_mask(state):
    return jnp.append(state.board == 0, state.step_count == 1)


def is_terminal(state):
    top, bottom = jax.lax.cond(
        state.color == 0,
        lambda: (state.board[::SIZE], state.board[SIZE - 1::SIZE]),
        lambda: (state.board[:SIZE], state.board[-SIZE:]))
    return jax.vmap(lambda group: (group < 0) & (group == bottom).any())(top).any()


def observe(state):
    board = state.board.reshape((SIZE, SIZE))
    ones = jnp.ones_like(board > 0)
    return jnp.stack([board > 0, board < 0, state.color * ones,
                      (state.step_count == 1) * ones], 2, dtype=jnp.bool_)


def turn(state_done, key):
    state, done = state_done
    logits = jnp.where(legal_action_mask(state), 0.0, -jnp.inf)
    action = jax.random.categorical(key, logits)
    new = step(state, action)
    state = jax.tree_util.tree_map(lambda a, b: jnp.where(done, a, b), state, new)
    done = done | is_terminal(state)
    return (state, done), action


def game(key):
    (state, done), actions = jax.lax.scan(turn, (GameState(), jnp.bool_(False)),
                                          jax.random.split(key, SIZE * SIZE))
    return state.board, state.step_count, done, actions, observe(state).sum(axis=(0, 1))


@jax.jit
def program(seed):
    return jax.vmap(game)(jax.random.split(jax.random.PRNGKey(seed), 8))


def inputs():
    return (np.int32(5),)
