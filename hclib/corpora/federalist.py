"""The Federalist Papers (Project Gutenberg etext #1404): parsing into one row per paper.

:func:`load_federalist` reads ``federalist/pg1404.txt`` (pinned by sha256) through
:func:`~hclib.downloads.fetch.data_file`; :func:`parse_federalist` splits it into the 85 papers
with the standard attribution; :func:`federalist_study_papers` is the paper's subset (the
first 77: Hamilton, Madison and the disputed ones).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import pandas as pd

from hclib.downloads.fetch import data_file

__all__ = [
    "FEDERALIST_AUTHORS",
    "FEDERALIST_STUDY_AUTHORS",
    "load_federalist",
    "parse_federalist",
    "federalist_study_papers",
]


_HAMILTON = [1, *range(6, 10), *range(11, 14), *range(15, 18), *range(21, 37), *range(59, 62),
             *range(65, 86)]
_MADISON = [10, 14, *range(37, 49)]
_JAY = [2, 3, 4, 5, 64]
_JOINT = [18, 19, 20]
_DISPUTED = [*range(49, 59), 62, 63]
#: The standard attribution (Mosteller & Wallace), not the byline printed in the file.
FEDERALIST_AUTHORS: dict[int, str] = {
    number: author
    for author, numbers in [("Hamilton", _HAMILTON), ("Madison", _MADISON), ("Jay", _JAY),
                            ("joint", _JOINT), ("disputed", _DISPUTED)]
    for number in numbers
}

_GUTENBERG_START = re.compile(r"^\*\*\* ?START OF (?:THE|THIS) PROJECT GUTENBERG EBOOK.*$",
                              re.M | re.I)
_GUTENBERG_END = re.compile(r"^(?:\*\*\* ?END OF (?:THE|THIS) PROJECT GUTENBERG EBOOK"
                            r"|End of (?:the )?Project Gutenberg)", re.M | re.I)
_PAPER_HEADER = re.compile(r"^FEDERALIST No\. (\d+)[ \t]*$", re.M)
_SALUTATION = re.compile(r"^To the People of the State of New York[:.]?[ \t]*$", re.M)
_BYLINE = re.compile(r"^[A-Z]+(?:,? (?:with|and|or|WITH|AND|OR) [A-Z]+)*$")
_NEWSPAPER = re.compile(r"\s*(?:(?:For|From) (?:the|The) (?:Independent Journal|New York Packet"
                        r"|Daily Advertiser)|(?i:From McLEAN's Edition)).*$", re.S)
_SIGNATURE = re.compile(r"^PUBLIUS\b", re.M)
_FOOTNOTE_MARK = re.compile(r"\(\d+\)")
_VARIANTS = re.compile(r"\(([^()]*)\)\(E(\d+)\)(?:\s*\([^()]*\)\(E\2\))*")
_EDITION_MARK = re.compile(r"\(E\d+\)")


def load_federalist() -> pd.DataFrame:
    """The 85 Federalist Papers from Project Gutenberg etext #1404 (posting of 2009-11-06).

    Columns: ``doc_id`` (paper number 1..85), ``author`` (the standard attribution: "Hamilton",
    "Madison", "Jay", "joint" for 18-20, "disputed" for 49-58, 62, 63), ``title``, ``text``.

    What the file holds and what is kept:

    * The Gutenberg header and licence are dropped. Each paper starts ``FEDERALIST No. N``,
      then its title (1-2 lines, sometimes run together with the next line), the newspaper and
      date line, the byline (``HAMILTON``, ``MADISON, with HAMILTON``, ...) and
      ``To the People of the State of New York:`` (``.`` in No. 15); all of this header is
      removed from ``text`` (the title goes to ``title``, minus the newspaper/date).
    * ``text`` ends at the closing ``PUBLIUS`` signature, which is dropped with everything after
      it: the footnotes and the editor's ``E1.`` notes printed after it (No. 11's signature line
      also carries a footnote; No. 37 has no signature, its text ends with its last paragraph).
      In-text footnote markers ``(1)`` ... ``(11)`` are removed.
    * No. 70: its header appears once in this posting (85 distinct numbers, in order), but its
      text prints one paragraph twice, as "two versions ... in different editions" marked
      ``(E1)``; likewise Nos. 36 and 56 print two versions of a paragraph and No. 77 two endings
      of a sentence. Only the first printed version is kept (so each passage is counted once);
      the ``(E1)`` markers are removed (No. 68's marks a one-word variant only). Should a paper
      number appear twice in a file, its first occurrence (the one in numerical sequence) is
      kept; any missing number is an error.
    """
    path = data_file("federalist/pg1404.txt")
    return parse_federalist(path.read_text(encoding="utf-8-sig"))


def parse_federalist(raw: str) -> pd.DataFrame:
    """Parse the text of Gutenberg etext #1404 into the table of :func:`load_federalist`."""
    text = raw.replace("\r\n", "\n").replace("\r", "\n")
    start = _GUTENBERG_START.search(text)
    if start:
        text = text[start.end():]
    end = _GUTENBERG_END.search(text)
    if end:
        text = text[: end.start()]

    pieces = _PAPER_HEADER.split(text)
    papers: dict[int, tuple[str, str]] = {}
    for number_text, chunk in zip(pieces[1::2], pieces[2::2]):
        number = int(number_text)
        if number not in papers:  # a repeated number: keep the first occurrence
            papers[number] = _parse_paper(number, chunk)
    expected = set(FEDERALIST_AUTHORS)
    if set(papers) != expected:
        missing, extra = sorted(expected - set(papers)), sorted(set(papers) - expected)
        raise ValueError(f"Federalist text: papers missing {missing}, unexpected {extra}")

    numbers = sorted(papers)
    return pd.DataFrame(
        {
            "doc_id": pd.Series(numbers, dtype="int64"),
            "author": [FEDERALIST_AUTHORS[n] for n in numbers],
            "title": [papers[n][0] for n in numbers],
            "text": [papers[n][1] for n in numbers],
        }
    )


def _parse_paper(number: int, chunk: str) -> tuple[str, str]:
    """(title, text) of one paper, given what follows its ``FEDERALIST No. N`` line."""
    salutation = _SALUTATION.search(chunk)
    if salutation is None:
        raise ValueError(f"Federalist No. {number}: no 'To the People of the State of New York'")
    header = [line.strip() for line in chunk[: salutation.start()].splitlines() if line.strip()]
    if not header or not _BYLINE.match(header[-1]):
        raise ValueError(f"Federalist No. {number}: no author byline before the salutation")
    title = _NEWSPAPER.sub("", " ".join(header[:-1])).strip().rstrip(".")

    body = chunk[salutation.end():]
    signature = _SIGNATURE.search(body)
    if signature:
        body = body[: signature.start()]
    body = _FOOTNOTE_MARK.sub("", body)
    body = _VARIANTS.sub(lambda m: m.group(1), body)
    body = _EDITION_MARK.sub("", body)
    body = re.sub(r"\n{3,}", "\n\n", body).strip()
    if not body:
        raise ValueError(f"Federalist No. {number}: empty text")
    return title, body


#: The papers the paper studies, Hamilton's, Madison's and the disputed ones among the first 77.
FEDERALIST_STUDY_AUTHORS: tuple[str, ...] = ("Hamilton", "Madison", "disputed")


def federalist_study_papers(authors: Sequence[str] = FEDERALIST_STUDY_AUTHORS) -> pd.DataFrame:
    """The papers Kipnis (and Mosteller & Wallace) work with: the first 77, by ``authors``.

    With the default, 69 rows: 43 Hamilton, 14 Madison and 12 disputed papers (Jay's five and
    the three joint papers play no part), in paper order with a fresh 0-based index.
    """
    unknown = set(authors) - set(FEDERALIST_AUTHORS.values())
    if unknown:
        raise ValueError(f"unknown Federalist author label(s) {sorted(unknown)}")
    papers = load_federalist()
    keep = (papers.doc_id <= 77) & papers.author.isin(list(authors))
    return papers[keep].reset_index(drop=True)
