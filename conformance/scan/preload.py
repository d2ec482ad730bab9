"""The warm-up a scan's forkserver runs when it starts (:mod:`conformance.scan.warm`): importing
this module runs :func:`conformance.scan.warm.warm_up` and freezes what it left. Only the
forkserver imports it (multiprocessing's preload names a module, not a function).
"""

from __future__ import annotations

import gc
import sys

# The forkserver starts as ``python -c`` in the scan's current folder, whose sys.path therefore
# begins with "" (that folder), and Python 3.11's forkserver does not give it the scan's own path.
# A module there named as one the kit imports (a dns.py beside the user's domain lists) would be
# imported in its place, here and in every process forked from here. The kit's own package was
# found before this line ran (its __init__ modules import nothing); from here on, that folder is
# not searched.
sys.path[:] = [entry for entry in sys.path if entry not in ("", ".")]

from conformance.scan.warm import warm_up  # noqa: E402 - after the path is made safe

WARMED = warm_up()
# What the warm-up left is shared with every process forked from here until one writes to it; a
# collector pass in each would touch (and so copy) every object's page. Frozen, it is not
# traversed (as pre-fork servers do: https://docs.python.org/3/library/gc.html#gc.freeze).
gc.freeze()
