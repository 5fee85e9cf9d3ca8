"""The regelwerk-csp MkDocs plugin (plugin.py)."""
