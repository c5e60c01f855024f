"""hclib.texts.sources: known and unknown texts from strings, paths and folders, with work groups."""

from __future__ import annotations

from pathlib import Path

import pytest

from hclib.texts.sources import known_texts, read_known_folder, unknown_texts


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def test_work_folders_group_their_files(tmp_path: Path) -> None:
    _write(tmp_path / "A" / "loose.txt", "a")
    _write(tmp_path / "A" / "w1" / "p1.txt", "b")
    _write(tmp_path / "A" / "w1" / "p2.txt", "c")
    _write(tmp_path / "B" / "w2" / "p1.txt", "d")
    assert read_known_folder(tmp_path)["A"] == {"loose.txt": "a", "w1/p1.txt": "b",
                                                "w1/p2.txt": "c"}
    k = known_texts(tmp_path)
    assert k.names == ["A/loose.txt", "A/w1/p1.txt", "A/w1/p2.txt", "B/w2/p1.txt"]
    assert k.authors == ["A", "A", "A", "B"]
    assert k.groups == [("A", "loose.txt"), ("A", "w1"), ("A", "w1"), ("B", "w2")]
    assert k.grouped


def test_groups_in_python_are_per_author_labels() -> None:
    k = known_texts({"A": ["x", "y", "z"], "B": ["u", "v"]}, groups={"A": [1, 1, 2]})
    assert k.groups == [("A", 1), ("A", 1), ("A", 2), ("B", "B #1"), ("B", "B #2")]
    # the same label under two authors is two groups
    k2 = known_texts({"A": ["x", "y"], "B": ["u", "v"]}, groups={"A": [0, 0], "B": [0, 0]})
    assert len(set(k2.groups)) == 2
    assert not known_texts({"A": ["x"], "B": ["y"]}).grouped


@pytest.mark.parametrize("groups, error, match", [
    ({"A": [1]}, ValueError, "1 labels for 2 known texts"),
    ({"C": [1]}, ValueError, "not in known"),
    ({"A": "ab"}, TypeError, "list of group labels"),
    ([1, 2], TypeError, "mapping author"),
])
def test_bad_groups_are_named(groups, error, match) -> None:
    with pytest.raises(error, match=match):
        known_texts({"A": ["x", "y"], "B": ["u"]}, groups=groups)


def test_groups_with_a_folder_point_to_work_folders(tmp_path: Path) -> None:
    _write(tmp_path / "A" / "t.txt", "a")
    with pytest.raises(ValueError, match="KNOWN/AUTHOR/WORK"):
        known_texts(tmp_path, groups={"A": [1]})


def test_unknown_names_and_duplicates() -> None:
    assert unknown_texts(["a", "b"]) == (["text 1", "text 2"], ["a", "b"])
    with pytest.raises(ValueError, match="both named"):
        unknown_texts({1: "a", "1": "b"})


def test_files_sharing_a_name_are_shown_by_their_paths(tmp_path: Path, monkeypatch) -> None:
    for folder in ("a", "b", "c"):
        _write(tmp_path / folder / "x.txt", f"text of {folder}")
    _write(tmp_path / "c" / "y.txt", "text y")
    monkeypatch.chdir(tmp_path)
    files = [Path("a/x.txt"), Path("c/y.txt"), Path("b/x.txt"), Path("c/x.txt")]
    names, texts = unknown_texts(files)
    assert names == [str(Path("a/x.txt")), "y.txt", str(Path("b/x.txt")),
                     str(Path("c/x.txt"))]
    assert texts == ["text of a", "text y", "text of b", "text of c"]
    # the message names the first name given twice
    with pytest.raises(ValueError, match="both named '2'"):
        unknown_texts({"p": "a", 2: "b", 1: "c", "2": "d", "1": "e"})
