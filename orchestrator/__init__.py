"""The orchestrator: the self-correcting loop, the Python API and the CLI."""
