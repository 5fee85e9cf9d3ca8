"""The regelwerk-druck MkDocs plugin (plugin.py)."""
