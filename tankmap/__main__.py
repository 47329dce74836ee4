from tankmap.cli import main

raise SystemExit(main())
