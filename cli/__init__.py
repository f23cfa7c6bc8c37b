"""The ``zilch`` command line: one program, one subcommand per module in ``cli.commands``."""
