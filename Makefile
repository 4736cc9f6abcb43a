# The front door. CMake does the building; this file only chains set-up, configure,
# build and run so that a fresh clone needs one command.
BUILD ?= build
JOBS  ?= 2

.PHONY: all setup configure build demo reconf weftd-demo test bench clean

all: build

setup:
	@bash scripts/setup.sh

configure: setup
	@cmake -S . -B $(BUILD) -G Ninja

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

demo: build
	@$(BUILD)/apps/weft-sort

# Run-time reconfiguration: periodic software tasks cycling through more hardware tasks
# than slots, loaded on demand (docs/reconfiguration.md).
reconf: build
	@$(BUILD)/apps/weft-reconf

# weftd: one server shares the fabric; a C client and a Python client use both partitions
# at once (docs/server.md).
weftd-demo: build
	@/usr/bin/python3 apps/weftd/weftd_demo.py --build $(BUILD)

test: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# Benchmarks print figures and write $(BUILD)/bench/*.json, then bench/report.py turns
# them into $(BUILD)/bench/report.md and PNG plots; they assert nothing (docs/benchmarks.md).
# QUICK=1 runs everything with tiny settings into $(BUILD)/bench/quick (a minute or two;
# `make test` runs it as the test bench.quick).
bench: build
	@bash bench/run.sh $(BUILD) $(if $(QUICK),--quick)

clean:
	@rm -rf $(BUILD)
