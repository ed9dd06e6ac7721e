"""Adapters for the frameworks where game agents are trained (optional extras)."""
