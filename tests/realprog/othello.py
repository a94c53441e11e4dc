"""pgx-style Othello: legal moves by shifting the board in 8 directions, flips by fori_loop."""
import jax
import jax.numpy as jnp
from jax import lax
import numpy as np

DIRS = jnp.array([[-1, -1], [-1, 0], [-1, 1], [0, -1], [0, 1], [1, -1], [1, 0], [1, 1]])


def shift(board, d):
    padded = jnp.pad(board, 1)
    return lax.dynamic_slice(padded, (1 + d[0], 1 + d[1]), (8, 8))


def flips_in_direction(board, me, pos, d):
    def body(i, carry):
        r, c, run, done, count = carry
        r = r + d[0]
        c = c + d[1]
        inside = (r >= 0) & (r < 8) & (c >= 0) & (c < 8)
        cell = jnp.where(inside, board[jnp.clip(r, 0, 7), jnp.clip(c, 0, 7)], 0)
        opp = cell == -me
        mine = cell == me
        count = jnp.where(done, count, jnp.where(opp, count + 1, count))
        run = jnp.where(done, run, mine & (count > 0))
        done = done | ~opp
        return r, c, run, done, count
    _, _, ok, _, n = lax.fori_loop(0, 8, body, (pos[0], pos[1], False, False, 0))
    return jnp.where(ok, n, 0)


def legal_mask(board, me):
    empty = board == 0
    def per_cell(idx):
        pos = jnp.array([idx // 8, idx % 8])
        counts = jax.vmap(lambda d: flips_in_direction(board, me, pos, d))(DIRS)
        return counts.sum() > 0
    legal = jax.vmap(per_cell)(jnp.arange(64)).reshape(8, 8)
    return legal & empty


def apply_move(board, me, idx):
    pos = jnp.array([idx // 8, idx % 8])
    counts = jax.vmap(lambda d: flips_in_direction(board, me, pos, d))(DIRS)
    def flip_dir(k, b):
        d = DIRS[k]
        def body(i, b):
            r = pos[0] + d[0] * (i + 1)
            c = pos[1] + d[1] * (i + 1)
            return jnp.where(i < counts[k], b.at[r, c].set(me), b)
        return lax.fori_loop(0, 7, body, b)
    board = lax.fori_loop(0, 8, flip_dir, board)
    return board.at[pos[0], pos[1]].set(me)


@jax.jit
def program(seed):
    board = jnp.zeros((8, 8), jnp.int32)
    board = board.at[3, 3].set(1).at[4, 4].set(1).at[3, 4].set(-1).at[4, 3].set(-1)
    def step(carry, key):
        board, me = carry
        legal = legal_mask(board, me).ravel()
        logits = jnp.where(legal, 0.0, -jnp.inf)
        idx = jax.random.categorical(key, logits)
        has = legal.any()
        board = jnp.where(has, apply_move(board, me, idx), board)
        return (board, -me), (idx, has, legal.sum())
    keys = jax.random.split(jax.random.PRNGKey(seed), 20)
    (board, me), (moves, has, nlegal) = lax.scan(step, (board, jnp.int32(1)), keys)
    return board, me, moves, has, nlegal, (board == 1).sum() - (board == -1).sum()


def inputs():
    return (np.int32(7),)
