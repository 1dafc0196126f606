"""Shared fixtures."""

from __future__ import annotations

import os

os.environ.setdefault("HYPOTHESIS_PROFILE", "ci")

from hypothesis import settings

settings.register_profile("ci", max_examples=60, deadline=None, derandomize=True)
settings.load_profile(os.environ["HYPOTHESIS_PROFILE"])
