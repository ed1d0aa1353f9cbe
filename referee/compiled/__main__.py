"""``python -m referee.compiled build | status | clean`` (see referee.compiled.build)."""

import sys

from referee.compiled.build import main

sys.exit(main())
