"""Rule-based fact extraction, used without an LLM: explicit first-person statements only.

Pure functions. A user's message is cut into clauses; a clause yields a fact only when it is a plain
statement by the speaker about themselves that opens the clause ("my name is Alice", "I live in Lisbon",
"I'm allergic to peanuts", "remember that my sister is called Jane"). Questions, hypotheticals ("if I
lived in Paris"), reported or quoted speech ("she said 'I love jazz'"), negations ("it's not true that I
live in Rome"), relative clauses ("a job I enjoy") and vague objects ("I love it") yield nothing: a
missed fact costs little, a false one misleads the assistant for good.

Facts are written in the third person with the speaker's name when it is known ("Alice lives in
Lisbon"). :func:`attribute_of` (:mod:`.attributes`, re-exported here) reads such a sentence back into a
single-valued attribute ("location", "name", "opinion:jazz" ...) so that consolidation can tell a changed
value from a new fact.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from .attributes import (
    DIETS,
    OCCUPATIONS,
    TRAILING,
    attribute_of,
    holder_of,
    named_holder,
    normalize_value,
    same_holder,
    third_person,
)
from .extractive import split_sentences

__all__ = [
    "CandidateFact",
    "attribute_of",
    "extract_facts",
    "holder_of",
    "named_holder",
    "normalize_value",
    "same_holder",
    "third_person",
]


@dataclass(frozen=True, slots=True)
class CandidateFact:
    """A fact found in a conversation, before consolidation decides what to do with it.

    ``attribute``/``value`` name a single-valued property ("location" = "lisbon") when the fact is one;
    a different value of the same attribute contradicts it. ``speaker`` is the user key who stated it,
    ``seq`` the message it came from, ``rule`` the rule that found it (None for LLM facts).
    """

    content: str
    category: str = "fact"
    importance: int = 3
    subject: str | None = None
    attribute: str | None = None
    value: str | None = None
    speaker: str | None = None
    seq: int | None = None
    rule: str | None = None


# -- clause filters ----------------------------------------------------------------------------------

_QUOTED = re.compile(r"\"[^\"]*\"|“[^”]*”|„[^“”]*[“”]|«[^»]*»|(?<![\w])'[^']*\s[^']*'(?![\w])")
_CLAUSE_SPLIT = re.compile(
    r"\s*;\s*|\s*—\s*|,?\s+\b(?:but|although|though|whereas|while)\b\s+|,?\s+and\s+(?=(?:I|my|I'm|I've)\b)"
)
_QUESTION_START = re.compile(
    r"^(?:do|does|did|is|are|am|was|were|can|could|would|should|will|shall|may|might|have|has|had|"
    r"what|where|when|who|whom|why|how|which|whose|isn't|aren't|don't|didn't|doesn't|won't)\b",
    re.IGNORECASE,
)
_HYPOTHETICAL = re.compile(
    r"\b(?:if|unless|would|could|might|maybe|perhaps|wish|wished|imagine|suppose|supposing|pretend|"
    r"hypothetically|whether|someday|dream|dreamt|dreamed|assume|assuming|let's say|as if|in case|"
    r"i'd|i’d|should|want to|wanna|hope|hoping|plan to|planning to|going to|gonna)\b",
    re.IGNORECASE,
)
_REPORTED = re.compile(
    r"\b(?:said|says|say|told|tells|tell|asked|asks|ask|wrote|writes|claims|claimed|thinks|thought|"
    r"believes|according|quote|quoted|joked|joking|kidding|lie|lied|lying)\b",
    re.IGNORECASE,
)
_NEGATION = re.compile(r"\b(?:not|never|no|nobody|nothing|neither|nor|hardly)\b|n't\b|n’t\b", re.IGNORECASE)
_LEAD = re.compile(
    r"^(?:(?:and|but|so|also|plus|yeah|yes|yep|yup|well|actually|honestly|frankly|seriously|oh|ah|ok|okay|now|"
    r"still|really|because|since|btw|by the way|anyway|anyways|hey|hi|hello|no|nope|wow|lol|haha|i think|"
    r"i guess|i mean|guess what|fun fact|just so you know|for the record|to be honest|in fact)\W*)*$",
    re.IGNORECASE,
)
_REMEMBER_LEAD = re.compile(r"^(?:(?:please|pls|also|and|so|oh|btw|just|ok|okay|hey|now)\s*)*$", re.IGNORECASE)
_VAGUE = re.compile(
    r"^(?:it|that|this|them|those|these|you|him|her|us|something|anything|everything|nothing|what|which|"
    r"how|when|where|who|your|yours|his|their|our|one|ones|here|there|so|too|a lot|lots|"
    r"to (?:think|believe|say|imagine|know|hear|see|point out|add|mention))\b",
    re.IGNORECASE,
)
_VALUE_STOP = re.compile(
    r",\s+(?=[a-z]).*$|\s+[-–—]\s.*$|\s+(?:with|since|for|because|but|and|or|so|now|these days|at the moment|right now|"
    r"currently|though|although|when|where|which|who|that|as|if|too|anymore|lol|haha|last|this|next|"
    r"yesterday|today|recently|ago|in \d{4}|originally|actually|as well|also|btw)\b.*$",
)
# Lists are the value itself for some rules: "allergic to peanuts and shellfish".
_LIST_STOP = re.compile(
    r"\s+(?:with|since|for|because|but|so|now|though|although|when|where|which|who|that|as|if|too|lol|haha)\b.*$"
)
_LEADING_ADVERB = re.compile(r"^(?:also|too|really|so|very much|much)\s+", re.IGNORECASE)
_DANGLING = re.compile(
    r"\b(?:to|of|for|with|in|at|on|the|a|an|and|or|my|your|about|from|by|into|like|such as)$", re.IGNORECASE
)
# In what someone likes, a pronoun points at something said before: "I love making him happy".
_POINTING = re.compile(
    r"\b(?:it|itself|them|themselves|him|her|this|that|these|those|he|she|they|you|one)\b", re.IGNORECASE
)
# "I love the colours", "I love all the yellow leaves", "I love the way the light hits": a reaction to something
# shown or just said, not a lasting taste (measured on LoCoMo: most such "likes" match no observation). A few
# places and seasons keep the article as a taste: "I love the ocean".
_REACTION = re.compile(r"^(?:all\s+)?(?:the|your|such|so many|how)\b", re.IGNORECASE)
_KEPT_WITH_THE = re.compile(
    r"^the\s+(?:outdoors|ocean|sea|beach|mountains|countryside|city|rain|snow|sun|summer|winter|autumn|fall|"
    r"spring|movies|theatre|theater|opera|beatles)$",
    re.IGNORECASE,
)
# A lone verb says too little to keep: "I love making", "I like to go", "I love to help".
_BARE_VERB = re.compile(
    r"^(?:to\s+)?(?:go|going|make|making|do|doing|get|getting|help|helping|see|seeing|try|trying|have|having|"
    r"be|being|take|taking|come|coming|play|playing|know|knowing|think|thinking|learn|learning|it|work|working)$",
    re.IGNORECASE,
)
# "I love getting lost in a book", "I love seeing them succeed": a feeling described, rarely a lasting taste.
_FELT = re.compile(
    r"^(?:getting|seeing|feeling|finding|sinking|entering|curling|hearing|knowing|realizing|noticing)\b",
    re.IGNORECASE,
)
_MAX_VALUE_WORDS = 6


def _clauses(text: str) -> list[str]:
    """Sentences of ``text`` with quoted speech blanked, split further at ``;``, "but", "and I" ..."""
    text = _QUOTED.sub(" … ", text)
    out: list[str] = []
    for sentence in split_sentences(text):
        if sentence.rstrip().endswith("?"):
            continue  # a question, whatever its shape
        out.extend(c.strip() for c in _CLAUSE_SPLIT.split(sentence) if c and c.strip())
    return out


def _plain_statement(clause: str, start: int) -> bool:
    """Whether the words before a match leave it a plain statement by the speaker: the statement opens
    its clause (after a comma, at most interjections and connectives), and nothing earlier in the
    clause makes it hypothetical or reported."""
    if _QUESTION_START.match(clause):
        return False
    prefix = clause[:start]
    if _HYPOTHETICAL.search(prefix) or _REPORTED.search(prefix):
        return False
    # "No, I live in Lisbon" is fine; "it's not true that I live in Rome" and "a job I enjoy" are not.
    return bool(_LEAD.match(re.split(r"[,:;—–]", prefix)[-1].strip()))


def _value(raw: str, *, proper: bool = False, lists: bool = False) -> str | None:
    """The value a rule captured, cut at the first clause-like word; None if vague or not a value."""
    value = _LEADING_ADVERB.sub("", raw.strip())
    value = (_LIST_STOP if lists else _VALUE_STOP).sub("", value)
    value = TRAILING.sub("", value).strip()
    if not value or _VAGUE.match(value) or _HYPOTHETICAL.search(value) or _NEGATION.search(value):
        return None
    if _DANGLING.search(value):
        return None  # "I like to come to", "I love the smell of": cut off mid-phrase
    words = value.split()
    if len(words) > _MAX_VALUE_WORDS:
        return None  # a long tail is a sentence, not a value
    if proper and not (value[0].isupper() or value[0].isdigit() or words[0].lower() in ("a", "an", "the")):
        return None  # "I live in fear", "I'm from work"
    return value


# -- rules -------------------------------------------------------------------------------------------

_I = r"(?:^|(?<=[\s,(]))[Ii]"
_IM = rf"{_I}(?:'m|’m| am)"
_ADV = r"(?:(?:really|truly|totally|absolutely|genuinely|do|just|also|still|actually|definitely)\s+)?"


@dataclass(frozen=True, slots=True)
class _Rule:
    name: str
    pattern: re.Pattern[str]
    make: Callable[[str, re.Match[str]], CandidateFact | None]


def _fact(content: str, rule: str, category: str, importance: int, attribute: str | None, value: str) -> CandidateFact:
    return CandidateFact(
        content=content,
        category=category,
        importance=importance,
        attribute=attribute,
        value=normalize_value(value) if attribute else None,
        rule=f"rules:{rule}",
    )


def _wordset(words: str) -> frozenset[str]:
    return frozenset(words.split())


_NOT_NAMES = _wordset("a an the just really very so not also still here there back ok okay")


def _name(who: str, m: re.Match[str]) -> CandidateFact | None:
    value = _value(m.group("v"))
    if value is None or len(value.split()) > 3:
        return None
    if not value[0].isupper():  # "my name is alice": accept one plain word, capitalised
        if not m.group(0).lower().startswith("my name") or " " in value or not value.isalpha() or value in _NOT_NAMES:
            return None
        value = value.capitalize()
    label = "The user" if who.lower() in ("the user", value.lower()) else who
    return _fact(f"{label}'s name is {value}", "name", "fact", 4, "name", value)


def _lives(who: str, m: re.Match[str]) -> CandidateFact | None:
    value = _value(m.group("v"), proper=True)
    return None if value is None else _fact(f"{who} lives in {value}", "lives_in", "fact", 3, "location", value)


def _from(who: str, m: re.Match[str]) -> CandidateFact | None:
    value = _value(m.group("v"), proper=True)
    return None if value is None else _fact(f"{who} is from {value}", "from", "fact", 3, "origin", value)


def _works_as(who: str, m: re.Match[str]) -> CandidateFact | None:
    value = _value(m.group("v"))
    if value is None:
        return None
    article = m.group("a") or ""
    return _fact(f"{who} works as {article}{value}", "works_as", "occupation", 3, "occupation", value)


def _works_at(who: str, m: re.Match[str]) -> CandidateFact | None:
    value = _value(m.group("v"), proper=True)
    return None if value is None else _fact(f"{who} works at {value}", "works_at", "occupation", 3, "employer", value)


_JUDGEMENTS = re.compile(
    r"^(?:good|bad|terrible|great|awful|horrible|lousy|decent|better|worse|huge|big|total|complete|real|"
    r"amazing|poor|lazy|born|failed|wannabe|frustrated)\b",
    re.IGNORECASE,
)


def _is_a(who: str, m: re.Match[str]) -> CandidateFact | None:
    value = m.group("v").strip()
    if _JUDGEMENTS.match(value):
        return None  # "I'm a terrible cook" is self-deprecation, not an occupation
    article = m.group("a")
    return _fact(f"{who} is {article} {value}", "is_a", "occupation", 3, "occupation", value)


_POSITIVE = {"like": "likes", "love": "loves", "enjoy": "enjoys", "adore": "adores", "prefer": "prefers"}


def _liked(who: str, raw: str) -> str | None:
    value = _value(raw)
    if value is None or _POINTING.search(value) or _BARE_VERB.match(value) or _FELT.match(value):
        return None
    if _REACTION.match(value) and not _KEPT_WITH_THE.match(value):
        return None
    return third_person(value, who, capitalize=False)  # "expressing myself" → "expressing themselves"


def _likes(who: str, m: re.Match[str]) -> CandidateFact | None:
    value = _liked(who, m.group("v"))
    if value is None:
        return None
    verb = _POSITIVE[m.group("verb").lower()]
    return _fact(f"{who} {verb} {value}", "likes", "preference", 3, f"opinion:{normalize_value(value)}", "+")


def _dislikes(who: str, m: re.Match[str]) -> CandidateFact | None:
    value = _liked(who, m.group("v"))
    if value is None:
        return None
    return _fact(f"{who} dislikes {value}", "dislikes", "preference", 3, f"opinion:{normalize_value(value)}", "-")


def _favourite(who: str, m: re.Match[str]) -> CandidateFact | None:
    thing = _value(m.group("thing"))
    value = _value(m.group("v"))
    if thing is None or value is None:
        return None
    spelled = m.group("fav").lower()
    return _fact(
        f"{who}'s {spelled} {thing} is {value}",
        "favourite",
        "preference",
        3,
        f"favourite:{normalize_value(thing)}",
        value,
    )


def _allergic(who: str, m: re.Match[str]) -> CandidateFact | None:
    value = _value(m.group("v"), lists=True)
    return None if value is None else _fact(f"{who} is allergic to {value}", "allergy", "fact", 5, None, value)


def _birthday(who: str, m: re.Match[str]) -> CandidateFact | None:
    value = _value(m.group("v"))
    if value is None or not re.search(r"\d|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec", value, re.IGNORECASE):
        return None
    return _fact(f"{who}'s birthday is {value}", "birthday", "milestone", 4, "birthday", value)


def _age(who: str, m: re.Match[str]) -> CandidateFact | None:
    return _fact(f"{who} is {m.group('v')} years old", "age", "fact", 3, "age", m.group("v"))


def _diet(who: str, m: re.Match[str]) -> CandidateFact | None:
    value = m.group("v").lower()
    return _fact(f"{who} is {value}", "diet", "preference", 4, "diet", value)


_SECOND_PERSON = re.compile(r"\b(?:you|your|yours|yourself|you're|you’re|you've|you’ve)\b", re.IGNORECASE)
_FIRST_PERSON = re.compile(r"\b(?:I|I'm|I’m|I've|I’ve|my|me|mine|myself)\b", re.IGNORECASE)
_NAMED = re.compile(r"\b[A-ZÀ-Þ][\w'’-]+")  # a capitalised word: a name ("remember that Bob is vegan")


def _remember(who: str, m: re.Match[str]) -> CandidateFact | None:
    body = TRAILING.sub("", m.group("v") or m.group("w")).strip()
    words = body.split()
    if len(words) < 3 or words[0].lower() in ("time", "day", "night", "when", "how", "what", "to", "me", "us"):
        return None  # "remember that time we ...": reminiscing; "remember to ...": a task, not a fact
    if _SECOND_PERSON.search(body) or not (_FIRST_PERSON.search(body) or _NAMED.search(body)):
        return None  # "remember that you're not alone", "remember that progress takes time": advice, not a fact
    content = third_person(body, who)
    parsed = attribute_of(content)
    return CandidateFact(
        content,
        "fact",
        4,
        attribute=parsed[0] if parsed else None,
        value=parsed[1] if parsed else None,
        rule="rules:remember",
    )


_RULES: tuple[_Rule, ...] = (
    _Rule(
        "name",
        re.compile(
            r"(?:\b(?i:my name)(?:'s|’s| is)|(?:^|(?<=[\s,]))(?i:call me)|" + _IM + r" called|" + _I + r" go by)\s+"
            r"(?P<v>[\w'’-]+(?:\s+[A-ZÀ-Þ][\w'’-]*){0,2})"
        ),
        _name,
    ),
    _Rule(
        "lives_in",
        re.compile(r"(?:" + _I + r" " + _ADV + r"(?:live|reside)|" + _IM + r" based)\s+in\s+(?P<v>[^.;!?]+)"),
        _lives,
    ),
    _Rule("moved_to", re.compile(_I + r" (?:just |recently )?(?:moved|relocated)\s+to\s+(?P<v>[^.;!?]+)"), _lives),
    _Rule("from", re.compile(r"(?:" + _IM + r"|" + _I + r" come)\s+(?:originally\s+)?from\s+(?P<v>[^.;!?]+)"), _from),
    _Rule(
        "works_as",
        re.compile(_I + r" (?:currently\s+)?work\s+as\s+(?P<a>(?:an?|the)\s+)?(?P<v>[^.;!?]+)", re.IGNORECASE),
        _works_as,
    ),
    _Rule("works_at", re.compile(_I + r" (?:currently\s+)?work\s+(?:at|for)\s+(?P<v>[^.;!?]+)"), _works_at),
    _Rule(
        "is_a",
        re.compile(
            _IM + r"\s+(?P<a>an?)\s+(?P<v>(?:[\w-]+\s+){0,3}?(?:" + OCCUPATIONS + r"))\b(?!\s+(?:of|at heart))",
            re.IGNORECASE,
        ),
        _is_a,
    ),
    _Rule(
        "likes",
        re.compile(_I + r" " + _ADV + r"(?P<verb>like|love|enjoy|adore|prefer)\s+(?P<v>[^.;!?]+)", re.IGNORECASE),
        _likes,
    ),
    _Rule(
        "dislikes",
        re.compile(
            r"(?:" + _I + r" " + _ADV + r"(?:hate|dislike|detest|loathe|can't stand|can’t stand|cannot stand|"
            r"don't like|don’t like|do not like|don't enjoy|do not enjoy)|" + _IM + r" not a fan of)\s+(?P<v>[^.;!?]+)",
            re.IGNORECASE,
        ),
        _dislikes,
    ),
    _Rule(
        "favourite",
        re.compile(
            r"\bmy (?P<fav>favou?rite)\s+(?P<thing>[\w\s-]{2,40}?)\s+(?:is|are)\s+(?P<v>[^.;!?]+)", re.IGNORECASE
        ),
        _favourite,
    ),
    _Rule(
        "allergy", re.compile(_IM + r" " + _ADV + r"(?:severely\s+|very\s+)?allergic\s+to\s+(?P<v>[^.;!?]+)"), _allergic
    ),
    _Rule(
        "allergy_noun", re.compile(_I + r" have an?\s+(?:severe\s+)?(?P<v>[\w-]+(?:\s+[\w-]+)?)\s+allergy\b"), _allergic
    ),
    _Rule(
        "birthday",
        re.compile(
            r"(?:\bmy birthday(?:'s|’s| is)(?:\s+on)?|" + _I + r" was born on)\s+(?P<v>[^.;!?]+)", re.IGNORECASE
        ),
        _birthday,
    ),
    _Rule("age", re.compile(_IM + r"\s+(?P<v>\d{1,3})\s+(?:years?\s+old|yo)\b"), _age),
    _Rule("diet", re.compile(_IM + r"\s+(?:a\s+|an\s+)?(?:strict\s+)?(?P<v>" + DIETS + r")\b", re.IGNORECASE), _diet),
    _Rule(
        "remember",
        re.compile(
            r"\b(?:remember|don't forget|don’t forget|do not forget|note)"
            r"(?:\s+that\s+(?P<v>.+)|\s+(?P<w>(?:I|I'm|I’m|I've|I’ve|my|My)\b.+))",
            re.IGNORECASE,
        ),
        _remember,
    ),
)


# A word every rule needs, looked for once before any rule runs: most messages hold none (measured on LoCoMo's
# turns, bench/extraction.py), and run as a message is written, the rules must cost it little.
_TRIGGER = re.compile(
    r"name|call|go by|live|resid|based|moved|relocat|from|work|i(?:'|’| a)m an?\b|like|love|enjoy|ador|prefer|"
    r"hate|detest|loath|stand|fan of|favou?rite|allerg|birthday|born|years? old|\byo\b|remember|forget|note|" + DIETS,
    re.IGNORECASE,
)


def extract_facts(text: str, *, who: str = "The user") -> list[CandidateFact]:
    """The facts ``text`` (one message by one user) states explicitly about its speaker, in order.

    ``who`` is how facts name the speaker ("Alice"). At most one fact per rule and clause; a fact found
    twice in a message is returned once. Never raises.
    """
    if not _TRIGGER.search(text):
        return []
    found: list[CandidateFact] = []
    seen: set[str] = set()
    for clause in _clauses(text):
        specific = False
        for rule in _RULES:
            match = rule.pattern.search(clause)
            if match is None:
                continue
            if rule.name == "remember":
                # Only when no specific rule read the clause ("remember that I'm allergic to nuts" is the
                # allergy rule's), and only as a request ("I remember that day" is not one).
                if specific or not _REMEMBER_LEAD.match(clause[: match.start()].rsplit(",", 1)[-1].strip()):
                    continue
            elif not _plain_statement(clause, match.start()):
                continue
            fact = rule.make(who, match)
            if fact is None:
                continue
            specific = True
            if fact.content.lower() not in seen:
                seen.add(fact.content.lower())
                found.append(fact)
    return found
