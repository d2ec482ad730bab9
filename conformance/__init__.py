"""adck, the Agent Discovery Conformance Kit.

The package is laid out as the architecture reads:

* ``conformance.catalog``  the clause catalogs (data in ``profiles/``)
* ``conformance.<draft>``  one pytest suite per draft, one module per section
* ``conformance.targets``  what a suite runs against (live server, document, built-in world)
* ``conformance.outcomes`` how a test says pass, fail, not-applicable or untestable
* ``conformance.reports``  the report model and its renderings

The public API is small: :func:`conformance.api.run` runs a suite and returns a report.
"""

__version__ = "0.1.0"
