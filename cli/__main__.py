"""``python -m cli`` is the ``rams`` command."""

import sys

from cli.main import main

sys.exit(main())
