"""Broken AID clients: §2.2.4 authentication, §2.3 step 5d, Appendix A (mtls)."""

from __future__ import annotations

from conformance.agent.aid_client import Found, Prompt, ReferenceAidClient, User


class NoLinkToTokenUrl(ReferenceAidClient):
    """2.2.4: asks for the token with the description only; tokenUrl is never shown."""

    def credential_prompt(self, auth: dict) -> Prompt:
        prompt = super().credential_prompt(auth)
        prompt.link = None
        return prompt


class OneTokenForCredentials(ReferenceAidClient):
    """2.2.4: ignores the credentials array and asks once for a single token."""

    def credential_items(self, auth: dict) -> list[dict]:
        return []


class QueryTokenInHeader(ReferenceAidClient):
    """2.2.4 placement: always sends the token in a header, also when placement says query."""

    def place(self, auth: dict, token: str | None) -> tuple[dict[str, str], dict[str, str], list[str]]:
        headers, query, cli = super().place(auth, token)
        return {**headers, **query}, {}, cli


class IgnoresFormat(ReferenceAidClient):
    """2.2.4 placement: sends the bare token, ignoring format ("Bearer {token}")."""

    def format_token(self, placement: dict, token: str) -> str:
        return token


class TokenSchemesAnonymous(ReferenceAidClient):
    """2.3 step 5d: treats a single-token scheme (pat, apikey) as optional and connects
    without asking the user for the token."""

    def obtain(self, impl: dict, found: Found, user: User) -> tuple[str | None, dict[str, str]]:
        auth = impl.get("authentication") if isinstance(impl.get("authentication"), dict) else {}
        if auth.get("scheme") in ("pat", "apikey") and not self.credential_items(auth):
            return None, {}
        return super().obtain(impl, found, user)


class NoCertificatePrompts(ReferenceAidClient):
    """Appendix A: connects to an mtls implementation without asking for the certificate files."""

    def certificate_prompts(self, impl: dict) -> list[Prompt]:
        return []


class PassphraseInClear(ReferenceAidClient):
    """Appendix A: asks for the key's passphrase in a plain (unmasked) input."""

    def certificate_prompts(self, impl: dict) -> list[Prompt]:
        prompts = super().certificate_prompts(impl)
        for prompt in prompts:
            if prompt.kind == "passphrase":
                prompt.masked = False
        return prompts


VARIANTS = {
    "no-link-to-token-url": NoLinkToTokenUrl,
    "one-token-for-credentials": OneTokenForCredentials,
    "query-token-in-header": QueryTokenInHeader,
    "ignores-token-format": IgnoresFormat,
    "token-schemes-anonymous": TokenSchemesAnonymous,
    "no-certificate-prompts": NoCertificatePrompts,
    "passphrase-in-clear": PassphraseInClear,
}
