"""Graph-network message passing in jraph's style: edges as (senders, receivers) arrays, one
padding edge pointing past the last node (dropped by the segment ops, as jraph pads graphs),
messages from an edge MLP summed into nodes with jax.ops.segment_sum, degree normalisation,
max/min/prod aggregations, and a readout."""
import jax
import jax.numpy as jnp
import numpy as np

NUM_NODES = 5


def edge_messages(params, nodes, senders, receivers):
    pair = jnp.concatenate([nodes[senders], nodes[jnp.minimum(receivers, NUM_NODES - 1)]],
                           axis=-1)
    return jnp.maximum(pair @ params["w_edge"], 0.0)


@jax.jit
def program(params, nodes, senders, receivers):
    messages = edge_messages(params, nodes, senders, receivers)
    summed = jax.ops.segment_sum(messages, receivers, num_segments=NUM_NODES)
    degree = jax.ops.segment_sum(jnp.ones_like(receivers), receivers, num_segments=NUM_NODES)
    mean = summed / jnp.maximum(degree, 1)[:, None]
    pooled = jax.ops.segment_max(messages, receivers, num_segments=NUM_NODES)
    smallest = jax.ops.segment_min(messages[:, 0], receivers, num_segments=NUM_NODES)
    product = jax.ops.segment_prod(1.0 + 0.1 * messages[:, 1], receivers,
                                   num_segments=NUM_NODES)
    updated = jnp.tanh(jnp.concatenate([nodes, mean], axis=-1) @ params["w_node"])
    return updated, degree, pooled, smallest, product, updated.sum(axis=0)


def inputs():
    rng = np.random.default_rng(17)
    params = {"w_edge": 0.5 * rng.standard_normal((6, 4)).astype(np.float32),
              "w_node": 0.5 * rng.standard_normal((7, 3)).astype(np.float32)}
    nodes = rng.standard_normal((NUM_NODES, 3)).astype(np.float32)
    senders = np.array([0, 1, 2, 3, 4, 0, 2, 0], np.int32)
    receivers = np.array([1, 2, 3, 4, 0, 2, 1, NUM_NODES], np.int32)
    return params, nodes, senders, receivers
