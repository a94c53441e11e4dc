"""pgx's 2048: an int8 board of powers of two, lax.switch with operand-free branches to rotate
it (jnp.rot90), each row slid and merged by a vmap over chains of operand-free lax.cond
(batched predicates), jnp.roll on slices, and new tiles placed by jax.random.choice with a
boolean p; a game of 30 moves run with lax.scan."""
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

ZERO = jnp.int8(0)


def add_tile(board, key):
    position = jax.random.choice(key, jnp.arange(16, dtype=jnp.int8), p=(board == 0))
    return board.at[position].set(1)


def slide_left(line):
    line = lax.cond(line[2] == 0, lambda: line.at[2:].set(jnp.roll(line[2:], -1)),
                    lambda: line)
    line = lax.cond(line[1] == 0, lambda: line.at[1:].set(jnp.roll(line[1:], -1)),
                    lambda: line)
    return lax.cond(line[0] == 0, lambda: jnp.roll(line, -1), lambda: line)


def merge(line):
    for i in range(3):
        line = lax.cond((line[i] != 0) & (line[i] == line[i + 1]),
                        lambda: line.at[i].set(line[i] + 1).at[i + 1].set(ZERO),
                        lambda: line)
    return line


def slide_and_merge(line):
    return slide_left(merge(slide_left(line)))


def move(carry, inputs):
    board, key = carry
    action, = inputs
    board_2d = board.reshape((4, 4))
    board_2d = lax.switch(action, [lambda: board_2d] +
                          [lambda k=k: jnp.rot90(board_2d, k) for k in (1, 2, 3)])
    board_2d = jax.vmap(slide_and_merge)(board_2d)
    board_2d = lax.switch(action, [lambda: board_2d] +
                          [lambda k=k: jnp.rot90(board_2d, -k) for k in (1, 2, 3)])
    key, sub = jax.random.split(key)
    board = board_2d.ravel()
    has_room = jnp.any(board == 0)
    board = jnp.where(has_room, add_tile(board, sub), board)
    return (board, key), board.max()


@jax.jit
def program(seed, actions):
    key1, key2, key3 = jax.random.split(jax.random.PRNGKey(seed), 3)
    board = add_tile(add_tile(jnp.zeros(16, jnp.int8), key1), key2)
    (board, _), best = lax.scan(move, (board, key3), (actions,))
    score = jnp.where(board > 0, 2 ** board.astype(jnp.int32), 0).sum()
    return board.reshape(4, 4), best, score


def inputs():
    rng = np.random.default_rng(16)
    return np.int32(3), rng.integers(0, 4, 30).astype(np.int32)
