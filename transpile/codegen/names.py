"""Buffer and kernel names from the Python source: an argument keeps its name (`x`, `params_w`
for `params['w']`), a materialised value is named by the operation that made it (`exp1`,
`max0`, `dot2`), and a kernel by the jitted function and the value it computes (`softmax_max0`,
`selu_out0`: see `kernel_names`). The generated code's own names (loop variables `i0`,
values `v3`, locals such as `acc`, `status`, `space`) all have the form letters-then-digits
or are fixed words listed here; a Python name of either kind is given a trailing underscore,
so a user's `i0` or `status` can never shadow a generated one."""
from __future__ import annotations

from .kernel_ir import Call, DebugKernel, HelperKernel, IteratedKernel

# C and C++ keywords (CUDA sources are C++), the C library names generated code calls, and
# every fixed local name a renderer declares in a kernel or in the entry function.
_KEYWORDS = frozenset("""
    auto break case char const continue default do double else enum extern float for goto if
    inline int long register restrict return short signed sizeof static struct switch typedef
    union unsigned void volatile while bool true false alignas alignof and asm catch class
    constexpr decltype delete explicit export friend mutable namespace new noexcept not
    nullptr operator or private protected public template this thread_local throw try typeid
    typename using virtual wchar_t xor main
    memcpy memset malloc calloc free aligned_alloc abs fabs exp log sin cos sqrt pow printf
    NULL errno stdin stdout stderr
""".split())
_LOCALS = frozenset("""
    acc best best_index block end at depth first step step_from step_to swap values lane row flat
    r p count partial identity combine matrix tile_row tile_col item i status space shared_space
    cleanup value values effect hook any_nan
""".split())
# Suffixes and prefixes the renderers build names with (`x_ptr`, `it0_first`, a CUDA full
# reduction's `f_sum0_final` and `f_sum0_partials`, a nameless function's `kernel_out0`).
_RESERVED_SUFFIXES = ("_t", "_ptr", "_first", "_end", "_final", "_slot", "_partials",
                      "_restore")
_RESERVED_PREFIXES = ("tp_", "kernel_", "scratch_", "__")

# The name of a value made by each primitive, where the primitive's own name would read badly.
_SHORT = {"dot_general": "dot", "convert_element_type": "convert", "broadcast_in_dim": "bcast",
          "dynamic_slice": "window", "dynamic_update_slice": "update", "concatenate": "concat",
          "integer_pow": "pow", "select": "where", "cumsum": "cumsum"}


def c_identifier(text: str) -> str:
    """`text` with every character that C does not allow in a name replaced by `_`, runs of
    them merged, leading and trailing ones dropped ("params['w']" -> "params_w")."""
    parts, word = [], []
    for ch in str(text):
        if ch.isascii() and (ch.isalnum() or ch == "_"):
            word.append(ch)
        elif word:
            parts.append("".join(word))
            word = []
    if word:
        parts.append("".join(word))
    name = "_".join(p.strip("_") for p in parts if p.strip("_"))
    if not name:
        return "arg"
    return f"arg_{name}" if name[0].isdigit() else name


def _looks_generated(name: str) -> bool:
    """Letters then digits (`i0`, `v12`, `exp3`): the form of every counted name the code
    generator makes."""
    stem = name.rstrip("0123456789")
    return stem != name and stem.isalpha()


def python_name(text: str) -> str:
    """A C name for a Python argument (path) that no generated name can equal."""
    name = c_identifier(text)
    # All capitals: the C library's and the runtime's macros (NAN, INFINITY, EOF, I...).
    if name in _KEYWORDS or name in _LOCALS or _looks_generated(name) or name.isupper() \
            or name.endswith(_RESERVED_SUFFIXES) or name.startswith(_RESERVED_PREFIXES):
        name += "_"
    return name


def value_name(primitive: str) -> str:
    """The stem of a buffer holding a value made by `primitive` (counted: `exp0`, `exp1`)."""
    stem = _SHORT.get(primitive, primitive.removeprefix("reduce_"))
    stem = "".join(ch for ch in stem if ch.isalpha())   # digits would blur the count
    return stem or "t"


# A kernel's name starts with its function's (C) name, cut to this many characters: enough to
# tell `train_step_dot3` from `loss_dot3`, short enough to read in a call.
_FUNCTION_STEM_MAX = 24


def function_stem(function: str) -> str:
    """The jitted function's name as the first part of its kernels' names (`selu`; a lambda:
    `lambda`). A name that is not an ASCII Python identifier (none, or text assigned to
    `__name__`) becomes `kernel`: only what could be written in Python source reaches C code.
    One in the runtime's `tp_` namespace is moved out of it (`kernel_tp_step`)."""
    if function == "<lambda>":
        return "lambda"
    if not (function or "").isidentifier() or not function.isascii() or \
            not function.strip("_"):
        return "kernel"
    stem = c_identifier(function)[:_FUNCTION_STEM_MAX].rstrip("_")
    return f"kernel_{stem}" if stem.startswith("tp_") else stem


def _computes(kernel) -> str:
    """What a kernel is named after: the buffer it writes (its first, for a loop with several
    carries or a factorization with several results), or a debug print's number."""
    if isinstance(kernel, DebugKernel):
        return f"print{kernel.effect}"
    if isinstance(kernel, IteratedKernel):
        return kernel.carries[0][3].name
    if isinstance(kernel, HelperKernel):
        return kernel.writes[0].name if kernel.writes else kernel.operation
    return kernel.out.name


def _call_order(stmts, order: dict, restores: set) -> None:
    """Kernels in the order the entry first calls them (`order`: kernel -> position), a
    `while`'s condition before its body; the copies that restore swapped loop carries (run
    after an odd number of swaps) go into `restores`."""
    for st in stmts:
        if isinstance(st, Call):
            order.setdefault(st.kernel, len(order))
        for nested in (getattr(st, "cond", None), getattr(st, "body", None),
                       *getattr(st, "cases", ())):
            _call_order(nested or (), order, restores)
        for swap in getattr(st, "swaps", ()):
            if swap.restore is not None:
                restores.add(swap.restore.kernel)
                _call_order([swap.restore], order, restores)


def kernel_names(function: str, kernels, taken=frozenset(), body=()) -> list[str]:
    """One C name per kernel: `{function}_{what it writes}` (`softmax_exp0`), a copy that
    restores a swapped loop carry `..._restore`. Names go out in the order the entry `body`
    calls the kernels (then any it does not call, in order), a second kernel writing the same
    buffer counted (`f_out0_2`: an update in place). Deterministic, so a source (and its
    cache key) is the same every time. None equals a name in `taken` (the program's buffers,
    loop variables and entry): a buffer part is a generated name (letters then digits), so
    the only clash is a Python argument spelled like a kernel, which is counted past too."""
    stem, used = function_stem(function), set(taken)
    order, restores = {}, set()
    _call_order(body, order, restores)
    for index in range(len(kernels)):
        order.setdefault(index, len(order))
    names = [""] * len(kernels)
    for index in sorted(order, key=order.get):
        base = f"{stem}_{_computes(kernels[index])}"
        if index in restores:
            base += "_restore"
        name, count = base, 1
        while name in used:
            count += 1
            name = f"{base}_{count}"
        used.add(name)
        names[index] = name
    return names
