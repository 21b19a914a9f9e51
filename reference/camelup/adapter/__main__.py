import sys

from camelup.harness.adapter import main

sys.exit(main())
