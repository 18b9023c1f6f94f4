"""``kb --help`` says the order of a day's work, with commands that exist and options they take;
``kb validate`` takes one output shape, not two that override each other."""

from __future__ import annotations

import re
import shlex

import pytest

from kb.cli import COMMANDS, DAY, build_parser, main

VALUES = {"FILE.txt": "brief.txt", "T": "inference", "D": "2026-09-04", "ARXIV_ID": "2609.01234"}


def test_the_days_order_names_commands_and_options_that_exist(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    assert DAY in capsys.readouterr().out
    lines = [m.group(1) for m in re.finditer(r"^  (kb [^\n]*?)(?:\s{2,}|$)", DAY, re.M)]
    assert len(lines) >= 5
    for line in lines:
        words = shlex.split(line)[1:]
        assert words[0] in COMMANDS, line
        # each as written parses, its placeholders given values
        build_parser(words[0]).parse_args([VALUES.get(w, w) for w in words])


def test_validate_takes_one_output_shape(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["validate", "--format", "text", "--json"])
    assert stop.value.code == 2 and "not allowed with argument" in capsys.readouterr().err
