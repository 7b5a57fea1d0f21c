"""``yatzy review``: the accounts flagged for fair-play review, for an operator."""

from __future__ import annotations

from pathlib import Path

import pytest

from yatzy.cli.main import main
from yatzy.store import GameRepository
from yatzy.store.accounts import AccountStore
from yatzy.store.ratings import RatingStore


def test_review_lists_the_flagged_accounts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'y.db'}"
    repo = GameRepository.open(url)
    assert main(["review", "--database-url", url]) == 0
    assert "no account is flagged" in capsys.readouterr().out
    account = AccountStore(repo).create("a" * 32, "Olle", "olle", "hash", [])
    RatingStore(repo).flag(account.id, "yatzy", 12, 400, 390, 2e-9)
    repo.close()
    assert main(["review", "--database-url", url]) == 0
    out = capsys.readouterr().out
    assert "1 flagged" in out and "Olle" in out and "390/400" in out and "97.5 %" in out
