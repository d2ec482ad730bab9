"""A document on its own: a file holding what a server would serve."""

from __future__ import annotations

from pathlib import Path

from conformance.targets import Target, TargetError, TargetOptions


class DocumentTargets:
    help = "PATH or file:PATH  a document on its own (document role only)"

    def create(self, spec: str, options: TargetOptions) -> Target:
        path = Path(spec[len("file:"):] if spec.startswith("file:") else spec).expanduser()
        if not path.is_file():
            raise TargetError(f"--target {spec!r}: no such file (for a server, write https://HOST)")
        return Target(
            spec=str(path),
            kind="document",
            description=f"document {path}",
            roles=("document",),
            document_path=path.resolve(),
            http=options.http_config(),
        )
