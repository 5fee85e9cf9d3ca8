"""The regelwerk MkDocs plugin: the roll helpers on the pages (plugin.py)."""
