"""The mock world's certificate authority (trustme), one per process."""

from __future__ import annotations

import atexit
import shutil
import ssl
import tempfile
from functools import cache
from pathlib import Path

import trustme


@cache
def authority() -> trustme.CA:
    return trustme.CA(organization_name="adck mock world")


@cache
def ca_bundle() -> Path:
    """The CA certificate as a PEM file, for ``--ca-bundle``; removed at exit."""
    folder = Path(tempfile.mkdtemp(prefix="adck-ca-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    path = folder / "adck-mock-ca.pem"
    authority().cert_pem.write_to_path(str(path))
    return path


def server_context(*hostnames: str, maximum: str | None = None, minimum: str | None = None) -> ssl.SSLContext:
    """A server TLS context with a certificate for ``hostnames`` signed by the mock CA;
    ``maximum``/``minimum`` ("TLSv1.2") cap the versions it accepts (a host without TLS 1.3)."""
    ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    if maximum:
        ctx.maximum_version = ssl.TLSVersion[maximum.replace(".", "_")]
    if minimum:
        ctx.minimum_version = ssl.TLSVersion[minimum.replace(".", "_")]
    authority().issue_cert(*hostnames).configure_cert(ctx)
    return ctx
