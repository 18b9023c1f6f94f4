"""Subcommands of ``kb``; each module exposes ``register(subparsers)``."""
