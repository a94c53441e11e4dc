"""Bitboard tricks in uint32: population counts, shifts, masks; a tic-tac-toe win check."""
import jax
import jax.numpy as jnp
from jax import lax
import numpy as np

WINS = jnp.array([0b111000000, 0b000111000, 0b000000111, 0b100100100, 0b010010010,
                  0b001001001, 0b100010001, 0b001010100], dtype=jnp.uint32)


def wins(bits):
    return jnp.any((bits & WINS) == WINS)


@jax.jit
def program(moves):
    def step(carry, move):
        x, o, turn, done = carry
        bit = jnp.uint32(1) << move.astype(jnp.uint32)
        free = ((x | o) & bit) == 0
        play = free & ~done
        x = jnp.where(play & (turn == 0), x | bit, x)
        o = jnp.where(play & (turn == 1), o | bit, o)
        done = done | wins(x) | wins(o)
        turn = jnp.where(play, 1 - turn, turn)
        return (x, o, turn, done), lax.population_count(x | o)
    (x, o, turn, done), counts = lax.scan(step, (jnp.uint32(0), jnp.uint32(0), 0, False), moves)
    mixed = (x * jnp.uint32(2654435761)) ^ (o >> 3)
    return x, o, turn, done, counts, mixed, lax.clz(x), jnp.bitwise_count(o)


def inputs():
    return (np.array([4, 0, 8, 2, 6, 1, 3, 5, 7], np.int32),)
