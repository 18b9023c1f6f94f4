"""BibTeX for papers, with bibtexparser's v2 API and its middlewares: entries out, entries back in.

Pure and offline: the site build imports this package (and only this one of the
arXiv/BibTeX tooling).  What the site calls:

* :func:`entry_for` ``(paper, kb=None) -> str | None`` - one entry (None when the
  paper cannot be cited); pass ``kb`` to get the key it has in whole-library exports;
* :func:`export_library` ``(kb, papers) -> str`` - entries for those of ``papers``
  (Paper objects or ids) that can be cited, sorted by citation key;
* :func:`citation_keys` ``(kb) -> {paper id: key}``.

Modules, each owning one step:

* :mod:`kb.bib.fields` - paper -> plain-text fields; what makes a paper citable;
* :mod:`kb.bib.keys` - stable citation keys;
* :mod:`kb.bib.latex` - plain text <-> safe BibTeX values (LaTeX middlewares);
* :mod:`kb.bib.names` - person names <-> BibTeX name parts;
* :mod:`kb.bib.export` - entries written; :mod:`kb.bib.read` - entries read back;
* :mod:`kb.bib.select` - the papers of a topic, section or brief.
"""

from __future__ import annotations

from kb.bib.export import entry_for, export_library
from kb.bib.fields import fields_for, uncitable
from kb.bib.keys import citation_keys, key_base
from kb.bib.select import papers_for_brief, papers_for_section, papers_for_topic

__all__ = [
    "citation_keys",
    "entry_for",
    "export_library",
    "fields_for",
    "key_base",
    "papers_for_brief",
    "papers_for_section",
    "papers_for_topic",
    "uncitable",
]
