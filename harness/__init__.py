"""What the scripts, the tests and a group's own site share – one harness, no script importing a
test or a test importing a script:

- :mod:`harness.layout`: where a site keeps its sources, rule data, pages and tests;
- :mod:`harness.scaffold`: a new rule system from its source text (``make system``);
- :mod:`harness.check`: the quick check of one system (``make check-system``);
- :mod:`harness.fidelity`: every sentence of a source on the pages (the wording rule);
- :mod:`harness.brute`, :mod:`harness.support`: enumeration of every face, and the engine
  tests' shared calls;
- :mod:`harness.offline_export`: the offline export (folder and zip, part of ``make site``);
- :mod:`harness.own_site`: a group's own site in a folder of its own
  (``regelwerk-neue-seite``).
"""
