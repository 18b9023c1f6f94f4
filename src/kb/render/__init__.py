"""Pure renderers: knowledge index -> Markdown/HTML strings.  No MkDocs imports here."""
