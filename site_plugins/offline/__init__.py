"""The regelwerk-offline MkDocs plugin (plugin.py)."""
