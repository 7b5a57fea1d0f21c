"""Passkeys: WebAuthn registration for a signed-in account and log-in without a name
or password (discoverable credentials), checked by the ``webauthn`` package.

Each ceremony gets a random handle, whose SHA-256 the store keeps with the challenge
for five minutes; the answer spends it, so a challenge is answered once.  The relying
party is the app's host (``--public-url``'s where it is set, else the request's), and
the answer must come from that origin.  A passkey's log-in is refused as a wrong
password is (:class:`BadLoginError`, 403), whatever went wrong.
"""

from __future__ import annotations

import asyncio
import secrets
from typing import Any
from urllib.parse import urlsplit

from yatzy.store import GameRepository
from yatzy.store.accounts import Account
from yatzy.store.passkeys import Passkey, PasskeyStore
from yatzy.store.pg_writer import utc_now
from yatzy.web.accounts import AccountError, AccountService, BadLoginError, secret_hash

RP_NAME = "Yatzy"


class PasskeyError(AccountError):
    """A passkey that could not be registered (the browser's answer did not verify,
    or its ceremony is unknown, spent or stale)."""

    http_status = 403


def relying_party(base_url: str) -> tuple[str, str]:
    """The relying party's id (the host name) and the expected origin of ``base_url``
    (the app's public URL or the request's base)."""
    parts = urlsplit(base_url)
    return parts.hostname or "", f"{parts.scheme}://{parts.netloc}"


class PasskeyService:
    """The passkeys of one server process, over the accounts' database."""

    def __init__(self, repo: GameRepository, accounts: AccountService) -> None:
        self.store = PasskeyStore(repo)
        self.accounts = accounts

    async def _begin(self, challenge: bytes, account: Account | None) -> str:
        from webauthn.helpers import bytes_to_base64url

        ceremony = secrets.token_urlsafe(32)
        await asyncio.to_thread(
            self.store.begin,
            secret_hash(ceremony),
            bytes_to_base64url(challenge),
            None if account is None else account.id,
        )
        return ceremony

    async def _spend(self, ceremony: str) -> tuple[bytes, str | None] | None:
        from webauthn import base64url_to_bytes

        spent = await asyncio.to_thread(self.store.spend, secret_hash(ceremony))
        if spent is None:
            return None
        return base64url_to_bytes(spent[0]), spent[1]

    async def register_options(self, account: Account, base_url: str) -> tuple[str, str]:
        """A registration ceremony's handle and its options (WebAuthn's JSON)."""
        from webauthn import generate_registration_options, options_to_json
        from webauthn.helpers import base64url_to_bytes
        from webauthn.helpers.structs import (
            AuthenticatorSelectionCriteria,
            PublicKeyCredentialDescriptor,
            ResidentKeyRequirement,
            UserVerificationRequirement,
        )

        rp_id, _ = relying_party(base_url)
        existing = await asyncio.to_thread(self.store.of, account.id)
        options = generate_registration_options(
            rp_id=rp_id,
            rp_name=RP_NAME,
            user_name=account.name,
            user_id=bytes.fromhex(account.id),
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED,
                user_verification=UserVerificationRequirement.PREFERRED,
            ),
            exclude_credentials=[
                PublicKeyCredentialDescriptor(id=base64url_to_bytes(k.credential_id))
                for k in existing
            ],
        )
        ceremony = await self._begin(options.challenge, account)
        return ceremony, options_to_json(options)

    async def register(
        self, account: Account, ceremony: str, credential: dict[str, Any], base_url: str, agent: str
    ) -> None:
        """Check the browser's new credential and keep it; :class:`PasskeyError`."""
        from webauthn import verify_registration_response
        from webauthn.helpers import bytes_to_base64url

        spent = await self._spend(ceremony)
        if spent is None or spent[1] != account.id:
            raise PasskeyError("the passkey's ceremony is unknown, used or too old: start again")
        rp_id, origin = relying_party(base_url)
        try:
            verified = verify_registration_response(
                credential=credential,
                expected_challenge=spent[0],
                expected_rp_id=rp_id,
                expected_origin=origin,
            )
        except Exception as exc:  # the package raises several kinds for a bad answer
            raise PasskeyError(f"the passkey did not verify: {type(exc).__name__}") from None
        key = Passkey(
            bytes_to_base64url(verified.credential_id),
            account.id,
            bytes_to_base64url(verified.credential_public_key),
            verified.sign_count,
            agent,
            utc_now(),
        )
        try:
            await asyncio.to_thread(self.store.add, key)
        except Exception:  # the same credential twice (the browser was told to exclude it)
            raise PasskeyError("this passkey is registered already") from None

    async def login_options(self, base_url: str) -> tuple[str, str]:
        """A log-in ceremony's handle and its options (any passkey of this site)."""
        from webauthn import generate_authentication_options, options_to_json
        from webauthn.helpers.structs import UserVerificationRequirement

        rp_id, _ = relying_party(base_url)
        options = generate_authentication_options(
            rp_id=rp_id, user_verification=UserVerificationRequirement.PREFERRED
        )
        ceremony = await self._begin(options.challenge, None)
        return ceremony, options_to_json(options)

    async def login(self, ceremony: str, credential: dict[str, Any], base_url: str) -> Account:
        """The account whose passkey signed the ceremony's challenge; else
        :class:`BadLoginError`, as a wrong password."""
        from webauthn import verify_authentication_response
        from webauthn.helpers import base64url_to_bytes

        wrong = BadLoginError("wrong account name, password or recovery code")
        spent = await self._spend(ceremony)
        raw_id = credential.get("id")
        if spent is None or spent[1] is not None or not isinstance(raw_id, str):
            raise wrong
        key = await asyncio.to_thread(self.store.get, raw_id[:1400])
        if key is None:
            raise wrong
        rp_id, origin = relying_party(base_url)
        try:
            verified = verify_authentication_response(
                credential=credential,
                expected_challenge=spent[0],
                expected_rp_id=rp_id,
                expected_origin=origin,
                credential_public_key=base64url_to_bytes(key.public_key),
                credential_current_sign_count=key.sign_count,
            )
        except Exception:  # any fault of the answer: refused as a wrong password
            raise wrong from None
        await asyncio.to_thread(self.store.counted, key.credential_id, verified.new_sign_count)
        account = await asyncio.to_thread(self.accounts.store.by_id, key.account_id)
        if account is None:
            raise wrong
        return account

    async def of(self, account: Account) -> list[Passkey]:
        """The account's passkeys."""
        return await asyncio.to_thread(self.store.of, account.id)

    async def remove(self, account: Account, credential_id: str) -> bool:
        """Delete one of the account's passkeys."""
        return await asyncio.to_thread(self.store.remove, account.id, credential_id)
