"""``memlane keys``: the key is printed once (``--json``: field ``key``), listed by its first characters only,
and revoked keys stop authenticating."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from memlane import Memory, Unauthenticated, load_settings
from memlane.cli.app import app


def _run(*args: str) -> str:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_create_list_revoke(tmp_path: Path) -> None:
    db = str(tmp_path / "k.db")
    created = json.loads(_run("--db", db, "--json", "keys", "create", "--agent", "bot", "--user", "alice"))
    assert created["scope"] == "user" and created["user"] == "alice" and created["key"].startswith("ml_")
    admin = _run("--db", db, "keys", "create", "--admin").splitlines()[-1].strip()
    listed = json.loads(_run("--db", db, "--json", "keys", "list"))["keys"]
    assert [k["scope"] for k in listed] == ["user", "admin"]
    assert created["key"] not in json.dumps(listed) and admin not in json.dumps(listed)
    with Memory(db, settings=load_settings(embedder="none", worker="none")) as mem:
        assert mem.authenticate(admin).scope == "admin"
    _run("--db", db, "keys", "revoke", str(created["id"]))
    assert json.loads(_run("--db", db, "--json", "keys", "list"))["keys"][0]["scope"] == "admin"
    with Memory(db, settings=load_settings(embedder="none", worker="none")) as mem, pytest.raises(Unauthenticated):
        mem.authenticate(created["key"])
    bad = CliRunner().invoke(app, ["--db", db, "keys", "create", "--admin", "--agent", "bot"])
    assert bad.exit_code == 2


def test_listing_keys_never_creates_a_store(tmp_path: Path) -> None:
    db = tmp_path / "none.db"
    result = CliRunner().invoke(app, ["--db", str(db), "keys", "list"])
    assert result.exit_code != 0 and "no memlane store" in result.output
    assert not db.exists()


def test_serve_refuses_a_port_out_of_range(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["--db", str(tmp_path / "s.db"), "serve", "--port", "99999"])
    assert result.exit_code == 2 and "65535" in result.output
    assert not (tmp_path / "s.db").exists()
