"""The reference AID client of v1.2 and v2.1 (or one of its broken variants) behind the
harness protocol: the ``[client]`` of revisions v1.2 and v2.1 (profiles/aid/revisions.toml).

In-process:    --target python:conformance.aid.versioned_adapter:handle
As a process:  --target "cmd:python -m conformance.aid.versioned_adapter [--variant NAME]"

The messages are v1's (conformance.aid.adapter), plus a step's optional ``policy`` (the knobs
of v1.2 3.2 and v2.1 3.3, or ``mode``: balanced, strict) and, in a reply, ``error_kind`` holding
the code of Table 1 (ERR_INVALID_TXT, ...) and ``connect.record`` the version, trust source and
PKA state the client returns (v2.1 2.3 step 10).
"""

from __future__ import annotations

import sys
from typing import Callable

from conformance.aid import adapter
from conformance.aid.versioned_client import VersionedAidClient
from conformance.harness.session import variant_main

NAME = "adck reference AID client (v1.2, v2.1)"


def make_handler(client_class: type = VersionedAidClient, name: str = NAME) -> Callable[[dict], dict | None]:
    return adapter.make_handler(client_class, name)  # type: ignore[arg-type]


handle = make_handler()


def main(argv: list[str] | None = None) -> int:
    return variant_main(argv, __doc__.splitlines()[0], make_handler, VersionedAidClient, NAME,
                        "conformance.aid.versioned_variants")


if __name__ == "__main__":
    sys.exit(main())
