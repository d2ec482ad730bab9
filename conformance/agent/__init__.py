"""The kit's reference agents: small, real clients built on the kit's fetcher.

``conformance.agent.reference.ReferenceAgent`` discovers and invokes aiendpoint services as
the draft asks an agent to; ``conformance.agent.mutants`` holds its deliberately broken
variants (each overrides one step); ``conformance.agent.adapter`` exposes any of them over
the harness protocol, in-process (``python:``) or as a subprocess (``cmd:``).
"""
