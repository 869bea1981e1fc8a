"""Build: the pure-Python package `atout` plus the Cython search extension.

The repository keeps one folder per part (solver/, client/, ...); they all install
under the single import package `atout`.
"""

from Cython.Build import cythonize
import os
import platform

from setuptools import Extension, setup

# The search counts bits everywhere (hands are bit masks): without this flag x86-64 compilers
# call a library routine for every count instead of the POPCNT instruction (every x86-64 CPU
# since 2008 has it; 5 % of the search time went to the routine).
POPCNT = ["-mpopcnt"] if platform.machine().lower() in ("x86_64", "amd64") else []

PARTS = {"atout": "atout", "atout.solver": "solver", "atout.client": "client",
         "atout.runner": "runner", "atout.server": "server", "atout.proto": "proto"}

extensions = [
    Extension("atout.solver._search", ["solver/_search.pyx"],
              extra_compile_args=["-O3", "-pthread", *POPCNT], extra_link_args=["-pthread"]),
]

setup(
    packages=[*PARTS, "atout.present", "atout.proto.v1"],
    package_dir=PARTS,
    package_data={"atout.solver": ["*.pyx", "*.pxi", "*.pxd"], "atout.proto.v1": ["*.proto", "*.pyi"],
                  "atout.server": ["static/*"]},
    # ATOUT_STATS=1: the search counts where its nodes go (Engine.stats(); for measuring
    # it, never in a release build: the counters cost a few per cent of the node rate)
    ext_modules=cythonize(extensions, language_level=3,
                          compile_time_env={"STATS": int(os.environ.get("ATOUT_STATS", "0"))},
                          compiler_directives={"boundscheck": False, "wraparound": False,
                                               "cdivision": True, "initializedcheck": False}),
)
