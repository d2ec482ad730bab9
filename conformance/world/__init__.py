"""The kit's mock world: HTTPS origins (and later DNS) on loopback, started on demand.

Everything here listens on 127.0.0.1 only and stops when its context manager exits.
"""
