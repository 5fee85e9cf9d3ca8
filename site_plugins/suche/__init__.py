"""The regelwerk-suche MkDocs plugin (plugin.py)."""
