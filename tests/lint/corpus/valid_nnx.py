"""Working flax.nnx code (it runs under JAX: tools/confirm_lint_nnx_corpus.py): static module
attributes branched on in Python, Variables updated in place, train/eval switches, optimizers
and metrics under `nnx.jit`, `nnx.split`/`nnx.merge` under `jax.jit`, nnx transformations."""

from functools import partial

import jax
import jax.numpy as jnp
import optax
from flax import nnx


class Block(nnx.Module):
    def __init__(self, din, dout, use_norm, dropout_rate, *, rngs: nnx.Rngs):
        self.linear = nnx.Linear(din, dout, rngs=rngs)
        self.norm = nnx.BatchNorm(dout, rngs=rngs) if use_norm else None
        self.dropout = nnx.Dropout(dropout_rate, rngs=rngs)
        self.use_norm = use_norm
        self.residual = din == dout
        self.dout = dout

    def __call__(self, x):
        y = self.linear(x)
        if self.use_norm:
            y = self.norm(y)
        if self.norm is not None and self.dout > 1:
            y = y * 1.0
        y = self.dropout(nnx.relu(y))
        return x + y if self.residual else y


class Classifier(nnx.Module):
    def __init__(self, sizes, *, rngs: nnx.Rngs):
        self.blocks = nnx.List(
            [Block(a, b, i % 2 == 0, 0.1, rngs=rngs) for i, (a, b) in enumerate(zip(sizes[:-1], sizes[1:]))]
        )
        self.steps = nnx.Variable(jnp.zeros((), jnp.int32))
        self.num_layers = len(sizes) - 1
        self.temperature = 1.0

    def __call__(self, x):
        for block in self.blocks:
            x = block(x)
        self.steps[...] += 1
        if self.temperature != 1.0:
            x = x / self.temperature
        return x

    def logits_and_count(self, x):
        return self(x), self.steps[...]


model = Classifier([8, 8, 3], rngs=nnx.Rngs(0))
optimizer = nnx.Optimizer(model, optax.adam(1e-3), wrt=nnx.Param)
metrics = nnx.MultiMetric(loss=nnx.metrics.Average("loss"), accuracy=nnx.metrics.Accuracy())


def loss_fn(model: Classifier, x, labels):
    logits = model(x)
    loss = optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()
    return loss, logits


@nnx.jit
def train_step(model: Classifier, optimizer, metrics, x, labels):
    grad_fn = nnx.value_and_grad(loss_fn, has_aux=True)
    (loss, logits), grads = grad_fn(model, x, labels)
    metrics.update(loss=loss, logits=logits, labels=labels)
    optimizer.update(model, grads)
    return loss


@nnx.jit
def eval_step(model: Classifier, x):
    logits, count = model.logits_and_count(x)
    return jnp.argmax(logits, axis=-1), count


@partial(nnx.jit, static_argnames=["repeats"])
def repeated(model: Classifier, x, repeats):
    for _ in range(repeats):
        x = jnp.tanh(x)
    return model(x)


graphdef, state = nnx.split(model)


@jax.jit
def pure_forward(state, x):
    merged = nnx.merge(graphdef, state)
    y = merged(x)
    _, new_state = nnx.split(merged)
    return y, new_state


class Ensemble(nnx.Module):
    def __init__(self, members, *, rngs: nnx.Rngs):
        @nnx.split_rngs(splits=members)
        @nnx.vmap
        def create(rngs: nnx.Rngs):
            return nnx.Linear(4, 2, rngs=rngs)

        self.members = create(rngs)
        self.count = members

    def __call__(self, x):
        outputs = nnx.vmap(lambda member, x: member(x), in_axes=(0, None))(self.members, x)
        return outputs.mean(axis=0) if self.count > 1 else outputs[0]


ensemble = Ensemble(3, rngs=nnx.Rngs(2))


@nnx.jit
def ensemble_predict(ensemble: Ensemble, x):
    return ensemble(x)


def run_all():
    x = jnp.ones((5, 8))
    labels = jnp.array([0, 1, 2, 0, 1])
    model.train()
    train_step(model, optimizer, metrics, x, labels)
    model.eval()
    eval_step(model, x)
    repeated(model, x, 2)
    pure_forward(state, x)
    ensemble_predict(ensemble, jnp.ones((5, 4)))
