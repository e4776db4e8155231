# Thin wrapper over CMake. `make run` builds the program alone (Release) and runs Graph500 at a
# small SCALE on the best backend present; `make test` builds everything and runs every test
# through CTest.
BUILD ?= build
SCALE ?= 16
JOBS ?= $(shell nproc)
CMAKE_ARGS ?=

.PHONY: all configure build run test bench gpu-check clean deps

all: build

deps:
	@bash scripts/deps.sh

configure: deps
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release $(CMAKE_ARGS) >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

run: configure
	@cmake --build $(BUILD) -j $(JOBS) --target gpu500
	$(BUILD)/bin/gpu500 graph500 $(SCALE)

test: build
	cd $(BUILD) && OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ctest --output-on-failure -j $(JOBS) -LE long

bench: build
	bash bench/graph500/cpu.sh

gpu-check:
	bash scripts/gpu-check.sh

clean:
	rm -rf $(BUILD)
