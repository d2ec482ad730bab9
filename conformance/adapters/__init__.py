"""Adapters for third-party clients: each puts a published client library behind the harness
protocol (adck-harness/1), so the kit can check it like any other client.

Each adapter is an optional extra of adck: the library it drives is not a dependency of the
kit, and is installed with the extra of the same name (``pip install 'adck[aid-py]'``).
Without it the adapter still imports, and its hello fails with a message saying what to
install, so a run stops cleanly (exit 2) instead of judging nothing.

``conformance.adapters.aid_py``  aid-discovery (import name ``aid_py``), an AID client library:
    adck run aid --role client --target python:conformance.adapters.aid_py:discover
"""
