"""``python -m emergo``: the same command line as the ``emergo`` command."""

import sys

from emergo.cli import main

sys.exit(main())
