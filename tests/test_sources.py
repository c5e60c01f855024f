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


def test_size_and_limit_arguments_are_checked(tmp_path: Path) -> None:
    """Issue: max_bytes='5' failed on a comparison, -1 was accepted, NumPy ints refused."""
    import numpy as np

    from hclib.texts.sources import Skipped, read_text, reading, skip_notice

    _write(tmp_path / "t.txt", "hello")
    with pytest.raises(TypeError, match="max_bytes must be a positive integer, got '5'"):
        read_text(tmp_path / "t.txt", max_bytes="5")  # type: ignore[arg-type]
    for bad in (-1, 0, True):
        with pytest.raises((TypeError, ValueError), match="max_bytes must be a positive"):
            read_text(tmp_path / "t.txt", max_bytes=bad)
    with pytest.raises(ValueError, match="limit must be a non-negative integer, got -1"):
        skip_notice([Skipped("a", "hidden")], limit=-1)
    with pytest.raises(TypeError, match="limit must be a non-negative integer"):
        skip_notice([Skipped("a", "hidden")], limit=1.5)  # type: ignore[arg-type]
    assert skip_notice([Skipped("a", "hidden")] * 2, limit=0) == \
        "skipped 2 entries not read as texts"
    assert skip_notice([Skipped("a", "hidden")] * 2, limit=np.int64(1)).endswith(
        "a (hidden); and 1 more")
    assert read_text(tmp_path / "t.txt", max_bytes=np.int64(5)) == "hello"
    with pytest.raises(ValueError, match="larger than the limit of 4 bytes"):
        read_text(tmp_path / "t.txt", max_bytes=np.int32(4))
    with reading(max_bytes=np.int64(1000)):
        assert read_text(tmp_path / "t.txt") == "hello"
    with pytest.raises(TypeError, match="max_bytes must be a positive integer"):
        with reading(max_bytes=2.5):  # type: ignore[arg-type]
            pass
