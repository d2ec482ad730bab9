"""Broken AID clients: §2.2.4 authentication, §2.3 step 5d, Appendix A (mtls)."""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

from conformance.aid.reference_client import Found, Prompt, ReferenceAidClient, User


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


# ---------------------------------------------------------------- second ways (issue #8)

class DropsTokenUrlQuery(ReferenceAidClient):
    """2.2.4: links to tokenUrl without its query and fragment (the token page, not the one asked for)."""

    def credential_prompt(self, auth: dict) -> Prompt:
        prompt = super().credential_prompt(auth)
        if prompt.link:
            parts = urlsplit(prompt.link)
            prompt.link = urlunsplit((parts.scheme, parts.netloc, parts.path, "", ""))
        return prompt


class CredentialPromptsWithoutDescription(ReferenceAidClient):
    """2.2.4: asks for each credentials item by its key, without the item's description."""

    def obtain(self, impl: dict, found: Found, user: User) -> tuple[str | None, dict[str, str]]:
        before = len(found.prompts)
        token, values = super().obtain(impl, found, user)
        for prompt in found.prompts[before:]:
            if prompt.kind == "credential" and prompt.key in values:
                prompt.text = str(prompt.key)
        return token, values


class IgnoresCliArgPlacement(ReferenceAidClient):
    """2.2.4: knows the header and query placements only: a token placed in=cli_arg goes nowhere."""

    def place(self, auth: dict, token: str | None) -> tuple[dict[str, str], dict[str, str], list[str]]:
        placement = auth.get("placement") if isinstance(auth.get("placement"), dict) else {}
        if placement.get("in") == "cli_arg":
            return {}, {}, []
        return super().place(auth, token)


class DefaultFormatBearer(ReferenceAidClient):
    """2.2.4: without a format, sends "Bearer {token}" in a header (not the draft's default "{token}")."""

    def format_token(self, placement: dict, token: str) -> str:
        if not isinstance(placement.get("format"), str) and placement.get("in") == "header":
            return f"Bearer {token}"
        return super().format_token(placement, token)


class ApikeySchemeAnonymous(ReferenceAidClient):
    """2.3 step 5d: knows the pat scheme, but takes apikey for one without credentials."""

    def obtain(self, impl: dict, found: Found, user: User) -> tuple[str | None, dict[str, str]]:
        auth = impl.get("authentication") if isinstance(impl.get("authentication"), dict) else {}
        if auth.get("scheme") == "apikey":
            return None, {}
        return super().obtain(impl, found, user)


class CertificateFromAuthenticationObject(ReferenceAidClient):
    """Appendix A: looks for the certificate object inside authentication, not on the
    implementation, so it never finds certificate.source file."""

    def certificate_prompts(self, impl: dict) -> list[Prompt]:
        auth = impl.get("authentication") if isinstance(impl.get("authentication"), dict) else {}
        return super().certificate_prompts({"certificate": auth.get("certificate")})


class PassphraseAsPlainCredential(ReferenceAidClient):
    """Appendix A: asks for the key's passphrase in a plain credential input, not a masked one."""

    def certificate_prompts(self, impl: dict) -> list[Prompt]:
        return [Prompt("credential", p.text, key=p.key, masked=False) if p.kind == "passphrase" else p
                for p in super().certificate_prompts(impl)]


VARIANTS.update({
    "drops-token-url-query": DropsTokenUrlQuery,
    "credential-prompts-without-description": CredentialPromptsWithoutDescription,
    "ignores-cli-arg-placement": IgnoresCliArgPlacement,
    "default-format-bearer": DefaultFormatBearer,
    "apikey-scheme-anonymous": ApikeySchemeAnonymous,
    "certificate-from-authentication-object": CertificateFromAuthenticationObject,
    "passphrase-as-plain-credential": PassphraseAsPlainCredential,
})
