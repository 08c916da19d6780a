"""Bare start (Python): a script that does nothing, for the suite's
`bare_start` row: the cost of starting the interpreter of the .venv (with its
site initialisation, as for cold.py), without the SDK, to subtract from
`cold_start`."""
