"""Build the C kernels (the filler's and the pattern generator's); the rest is in pyproject.toml."""

import platform

from setuptools import Extension, setup

# popcnt is in every x86-64 CPU since 2008; without the flag GCC calls a slow
# library routine for each 64-bit popcount, the filler's commonest operation.
flags = ["-O3"] + (["-mpopcnt"] if platform.machine().lower() in ("x86_64", "amd64") else [])

setup(
    ext_modules=[
        Extension("pipeline.fill._kernel", ["pipeline/fill/_kernel.c"], extra_compile_args=flags),
        Extension("pipeline.patterns._kernel", ["pipeline/patterns/_kernel.c"], extra_compile_args=["-O3"]),
    ]
)
