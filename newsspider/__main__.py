"""``python -m newsspider``: the same command as ``newsspider`` (see `newsspider.cli`)."""

import sys

from newsspider.cli import main

sys.exit(main())
