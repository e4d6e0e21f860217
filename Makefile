# lookd — two commands do all the set-up on a fresh machine: `make run` and `make test`.
SHELL := /bin/bash
SWIFT ?= swift
RELEASE_BIN := .build/release/lookd
HOST ?= 127.0.0.1
PORT ?= 8080
DATA ?= ./.lookd

.PHONY: deps build run test bench lint clean fuzz sanitize sanitize-ci api-conformance soak abuse

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build -c release --product lookd

# Builds in release mode and runs lookd's main job: the daemon on $(HOST):$(PORT) with its data in $(DATA).
# Admin routes (publish, history, rollback) need a token: ADMIN_TOKEN_FILE=path, or LOOKD_ADMIN_TOKEN in the environment.
# GLIBC_TUNABLES puts glibc's heap on transparent huge pages (docs/deployment.md, "Memory").
ADMIN_TOKEN_FILE ?=
run: build
	GLIBC_TUNABLES=glibc.malloc.hugetlb=1:glibc.malloc.top_pad=67108864 $(RELEASE_BIN) serve --listen $(HOST):$(PORT) --data $(DATA) $(if $(ADMIN_TOKEN_FILE),--admin-token-file $(ADMIN_TOKEN_FILE),)

# The whole test suite: Swift Testing (unit, integration against a real daemon on loopback, properties), then
# the preview in a real headless Chromium (installs chromium, chromium-driver and a pytest/selenium venv if missing).
# Also installs what the tests drive for real: aapt (aapt2 judges every Android export) and nginx (the load
# balancer config of docs/deployment.md, run in front of two replicas). PostgreSQL comes with `deps`.
test: deps
	@scripts/install-deps.sh aapt nginx
	scripts/check-references.sh
	scripts/check-platform-neutral.sh
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

# compare-locales (PyPI, Mozilla's localization linter; it reads Android strings.xml) for the lint-android suite.
COMPARE_LOCALES_VENV := .build/compare-locales-venv
COMPARE_LOCALES ?= compare-locales==9.0.5

$(COMPARE_LOCALES_VENV)/bin/compare-locales:
	python3 -m venv $(COMPARE_LOCALES_VENV) || { scripts/install-deps.sh python3-venv && python3 -m venv $(COMPARE_LOCALES_VENV); }
	$(COMPARE_LOCALES_VENV)/bin/pip install --quiet --disable-pip-version-check '$(COMPARE_LOCALES)'

# The http suite drives wrk against lookd and nginx (with its brotli_static module): installed here, for the bench only.
bench: deps $(POFILTER_VENV)/bin/pofilter $(COMPARE_LOCALES_VENV)/bin/compare-locales
	@scripts/install-deps.sh wrk nginx libnginx-mod-http-brotli-static
	$(SWIFT) build -c release --product lookd
	$(SWIFT) build -c release --product lookd-bench
	.build/release/lookd-bench

# Lints the project's own catalogs the way CI does (warnings fail too).
lint: deps
	$(SWIFT) build --product lookd
	.build/debug/lookd lint --strict Resources/Localizations

# Hardening (docs/hardening.md). Each builds in its own scratch path under .build/, never touching .build/debug.
# libFuzzer targets of Fuzz/ for FUZZ_SECONDS each from Fuzz/Corpus/; fails on any crash, leak or hang.
FUZZ_SECONDS ?= 60
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) scripts/fuzz.sh

# The test suite under AddressSanitizer + UndefinedBehaviorSanitizer, then under ThreadSanitizer; any report fails.
sanitize: deps
	scripts/sanitize.sh address
	scripts/sanitize.sh thread

# CI's pass: ThreadSanitizer over the concurrent suites only.
sanitize-ci: deps
	scripts/sanitize.sh ci

# schemathesis against the daemon's /openapi.json (a venv under .build/).
api-conformance: deps
	scripts/api-conformance.sh

# SOAK_SECONDS of mixed load on a release daemon with its RSS sampled; fails on errors, truncation or growth.
SOAK_SECONDS ?= 600
soak: deps
	@scripts/install-deps.sh wrk python3
	$(SWIFT) build -c release --product lookd
	SOAK_SECONDS=$(SOAK_SECONDS) scripts/soak.py $(RELEASE_BIN)

# The slow-body, slow-head, idle and lint-saturation attacks (issue 27) while a well-behaved client fetches and
# publishes; prints its success rate and latency, then the row-3 body-memory figures (docs/hardening.md).
ABUSE_SECONDS ?= 60
abuse: deps
	@scripts/install-deps.sh python3
	$(SWIFT) build -c release --product lookd
	ABUSE_SECONDS=$(ABUSE_SECONDS) scripts/abuse.py $(RELEASE_BIN)

clean:
	rm -rf .build
