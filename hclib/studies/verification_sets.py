r"""Verification problems in the shapes people bring, from the project's own data only.

Every set is seeded, *split by author* into a training part and a test part (no author is
in both; impostors come from the problem's own part), and half of each part's problems are
same-author, half different-author. A :class:`Problem` is one call of
:func:`hclib.verify`: known texts of one author, one questioned text, the truth and the
impostors.

* :func:`essay_problems` (shape a, PAN 2018): 1–5 known fan-fiction texts (500–930 words)
  of one author, and one questioned text of the same size from *another fandom* (PAN 2018's
  unknown texts are of other fandoms than its known texts): by the author or by another
  candidate of the same PAN problem. Authors are (collection, problem, candidate) of the
  English PAN 2018 training and test collections, split by author.
* :func:`federalist_problems` (shape a, Federalist): 1–5 papers of Madison or Hamilton cut
  to their middle :data:`ESSAY_WORDS` words; the questioned text another paper (another
  topic) of the author or of another author (Hamilton, Madison or Jay). The Federalist has
  three authors, too few to split, so it is a *test set only*; its training part is the
  essays'. Impostors: the middle 800 words of the papers (not in the problem) of the
  authors other than the known one, as in the Federalist study.
* :func:`novel_problems` (shape b, Gutenberg): **one** known excerpt of a novel against one
  questioned excerpt of another work, by the author or by another author of the
  collection (19th-century English fiction), :data:`NOVEL_WORDS`: 5,000 and 7,000 words in
  the test part, 1,800 and 1,800 in the training part (training excerpts are shorter than
  the test's). Works of the default impostor pool
  (:data:`hclib.verification.impostors.POOL_WORKS` first works of every author) are never
  used; the impostors are that pool without the problem's two authors.
* :func:`pair_problems` (shape c, PAN 2020-style): two short texts, one known (PAN 2018
  known text) and one questioned (an unknown text of another fandom), same or different
  author; authors split as for the essays.

For the PAN shapes the impostors are :data:`IMPOSTORS` known texts of other authors of the
same part (the other problems' texts, as ``hclib verify --pan`` takes them), never the
problem's two authors. PAN 2018 gives one author several labels (:func:`pan_identities`);
draws before :data:`FIRST_CLEAN_DRAW` split and exclude by label, so there an author
could be in both parts and among a problem's impostors under another label.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from hclib.verification.impostors import POOL_WORKS, ImpostorPool, gutenberg_pool, \
    impostor_pool

__all__ = ["ESSAY_WORDS", "FIRST_CLEAN_DRAW", "IMPOSTORS", "NOVEL_WORDS", "SETS",
           "Problem", "build_sets", "essay_problems", "excerpt", "federalist_problems",
           "novel_problems", "pair_problems", "pan_identities", "pan_known_texts",
           "split_authors"]

#: Words of a Federalist paper cut for shape (a).
ESSAY_WORDS = 800
#: (known, questioned) words of the novel excerpts, per part.
NOVEL_WORDS = {"train": (1800, 1800), "test": (5000, 7000)}
#: Impostors of a PAN-shaped problem (known texts of other authors of its part).
IMPOSTORS = 40
#: The first draw whose PAN problems (essays, pairs) split by *real* author
#: (:func:`pan_identities`): earlier draws split PAN's labels, and PAN 2018 gives one
#: author several labels, so 16 of its 40 English authors had labels in both parts, and
#: in about 3 of 10 problems the impostors held texts by the known or the questioned
#: author under another label (the same text, some of them). Draws from this one keep
#: only the authors wholly in one part of the labels' split (11 in the training part,
#: 13 in the test part), keep both authors out of the impostors, and each text once.
#: Draws before it are as they ran (the stored checks answer them).
FIRST_CLEAN_DRAW = 20
#: The development sets, each name with its shape.
SETS = {"essays": "a", "Federalist": "a", "novels": "b", "pairs": "c"}


@dataclass
class Problem:
    """One verification problem: ``known`` texts of ``author``, the ``questioned`` text by
    ``questioned_author``, the truth ``same``, the ``impostors``, its ``set`` and ``part``;
    ``sources`` names where each text comes from (known texts, then the questioned)."""

    set: str
    part: str
    id: str
    author: str
    questioned_author: str
    known: list[str]
    questioned: str
    same: bool
    impostors: ImpostorPool
    sources: tuple[str, ...] = ()
    impostor_texts: dict[str, list[str]] | None = None

    @property
    def digest(self) -> str:
        """The first 10 hex digits of the SHA-256 of the problem's texts (known, then the
        questioned, joined by NUL): a problem's identity in stored answers."""
        joined = "\x00".join([*self.known, self.questioned])
        return hashlib.sha256(joined.encode()).hexdigest()[:10]

    def pool(self, features: str = "words") -> ImpostorPool:
        """The impostors tokenised by ``features`` (the default pool without the problem's
        authors when ``impostor_texts`` is ``None``)."""
        if features == "words":
            return self.impostors
        if self.impostor_texts is None:
            return gutenberg_pool(features).without([self.author, self.questioned_author])
        return impostor_pool(self.impostor_texts, features)


def excerpt(text: str, words: int, rng: np.random.Generator | None = None) -> str:
    """``words`` words of ``text`` at a random start (seeded ``rng``) or from the middle."""
    w = text.split()
    room = max(len(w) - words, 0)
    start = room // 2 if rng is None else int(rng.integers(0, room + 1))
    return " ".join(w[start:start + words])


def split_authors(authors: Sequence[str], seed: int = 0, train_share: float = 0.5
                  ) -> dict[str, str]:
    """Author → ``"train"`` or ``"test"``: a seeded random split by author."""
    names = sorted(set(authors))
    order = np.random.default_rng(seed).permutation(len(names))
    n_train = int(round(train_share * len(names)))
    return {names[i]: ("train" if k < n_train else "test") for k, i in enumerate(order)}


def _halves(n: int) -> list[bool]:
    """``n`` truths, half same-author (the first ``ceil(n/2)``)."""
    return [k < (n + 1) // 2 for k in range(n)]


# ------------------------------------------------------------------ PAN 2018


def _rng(seed: int, salt: int, draw: int) -> np.random.Generator:
    """The problems' generator: draw 0 is the stored study's; another draw, other problems
    from the same split by author."""
    return np.random.default_rng([seed, salt] + ([draw] if draw else []))


def _id(name: str, part: str, k: int, draw: int) -> str:
    return f"{name} {part} {k:03d}" if not draw else f"{name} {part} d{draw} {k:03d}"


def _pan_texts() -> pd.DataFrame:
    """PAN 2018's English texts of both collections; ``author`` made unique per
    (collection, problem, candidate)."""
    from hclib.corpora.pan import load_pan18

    parts = []
    for collection in ("train", "test"):
        d = load_pan18(collection).copy()
        d["author"] = collection + " " + d["problem"] + " " + d["author"]
        d["group"] = collection + " " + d["problem"]
        parts.append(d)
    return pd.concat(parts, ignore_index=True)


def pan_known_texts(seed: int = 0) -> pd.DataFrame:
    """PAN 2018's known texts (both collections, authors unique per problem), with each
    author's ``part`` of the split by author of ``seed``."""
    d = _pan_texts()
    part_of = split_authors(d["author"], seed)
    known = d[d.role == "known"].copy()
    known["part"] = known["author"].map(part_of)
    return known


def pan_identities(d: pd.DataFrame) -> pd.Series:
    """Each PAN label's real author: PAN 2018's English problems are nested within each
    collection (training: problem 2's 5 candidates are 5 of problem 1's 20; test: 5 of
    10 of 15 of 20), so 75 labels are 40 authors (no text is shared between the two
    collections), and one text appears under two to four labels. Labels that share a
    text are one author (connected components), named by their first label in sorted
    order."""
    parent = {a: a for a in sorted(d["author"].unique())}

    def root(a: str) -> str:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    for _, labels in d.groupby("text")["author"]:
        first, *rest = sorted(set(labels))
        for other in rest:
            a, b = sorted((root(first), root(other)))
            parent[b] = a
    return d["author"].map(root)


def _pan_problems(name: str, n: int, known_range: tuple[int, int], seed: int, salt: int,
                  draw: int = 0) -> list[Problem]:
    d = _pan_texts()
    part_of = split_authors(d["author"], seed)
    if draw >= FIRST_CLEAN_DRAW:  # only authors wholly in one part, each text once
        d = d.assign(identity=pan_identities(d))
        parts = d.groupby("identity")["author"].agg(lambda a: {part_of[x] for x in a})
        part_of = {a: next(iter(parts[i])) for a, i in zip(d.author, d.identity)
                   if len(parts[i]) == 1}
    else:
        d = d.assign(identity=d["author"])
    known = d[d.role == "known"]
    unknown = d[d.role == "unknown"]
    rng = _rng(seed, salt, draw)
    out = []
    for part in ("train", "test"):
        mine = sorted(a for a, p in part_of.items() if p == part)
        for k, same in enumerate(_halves(n)):
            author = str(rng.choice(mine))
            group = known.loc[known.author == author, "group"].iloc[0]
            if same:
                other = author
            else:
                rivals = sorted(set(unknown.loc[(unknown.group == group)
                                                & (unknown.author != author), "author"])
                                & set(mine))
                me = known.loc[known.author == author, "identity"].iloc[0]
                others = sorted(set(d.loc[d.author.isin(mine) & d.identity.ne(me),
                                          "author"]))  # before draw 20: mine but author
                other = str(rng.choice(rivals)) if rivals else str(rng.choice(others))
            q = unknown[unknown.author == other]
            row = q.iloc[int(rng.integers(len(q)))]
            own = known[known.author == author]
            m = int(rng.integers(known_range[0], known_range[1] + 1))
            own = own.iloc[np.sort(rng.choice(len(own), m, replace=False))]
            both = set(d.loc[d.author.isin([author, other]), "identity"])
            pool = known[known.author.isin(mine) & ~known.identity.isin(both)]
            if draw >= FIRST_CLEAN_DRAW:
                pool = pool.drop_duplicates("text")
            pick = np.sort(rng.choice(len(pool), min(IMPOSTORS, len(pool)), replace=False))
            imp = pool.iloc[pick]
            texts = {a: g.text.tolist() for a, g in imp.groupby("identity")}
            sources = tuple(f"{g} {d}" for g, d in zip(own.group, own.doc_id)) + \
                (f"{row.group} {row.doc_id}",)
            out.append(Problem(name, part, _id(name, part, k, draw), author, other,
                               own.text.tolist(), row.text, same, impostor_pool(texts),
                               sources, texts))
    return out


def essay_problems(n: int = 40, seed: int = 0, draw: int = 0) -> list[Problem]:
    """Shape (a) from PAN 2018: ``n`` problems per part (module docstring)."""
    return _pan_problems("essays", n, (1, 5), seed, 1, draw)


def pair_problems(n: int = 40, seed: int = 0, draw: int = 0) -> list[Problem]:
    """Shape (c), PAN 2020-style pairs from PAN 2018: ``n`` problems per part."""
    return _pan_problems("pairs", n, (1, 1), seed, 2, draw)


# ------------------------------------------------------------------ the Federalist


def federalist_problems(n: int = 40, seed: int = 0, draw: int = 0) -> list[Problem]:
    """Shape (a) from the Federalist papers, test part only (module docstring)."""
    from hclib.studies.verification import federalist_papers

    papers = federalist_papers()
    cut = {a: {i: excerpt(t, ESSAY_WORDS) for i, t in papers[a].items()}
           for a in ("Madison", "Hamilton", "Jay")}
    rng = _rng(seed, 3, draw)
    out = []
    for k, same in enumerate(_halves(n)):
        author = ("Madison", "Hamilton")[k % 2]
        own = sorted(cut[author], key=int)
        m = int(rng.integers(1, 6))
        chosen = [own[i] for i in rng.choice(len(own), m + 1, replace=False)]
        known_ids, q_id = chosen[:m], chosen[m]
        other = author
        if not same:
            other = str(rng.choice([a for a in ("Madison", "Hamilton", "Jay") if a != author]))
            q_id = str(rng.choice(sorted(cut[other], key=int)))
        used = set(known_ids) | {q_id}
        texts = {a: [t for i, t in cut[a].items() if i not in used]
                 for a in cut if a != author}
        out.append(Problem("Federalist", "test", _id("Federalist", "test", k, draw), author,
                           other, [cut[author][i] for i in known_ids], cut[other][q_id],
                           same, impostor_pool(texts), tuple(known_ids) + (q_id,), texts))
    return out


# ------------------------------------------------------------------ Gutenberg novels


def novel_problems(n: int = 40, seed: int = 0, draw: int = 0,
                   lengths: dict[str, tuple[int, int]] | None = None, tag: str = ""
                   ) -> list[Problem]:
    """Shape (b) from the Gutenberg collection: ``n`` problems per part, one known excerpt,
    works of the default impostor pool kept out (module docstring). ``lengths``: (known,
    questioned) words per part (default :data:`NOVEL_WORDS`), the same authors and works
    drawn whatever they are; ``tag`` is added to the set's name in the ids."""
    from hclib.corpora.gutenberg import Collection, read_manifest, read_text

    lengths = NOVEL_WORDS if lengths is None else lengths

    manifest = read_manifest()
    works = {a: g.iloc[POOL_WORKS:].reset_index(drop=True)
             for a, g in manifest.groupby("author", sort=False)}
    works = {a: g for a, g in works.items() if len(g) >= 2}
    part_of = split_authors(list(works), seed)
    rng = _rng(seed, 5, draw)
    pool = gutenberg_pool()

    def doc(author: str, i: int) -> str:
        return str(works[author]["doc_id"].iloc[i])

    def read(author: str, i: int) -> str:
        row = works[author].iloc[[i]].reset_index(drop=True)
        coll = Collection(row, (), np.zeros((1, 0), dtype=np.int64), "gutenberg")
        return read_text(coll, row["doc_id"][0])

    out = []
    for part in ("train", "test"):
        k_words, q_words = lengths[part]
        mine = sorted(a for a, p in part_of.items() if p == part)
        for k, same in enumerate(_halves(n)):
            author = str(rng.choice(mine))
            w_known = int(rng.integers(len(works[author])))
            if same:
                other = author
                w_q = int(rng.choice([w for w in range(len(works[author])) if w != w_known]))
            else:
                other = str(rng.choice([a for a in mine if a != author]))
                w_q = int(rng.integers(len(works[other])))
            known = excerpt(read(author, w_known), k_words, rng)
            questioned = excerpt(read(other, w_q), q_words, rng)
            out.append(Problem("novels", part, _id("novels" + tag, part, k, draw), author,
                               other, [known], questioned, same,
                               pool.without([author, other]),
                               (doc(author, w_known), doc(other, w_q))))
    return out


def build_sets(n: int = 40, seed: int = 0, sets: Sequence[str] = tuple(SETS),
               draw: int = 0) -> list[Problem]:
    """Every problem of ``sets`` (names of :data:`SETS`), ``n`` per part; ``seed`` splits
    the authors, ``draw`` (0: the stored study's) draws other problems of that split."""
    makers = {"essays": essay_problems, "Federalist": federalist_problems,
              "novels": novel_problems, "pairs": pair_problems}
    unknown = set(sets) - set(makers)
    if unknown:
        raise ValueError(f"sets: unknown set(s) {sorted(unknown)}; choose from {list(SETS)}")
    return [p for name in sets for p in makers[name](n, seed, draw)]
