"""``kb completion SHELL``: print a tab-completion script for ``kb`` (bash, zsh or tcsh).

The script is generated from the parser itself by shtab, so every command and option the
parser knows completes, and a new command needs nothing here.  Install it once, e.g.::

    kb completion bash > ~/.local/share/bash-completion/completions/kb
    kb completion zsh > "${fpath[1]}/_kb"
"""

from __future__ import annotations

import argparse

SHELLS = ("bash", "zsh", "tcsh")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "completion",
        help="print the shell completion script for kb",
        description="Print a tab-completion script for kb (every command and option). "
        "bash: kb completion bash > ~/.local/share/bash-completion/completions/kb; "
        'zsh: kb completion zsh > "${fpath[1]}/_kb".',
    )
    p.add_argument("shell", choices=SHELLS, help="the shell to complete in")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import shtab

    from kb.cli import build_parser

    print(shtab.complete(build_parser(), shell=args.shell))
    return 0
