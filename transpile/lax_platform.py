"""jax.lax.platform_dependent: one function per platform, the one for where the code runs.

JAX lowers every branch and lets the compiler keep the one for its platform; here a program
is traced for one backend, so the branch is chosen when tracing and the others are never
traced (a branch that could not be traced or compiled here does no harm). The platform is
`default_backend()`'s: "cpu" (the C and interpret backends) or "gpu" (CUDA), which also
answers to JAX's "cuda".
"""
from __future__ import annotations

__all__ = ["platform_dependent"]

# The branch names each platform answers to, in order of preference.
_NAMES = {"cpu": ("cpu",), "gpu": ("cuda", "gpu")}


def platform_dependent(*args, default=None, **per_platform):
    """`per_platform[p](*args)` for the platform p this runs on, else `default(*args)`."""
    from .device_array import default_backend
    platform = default_backend()
    for name in _NAMES[platform]:
        if per_platform.get(name) is not None:
            return per_platform[name](*args)
    if default is None:
        raise NotImplementedError(
            f"platform_dependent: translation rule for the branches {sorted(per_platform)} "
            f"not found for platform {platform!r}. Pass default= (a function of the same "
            f"arguments) or a branch for {' or '.join(map(repr, _NAMES[platform]))}.")
    return default(*args)
