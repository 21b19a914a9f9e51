from camelup.cli import main

raise SystemExit(main())
