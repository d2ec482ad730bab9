"""The kit's mock world: HTTPS origins and DNS servers on loopback, started on demand.

``https.py`` serves sites (``site.py``: a reference or a variant, from ``fixtures/<draft>/``)
with certificates of the kit's own CA (``tls.py``); ``dns.py`` serves zones, signed or
faulty; ``handlers.py`` runs the dynamic routes each draft's profile names (``[world.handlers]``);
``scenarios.py`` serves the client role's scenarios. Everything here listens on 127.0.0.1 only
and stops when its context manager exits. The world names no draft: a draft's code it runs
(a route handler, a server beside the origin) is named as data in the draft's profile.
"""
