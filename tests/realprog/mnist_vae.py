"""JAX's examples/mnist_vae.py in small: stax encoder (Dense, Softplus, FanOut to a mean and a
softplus'd std) and decoder, the reparameterised Gaussian sample, a Bernoulli log-likelihood
from logits, the ELBO averaged over a batch with a vmapped key per image, and optimizers.adam
steps under jit with random.fold_in per step."""
import jax.numpy as jnp
import numpy as np
from jax import grad, jit, lax, random
from jax.example_libraries import optimizers, stax
from jax.example_libraries.stax import Dense, FanOut, Relu, Softplus


def gaussian_kl(mu, sigmasq):
    return -0.5 * jnp.sum(1. + jnp.log(sigmasq) - mu ** 2. - sigmasq)


def gaussian_sample(rng, mu, sigmasq):
    return mu + jnp.sqrt(sigmasq) * random.normal(rng, mu.shape)


def bernoulli_logpdf(logits, x):
    return -jnp.sum(jnp.logaddexp(0., jnp.where(x, -1., 1.) * logits))


def elbo(rng, params, images):
    enc_params, dec_params = params
    mu_z, sigmasq_z = encode(enc_params, images)
    logits_x = decode(dec_params, gaussian_sample(rng, mu_z, sigmasq_z))
    return bernoulli_logpdf(logits_x, images) - gaussian_kl(mu_z, sigmasq_z)


def image_sample(rng, params, nrow, ncol):
    _, dec_params = params
    code_rng, img_rng = random.split(rng)
    logits = decode(dec_params, random.normal(code_rng, (nrow * ncol, 4)))
    return random.bernoulli(img_rng, 1 / (1 + jnp.exp(-logits)))


encoder_init, encode = stax.serial(
    Dense(32), Relu, Dense(16), Relu,
    FanOut(2), stax.parallel(Dense(4), stax.serial(Dense(4), Softplus)))
decoder_init, decode = stax.serial(Dense(16), Relu, Dense(32), Relu, Dense(36))


def program(images):
    enc_init_rng, dec_init_rng = random.split(random.PRNGKey(2))
    _, init_encoder_params = encoder_init(enc_init_rng, (8, 36))
    _, init_decoder_params = decoder_init(dec_init_rng, (8, 4))
    opt_init, opt_update, get_params = optimizers.adam(1e-2)
    opt_state = opt_init((init_encoder_params, init_decoder_params))
    batch = images.shape[0]

    def binarize_batch(rng, i):
        i = i % 2
        chunk = lax.dynamic_slice_in_dim(images, i * (batch // 2), batch // 2)
        return random.bernoulli(rng, chunk)

    @jit
    def run_epoch(rng, opt_state):
        def body_fun(i, opt_state):
            elbo_rng, data_rng = random.split(random.fold_in(rng, i))
            batch_images = binarize_batch(data_rng, i)
            loss = lambda params: -elbo(elbo_rng, params, batch_images) / (batch // 2)
            g = grad(loss)(get_params(opt_state))
            return opt_update(i, g, opt_state)
        return lax.fori_loop(0, 6, body_fun, opt_state)

    opt_state = run_epoch(random.PRNGKey(0), opt_state)
    params = get_params(opt_state)
    test_elbo = elbo(random.PRNGKey(1), params, images > 0.5) / batch
    return test_elbo, image_sample(random.PRNGKey(3), params, 2, 2), params[1][-1]


def inputs():
    rng = np.random.default_rng(30)
    return (rng.uniform(0, 1, (16, 36)).astype(np.float32),)
