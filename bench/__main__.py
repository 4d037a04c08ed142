"""``python -m bench``: see `bench.accuracy.run`."""

from bench.accuracy.run import main

raise SystemExit(main())
