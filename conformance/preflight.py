"""Operator mistakes, refused before any request is sent: one line that names the fix, exit 2.

Every check the kit makes of what the user asked for, as opposed to what the target does,
lives here, so that ``adck run``, ``api.run`` and the plain pytest route (``pytest --pyargs
conformance.DRAFT --adck-target …``, through :mod:`conformance.plugin`) refuse the same
mistakes with the same words:

- a target kind the draft does not take (:func:`kind_serves`, :func:`kind_refusal`; ``adck
  targets DRAFT`` and ``adck run --help`` list only the kinds it serves);
- an option that does not apply to the draft or the target (:data:`OPTIONS`,
  :func:`option_refusal`): it would silently do nothing;
- a ``--clause`` of a role that is not checked (:func:`clause_refusal`);
- credentials (``-H``, ``--header-env``, ``--header-origin``) given where the kit sends no
  request a service may protect (:func:`_credentialed`; a malformed one is refused when the run
  is configured, by :mod:`conformance.credentials`, naming the header or variable, never the value);
- a ``--declare`` the draft does not define, with a value it does not take, or for a role the
  run does not check (:func:`declarations`);
- a missing optional dependency (:func:`require`, :func:`install_hint`);
- a report folder that cannot be created or written (:func:`check_report_dir`), or that
  another run is using (:func:`lock_report_dir`, a ``flock`` on ``.adck.lock`` held for the
  whole run, report writing included).

Applicability is derived from data: the profile (``bare_target = "domain"`` for a draft
published in DNS, ``[binding]``, ``[draft_levels]``, ``[client]``), the target kinds' own
``drafts`` and ``serves``, and the fixtures the selected clause tests use. No draft is named.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from conformance.catalog import Profile
    from conformance.targets import Target


class Refused(ValueError):
    """An operator mistake; the message is the one line the user reads (file and folder names in
    it have their control characters escaped: :func:`conformance.reports.safe.line`)."""

    def __init__(self, message: str) -> None:
        from conformance.reports.safe import line

        super().__init__(line(str(message)))


# -- target kinds ------------------------------------------------------------------------------

def kind_serves(kind: Any, profile: "Profile") -> bool:
    """Does a registered target kind serve this draft? A kind may say so with ``drafts`` (the
    drafts it is for) or ``serves(profile)``; a kind that says neither serves every draft."""
    drafts = getattr(kind, "drafts", None)
    if drafts and profile.short not in drafts:
        return False
    serves = getattr(kind, "serves", None)
    return bool(serves(profile)) if callable(serves) else True


def kind_refusal(prefix: str, spec: str, profile: "Profile", registry: dict[str, Any]) -> str | None:
    """Why ``--target spec`` (of the kind registered as ``prefix``) is not a target of this
    draft, with the target to give instead; None when it is one."""
    kind = registry[prefix]
    if kind_serves(kind, profile):
        return None
    if getattr(kind, "origin", False) and profile.bare_target == "domain":
        import httpx

        try:
            host = httpx.URL(spec).host
        except Exception:  # noqa: BLE001 - only the suggestion is lost
            host = ""
        return (f"{profile.short} takes a DOMAIN (its {profile.server_role} publishes a DNS record there), not a URL: "
                f"try --target {host or 'DOMAIN'}")
    usable = sorted(k for k, other in registry.items() if kind_serves(other, profile))
    drafts = getattr(kind, "drafts", None)
    whose = f"{prefix}: targets are for {', '.join(drafts)}, not {profile.short}" if drafts else \
        f"{prefix}: targets are not for {profile.short}"
    return (f"{whose} (it takes: {', '.join(usable)}, or a path to a document; "
            f"see `adck targets {profile.short}`)")


# -- what a target is, for the options -----------------------------------------------------------

def target_class(target: "Target") -> str:
    """``builtin`` (the kit's own server, provider or client), ``client`` (python:, cmd:),
    ``origin`` (a live server), ``domain`` (a live DNS-published provider), ``record`` (a
    record on its own) or ``document`` (a file)."""
    if target.spec == "builtin" or target.spec.startswith("builtin:"):
        return "builtin"
    if target.adapter is not None:
        return "client"
    if target.record is not None:
        return "record"
    if target.document_path is not None or target.kind == "document":
        return "document"
    return target.kind  # origin, domain


def _what(target: "Target", profile: "Profile") -> str:
    """The target in a few words, for a refusal."""
    cls = target_class(target)
    if cls == "builtin":
        role = (profile.client.role if target.adapter is not None and profile.client else
                profile.server_role)
        return f"the built-in {role} of {profile.short}"
    return {"client": f"a {profile.client.role if profile.client else 'client'} target ({target.spec.split(':')[0]}:)",
            "record": "a record on its own (txt:)", "document": "a document on its own",
            "origin": "a live server", "domain": "a live domain"}[cls]


_LOOPBACK = {
    "builtin": "the kit serves it on loopback under its own names, certificate authority and DNS",
    "client": "the kit plays the server for a client, on loopback under its own names, certificate authority and DNS",
    "document": "a document on its own is read from its file; nothing is fetched",
    "record": "a record on its own is read as given; nothing is fetched or looked up",
}


@dataclass(frozen=True)
class Option:
    """An option of ``adck run`` and the targets it applies to. ``why_not`` returns None when
    the option applies, else why it does nothing here (the refusal then names the option)."""

    flag: str
    #: pytest's name of it (``config.getoption``).
    dest: str
    why_not: Callable[["Profile", "Target", frozenset[str]], str | None]
    #: The value that means "not given".
    unset: Any = None

    def given(self, value: Any) -> bool:
        if value is None or value is False or value == self.unset:
            return False
        return not (isinstance(value, (list, tuple, str)) and not value)  # 0 is a value given


def _loopback(target: "Target") -> str:
    """Why the kit's network options do nothing for a target it does not reach over the network."""
    return _LOOPBACK["client" if target.adapter is not None else target_class(target)]


def _reached_over_network(profile: "Profile", target: "Target", fixtures: frozenset[str]) -> str | None:
    """--connect-to, --ca-bundle: how the kit reaches a live server or domain."""
    if target_class(target) in ("origin", "domain"):
        return None
    live = "DOMAIN" if profile.bare_target == "domain" else "https://HOST"
    return f"{_loopback(target)}; it is for reaching a live target ({live})"


def _looked_up_in_dns(profile: "Profile", target: "Target", fixtures: frozenset[str]) -> str | None:
    """--nameserver, --dnssec-anchor: only a live DNS-published target is looked up."""
    if target_class(target) == "domain":
        return None
    if profile.bare_target != "domain":
        return (f"{profile.short} is not published in DNS: the kit asks no DNS server of its own "
                "(a name is resolved by the system; --connect-to maps one to an address)")
    return f"{_loopback(target)}; it is for a live DOMAIN"


def _invokes(profile: "Profile", target: "Target", fixtures: frozenset[str]) -> str | None:
    """--invoke: only a live server whose checked clauses send invocations."""
    if "adck_invoker" not in fixtures:
        return f"none of the {profile.short} clauses checked here invokes the target or sends it work"
    cls = target_class(target)
    if cls == "builtin":
        return "the built-in target is the kit's own, and always invoked"
    if cls != "origin":
        return f"{_loopback(target)}; it is for a live server (https://HOST)"
    return None


def _budgeted(profile: "Profile", target: "Target", fixtures: frozenset[str]) -> str | None:
    """--invoke-budget: only where requests that make the target work are sent."""
    if "adck_invoker" in fixtures:
        return None
    return (f"none of the {profile.short} clauses checked here sends requests that make the target work "
            "(invocations, searches)")


def _in_process(profile: "Profile", target: "Target", fixtures: frozenset[str]) -> str | None:
    """--world respx: a Python client in this process, answered through respx."""
    if target.adapter is not None and target.adapter.in_process:
        return None
    return ("it answers a client in-process: it needs a python: or builtin client target "
            "(a cmd: adapter runs in another process)")


def _bound(profile: "Profile", target: "Target", fixtures: frozenset[str]) -> str | None:
    """--binding: the paths of a server that the draft gives no wire binding."""
    if not profile.binding:
        return None  # binding_of says the draft has a binding of its own, naming the value
    if target_class(target) in ("document", "record"):
        return f"{_loopback(target)}; it is for a {profile.server_role} (https://HOST or builtin) or a client"
    return None  # a server is asked at those paths; for a client, the kit's services answer there


def _levelled(profile: "Profile", target: "Target", fixtures: frozenset[str]) -> str | None:
    """--level: the draft's own levels, of what is published and served."""
    if not profile.draft_levels:
        return None  # the plugin says which levels there are (none), naming the value
    if target.adapter is not None:
        return (f"{profile.short}'s levels are levels of what is published and served; "
                "a client is judged by MUST and SHOULD alone")
    return None


def _credentialed(profile: "Profile", target: "Target", fixtures: frozenset[str]) -> str | None:
    """-H, --header-env, --header-origin: headers for a server the kit sends requests a service
    may protect (searches, invocations, Discovery Requests: those go through ``adck_invoker``)."""
    if target.adapter is not None or target_class(target) in ("document", "record"):
        return f"{_loopback(target)}; it is for a server the kit sends requests to (https://HOST or builtin)"
    if target_class(target) not in ("origin", "builtin") or "adck_invoker" not in fixtures:
        return (f"none of the {profile.short} clauses checked here sends a request a service may protect "
                "(a search, an invocation, a Discovery Request): their documents are public")
    return None


def credentials_apply(profile: "Profile", target: "Target", fixtures: Iterable[str]) -> bool:
    """Whether the run could be given credentials (:func:`_credentialed`): then a 401 or 403
    answered to a request sent without them makes a clause untestable (``conformance.credentials``)."""
    return _credentialed(profile, target, frozenset(fixtures)) is None


#: Every option of ``adck run`` that applies to some drafts or targets only.
OPTIONS: tuple[Option, ...] = (
    Option("--connect-to", "adck_connect_to", _reached_over_network),
    Option("--ca-bundle", "adck_ca_bundle", _reached_over_network),
    Option("--nameserver", "adck_nameserver", _looked_up_in_dns),
    Option("--dnssec-anchor", "adck_dnssec_anchor", _looked_up_in_dns),
    Option("--invoke", "adck_invoke", _invokes),
    Option("--invoke-budget", "adck_invoke_budget", _budgeted),
    Option("--world respx", "adck_world", _in_process, unset="sockets"),
    Option("--binding", "adck_binding", _bound),
    Option("--level", "adck_level", _levelled),
    Option("-H", "adck_header", _credentialed),
    Option("--header-env", "adck_header_env", _credentialed),
    Option("--header-origin", "adck_header_origin", _credentialed),
)


def option_refusal(profile: "Profile", target: "Target", getoption: Callable[[str], Any],
                   fixtures: Iterable[str]) -> str | None:
    """The first option given that does nothing for this draft and target, in one line; None
    when every option given applies. ``fixtures``: those the selected clause tests use."""
    used = frozenset(fixtures)
    for option in OPTIONS:
        if not option.given(getoption(option.dest)):
            continue
        why = option.why_not(profile, target, used)
        if why:
            return f"{option.flag} does not apply to {_what(target, profile)}: {why}; drop {option.flag.split()[0]}"
    return None


# -- declarations: the choices a draft leaves to the implementation ---------------------------------

def declarations_known(profile: "Profile") -> str:
    """The draft's declarations in one phrase, for a refusal."""
    if not profile.declarations:
        return f"{profile.short} defines no declarations"
    return f"{profile.short}'s declarations: " + ", ".join(d.usage() for d in profile.declarations.values()) + \
        f" (`adck targets {profile.short}` says what each one changes)"


def _parse_declarations(profile: "Profile", given: Iterable[str], flag: str) -> dict[str, Any]:
    """``NAME[=VALUE]`` items as {name: value}, each checked against the profile."""
    from conformance import catalog

    out: dict[str, Any] = {}
    for item in given:
        name, sep, raw = item.partition("=")
        name = name.strip()
        declaration = profile.declarations.get(name)
        if declaration is None:
            others = [short for short in catalog.available() if short != profile.short
                      and name in catalog.load(short).declarations]
            whose = f"a declaration of {', '.join(others)}, not of {profile.short}" if others else \
                f"not a declaration of {profile.short}"
            raise Refused(f"{flag} {item}: {whose}; {declarations_known(profile)}")
        try:
            value = declaration.parse(raw if sep else None)
        except ValueError as exc:
            raise Refused(f"{flag} {item}: {exc}; {declarations_known(profile)}") from None
        if name in out and out[name] != value:
            raise Refused(f"{flag} {item}: {name} is declared twice with different values; give it once")
        out[name] = value
    return out


def shown(name: str, value: Any) -> str:
    """A declaration as the user writes it: ``strict-validation``, ``max-top-k=50``."""
    return name if value is True else f"{name}={value}"


def declarations(profile: "Profile", target: "Target", roles: Iterable[str], given: Iterable[str]) -> list[dict]:
    """The run's declarations (``--declare``, and those a built-in variant makes itself), each
    with what the draft says of it, or :class:`Refused` naming the mistake: an unknown name,
    another draft's, a value it does not take, a role the run does not check."""
    variant = _parse_declarations(profile, target.declares, f"builtin variant {target.spec}: declare")
    user = _parse_declarations(profile, given, "--declare")
    for name, value in user.items():
        if name in variant and variant[name] != value:
            raise Refused(f"--declare {shown(name, value)}: {target.spec} declares {shown(name, variant[name])} "
                          f"itself (`adck targets {profile.short}`); drop --declare {name}")
    checked = set(roles)
    for name in user:
        declaration = profile.declarations[name]
        if declaration.role in checked:
            continue
        if declaration.role in target.roles:
            why = f"--role {' --role '.join(roles)} leaves the {declaration.role} role out"
        else:
            why = f"{_what(target, profile)} is checked in the {', '.join(target.roles)} role{'s' if len(target.roles) > 1 else ''} only"
        raise Refused(f"--declare {name} does not apply: it changes {declaration.role} clauses "
                      f"({', '.join(declaration.clauses)}), and {why}; drop --declare {name}")
    out = []
    for source, found in ((f"the built-in variant {target.spec}", variant), ("--declare", user)):
        for name, value in found.items():
            if source == "--declare" and name in variant:
                continue  # the variant's own, given again
            d = profile.declarations[name]
            if d.role not in checked:
                continue  # a variant's declaration for a role this run leaves out
            out.append({"name": name, "value": value, "shown": shown(name, value), "by": source,
                        "section": d.section, "quote": d.quote, "clauses": list(d.clauses), "help": d.help})
    return out


# -- clauses of a role that is not checked --------------------------------------------------------

def _how_to_target(profile: "Profile", role: str) -> str:
    """The ``--target`` (and ``--role``) that checks ``role``."""
    client = profile.client.role if profile.client else None
    if role == client:
        return f"--role {role} --target builtin (or python:MODULE:CALLABLE, cmd:COMMAND)"
    if role == "document":
        return "--target PATH (a document file), or a server target, whose document is checked too"
    return f"--target {'DOMAIN' if profile.bare_target == 'domain' else 'https://HOST'} (or builtin)"


def clause_refusal(profile: "Profile", target: "Target", roles: list[str], role_given: bool,
                   wanted: Iterable[str]) -> str | None:
    """A ``--clause`` whose role is not checked would check nothing: say whose clause it is and
    the ``--role`` or target that checks it."""
    for cid in sorted(wanted):
        role = profile.clauses[cid].role
        if role in roles:
            continue
        if role in target.roles and role_given:
            return (f"--clause {cid}: {cid} is a {role} clause, and --role {' --role '.join(roles)} leaves the "
                    f"{role} role out: pass --role {role}")
        return (f"--clause {cid}: {cid} is a {role} clause, and {_what(target, profile)} cannot be checked in the "
                f"{role} role (only {', '.join(target.roles)}): check a {role} with {_how_to_target(profile, role)}")
    return None


# -- optional dependencies -------------------------------------------------------------------------

def install_hint(module: str) -> str:
    """What to install for a missing top-level module: an extra of adck named after it (one
    extra per adapter), or the package of adck's requirements that provides it, or the module."""
    import re
    from importlib import metadata

    def norm(name: str) -> str:
        return re.sub(r"[-_.]+", "-", name).lower()

    wanted = norm(module)
    try:
        dist = metadata.metadata("adck")
        extras = [norm(e) for e in dist.get_all("Provides-Extra") or []]
        requires = metadata.requires("adck") or []
    except metadata.PackageNotFoundError:  # a source tree never installed
        extras, requires = [], []
    if wanted in extras:
        return f"pip install 'adck[{wanted}]'"
    for req in requires:
        name = re.split(r"[\s<>=!~;\[(]", req, maxsplit=1)[0]
        if norm(name) == wanted:
            return f"pip install {name}"
    return f"pip install {module}"


def missing_module(exc: ImportError, *, wanted: str | None = None) -> str | None:
    """The top-level module an ImportError says is missing, unless it is ``wanted`` (or a package
    above it) itself: a module the user named that is not there is a wrong name, not a missing
    dependency."""
    name = getattr(exc, "name", None)
    if not isinstance(exc, ModuleNotFoundError) or not name:
        return None
    if wanted is not None and (wanted == name or wanted.startswith(name + ".")):
        return None
    return name.split(".")[0]


#: The module each ``--world`` needs beyond the kit's own (respx, until it is a core dependency).
WORLD_NEEDS = {"respx": "respx"}


def require(module: str, what: str) -> None:
    """Import ``module`` (a dependency ``what`` needs), or refuse in one line naming what to install."""
    import importlib

    try:
        importlib.import_module(module)
    except ImportError as exc:
        top = missing_module(exc) or module
        raise Refused(f"{what} needs the Python package {top!r}, which is not installed: "
                      f"{install_hint(top)}") from None


# -- the report folder -----------------------------------------------------------------------------

LOCK_NAME = ".adck.lock"


def _reason(exc: OSError) -> str:
    return exc.strerror or errno.errorcode.get(exc.errno or 0, str(exc))


def check_report_dir(folder: Path, flag: str = "--report-dir") -> None:
    """The report folder can be created and written: make it (and the folders above it that are
    missing), write and remove a probe file, then remove what was made, so that a run that does
    not start leaves nothing behind. :class:`Refused` names the fix."""
    fix = f"pass a folder you can write to ({flag} DIR)"
    if folder.exists() and not folder.is_dir():
        raise Refused(f"{flag} {folder}: is a file, not a directory; {fix}")
    made: list[Path] = []
    probe = folder
    while not probe.exists() and probe != probe.parent:
        made.append(probe)
        probe = probe.parent
    if probe.exists() and not probe.is_dir():
        raise Refused(f"{flag} {folder}: {probe} is a file, not a directory; {fix}")
    try:
        for path in reversed(made):
            try:
                path.mkdir()
            except OSError as exc:
                raise Refused(f"{flag} {folder}: cannot create {path} ({_reason(exc)}); {fix}") from None
        import tempfile

        try:
            fd, name = tempfile.mkstemp(prefix=".adck-probe-", dir=folder)
            try:
                os.write(fd, b"adck")
            finally:
                os.close(fd)
                os.unlink(name)
        except OSError as exc:
            raise Refused(f"{flag} {folder}: cannot write in it ({_reason(exc)}); {fix}") from None
    finally:
        for path in made:  # deepest first
            try:
                path.rmdir()
            except OSError:
                pass


class FolderLock:
    """A report folder held by this run (``fcntl.flock`` on ``.adck.lock``): released, and its
    file removed, when the run has written its reports. A run killed outright leaves the file,
    but not the lock: the next run takes it."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path, self.fd = path, fd

    def release(self) -> None:
        if self.fd < 0:
            return
        try:  # removed while still held: a run that opens it now finds it gone (see lock_report_dir)
            if os.path.samestat(os.fstat(self.fd), os.stat(self.path, follow_symlinks=False)):
                self.path.unlink()
        except OSError:
            pass
        os.close(self.fd)
        self.fd = -1


def lock_report_dir(folder: Path) -> FolderLock:
    """Hold ``folder`` for this run, or refuse naming the run that holds it (its pid)."""
    import fcntl

    fix = "pass another --report-dir, or wait for it to end"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise Refused(f"--report-dir {folder}: cannot create it ({_reason(exc)}); pass a folder you can write to") from None
    path = folder / LOCK_NAME
    while True:
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
        except OSError as exc:
            raise Refused(f"--report-dir {folder}: cannot lock it ({path}: {_reason(exc)}); {fix}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            held = exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN)
            holder = os.read(fd, 32).decode("ascii", "replace").strip() if held else ""
            os.close(fd)
            if held:
                who = f"pid {holder}" if holder.isdigit() else "a pid not yet written"
                raise Refused(f"--report-dir {folder}: in use by another adck run ({who}); {fix}") from None
            raise Refused(f"--report-dir {folder}: cannot lock it ({_reason(exc)}); {fix}") from None
        try:  # the run that held it may have removed it meanwhile: hold the file that is there
            if os.path.samestat(os.fstat(fd), os.stat(path, follow_symlinks=False)):
                break
        except FileNotFoundError:
            pass
        os.close(fd)
    os.ftruncate(fd, 0)
    os.write(fd, f"{os.getpid()}\n".encode("ascii"))
    return FolderLock(path, fd)
