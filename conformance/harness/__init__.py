"""The harness protocol: how the kit drives a client under test through an adapter.

Language-neutral, in the spirit of Bowtie: the kit starts the adapter, speaks JSON lines
over its stdin/stdout, sends one ``run`` request per scenario step and reads one reply.
Every message has a JSON Schema in ``schemas/``; a reply that does not validate is an
*adapter* error, reported apart from a failure of the client. See docs/harness-protocol.md.
"""

PROTOCOL = "adck-harness/1"
