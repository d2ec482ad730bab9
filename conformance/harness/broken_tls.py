"""TLS contexts with one check missing, for the broken variants of both reference clients.

Each skips exactly one half of certificate validation, so that a variant using it breaks one
clause only: the chain (the issuer is trusted) or the host name (RFC 6125). Never use them
outside the mutants.
"""

from __future__ import annotations

import socket
import ssl

from cryptography import x509

from conformance.fetch import HttpConfig


class _AnyIssuerContext(ssl.SSLContext):
    """Accepts a certificate from any issuer, then checks the host name against it by hand."""

    def wrap_socket(self, sock: socket.socket, *args, server_hostname: str | None = None, **kwargs) -> ssl.SSLSocket:
        tls = super().wrap_socket(sock, *args, server_hostname=server_hostname, **kwargs)
        der = tls.getpeercert(binary_form=True)
        names = x509.load_der_x509_certificate(der).extensions.get_extension_for_class(
            x509.SubjectAlternativeName).value.get_values_for_type(x509.DNSName) if der else []
        host = (server_hostname or "").lower()
        if not any(n.lower() == host or (n.startswith("*.") and host.split(".", 1)[-1] == n[2:].lower())
                   for n in names):
            tls.close()
            raise ssl.SSLCertVerificationError(f"the certificate does not name {host}")
        return tls


def any_issuer() -> ssl.SSLContext:
    """Trusts a certificate from any CA, though it still checks that it names the host."""
    ctx = _AnyIssuerContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    return ctx


def no_host_name_check(http: HttpConfig) -> ssl.SSLContext:
    """Validates the chain against the configured CA, but not that the certificate names the host."""
    ctx = ssl.create_default_context(cafile=str(http.ca_bundle) if http.ca_bundle else None)
    ctx.check_hostname = False
    return ctx
