/* tp_prelude.h: what nearly every generated CPU module parses first, precompiled once.
 *
 * The runtime library's build also precompiles this header (gcc's .gch, kept in the
 * library's cache entry and checked against its manifest), and modules are compiled with
 * `-include <that entry>/tp_prelude.h`: parsing these headers was a third of the compiler's
 * time on a small module. A module still includes what it uses itself (its source does not
 * change, and exports stay self-contained); the include guards make those repeats free.
 * Everything here is declarations and static inline helpers marked unused, so a module that
 * calls none of them compiles to the same code. */
#ifndef TRANSPILE_PRELUDE_H
#define TRANSPILE_PRELUDE_H
#include "transpile.h"
#include "tp_runtime.h"
#include <stdatomic.h>
#endif
