"""Fill in the book's settings that depend on where it is built (used by the publishing
workflow, .github/workflows/book.yml):

    python tools/configure_book.py --repository https://github.com/OWNER/REPO --branch main \\
        --execute cache

``--repository`` sets ``repository.url`` in ``_config.yml`` (the Colab and Binder links and
the notebooks' install cell come from it); ``--execute`` sets ``execute.execute_notebooks``
(``cache``: jupyter-cache keeps executed chapters in ``_build/.jupyter_cache`` between runs).
The file is edited line by line, so its comments stay. Without arguments it prints the
current settings.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

CONFIG = Path(__file__).resolve().parents[1] / "_config.yml"
EXECUTE_MODES = ("force", "cache", "auto", "off")
_URL = re.compile(r"^(repository:\n(?:[ \t]+.*\n)*?[ \t]+url:)[ \t]*.*$", re.M)
_BRANCH = re.compile(r"^(repository:\n(?:[ \t]+.*\n)*?[ \t]+branch:)[ \t]*.*$", re.M)
_EXECUTE = re.compile(r"^([ \t]+execute_notebooks:)[ \t]*(\S+)(.*)$", re.M)


def _set(pattern: re.Pattern, text: str, value: str, what: str) -> str:
    new, count = pattern.subn(lambda m: f"{m[1]} {value}", text, count=1)
    if count != 1:
        raise ValueError(f"_config.yml has no {what} setting to fill in")
    return new


def configure(text: str, repository: str | None = None, branch: str | None = None,
              execute: str | None = None) -> str:
    """The configuration text with the given settings filled in."""
    if repository is not None:
        if repository and not re.fullmatch(r"https://[\w.-]+/[\w.-]+/[\w.-]+", repository):
            raise ValueError(f"--repository must be https://HOST/OWNER/REPO, got {repository!r}")
        text = _set(_URL, text, f'"{repository}"', "repository.url")
    if branch is not None:
        text = _set(_BRANCH, text, branch, "repository.branch")
    if execute is not None:
        if execute not in EXECUTE_MODES:
            raise ValueError(f"--execute must be one of {EXECUTE_MODES}, got {execute!r}")
        text = _EXECUTE.sub(lambda m: f"{m[1]} {execute}{m[3]}", text, count=1)
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repository", help="https://github.com/OWNER/REPO")
    parser.add_argument("--branch", help="the branch Binder opens (default: as configured)")
    parser.add_argument("--execute", help=f"one of {', '.join(EXECUTE_MODES)}")
    parser.add_argument("--config", type=Path, default=CONFIG, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    text = args.config.read_text(encoding="utf-8")
    try:
        new = configure(text, args.repository, args.branch, args.execute)
    except ValueError as exc:
        print(f"configure_book: error: {exc}", file=sys.stderr)
        return 2
    if new != text:
        args.config.write_text(new, encoding="utf-8")
    for pattern in (_URL, _BRANCH, _EXECUTE):
        match = pattern.search(new)
        print(match[0].splitlines()[-1].strip() if match else "")
    return 0


if __name__ == "__main__":
    sys.exit(main())
