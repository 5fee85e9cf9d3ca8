"""The regelwerk-laufzeit MkDocs plugin (plugin.py)."""
