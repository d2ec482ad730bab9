"""A document on its own: a file holding what a server would serve."""

from __future__ import annotations

from pathlib import Path

from conformance.targets import Target, TargetError, TargetOptions


def _what_it_is(path: Path) -> str:
    """Why a path is not a document: it is missing, or what kind of file it is."""
    import stat

    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return "no such file"
    except OSError as exc:
        return f"cannot be read ({exc.strerror})"
    for test, kind in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return f"is {kind}, not a document file"
    return "not a regular file"


class DocumentTargets:
    help = "PATH or file:PATH  a document on its own (document role only)"

    def create(self, spec: str, options: TargetOptions) -> Target:
        path = Path(spec[len("file:"):] if spec.startswith("file:") else spec).expanduser()
        if not path.is_file():
            raise TargetError(f"--target {spec!r}: {_what_it_is(path)}; a document target is a regular file "
                              "(for a server, write https://HOST)")
        try:
            with path.open("rb"):
                pass
        except OSError as exc:
            raise TargetError(f"--target {spec!r}: cannot read it ({exc.strerror})") from None
        return Target(
            spec=str(path),
            kind="document",
            description=f"document {path}",
            roles=("document",),
            document_path=path.resolve(),
            http=options.http_config(),
        )
