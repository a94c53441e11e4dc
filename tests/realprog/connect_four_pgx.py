"""pgx's Connect Four: a flat int32 board, a module-level table of the 69 winning lines
indexed with the board (`board[IDX]`), a move placed with .at[] at a traced row, lax.select
for the winner, lax.cond with operand-free branches for the returns, and a vmap of the
observation planes; 16 games played by random legal moves, vmapped over a lax.scan."""
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax


def _winning_lines():
    lines = []
    for i in range(3):
        for j in range(7):
            lines.append([i * 7 + j + 7 * k for k in range(4)])      # vertical
    for i in range(6):
        for j in range(4):
            lines.append([i * 7 + j + k for k in range(4)])          # horizontal
    for i in range(3):
        for j in range(4):
            lines.append([i * 7 + j + 8 * k for k in range(4)])      # diagonal
        for j in range(3, 7):
            lines.append([i * 7 + j + 6 * k for k in range(4)])      # anti-diagonal
    return jnp.int32(lines)


IDX = _winning_lines()


def init():
    return {"turn": jnp.int32(0), "board": -jnp.ones(42, jnp.int32), "winner": jnp.int32(-1)}


def legal_mask(state):
    return (state["board"].reshape(6, 7) >= 0).sum(axis=0) < 6


def terminal(state):
    full = jnp.all((state["board"].reshape(6, 7) >= 0).sum(axis=0) == 6)
    return (state["winner"] >= 0) | full


def play(state, action):
    board = state["board"].reshape(6, 7)
    filled = (board[:, action] >= 0).sum()
    board = board.at[5 - filled, action].set(state["turn"])
    won = (board.flatten()[IDX] == state["turn"]).all(axis=1).any()
    return {"turn": 1 - state["turn"], "board": board.flatten(),
            "winner": lax.select(won, state["turn"], -1)}


def returns(state):
    return lax.cond(state["winner"] >= 0,
                    lambda: jnp.float32([-1, -1]).at[state["winner"]].set(1),
                    lambda: jnp.zeros(2, jnp.float32))


def observe(state, color):
    turns = lax.select(color == 0, jnp.int32([0, 1]), jnp.int32([1, 0]))
    planes = jax.vmap(lambda turn: state["board"].reshape(6, 7) == turn)(turns)
    return jnp.stack(planes, -1)


def turn_step(state, key):
    done = terminal(state)
    logits = jnp.where(legal_mask(state), 0.0, -jnp.inf)
    action = jax.random.categorical(key, logits)
    state = jax.tree_util.tree_map(lambda old, new: jnp.where(done, old, new),
                                   state, play(state, action))
    return state, returns(state) * ~done


def game(key):
    final, rewards = lax.scan(turn_step, init(), jax.random.split(key, 42))
    planes = observe(final, final["turn"])
    return final["board"], final["winner"], rewards.sum(axis=0), planes.sum(axis=(0, 1))


@jax.jit
def program(seed):
    keys = jax.random.split(jax.random.PRNGKey(seed), 16)
    return jax.vmap(game)(keys)


def inputs():
    return (np.int32(7),)
