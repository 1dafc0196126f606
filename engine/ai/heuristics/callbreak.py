"""Callbreak heuristic (interim: replaced below in this session)."""
