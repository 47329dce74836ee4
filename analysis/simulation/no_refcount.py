"""Kernel functions compiled without numba's reference counting (the kernels' ``leaf``).

numba counts references to every array a compiled function takes out of a tuple (a
kernel's ``Board``, ``Position`` or ``Tables``, a tuple of work arrays) or is passed, and
where its optimiser cannot pair the counts up (on a branching path) each one is a call
with an atomic update. Measured on this project's kernels (perf, 2026-12-07): about two
thirds of a Tank Chess ``alphabeta`` search and more than half of a Tank Wars ``regret``
search went to those calls; a Tank Chess ``hit_armour`` call took about 55 ns, nearly all
of it counting.

A *leaf* is compiled with numba's ``_nrt=False`` (its runtime off: no counting at all).
The counting only frees memory, so a leaf computes what the counted function computes.
Promises a leaf keeps, the first two checked by numba when it compiles:

- it allocates no array ("NRT required but not enabled");
- it returns no array but one it was passed ("Only accept returning of array passed into
  the function as argument");
- it calls no function that hands back a new array (that array would never be freed; not
  checked): it reads and writes only arrays its callers own.

A counted kernel function must say so (``COUNTED``): numba would otherwise compile a
function first called from a leaf without counting too, and fail where it allocates.
``_nrt`` is an option numba leaves undocumented; an install whose numba refused it would
fail loudly on the first compile (the test suite compiles every kernel).
"""

from __future__ import annotations

from typing import Any

LEAF: dict[str, Any] = {"_nrt": False}
"""numba options of a leaf."""
COUNTED: dict[str, Any] = {"_nrt": True}
"""numba options of every other kernel function."""
