"""``python -m bench.robustness.pathological``: the pathological pages of
`support.pathological` (``tests/support/pathological.py``, shared with the tests), each built
and extracted in a fresh interpreter.

    python -m bench.robustness.pathological --list
    python -m bench.robustness.pathological deep-100k --max-bytes none [--engine lxml]
    python -m bench.robustness.pathological --growth [--sizes 2097152,8388608] [--patterns a,b]
"""

from __future__ import annotations

from support.pathological import main

import bench  # noqa: F401  (puts tests/ on sys.path for `support`)

if __name__ == "__main__":
    raise SystemExit(main())
