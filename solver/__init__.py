"""The double-dummy solver."""
