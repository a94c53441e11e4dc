"""Run time: compiling generated source, caching binaries on disk, loading and calling them.

Installed as `transpile.runtime`. The three pieces know nothing of each other's
internals: `compiler` turns source into a shared library, `disk_cache` decides
where it lives and guards concurrent builds, `loader` opens it with cffi.
"""
import os

INCLUDE_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "include")
