"""The template language of reviewed pages: calls of registered macros with literal
arguments, and nothing else.

A template page (``hooks/template_pages.txt``, and the generated brief pages) may write
``{{ section("s1-3-kv-cache") }}`` or ``{{ latest_briefs(5) }}``: a registered name, then
arguments that are string, integer, ``None``/``True``/``False`` literals, positional or
``key=value``.  Attribute access, subscripts, filters, expressions, ``{% %}`` statements,
``{# #}`` comments and whitespace control are errors located at the ``{{``.

No template engine runs: :func:`scan` finds the calls with a single left-to-right pass
(each character is looked at a bounded number of times: a call's tokens never contain
``{``, so a failed parse ends before the next opening), and the caller substitutes the
macro output for each call.  The macro output itself is never scanned again.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

Literal = str | int | bool | None

MAX_NAME = 64
MAX_STRING = 200  # macro arguments are ids: a section id, a brief key, a topic id
MAX_ERRORS = 50  # per page; the count is still exact
_STRING_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:")
_NAME_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")
_NAME_CHARS = _NAME_START | frozenset("0123456789")
_DIGITS = frozenset("0123456789")
_WS = frozenset(" \t")
_KEYWORDS: dict[str, Literal] = {"None": None, "True": True, "False": False}


@dataclass(frozen=True)
class Call:
    start: int  # offset of "{{" in the text
    end: int  # offset just after "}}"
    name: str
    args: tuple[Literal, ...] = ()
    kwargs: tuple[tuple[str, Literal], ...] = ()

    def render(self) -> str:
        parts = [repr(a) if not isinstance(a, str) else f'"{a}"' for a in self.args]
        parts += [f"{k}={v!r}" if not isinstance(v, str) else f'{k}="{v}"' for k, v in self.kwargs]
        return f"{self.name}({', '.join(parts)})"


@dataclass(frozen=True)
class Problem:
    offset: int
    message: str


@dataclass
class Scan:
    calls: list[Call] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    n_problems: int = 0

    def add(self, offset: int, message: str) -> None:
        self.n_problems += 1
        if len(self.problems) < MAX_ERRORS:
            self.problems.append(Problem(offset, message))


class _Fail(Exception):
    def __init__(self, message: str):
        self.message = message


def _openings(text: str, start: int) -> Iterable[tuple[int, str]]:
    """Offsets of "{{", "{%" and "{#" from ``start``, left to right (str.find: linear)."""
    i = text.find("{", start)
    n = len(text)
    while i != -1:
        if i + 1 < n and text[i + 1] in "{%#":
            yield i, text[i : i + 2]
            i = text.find("{", i + 2)
        else:
            i = text.find("{", i + 1)


class _Parser:
    def __init__(self, text: str, pos: int):
        self.text = text
        self.pos = pos
        self.n = len(text)

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < self.n else ""

    def ws(self) -> None:
        while self.pos < self.n and self.text[self.pos] in _WS:
            self.pos += 1

    def name(self, what: str) -> str:
        start = self.pos
        if self.peek() not in _NAME_START:
            raise _Fail(f"expected {what}, found {self.shown()}")
        while self.pos < self.n and self.text[self.pos] in _NAME_CHARS:
            self.pos += 1
            if self.pos - start > MAX_NAME:
                raise _Fail(f"{what} longer than {MAX_NAME} characters")
        return self.text[start : self.pos]

    def shown(self) -> str:
        ch = self.peek()
        if not ch:
            return "the end of the page"
        if ch == "\n":
            return "a line break"
        return repr(ch) if ch.isprintable() else f"U+{ord(ch):04X}"

    def literal(self) -> Literal:
        ch = self.peek()
        if ch in ("'", '"'):
            quote = ch
            self.pos += 1
            start = self.pos
            while self.pos < self.n and self.text[self.pos] != quote:
                if self.text[self.pos] not in _STRING_CHARS:
                    raise _Fail(f"{self.shown()} in a string argument (ids only: letters, digits, _ - . / :)")
                self.pos += 1
                if self.pos - start > MAX_STRING:
                    raise _Fail(f"string argument longer than {MAX_STRING} characters")
            if self.pos >= self.n:
                raise _Fail("unclosed string argument")
            value = self.text[start : self.pos]
            self.pos += 1
            return value
        if ch in _DIGITS or ch == "-":
            start = self.pos
            self.pos += 1
            while self.pos < self.n and self.text[self.pos] in _DIGITS:
                self.pos += 1
                if self.pos - start > 9:
                    raise _Fail("integer argument too long")
            digits = self.text[start : self.pos]
            if digits == "-":
                raise _Fail("expected a digit after '-'")
            return int(digits)
        if ch in ("N", "T", "F"):
            word = self.name("a literal")
            if word in _KEYWORDS:
                return _KEYWORDS[word]
            raise _Fail(f"'{word}' is not a literal (arguments are strings, integers, None, True or False)")
        raise _Fail(f"expected a literal argument (a string, an integer, None, True or False), found {self.shown()}")

    def call(self, vocabulary: Mapping[str, object]) -> tuple[str, list[Literal], list[tuple[str, Literal]]]:
        self.ws()
        if self.peek() == "-":
            raise _Fail("whitespace control ('{{-') is not part of the template language")
        name = self.name("a macro name")
        if name not in vocabulary:
            known = ", ".join(sorted(vocabulary))
            raise _Fail(f"'{name}' is not a registered macro (template pages may call only: {known})")
        self.ws()
        if self.peek() != "(":
            raise _Fail(
                f"expected '(' after the macro name '{name}', found {self.shown()} "
                "(only calls are allowed: no attributes, filters, subscripts or operators)"
            )
        self.pos += 1
        args: list[Literal] = []
        kwargs: list[tuple[str, Literal]] = []
        self.ws()
        while self.peek() != ")":
            if self.peek() in _NAME_START and not self.text.startswith(("None", "True", "False"), self.pos):
                key = self.name("an argument name")
                self.ws()
                if self.peek() != "=":
                    raise _Fail(f"'{key}' is not a literal (arguments are strings, integers, None, True or False)")
                self.pos += 1
                self.ws()
                kwargs.append((key, self.literal()))
            else:
                if kwargs:
                    raise _Fail("a positional argument after a keyword argument")
                args.append(self.literal())
            self.ws()
            if self.peek() == ",":
                self.pos += 1
                self.ws()
            elif self.peek() != ")":
                raise _Fail(f"expected ',' or ')' in the arguments of '{name}', found {self.shown()}")
        self.pos += 1
        self.ws()
        if self.text.startswith("}}", self.pos):
            self.pos += 2
            return name, args, kwargs
        if self.text.startswith("-}}", self.pos):
            raise _Fail("whitespace control ('-}}') is not part of the template language")
        raise _Fail(
            f"expected '}}}}' after the call of '{name}', found {self.shown()} "
            "(only a single call is allowed: no filters, attributes or operators)"
        )


def check_arguments(fn: Callable[..., object], call: Call) -> str | None:
    """Why ``call`` does not fit ``fn``'s parameters (after the context argument), or None."""
    sig = inspect.signature(fn)
    params = list(sig.parameters.values())[1:]  # the first parameter is the page context
    try:
        inspect.Signature(params).bind(*call.args, **dict(call.kwargs))
    except TypeError as exc:
        return f"{call.name}(): {exc}"
    return None


def scan(text: str, vocabulary: Mapping[str, object], start: int = 0) -> Scan:
    """Every macro call in ``text[start:]`` and every piece of template syntax that is not one."""
    out = Scan()
    for offset, opening in _openings(text, start):
        if opening == "{%":
            out.add(
                offset,
                "'{%' statements (blocks, include, import, set, macro) are not part of the template "
                'language: template pages may only call macros, e.g. {{ section("s1-3-kv-cache") }}',
            )
            continue
        if opening == "{#":
            out.add(
                offset,
                "'{#' template comments are not part of the template language (use an HTML comment or remove it)",
            )
            continue
        parser = _Parser(text, offset + 2)
        try:
            name, args, kwargs = parser.call(vocabulary)
        except _Fail as exc:
            out.add(offset, exc.message)
            continue
        call = Call(offset, parser.pos, name, tuple(args), tuple(kwargs))
        fn = vocabulary[name]
        why = check_arguments(fn, call) if callable(fn) else None
        if why:
            out.add(offset, why)
            continue
        out.calls.append(call)
    return out


def substitute(text: str, calls: list[Call], output: Callable[[Call], str], start: int = 0) -> str:
    """``text[start:]`` with each call replaced by ``output(call)`` (never scanned again)."""
    parts = []
    pos = start
    for call in calls:
        parts.append(text[pos : call.start])
        parts.append(output(call))
        pos = call.end
    parts.append(text[pos:])
    return "".join(parts)
