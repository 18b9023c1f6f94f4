"""Briefs in the team's text format, in and out (``kb import brief``, ``kb export brief --text``).

lines (physical to logical lines, the comparison key) -> parts (recognised by their headings'
words) -> one parser per part (head, sources, increments, tables, lists) -> record (the brief
record, every line accounted for by exporting it back: export) -> batch (files into a data
directory, in date order) and report (the facts, for a person to check).  Section references
and anchorings map to the topic's ids in sections.
"""
