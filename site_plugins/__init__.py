"""MkDocs plugins of the Regelwerk site (documented MkDocs events only)."""
