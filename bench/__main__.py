"""``python -m bench``: see `bench.run`."""

from bench.run import main

raise SystemExit(main())
