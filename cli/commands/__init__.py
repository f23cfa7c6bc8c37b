"""Subcommands. Each module defines ``register(subparsers)``, which adds its parser and sets
``func(args) -> int`` as the parser default. :func:`cli.main.main` finds them all."""
