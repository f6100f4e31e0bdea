"""The tests' support code, loaded as pytest plugins by the root conftest.py: fixtures, and
the helpers they hand out; no test module imports another test module."""
