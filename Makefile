# karc — see README.md. Every target runs the set-up script first, so a fresh
# machine needs nothing but Swift and apt-get.
SWIFT ?= swift

.PHONY: setup build run demo serve check readme test bench tsan fuzz format lint docs clean

setup:
	@./scripts/setup.sh

build: setup
	$(SWIFT) build

run: setup
	$(SWIFT) run karc

# The tour of the demo cluster, narrated (--echo), in a state directory of its own.
# It shows two mistakes on purpose: --keep-going runs the rest, and their exit
# status 1 is the tour's; any other status is a real failure.
demo: setup
	$(SWIFT) run karc --echo --keep-going --fresh --state-dir .build/demo-state scripts/demo/tour.karc || [ $$? -eq 1 ]

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
# (review the diff), copy scripts/demo/readme.karc and its login's flow (a
# Mermaid diagram) into README.md,
# regenerate the tour as a Swift test (Tests/TourExportTests), and draw the
# inspector on the README's session (docs/images/inspector.png).
readme: setup
	$(SWIFT) run karc check --update --tick 200ms scripts/demo/*.karc
	$(SWIFT) run karc export-diagram scripts/demo/readme.karc --commands 3 -o .build/readme-flow.md
	./scripts/readme-transcript.sh .build/readme-flow.md
	$(SWIFT) run karc export-test scripts/demo/tour.karc -o Tests/TourExportTests/TourTests.swift
	./scripts/setup.sh --test
	./scripts/inspector-screenshot.sh

# 12 to 25 minutes from a fresh clone (nearly all building: gRPC, SwiftNIO and
# two BoringSSLs for `karc attach`, swift-syntax for `@Command`), about two
# minutes of tests after. Every suite has a one-minute time limit
# (check-time-limits.sh): a test that hangs is marked ✘ by name after a
# minute, but the run would wait for it forever: scripts/run-tests.sh stops
# the run 90 seconds after such a line, saying which tests were still
# running (and any run after 20 minutes), so a hang fails CI in minutes.
#
# At most TEST_WIDTH test cases run at once. A time limit counts from when a
# case starts running; with all ~800 started together on two cores, a case
# that started early shared the two threads of the cooperative pool with every
# other for the whole run (a minute), and ones that need many turns of it
# (a cluster's bootstrap took 20-30 s) hit their limit though nothing hung.
# Eight at once also ends the run sooner (less switching): 54 s against 57-71 s.
TEST_WIDTH ?= 8
test:
	@./scripts/setup.sh --test
	./scripts/format.sh --lint
	./scripts/check-time-limits.sh
	$(SWIFT) build --build-tests
	NO_COLOR=1 SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=$(TEST_WIDTH) SWIFT=$(SWIFT) ./scripts/run-tests.sh
	@for target in $(FUZZ_TARGETS); do .build/debug/karc-fuzz $$target Fuzz/corpus/$$target || exit 1; done

# Cross-module optimization lets the generic gate and model code specialize for
# the benchmark's types, as it would in an application built with it
# (see docs/performance.md).
bench: setup
	$(SWIFT) build -c release --product karc-bench -Xswiftc -cross-module-optimization
	$(SWIFT) build -c release --product karc -Xswiftc -cross-module-optimization
	$(SWIFT) build -c release --product explore-planted -Xswiftc -cross-module-optimization
	.build/release/karc-bench

# ThreadSanitizer (docs/architecture.md): every in-process test, one at a
# time (all at once, TSan's slowdown on two cores times out tests bounded in
# real time), then the end-to-end suites whose subject is the karc binary's own
# concurrency (attach, the prompt's editor thread and its keys while a command
# runs, signals, the inspector's server), two at a time: their karc processes,
# built with TSan, report a race and exit. The other end-to-end suites check
# the text, files and exit statuses of code the in-process suites run under
# TSan (explore's workers and shrinking: ExploreTests); `make test` runs them
# (under TSan they took 6 of 15.5 minutes). ~9 minutes after a change, about
# 28 from a clean tree (21 of them its build, 7 the tests); CI runs it. KARC_TSAN swaps the one lock every module uses
# (KarcSynchronization's KarcMutex) for a pthread mutex TSan can see (it
# cannot see Synchronization.Mutex on Linux).
TSAN_FLAGS = --sanitize=thread -Xswiftc -DKARC_TSAN --scratch-path .build-tsan
TSAN_RUN = NO_COLOR=1 TSAN_OPTIONS="halt_on_error=1 suppressions=$(CURDIR)/.tsan-suppressions"
TSAN_END_TO_END = KarcEndToEndTests\.(Attach[A-Za-z]*|Interrupt|ScriptSignal|InteractiveShell|PromptInput|ContinuationPrompt|Serve[A-Za-z]*|Inspect[A-Za-z]*)Tests
tsan: setup
	$(SWIFT) build --build-tests $(TSAN_FLAGS)
	$(TSAN_RUN) SWIFT=$(SWIFT) ./scripts/run-tests.sh --no-parallel $(TSAN_FLAGS) --skip KarcEndToEndTests
	$(TSAN_RUN) SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH=2 SWIFT=$(SWIFT) ./scripts/run-tests.sh $(TSAN_FLAGS) --filter '$(TSAN_END_TO_END)'

# libFuzzer over each fuzz target for FUZZ_SECONDS (CI: 20 each), with
# AddressSanitizer and leak checks (docs/reliability.md). New inputs go to
# .build-fuzz/corpus; a crash is written to .build-fuzz/TARGET-crash-… and
# ends the run: add it to Fuzz/corpus/TARGET once fixed (`make test` replays
# that corpus). Fuzz/ is a package of its own over the same sources.
FUZZ_SECONDS ?= 20
FUZZ_TARGETS = line json transcript attach inspector
fuzz: setup
	$(SWIFT) build -c release --package-path Fuzz --scratch-path .build-fuzz --product karc-fuzz \
		-Xswiftc -sanitize=fuzzer,address -Xswiftc -DKARC_FUZZ -Xswiftc -enable-testing
	@for target in $(FUZZ_TARGETS); do \
		mkdir -p .build-fuzz/corpus/$$target; \
		echo "fuzz $$target: $(FUZZ_SECONDS) s"; \
		KARC_FUZZ_TARGET=$$target LSAN_OPTIONS=suppressions=$(CURDIR)/Fuzz/lsan.supp .build-fuzz/release/karc-fuzz \
			-max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=4096 -detect_leaks=1 -print_final_stats=1 \
			-artifact_prefix=.build-fuzz/$$target- .build-fuzz/corpus/$$target Fuzz/corpus/$$target > .build-fuzz/$$target.log 2>&1; \
		status=$$?; \
		grep -E "^(#[0-9]+ +DONE|Done [0-9]+ runs|stat::peak_rss_mb)" .build-fuzz/$$target.log; \
		test $$status -eq 0 || { tail -60 .build-fuzz/$$target.log; exit 1; }; \
	done

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
