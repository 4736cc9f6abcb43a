# The front door. CMake does the building; this file only chains set-up, configure,
# build and run so that a fresh clone needs one command.
BUILD ?= build
JOBS  ?= 2

.PHONY: all setup configure build demo test bench clean

all: build

setup:
	@bash scripts/setup.sh

configure: setup
	@cmake -S . -B $(BUILD) -G Ninja

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

demo: build
	@$(BUILD)/apps/weft-sort

test: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# Benchmarks print figures and write build/bench/*.json; they assert nothing.
bench: build
	@$(BUILD)/bench/weft-bench-os-overhead --out $(BUILD)/bench/os_overhead.json

clean:
	@rm -rf $(BUILD)
