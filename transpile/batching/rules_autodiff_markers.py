"""Batching the differentiation markers of transpile/autodiff (h/grad's branch).

Those primitives exist only while a differentiating transformation traces a function, so
vmap meets them only inside grad (`grad(lambda p: vmap(f)(p, xs).sum())`); `vmap(grad(f))`
never does, as grad has replaced them before vmap reads the IR. The rules are registered by
name and look their primitive up when called, so this module imports wherever the markers
are not defined yet.

- stop_gradient is elementwise: batched as it is.
- custom_jvp_call/custom_vjp_call carry a user rule that closes over one example's values;
  batching it would need the rule traced again per batch, which is not implemented: vmap the
  differentiated function instead (`vmap(grad(f))`), or call the custom function outside vmap.
"""
from __future__ import annotations

from .. import primitives as P
from ..core import bind
from .table import declare_unbatchable, register


@register("stop_gradient")
def stop_gradient_batching(size, values, dims):
    return bind(P.get("stop_gradient"), values[0]), dims[0]


_CUSTOM = ("a custom_jvp/custom_vjp function called inside vmap inside a differentiated "
           "function; apply vmap outside the differentiation instead (vmap(grad(f)))")
for _name in ("custom_jvp_call", "custom_vjp_call"):
    declare_unbatchable(_name, _CUSTOM)
declare_unbatchable("custom_vjp_lin", "the linearized custom_vjp is reverse-mode only")
