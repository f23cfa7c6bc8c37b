# The two commands of the README: `make run` and `make test`. Each creates .venv on a fresh
# machine that has only Python 3.11 and Debian.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
HOST   ?= 127.0.0.1
PORT   ?= 8000

.PHONY: run test bench lint clean help eval live-clip render train train-gate train-crops traps

help:
	@echo "make run    create .venv, install, start the web app"
	@echo "make test   create .venv with test extras (and Chromium), run the whole suite"
	@echo "make bench  print speed figures"
	@echo "make eval   measure vision.read on every labelled photo folder (ZILCH_DATA=...), and on renders apart"
	@echo "make train  rebuild models/ (vision confidence) from the licensed photo folders"
	@echo "make traps  [TRAPS_ARGS=...]  count the confident errors on drawn trap scenes"
	@echo "make render [N=200 SEED=0 OUT=renders MIX=cocked=0.3,...]  render throws with Blender"

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

# A test clip for the live camera (two throws, a hand sweeping in each) from labelled photos:
# try `zilch watch --video build/live/two_throws.avi`, or feed the .y4m to a browser's fake camera.
live-clip: $(VENV)/.installed-run
	mkdir -p build/live
	$(BIN)/python tools/live_clips.py build/live/two_throws.avi --sample 2
	$(BIN)/python tools/live_clips.py build/live/two_throws.y4m --sample 2 --size 640x360 --fps 15 --still 3

# Accuracy of vision.read per photo folder of ../shared/data (or $$ZILCH_DATA), and apart on the
# rendered throws of sample_images/rendered (EVAL_ARGS="--rendered DIR"); plots in out/eval/.
eval: $(VENV)/.installed-test
	$(BIN)/python tools/eval.py $(EVAL_ARGS)

# Confident errors of vision.read on drawn trap scenes (slanted dice whose side faces show,
# clutter with no die), the same scenes for the same seed; figures and out/traps/errors.png.
traps: $(VENV)/.installed-test
	$(BIN)/python tools/traps.py $(TRAPS_ARGS)

# Rebuild models/ (the confidence trees of vision.read) from the licensed photo folders. Both
# steps check their thresholds on the rendered throws of renders/ (make render N=81 SEED=11), or
# TRAIN_ARGS="--renders none" TRAIN_GATE_ARGS="--renders none". The gate's step also sets the
# trees' floor on the renders of renders-check/ (make render N=60 SEED=41 MIX=off_table=1.0
# OUT=renders-check, then make render N=40 SEED=51 OUT=renders-check), or
# TRAIN_GATE_ARGS="--check-renders none" (no floor).
# The third step trains the crop reader (models/crops.onnx, vision/crops.py) with PyTorch, which
# only training needs (the .[train] extra: torch 2.13.0, CPU); it trains on renders/ and
# renders-check/ too, or TRAIN_CROPS_ARGS="--renders none". About 25 minutes on 2 cores.
train: $(VENV)/.installed-train
	$(BIN)/python tools/train.py $(TRAIN_ARGS)
	$(BIN)/python tools/train_gate.py $(TRAIN_GATE_ARGS)
	$(BIN)/python tools/train_crops.py $(TRAIN_CROPS_ARGS)

train-crops: $(VENV)/.installed-train
	$(BIN)/python tools/train_crops.py $(TRAIN_CROPS_ARGS)

$(VENV)/.installed-train: pyproject.toml $(VENV)/.installed-test
	$(BIN)/python -m pip install --quiet -e '.[test,train]'
	touch $@

# Only the acceptance gate (models/gate.json): seconds once the candidates are cached. Its fits
# add the rendered throws of renders/ (make render N=81 SEED=11), or TRAIN_GATE_ARGS="--renders none";
# the trees' floor needs renders-check/ (see train).
train-gate: $(VENV)/.installed-test
	$(BIN)/python tools/train_gate.py $(TRAIN_GATE_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info

# Rendered throws with ground truth (needs Blender: apt-get install -y blender). Not part of `make
# test`. Resumable: images already in OUT are kept; the same SEED gives the same images.
N    ?= 200
SEED ?= 0
OUT  ?= renders
MIX  ?=
JOBS ?= 1
render: $(VENV)/.installed-run
	$(BIN)/python tools/render/run.py --out $(OUT) --n $(N) --seed $(SEED) --jobs $(JOBS) \
		$(if $(MIX),--mix $(MIX))
