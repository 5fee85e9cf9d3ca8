"""The regelwerk-webapp MkDocs plugin (plugin.py)."""
