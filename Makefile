# The two commands of the README: `make run` and `make test`. Each creates .venv on a fresh
# machine that has only Python 3.11 and Debian.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
HOST   ?= 127.0.0.1
PORT   ?= 8000

.PHONY: run test bench lint clean help train eval

help:
	@echo "make run    create .venv, install, start the web app"
	@echo "make test   create .venv with test extras (and Chromium), run the whole suite"
	@echo "make bench  print speed figures"
	@echo "make eval   measure vision.read on every labelled photo folder (ZILCH_DATA=...)"
	@echo "make train  rebuild models/ (vision confidence) from the licensed photo folders"

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed-run: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.installed-run

run: $(VENV)/.installed-run
	@if $(BIN)/zilch serve --help >/dev/null 2>&1; then \
		$(BIN)/zilch serve --host $(HOST) --port $(PORT); \
	else \
		$(BIN)/zilch --help; \
	fi

test: $(VENV)/.installed-test
	bash tools/install-browser.sh
	$(BIN)/python -m pytest

bench: $(VENV)/.installed-test
	@for f in tools/bench/bench_*.py; do $(BIN)/python $$f || exit 1; done

lint: $(VENV)/.installed-test
	$(BIN)/ruff check scorer vision server cli tools tests

# Accuracy of vision.read per photo folder of ../shared/data (or $$ZILCH_DATA); plot in out/eval/.
eval: $(VENV)/.installed-test
	$(BIN)/python tools/eval.py $(EVAL_ARGS)

# Rebuild models/ (the confidence trees of vision.read) from the licensed photo folders.
train: $(VENV)/.installed-test
	$(BIN)/python tools/train.py $(TRAIN_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info
