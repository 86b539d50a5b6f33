# SPDX-License-Identifier: MIT
# One-line entry points over CMake (the README's commands):
#   make demo    build everything, run the guide's SAXPY on the default device
#   make check   build everything, run the whole test suite
#   make bench   build, run the benchmarks, write bench/results.md
BUILD ?= build
JOBS ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: all deps build demo check bench install clean

all: build

deps:
	@./scripts/deps.sh

$(BUILD)/CMakeCache.txt: | deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS)

build: $(BUILD)/CMakeCache.txt
	cmake --build $(BUILD) -j$(JOBS)

demo: build
	$(BUILD)/bin/hipInfo | head -3
	$(BUILD)/examples/saxpy

check: build
	ctest --test-dir $(BUILD) --output-on-failure -j$(JOBS)

bench: build
	./bench/run.sh $(BUILD)

install: build
	cmake --install $(BUILD) $(if $(PREFIX),--prefix $(PREFIX))

clean:
	rm -rf $(BUILD)
