"""Facts in the third person: how :mod:`.rules` writes them, and how they are read back into attributes.

:func:`third_person` rewrites a first-person statement ("my sister is called Jane" → "Alice's sister is
called Jane"). :func:`attribute_of` reads a third-person fact back into a single-valued attribute
("location", "name", "opinion:jazz" ...) so that consolidation can tell a changed value from a new fact;
:func:`holder_of` says whose attribute it is. Pure functions.
"""

from __future__ import annotations

import re
from collections.abc import Callable

__all__ = [
    "DIETS",
    "OCCUPATIONS",
    "TRAILING",
    "attribute_of",
    "holder_of",
    "named_holder",
    "normalize_value",
    "same_holder",
    "third_person",
]

OCCUPATIONS = (
    "engineer|developer|programmer|teacher|nurse|doctor|physician|surgeon|student|designer|lawyer|"
    "accountant|chef|cook|baker|writer|author|artist|musician|scientist|researcher|manager|consultant|"
    "architect|pilot|farmer|journalist|photographer|dentist|pharmacist|electrician|plumber|mechanic|"
    "firefighter|officer|professor|lecturer|librarian|translator|analyst|therapist|psychologist|"
    "veterinarian|vet|paramedic|carpenter|entrepreneur|founder|freelancer|barista|waiter|waitress|"
    "cashier|driver|editor|economist|banker|salesperson|recruiter|scientist|technician|intern"
)
"""Occupations a rule recognises in "I'm a ..." (and reads back from "... is a ..."), as a regex alternation."""
DIETS = "vegetarian|vegan|pescatarian|gluten-free|lactose intolerant|lactose-intolerant|kosher|halal|teetotal"
"""Diets as a regex alternation."""
TRAILING = re.compile(r"[\s,.;:!?…)\]\"'”’]+$")
"""Punctuation, quotes and spaces at the end of a value or a fact."""


def _wordset(words: str) -> frozenset[str]:
    return frozenset(words.split())


_VERB_3RD = {"have": "has", "do": "does", "go": "goes", "am": "is", "was": "was"}
_PRONOUNS = (
    (re.compile(r"\b(?:I|i) (?:don't|don’t|dont)\b"), "{who} doesn't"),
    (re.compile(r"\b(?:I|i) do not\b"), "{who} does not"),
    (re.compile(r"\b(?:I|i) (?:haven't|haven’t)\b"), "{who} hasn't"),
    (re.compile(r"\b(?:I|i) have not\b"), "{who} has not"),
    (re.compile(r"\b(?:I|i) (?:ain't|ain’t|am not)\b"), "{who} is not"),
    (re.compile(r"\b(?:I|i)(?=(?:'|’)[a-z]|\s+[a-z])"), "I"),  # a lower-case "i" read as the pronoun
    (re.compile(r"\b(?:I'm|I’m|I am)\b"), "{who} is"),
    (re.compile(r"\b(?:I've|I’ve)\b"), "{who} has"),
    (re.compile(r"\b(?:I'll|I’ll)\b"), "{who} will"),
    (re.compile(r"\b(?:I'd|I’d)\b"), "{who} would"),
    (re.compile(r"\bmyself\b", re.IGNORECASE), "themselves"),
    (re.compile(r"\bmine\b(?!-)", re.IGNORECASE), "\x00mine\x00"),
    (re.compile(r"\bmy\b(?!-)", re.IGNORECASE), "\x00my\x00"),
    (re.compile(r"\bme\b(?!-)", re.IGNORECASE), "\x00me\x00"),  # not "me-time"
)
# "my", "mine" and "me" name the person the first time, and are pronouns once the name was said: "I keep bees on
# my roof" → "Alice keeps bees on their roof", not "... on Alice's roof".
_OBJECTS = re.compile("\x00(my|mine|me)\x00")
_NAMED = {"my": "{who}'s", "mine": "{who}'s", "me": "{who}"}
_PRONOUN = {"my": "their", "mine": "theirs", "me": "them"}
_I_VERB = re.compile(r"\bI\s+(?P<verb>[a-z]+)\b(?![’'])")  # "I can't", "I won't": the verb stays as it is
_KEEP = _wordset(
    "can could will would shall should may might must did was had never always also really just ever "
    # the past of common irregular verbs ("I told" is not "Alice tolds")
    "ate became began bought brought built came caught chose drank drove felt flew forgot fought found gave "
    "got grew heard held kept knew left lost made meant met paid ran sang sat saw said sent slept sold spent "
    "spoke stood swam taught thought threw told took understood went woke won wore wrote"
)


def _third_verb(match: re.Match[str], who: str) -> str:
    verb = match.group("verb")
    if verb in _KEEP or verb.endswith("ed"):
        return f"{who} {verb}"
    if verb in _VERB_3RD:
        return f"{who} {_VERB_3RD[verb]}"
    if verb.endswith(("s", "sh", "ch", "x", "z", "o")):
        return f"{who} {verb}es"
    if verb.endswith("y") and len(verb) > 2 and verb[-2] not in "aeiou":
        return f"{who} {verb[:-1]}ies"
    return f"{who} {verb}s"


def third_person(text: str, who: str, *, capitalize: bool = True) -> str:
    """Rewrite a first-person statement about ``who`` in the third person, e.g.
    ``"my sister is called Jane"`` → ``"Alice's sister is called Jane"``."""
    out = text.strip()
    for pattern, template in _PRONOUNS:
        out = pattern.sub(template.format(who=who), out)
    out = _I_VERB.sub(lambda m: _third_verb(m, who), out)
    out = re.sub(r"\bI\b", who, out)
    out = _objects(out, who)
    return out[:1].upper() + out[1:] if capitalize else out


def _objects(text: str, who: str) -> str:
    """Each "my", "mine" or "me" marked in ``text``: the name until the name was said, a pronoun after."""
    name = re.compile(rf"(?<!\w){re.escape(who)}(?!\w)")
    parts = _OBJECTS.split(text)  # text, word, text, word, ..., text
    said = False
    for i, part in enumerate(parts):
        if i % 2:
            parts[i] = _PRONOUN[part] if said else _NAMED[part].format(who=who)
            said = True
        else:
            said = said or name.search(part) is not None
    return "".join(parts)


def normalize_value(value: str) -> str:
    """A value compared case- and punctuation-blind, without a leading article ("+" and "-" stay)."""
    text = re.sub(r"[^\w\s'-]", " ", value.lower()).replace("’", "'")
    text = re.sub(r"^(?:a|an|the)\s+", "", text.strip())
    return re.sub(r"\s+", " ", text).strip() or value.strip()


_ATTRIBUTES: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], tuple[str, str]]], ...] = (
    (re.compile(r"^(?P<who>[^']+?)(?:'s|’s) name is (?P<v>.+)$", re.I), lambda m: ("name", m["v"])),
    (re.compile(r"^(?P<who>.+?) (?:is called|goes by) (?P<v>.+)$", re.I), lambda m: ("name", m["v"])),
    (
        re.compile(
            r"^(?P<who>.+?) (?:lives|is living|resides|is based|now lives|moved|relocated) (?:in|to) (?P<v>.+)$", re.I
        ),
        lambda m: ("location", m["v"]),
    ),
    (re.compile(r"^(?P<who>.+?) (?:is|comes) (?:originally )?from (?P<v>.+)$", re.I), lambda m: ("origin", m["v"])),
    (re.compile(r"^(?P<who>.+?) works as (?P<v>.+)$", re.I), lambda m: ("occupation", m["v"])),
    (re.compile(r"^(?P<who>.+?) (?:works|is employed) (?:at|for|by) (?P<v>.+)$", re.I), lambda m: ("employer", m["v"])),
    (
        re.compile(rf"^(?P<who>.+?) is an? (?P<v>(?:[\w-]+ ){{0,3}}?(?:{OCCUPATIONS}))$", re.I),
        lambda m: ("occupation", m["v"]),
    ),
    (
        re.compile(r"^(?P<who>.+?) (?:likes|loves|enjoys|adores|prefers|really likes) (?P<v>.+)$", re.I),
        lambda m: (f"opinion:{normalize_value(m['v'])}", "+"),
    ),
    (
        re.compile(
            r"^(?P<who>.+?) (?:dislikes|hates|detests|loathes|does not like|doesn't like|can't stand) (?P<v>.+)$", re.I
        ),
        lambda m: (f"opinion:{normalize_value(m['v'])}", "-"),
    ),
    (
        re.compile(r"^(?P<who>[^']+?)(?:'s|’s) favou?rite (?P<thing>.+?) (?:is|are) (?P<v>.+)$", re.I),
        lambda m: (f"favourite:{normalize_value(m['thing'])}", m["v"]),
    ),
    (re.compile(r"^(?P<who>[^']+?)(?:'s|’s) birthday is (?:on )?(?P<v>.+)$", re.I), lambda m: ("birthday", m["v"])),
    (re.compile(r"^(?P<who>.+?) is (?P<v>\d{1,3}) years old$", re.I), lambda m: ("age", m["v"])),
    (re.compile(rf"^(?P<who>.+?) is (?:a |an )?(?P<v>{DIETS})$", re.I), lambda m: ("diet", m["v"])),
)


_ANONYMOUS = frozenset({"the user", "user", "they", "he", "she"})


def holder_of(content: str) -> str | None:
    """Who a third-person fact with an attribute is about, as written ("Alice", "The user"), or None."""
    parsed = _parse(content)
    return None if parsed is None else parsed[0]


def named_holder(holder: str | None) -> str | None:
    """The holder's name, lower-cased; None when unnamed ("The user") or unknown."""
    return None if holder is None or holder.lower() in _ANONYMOUS else holder.lower()


def same_holder(a: str | None, b: str | None) -> bool:
    """Whether two holders may be the same person: equal names, or either one unnamed ("The user")."""
    x, y = named_holder(a), named_holder(b)
    return x is None or y is None or x == y


def attribute_of(content: str) -> tuple[str, str] | None:
    """The single-valued attribute a third-person fact sets, as ``(attribute, normalised value)``.

    ``"Alice lives in Berlin"`` → ``("location", "berlin")``; ``"Alice dislikes jazz"`` →
    ``("opinion:jazz", "-")``. None unless the fact is about a person named by a capitalised name or
    "The user" ("Alice's sister lives in Rome" and "The gift is from Bob" set no attribute of Alice's),
    and for anything else. Never raises.
    """
    parsed = _parse(content)
    return None if parsed is None else (parsed[1], parsed[2])


def _parse(content: str) -> tuple[str, str, str] | None:
    text = TRAILING.sub("", content.strip())
    for pattern, read in _ATTRIBUTES:
        match = pattern.match(text)
        if match is None:
            continue
        who = match.group("who").strip()
        words = who.split()
        if who.lower() not in _ANONYMOUS and not (len(words) <= 3 and all(w[:1].isupper() for w in words)):
            return None  # about someone or something else ("Alice's sister", "the gift")
        if "'s" in who or "’s" in who:
            return None
        attribute, value = read(match)
        return who, attribute, normalize_value(value)
    return None
