"""The harness protocol: how the kit drives a client under test through an adapter.

Language-neutral, in the spirit of Bowtie: the kit starts the adapter, speaks JSON lines
over its stdin/stdout, sends one ``run`` request per scenario step and reads one reply.
Every message has a JSON Schema in ``schemas/``; a reply that does not validate is an
*adapter* error, reported apart from a failure of the client. See docs/harness-protocol.md.

The folder holds what every draft's clients share: the kit's side (``driver.py`` drives an
adapter, ``adapters.py`` starts ``cmd:`` and ``python:`` ones, ``reaper.py`` ends every
process a run started), the adapters' side (``session.py``: the session handler and the
network config every reference client's adapter is built on; ``broken_tls.py``: the TLS
contexts the broken clients of every draft use), and the message schemas (``schemas/``).
"""

PROTOCOL = "adck-harness/1"


def serve_lines(handler, stdin=None, stdout=None) -> int:
    """The adapter's side of ``cmd:``: read JSON lines, answer each with ``handler(message)``,
    until ``stop`` (which gets no reply) or the end of input. While it runs, anything the
    client prints goes to stderr, so stdout carries the protocol only."""
    import json
    import sys

    stdin = stdin or sys.stdin
    out = stdout or sys.stdout
    saved, sys.stdout = sys.stdout, sys.stderr
    try:
        for line in stdin:
            if not line.strip():
                continue
            message = json.loads(line)
            reply = handler(message)
            if message.get("type") == "stop":
                return 0
            out.write(json.dumps(reply) + "\n")
            out.flush()
    finally:
        sys.stdout = saved
    return 0
