"""The package version (also in pyproject.toml), importable without importing anything else."""

__version__ = "0.1.0"
