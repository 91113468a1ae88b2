"""Token counts: a process's first short texts are counted without loading the whole vocabulary (issue 43),
with the same counts.

A one-shot ``memlane add`` used to spend ~0.4 s of its ~1.3 s loading the o200k vocabulary to count one
message. It now counts with a vocabulary of only the tokens the text contains (``memlane.tokens``); these
tests hold that to the whole vocabulary's counts, and check when the whole one still loads.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import quicktok

from memlane import tokens
from memlane.tokens import Tokenizer

ENCODINGS = ("o200k_base", "cl100k_base")

#: Texts that exercise the encodings' patterns: contractions in every case, digit runs, punctuation runs,
#: whitespace runs and line ends, accents (composed and combining), scripts without spaces, emoji, and the
#: spelling of a special token (which counts as the characters it is).
TEXTS = [
    "I'm Alice and I love Python",
    "DON'T can't I'LL we've They'RE 'tis 'TWAS o'clock",
    "3.14159 1234567890 99.99% 0xDEADBEEF 2026-11-28T21:24:02Z",
    "!!!??? ... --- ***\n\n\n   \t\t  trailing   \r\n\r\nwindows",
    "café résumé naïve Zürich cafe\u0301 e\u0301te\u0301",
    "日本語のトークナイザー 中文 한국어 हिन्दी Ω≈ç√∫ Икс",
    "emoji 🚀🔥👍🏽 family 👨‍👩‍👧 flags 🇫🇷",
    "<|endoftext|> what does that mean? <|fim_prefix|>",
    "def f(x):\n    return [i**2 for i in range(100)]  # 1+2+3==6",
    "https://example.com/path?q=1&x=2#frag <html><body>x</body></html>",
    " leading space",
    "a",
    "\n",
    "user",
    "assistant",
]


def _random_texts(count: int) -> list[str]:
    rnd = random.Random(43)
    alphabet = "abcdefghijklmnopqrstuvwxyzABCXYZ0123456789 .,;:'\"!?\n\r\t-_/\\()[]{}"
    alphabet += "éüßçñ日本語中文한국어🙂🚀ʼ’\u0301\u200b\u00a0"
    return ["".join(rnd.choice(alphabet) for _ in range(rnd.randint(1, 250))) for _ in range(count)]


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty cache folder of its own (the table of ranks is made there), and no table remembered."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    tokens._ranks.cache_clear()
    yield tmp_path / "cache" / "memlane"
    tokens._ranks.cache_clear()


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_a_text_counts_the_same_with_only_its_own_tokens(encoding: str, cache: Path) -> None:
    whole = quicktok.get_encoding(encoding)
    assert max(map(len, whole.token_byte_values())) <= tokens._LONGEST  # every token can be found in a text
    assert tokens._count_alone(encoding, b"hello") is None  # no table yet: nothing counted this way
    tokens._save_table(encoding, whole)
    assert list(cache.glob(f"ranks-{encoding}-*"))
    for text in TEXTS + _random_texts(300):
        assert tokens._count_alone(encoding, text.encode()) == whole.count(text), repr(text)


def test_a_fresh_tokenizer_counts_short_texts_without_the_whole_vocabulary(cache: Path) -> None:
    tokens._save_table("o200k_base", quicktok.get_encoding("o200k_base"))
    fresh = Tokenizer("o200k_base")
    message = {"role": "user", "content": "I'm Alice and I love Python", "name": "alice"}
    assert fresh.count_message(message) == 3 + 1 + 6 + 1 + 1  # framing, role, content; name's 1 and "alice"
    assert fresh._loaded is None
    # Past its allowance (4 kB of text, 1 kB a text) a tokenizer loads the whole vocabulary: a process that
    # counts much is better served by it.
    long = "word " * 300
    assert fresh.count(long) == quicktok.get_encoding("o200k_base").count(long)
    assert fresh._loaded is not None


def test_a_long_lived_process_counts_only_a_few_texts_without_the_whole_vocabulary(cache: Path) -> None:
    # Each text counted so costs ~5 ms: a bot's first sixty short messages paid it (4 kB of them), then the
    # whole vocabulary's load as well.
    tokens._save_table("o200k_base", quicktok.get_encoding("o200k_base"))
    fresh, whole = Tokenizer("o200k_base"), quicktok.get_encoding("o200k_base")
    texts = [f"message number {i} about the trip" for i in range(tokens._FEW_TEXTS + 1)]
    assert [fresh.count(t) for t in texts[:-1]] == [whole.count(t) for t in texts[:-1]]
    assert fresh._loaded is None
    assert fresh.count(texts[-1]) == whole.count(texts[-1]) and fresh._loaded is not None


def test_a_damaged_table_is_made_again_and_counts_stay_right(cache: Path) -> None:
    tokens._save_table("o200k_base", quicktok.get_encoding("o200k_base"))
    (table,) = cache.glob("ranks-o200k_base-*")
    table.write_bytes(table.read_bytes()[:1000])  # cut short, as a full disk would leave it
    tokens._ranks.cache_clear()
    fresh = Tokenizer("o200k_base")
    assert fresh.count("I'm Alice and I love Python") == 6
    assert fresh._loaded is not None  # counted with the whole vocabulary, which made the table again
    tokens._ranks.cache_clear()
    assert tokens._ranks("o200k_base") is not None
    again = Tokenizer("o200k_base")
    assert again.count("I'm Alice") == 2 and again._loaded is None


_ADD = """
import json, sys, quicktok
from memlane import Memory, load_settings
with Memory(sys.argv[1], settings=load_settings(worker="none", embedder="none")) as mem:
    stored = mem.add_message("t", "user", sys.argv[2], user="u", name="Ann")
    print(json.dumps({"count": stored.token_count, "whole": bool(quicktok._CACHE),
                      "read": [m.token_count for m in mem.history("t")][-1]}))
"""


def test_a_one_shot_add_stores_the_exact_count_without_loading_the_whole_vocabulary(tmp_path: Path) -> None:
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"), "MEMLANE_HOME": str(tmp_path / "home")}
    db, text = str(tmp_path / "m.db"), "Ich heiße Anna, und I'd like 2 cafés ☕ please"
    expected = Tokenizer("o200k_base").count_messages([{"role": "user", "content": text, "name": "Ann"}]) - 3
    runs = []
    for _ in range(2):  # the first process makes the table of ranks (from the whole vocabulary), the next reads it
        done = subprocess.run([sys.executable, "-c", _ADD, db, text], capture_output=True, text=True, env=env)
        assert done.returncode == 0, done.stderr[-2000:]
        runs.append(json.loads(done.stdout))
    assert runs[0] == {"count": expected, "whole": True, "read": expected}
    assert runs[1] == {"count": expected, "whole": False, "read": expected}
    add = ["add", "t", "user", text, "--user", "u", "--name", "Ann"]
    shown = subprocess.run(
        [sys.executable, "-m", "memlane", "--db", db, "--json", *add],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    assert json.loads(shown.stdout)["token_count"] == expected


def test_a_cache_folder_that_cannot_be_written_leaves_the_whole_vocabulary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the cache folder would be")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    tokens._ranks.cache_clear()
    try:
        fresh = Tokenizer("o200k_base")
        assert fresh.count("I'm Alice and I love Python") == 6
        assert fresh._loaded is not None and tokens._ranks("o200k_base") is None
    finally:
        tokens._ranks.cache_clear()
