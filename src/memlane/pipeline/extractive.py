"""The extractive summarizer used without an LLM: the most central sentences, in their original order.

Pure functions. A batch of messages is split into sentences; acknowledgements, greetings and other filler
("Noted.", "ok number 12", "thanks!": :func:`is_filler`) are left out. Each other sentence gets a vector (an
embedding when an embedder is given, else TF-IDF weights of its content words); a sentence's centrality is
its cosine to the mean vector (it says what the batch is mostly about), scaled down for sentences with few
content words and for questions. Sentences are then picked greedily by centrality minus their similarity
to sentences already picked (maximal marginal relevance: no two that say the same), until a character
limit, and printed in conversation order with their speaker's name."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:  # numpy loads with the first summary, not with `import memlane` (which needs term_set)
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "Sentence",
    "Utterance",
    "centrality",
    "content_terms",
    "extractive_summary",
    "is_filler",
    "select_sentences",
    "sentences_of",
    "split_sentences",
    "term_set",
    "tfidf_vectors",
]

Embed: TypeAlias = "Callable[[Sequence[str]], npt.NDArray[np.floating]]"

MAX_SENTENCES = 200  # a batch is ~20 messages; more sentences than this are pasted documents
MAX_SENTENCE_CHARS = 240
DIVERSITY = 0.35  # weight of redundancy against centrality when picking (MMR)
REPEATED = 0.9  # a sentence this similar to one already picked says the same: never picked
MIN_TERMS = 4  # sentences with fewer content words are scaled down: they rarely carry the point


def _wordset(words: str) -> frozenset[str]:
    return frozenset(words.split())


_ABBREVIATIONS = _wordset("mr mrs ms dr prof st jr sr vs etc e.g i.e approx no fig ca inc ltd co corp ave rd mt dept")
_BOUNDARY = re.compile(r"(?<=[.!?…])[\"'”’)\]]*\s+(?=[\"'“‘(\[]?[A-Z0-9À-ÖØ-Þ])")
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*", re.UNICODE)
_STOPWORDS = _wordset(
    """a about above after again against all also am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from further had has
    have having he her here hers herself him himself his how i if in into is it its itself just let me
    more most my myself no nor not now of off on once only or other our ours ourselves out over own same
    she should so some such than that the their theirs them themselves then there these they this those
    through to too under until up very was we were what when where which while who whom why will with
    would you your yours yourself yourselves yes yeah ok okay oh hi hey hello thanks thank please sure
    really just like get got im i'm it's that's don't dont can't cant won't wont i've ive i'll ill
    you're youre we're let's lets"""
)


# Words that carry no news on their own: acknowledgements, greetings, praise, vague nouns ("Noted.",
# "ok number 12", "Thanks, sounds great!", "Good to see you!", "Anything new?").
_SMALL_TALK = _wordset(
    """noted note ok okay alright thanks thank cool great awesome nice sure yes yeah yep yup no nope sound good
    perfect got bye goodbye later welcome hi hello hey wow lol haha hah omg amazing glad hear happy right true
    agree agreed exactly indeed absolutely definitely totally fine well done see number anything something
    everything nothing thing stuff lot much many way today time new news wonderful fantastic appreciate
    understand understood makes sense care take hope too soon luck congrats congratulation cheer wish back
    talk chat catch mean guess know kind sorry please excuse hmm hmmm um uh ah oh congrat"""
)
_FIRST_PERSON = re.compile(r"\b(?:I|I'm|I’m|my|we|our)\b", re.IGNORECASE)


def is_filler(text: str) -> bool:
    """Whether a message or sentence says nothing worth keeping: an acknowledgement, a greeting, thanks,
    praise, or a number alone ("Noted.", "ok number 12", "thanks!", "Good to see you!").

    It is filler when fewer than two of its content words (:func:`content_terms`, numbers aside) are
    words other than such small talk; one is enough in a statement about the speaker ("I'm vegan").
    Never raises.
    """
    news = {t for t in content_terms(text) if t not in _SMALL_TALK and not t.isdigit()}
    return len(news) < (1 if _FIRST_PERSON.search(text) else 2)


@dataclass(frozen=True, slots=True)
class Utterance:
    """One message's text and who said it (a display name such as ``Alice`` or ``assistant``)."""

    speaker: str
    text: str


@dataclass(frozen=True, slots=True)
class Sentence:
    """A sentence of an utterance; ``position`` orders sentences as they were said."""

    position: int
    speaker: str
    text: str


def split_sentences(text: str) -> list[str]:
    """Split chat text into sentences: at line breaks, and after ``.``/``!``/``?`` before a capital.

    Common abbreviations ("Dr.", "e.g.") do not end a sentence. Never raises; blank text gives ``[]``.
    """
    out: list[str] = []
    for line in text.splitlines():
        start = 0
        for match in _BOUNDARY.finditer(line):
            head = line[start : match.start()].rstrip()
            last = head.rsplit(None, 1)[-1].rstrip(".").lower() if head.split() else ""
            if last in _ABBREVIATIONS or len(last) == 1:
                continue  # "Dr. Smith", "J. R. R. Tolkien"
            out.append(line[start : match.end()].strip())
            start = match.end()
        out.append(line[start:].strip())
    return [s for s in out if s]


def content_terms(text: str) -> list[str]:
    """The lower-cased content words of ``text`` (stopwords, numbers-free noise and 1-letter words dropped).

    A plural ``-s`` is removed from longer words so "apartments" and "apartment" count as one term.
    """
    terms = []
    for word in _WORD.findall(text.lower()):
        word = word.replace("’", "'")
        if word in _STOPWORDS or len(word) < 2:
            continue
        if len(word) > 4 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
            word = word[:-1]
        terms.append(word)
    return terms


@lru_cache(maxsize=8192)
def term_set(text: str) -> frozenset[str]:
    """:func:`content_terms` as a set, cached: consolidation compares the same stored facts again and again."""
    return frozenset(content_terms(text))


def sentences_of(utterances: Sequence[Utterance], *, limit: int = MAX_SENTENCES) -> list[Sentence]:
    """Every sentence of the utterances in order, each cut to ``MAX_SENTENCE_CHARS`` (at most ``limit``)."""
    out: list[Sentence] = []
    for utterance in utterances:
        for text in split_sentences(utterance.text):
            if len(out) >= limit:
                return out
            if len(text) > MAX_SENTENCE_CHARS:
                text = text[: MAX_SENTENCE_CHARS - 1].rsplit(" ", 1)[0] + "…"
            out.append(Sentence(len(out), utterance.speaker, text))
    return out


def tfidf_vectors(documents: Sequence[Sequence[str]]) -> npt.NDArray[np.float64]:
    """L2-normalised TF-IDF rows of tokenised documents (a row of zeros for a document without terms)."""
    import numpy as np

    vocabulary: dict[str, int] = {}
    for terms in documents:
        for term in terms:
            vocabulary.setdefault(term, len(vocabulary))
    matrix = np.zeros((len(documents), max(1, len(vocabulary))), dtype=np.float64)
    if not vocabulary:
        return matrix
    df = Counter(term for terms in documents for term in set(terms))
    n = len(documents)
    for row, terms in enumerate(documents):
        for term, count in Counter(terms).items():
            idf = math.log((1 + n) / (1 + df[term])) + 1.0
            matrix[row, vocabulary[term]] = (1.0 + math.log(count)) * idf
    return _normalize(matrix)


def _normalize(matrix: npt.NDArray[np.floating]) -> npt.NDArray[np.float64]:
    import numpy as np

    m = np.asarray(matrix, dtype=np.float64)
    norms = np.linalg.norm(m, axis=1, keepdims=True)
    out: npt.NDArray[np.float64] = np.divide(m, norms, out=np.zeros_like(m), where=norms > 0)
    return out


def centrality(vectors: npt.NDArray[np.floating]) -> npt.NDArray[np.float64]:
    """Each row's cosine similarity to the mean direction of all rows (0 for an all-zero row)."""
    import numpy as np

    rows = _normalize(vectors)
    if rows.shape[0] == 0:
        return np.zeros(0)
    centroid = rows.mean(axis=0)
    norm = float(np.linalg.norm(centroid))
    if norm == 0.0:
        return np.zeros(rows.shape[0])
    scores: npt.NDArray[np.float64] = rows @ (centroid / norm)
    return scores


def select_sentences(
    sentences: Sequence[Sentence],
    scores: npt.NDArray[np.floating],
    vectors: npt.NDArray[np.floating],
    *,
    max_chars: int,
    max_sentences: int,
    diversity: float = DIVERSITY,
) -> list[Sentence]:
    """Greedy maximal-marginal-relevance choice within ``max_chars`` (speaker prefixes included),
    returned in conversation order."""
    rows = _normalize(vectors)
    remaining = list(range(len(sentences)))
    chosen: list[int] = []
    used = 0
    while remaining and len(chosen) < max_sentences:
        best, best_value = -1, -math.inf
        for i in remaining:
            redundancy = max((float(rows[i] @ rows[j]) for j in chosen), default=0.0)
            if redundancy >= REPEATED:
                continue
            value = (1.0 - diversity) * float(scores[i]) - diversity * redundancy
            if value > best_value:
                best, best_value = i, value
        if best < 0:
            break  # everything left repeats what was picked
        remaining.remove(best)
        cost = len(sentences[best].text) + len(sentences[best].speaker) + 3
        if used + cost > max_chars and chosen:
            continue  # too long for what is left; a shorter one may still fit
        chosen.append(best)
        used += cost
    return [sentences[i] for i in sorted(chosen)]


QUESTION = 0.5  # a question says less than a statement: its score is scaled by this


def _informativeness(sentences: Sequence[Sentence]) -> npt.NDArray[np.float64]:
    import numpy as np

    return np.array(
        [
            min(1.0, len(content_terms(s.text)) / MIN_TERMS) * (QUESTION if s.text.rstrip().endswith("?") else 1.0)
            for s in sentences
        ],
        dtype=np.float64,
    )


def _small_talk(utterances: Sequence[Utterance]) -> str:
    """What a summary says of messages that are all acknowledgements and small talk."""
    speakers = list(dict.fromkeys(u.speaker for u in utterances))
    who = " and ".join(speakers) if len(speakers) <= 2 else ", ".join(speakers[:-1]) + " and " + speakers[-1]
    return f"{who}: {len(utterances)} short message(s) of acknowledgements and small talk, nothing to keep."


def _render(picked: Sequence[Sentence]) -> str:
    parts: list[str] = []
    speaker = None
    for sentence in picked:
        text = sentence.text if sentence.text[-1] in ".!?…" else sentence.text + "."
        parts.append(text if sentence.speaker == speaker else f"{sentence.speaker}: {text}")
        speaker = sentence.speaker
    return " ".join(parts)


def extractive_summary(
    utterances: Sequence[Utterance],
    *,
    embed: Embed | None = None,
    max_chars: int = 700,
    max_sentences: int = 6,
) -> str:
    """The most informative sentences of ``utterances`` as one paragraph, e.g.
    ``"Alice: Flights are booked. Chen: I'll sort out where we sleep."``

    ``embed(texts)`` (one row per text) gives semantic vectors; without it TF-IDF vectors are used.
    Errors of ``embed`` propagate. Never returns an empty string.
    """
    said = sentences_of(utterances)
    if not said:
        return f"{len(utterances)} message(s) without text to summarize."
    sentences = [s for s in said if not is_filler(s.text)]
    if not sentences:
        return _small_talk(utterances)
    tfidf = tfidf_vectors([content_terms(s.text) for s in sentences])
    vectors = _normalize(embed([s.text for s in sentences])) if embed is not None else tfidf
    scores = centrality(vectors) * _informativeness(sentences)
    picked = select_sentences(sentences, scores, vectors, max_chars=max_chars, max_sentences=max_sentences)
    return _render(picked)
