"""Tic-tac-toe in pgx's style: a board of -1/0/1, win lines as a module-level table indexed
by the board, legal-action masks, a greedy policy picking the first legal cell, lax.cond for
the terminal check and lax.fori_loop playing a game; vmapped over boards."""
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

WIN_LINES = jnp.array([[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8],
                       [0, 4, 8], [2, 4, 6]])


def winner(board):
    lines = board[WIN_LINES]
    x_wins = jnp.any(jnp.all(lines == 1, axis=1))
    o_wins = jnp.any(jnp.all(lines == -1, axis=1))
    return jnp.where(x_wins, 1, jnp.where(o_wins, -1, 0))


def play_turn(i, state):
    board, player, done, rewards = state
    legal = board == 0
    scores = jnp.where(legal, jnp.arange(9) * (i % 2 * 2 - 1) % 9, -100)
    action = jnp.argmax(scores)

    def move(board):
        return board.at[action].set(player)

    board = lax.cond(done, lambda b: b, move, board)
    w = winner(board)
    rewards = jnp.where(done, rewards, jnp.array([w, -w]) * 1.0)
    done = done | (w != 0) | ~jnp.any(board == 0)
    return board, -player, done, rewards


def play(board):
    state = (board, jnp.int32(1), jnp.bool_(False), jnp.zeros(2, jnp.float32))
    board, _, done, rewards = lax.fori_loop(0, 9, play_turn, state)
    return board, done, rewards


program = jax.jit(jax.vmap(play))


def inputs():
    boards = np.zeros((4, 9), np.int32)
    boards[1, [0, 4]] = [1, -1]
    boards[2, [2, 6, 8]] = [-1, 1, -1]
    boards[3, [0, 1, 3, 4]] = [1, -1, -1, 1]
    return (boards,)
