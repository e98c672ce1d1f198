"""How long NumPy's OpenBLAS threads spin after a matrix product: briefly, set before NumPy loads.

After each product OpenBLAS keeps its worker threads spinning on their cores, waiting for the
next one, for 2^28 clock cycles by default (OPENBLAS_THREAD_TIMEOUT=28, about a tenth of a
second). Measured here after one 1,024² product: 50 ms of CPU time during a 50 ms sleep.

The decoder pass multiplies with BLAS's threads, then runs a layer's attention blocks on two
threads of its own (models/causal_blocks.py) a few milliseconds later: a worker still spinning
held one of this 2-core machine's cores from them. A 512-token SmolLM2 pass took 1.91-2.02 s that
way and 1.64-1.80 s with 2^20 cycles (three runs each, interleaved); its attention alone went
from 0.62-0.70 s to 0.39-0.42 s. A page that draws next to the server gets the core back too.

OpenBLAS reads the variable once, when NumPy loads it, so `attnlab/__init__.py` imports this
module before anything that imports NumPy. A value already in the environment is kept, and in a
process that loaded NumPy first (a notebook, usually) this does nothing.
"""

from __future__ import annotations

import os
import sys

VARIABLE = "OPENBLAS_THREAD_TIMEOUT"
SPIN_CYCLES_LOG2 = 20
"""A worker spins for 2^20 cycles after a product, then sleeps: 2.5-3.7 ms of CPU time
measured here in the 50 ms after one product (0.1 ms with 2^16, 48-50 ms with the default)."""


def shorten_blas_spin() -> bool:
    """Set OPENBLAS_THREAD_TIMEOUT unless it is set; True when OpenBLAS will read our value
    (NumPy is not loaded yet and the variable was not set)."""
    if VARIABLE in os.environ or "numpy" in sys.modules:
        return False
    os.environ[VARIABLE] = str(SPIN_CYCLES_LOG2)
    return True


shorten_blas_spin()
