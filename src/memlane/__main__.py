"""``python -m memlane``: the ``memlane`` command."""

from memlane.cli.app import main

main()
