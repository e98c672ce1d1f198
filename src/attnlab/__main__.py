"""`python -m attnlab` runs the CLI."""

import sys

from attnlab.cli.main import main

sys.exit(main())
