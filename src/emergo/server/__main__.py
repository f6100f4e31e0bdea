"""``python -m emergo.server``: the same as ``emergo serve``."""

from emergo.server.serve import main

raise SystemExit(main())
