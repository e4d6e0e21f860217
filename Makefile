# lookd — two commands do all the set-up on a fresh machine: `make run` and `make test`.
SHELL := /bin/bash
SWIFT ?= swift
RELEASE_BIN := .build/release/lookd
HOST ?= 127.0.0.1
PORT ?= 8080
DATA ?= ./.lookd

.PHONY: deps build run test bench lint clean

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build -c release --product lookd

# Builds in release mode and runs lookd's main job: the daemon on $(HOST):$(PORT) with its data in $(DATA).
# Admin routes (publish, history, rollback) need a token: ADMIN_TOKEN_FILE=path, or LOOKD_ADMIN_TOKEN in the environment.
ADMIN_TOKEN_FILE ?=
run: build
	$(RELEASE_BIN) serve --listen $(HOST):$(PORT) --data $(DATA) $(if $(ADMIN_TOKEN_FILE),--admin-token-file $(ADMIN_TOKEN_FILE),)

# The whole test suite: Swift Testing (unit, integration against a real daemon on loopback, properties), then
# the preview in a real headless Chromium (installs chromium, chromium-driver and a pytest/selenium venv if missing).
# Also installs what the tests drive for real: aapt (aapt2 judges every Android export) and nginx (the load
# balancer config of docs/deployment.md, run in front of two replicas). PostgreSQL comes with `deps`.
test: deps
	@scripts/install-deps.sh aapt nginx
	scripts/check-references.sh
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	scripts/browser-tests.sh

# Benchmarks print rates and ratios against an anchor measured in the same run. No timing assertions anywhere.
# pofilter (PyPI translate-toolkit) for the lint suite's comparison: a venv under .build/, never used by `make test`.
POFILTER_VENV := .build/pofilter-venv
TRANSLATE_TOOLKIT ?= translate-toolkit==3.20.4

$(POFILTER_VENV)/bin/pofilter:
	python3 -m venv $(POFILTER_VENV) || { scripts/install-deps.sh python3-venv && python3 -m venv $(POFILTER_VENV); }
	$(POFILTER_VENV)/bin/pip install --quiet --disable-pip-version-check '$(TRANSLATE_TOOLKIT)'

# The http suite drives wrk against lookd and nginx: both are installed here, for the bench only.
bench: deps $(POFILTER_VENV)/bin/pofilter
	@scripts/install-deps.sh wrk nginx
	$(SWIFT) build -c release --product lookd
	$(SWIFT) build -c release --product lookd-bench
	.build/release/lookd-bench

# Lints the project's own catalogs the way CI does (warnings fail too).
lint: deps
	$(SWIFT) build --product lookd
	.build/debug/lookd lint --strict Resources/Localizations

clean:
	rm -rf .build
