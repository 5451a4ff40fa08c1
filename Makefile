# karc — see README.md. Every target runs the set-up script first, so a fresh
# machine needs nothing but Swift and apt-get.
SWIFT ?= swift

.PHONY: setup build run test bench clean

setup:
	@./scripts/setup.sh

build: setup
	$(SWIFT) build

run: setup
	$(SWIFT) run karc

test: setup
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

bench: setup
	$(SWIFT) run -c release karc-bench

clean:
	rm -rf .build
