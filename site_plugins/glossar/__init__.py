"""The regelwerk-glossar MkDocs plugin (plugin.py)."""
