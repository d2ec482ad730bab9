"""``python -m conformance.adapters.aid_npm``: run (or install) the @agentcommunity/aid adapter.

    python -m conformance.adapters.aid_npm --install [--prefix DIR]    # npm install the pinned version, then exit
    adck run aid@v1 --role client --target "cmd:python -m conformance.adapters.aid_npm [--prefix DIR] [--fallback] [--validating-resolver]"

As a target it finds ``node`` and the installed package and replaces itself with
``node adapter.mjs --prefix DIR`` (``exec``: same process, same process group, so the kit's
stdin/stdout and its clean-up apply to node directly). It never installs anything as a target.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from conformance.adapters.aid_npm import (ADAPTER, PACKAGE, VERSION, NodeUnavailable, default_prefix, install,
                                          installed_version, node)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m conformance.adapters.aid_npm",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--prefix", type=Path, default=None, help="npm prefix holding node_modules/@agentcommunity/aid")
    parser.add_argument("--install", action="store_true", help=f"install {PACKAGE}@{VERSION} there and exit")
    parser.add_argument("--fallback", action="store_true", help="switch the library's .well-known fallback on (v1.2, v2.1)")
    parser.add_argument("--revision", choices=("v1", "v1.2", "v2.1"), default="v1",
                        help="the AID revision the kit judges (the kit does not say): v1 (default), v1.2, v2.1")
    parser.add_argument("--validating-resolver", action="store_true",
                        help="the loopback forwarder validates DNSSEC with the step's anchors, as the library's real resolvers do")
    args = parser.parse_args(argv)
    prefix = (args.prefix or default_prefix()).resolve()
    try:
        if args.install:
            print(f"{PACKAGE}@{VERSION} in {install(prefix)}", file=sys.stderr)
            return 0
        node_path = node()
    except NodeUnavailable as exc:
        print(f"adck: {exc}", file=sys.stderr)
        return 2
    if installed_version(prefix) is None:
        print(f"adck: {PACKAGE} is not installed under {prefix}; install it with: "
              f"python -m conformance.adapters.aid_npm --install --prefix {prefix}", file=sys.stderr)
        return 2
    argv_node = [node_path, str(ADAPTER), "--prefix", str(prefix), "--revision", args.revision,
                 *(["--fallback"] if args.fallback else []),
                 *(["--validating-resolver"] if args.validating_resolver else [])]
    sys.stdout.flush()
    os.execv(node_path, argv_node)
    return 0  # not reached


if __name__ == "__main__":
    sys.exit(main())
