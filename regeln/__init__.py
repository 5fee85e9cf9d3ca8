"""This site's rule systems, as content: each a data file ``<name>.yaml`` (compiled to
``<name>.json``) and, where the text needs more than the declared helpers, a Python package
``<name>/`` beside it (registered by :mod:`engine.systems`). The generator package
(``engine``, ``site_plugins``, ``harness``) carries none of them."""
