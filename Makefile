# karc — see README.md. Every target runs the set-up script first, so a fresh
# machine needs nothing but Swift and apt-get.
SWIFT ?= swift

.PHONY: setup build run demo serve check readme test bench tsan format lint docs clean

setup:
	@./scripts/setup.sh

build: setup
	$(SWIFT) build

run: setup
	$(SWIFT) run karc

# The tour of the demo cluster, narrated (--echo), in a state directory of its own.
demo: setup
	$(SWIFT) run karc --echo --fresh --state-dir .build/demo-state scripts/demo/tour.karc

# The demo cluster with an endpoint and no prompt: in another terminal,
# `.build/debug/karc attach` drives it (Ctrl-C here stops it).
serve: setup
	$(SWIFT) build --product karc
	.build/debug/karc serve

# The demo scripts are checked transcripts: what each command prints is
# written under it (#= lines). `make check` compares; `make test` does too.
check: setup
	$(SWIFT) run karc check --tick 200ms scripts/demo/*.karc

# After a change in what a command prints: rewrite the demo transcripts
# (review the diff), copy scripts/demo/readme.karc into README.md, and
# regenerate the tour as a Swift test (Tests/TourExportTests).
readme: setup
	$(SWIFT) run karc check --update --tick 200ms scripts/demo/*.karc
	./scripts/readme-transcript.sh
	$(SWIFT) run karc export-test scripts/demo/tour.karc -o Tests/TourExportTests/TourTests.swift

# About 15 minutes from a fresh clone (nearly all building: gRPC, SwiftNIO and
# two BoringSSLs for `karc attach`, swift-syntax for `@Command`), 10 s of tests
# after; a test that hangs fails the run after 20
# instead of holding CI to its own limit (the output shows which one hung).
test:
	@./scripts/setup.sh --test
	./scripts/format.sh --lint
	./scripts/check-time-limits.sh
	$(SWIFT) build --build-tests
	timeout --kill-after=30s 20m $(SWIFT) test --skip-build

# Cross-module optimization lets the generic gate and model code specialize for
# the benchmark's types, as it would in an application built with it
# (see docs/performance.md).
bench: setup
	$(SWIFT) build -c release --product karc-bench -Xswiftc -cross-module-optimization
	$(SWIFT) build -c release --product karc -Xswiftc -cross-module-optimization
	.build/release/karc-bench

# ThreadSanitizer run of every test, one at a time (all at once, TSan's
# slowdown on two cores times out tests bounded in real time): ~15 minutes
# from a clean tree, ~5 after a change; CI runs it. KARC_TSAN swaps each
# module family's lock (KarcMutex, DispatcherMutex, Compose's Locked) for a
# pthread mutex TSan can see (it cannot see Synchronization.Mutex on Linux).
tsan: setup
	$(SWIFT) build --build-tests --sanitize=thread -Xswiftc -DKARC_TSAN --scratch-path .build-tsan
	TSAN_OPTIONS="halt_on_error=1 suppressions=$(CURDIR)/.tsan-suppressions" $(SWIFT) test --skip-build --no-parallel --sanitize=thread -Xswiftc -DKARC_TSAN --scratch-path .build-tsan

# DocC for every library module, warnings as errors (CI runs it too).
docs: setup
	./scripts/docs.sh

# swift-format with the repository's .swift-format: `make format` rewrites,
# `make lint` (part of `make test`) fails on a file that is not formatted.
format:
	./scripts/format.sh

lint:
	./scripts/format.sh --lint

clean:
	rm -rf .build
