"""Raw-style Project Gutenberg files for tests: a stripped text wrapped in a header and footer.

``make_raw(text, variant)`` is the inverse of :func:`hclib.corpora.gutenberg_text.strip_boilerplate`
for one stripping rule per variant (:data:`VARIANTS`), so stripping it must give ``text`` back
byte for byte.
"""

from __future__ import annotations

TITLE = "A Work"


def _header(marker: list[str], credits: list[list[str]]) -> list[str]:
    lines = [f"The Project Gutenberg EBook of {TITLE}", "", "This eBook is for the use of anyone",
             "anywhere at no cost.", "", *marker, "", ""]
    for credit in credits:
        lines += [*credit, "", ""]
    return lines


_START_WRAPPED = ["*** START OF THIS PROJECT GUTENBERG EBOOK A VERY LONG", "TITLE THAT WRAPS ***"]
_SMALL_PRINT_ONE = ["*END THE SMALL PRINT! FOR PUBLIC DOMAIN ETEXTS*Ver.04.29.93*END*"]
_SMALL_PRINT = ["*END*THE SMALL PRINT! FOR PUBLIC DOMAIN", "ETEXTS*Ver.04.29.93*END*"]
_START = ["*** START OF THE PROJECT GUTENBERG EBOOK A WORK ***"]

#: One variant per stripping rule: (rule exercised, header lines, footer line, encoding, BOM, CRLF).
VARIANTS: list[tuple[str, list[str], str, str, bool, bool]] = [
    ("UTF-8 with BOM and CRLF; a START marker over two lines; 'Produced by'",
     _header(_START_WRAPPED, [["Produced by Somebody and the Online Distributed", "Team"]]),
     f"*** END OF THIS PROJECT GUTENBERG EBOOK {TITLE.upper()} ***", "utf-8", True, True),
    ("cp1252; '*END THE SMALL PRINT' (one asterisk); 'End of this Project Gutenberg'",
     _header(_SMALL_PRINT_ONE, [["This e-text was produced by A. Reader."]]),
     f"End of this Project Gutenberg Etext of {TITLE}", "cp1252", False, True),
    ("'*END*THE SMALL PRINT' over two lines; 'This etext was prepared by', 'Digitized by'",
     _header(_SMALL_PRINT, [["This etext was prepared by B. Typist."], ["Digitized by C."]]),
     f"End of Project Gutenberg's {TITLE}", "utf-8", False, False),
    ("four credit paragraphs: 'E-text prepared by', 'Transcribed from', 'Etext prepared by', "
     "'Note: ... HTML version'",
     _header(_START, [["E-text prepared by D."], ["Transcribed from the 1890 edition."],
                      ["Etext prepared by E."],
                      ["Note: Project Gutenberg also has an HTML version of this", "file."]]),
     f"End of the Project Gutenberg EBook of {TITLE}", "utf-8", False, True),
]


def make_raw(text: str, variant: int) -> bytes:
    """A raw file whose stripped text is ``text`` (which ends with one LF), per ``variant``.

    Blank lines are added around the body (only blank lines are trimmed at the edges).
    The cp1252 variant falls back to UTF-8 when ``text`` is not cp1252-encodable.
    """
    _, header, footer, encoding, bom, crlf = VARIANTS[variant % len(VARIANTS)]
    lines = [*header, "", "", text.removesuffix("\n"), "", "", footer, "",
             "*** END OF THE PROJECT GUTENBERG EBOOK ***", "licence licence", ""]
    raw = "\n".join(lines)
    if crlf:
        raw = raw.replace("\n", "\r\n")
    if bom:
        raw = "\ufeff" + raw
    if encoding == "cp1252":
        try:
            return raw.encode("cp1252")
        except UnicodeEncodeError:
            pass
    return raw.encode("utf-8")
