# The front door. CMake does the building; this file only chains set-up, configure,
# build and run so that a fresh clone needs one command.
BUILD ?= build
JOBS  ?= 2

.PHONY: all setup configure build demo reconf weftd-demo softcore-demo test bench timing api-docs clean

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

# The softcore in a slot: pthreads, a hardware thread and C threads on the softcore share
# one semaphore and one message queue (docs/softcore.md).
softcore-demo: build
	@$(BUILD)/apps/weft-softcore-demo

test: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# Benchmarks print figures and write $(BUILD)/bench/*.json, then bench/report.py turns
# them into $(BUILD)/bench/report.md and PNG plots; they assert nothing (docs/benchmarks.md).
# QUICK=1 runs everything with tiny settings into $(BUILD)/bench/quick (a minute or two;
# `make test` runs it as the test bench.quick).
bench: build
	@bash bench/run.sh $(BUILD) $(if $(QUICK),--quick)

# Timing: every block, thread and the static region placed and routed for a Lattice ECP5
# by nextpnr, each one's fmax against the platform's clock in $(BUILD)/bench/timing.json
# (docs/benchmarks.md, "Area and timing"); the next `make bench` report includes it. Its
# own target: it takes longer than the rest of the bench together.
timing: build
	@cmake --build $(BUILD) --target weft-bench-timing
	@/usr/bin/python3 bench/report.py $(BUILD)/bench

# The API reference: HTML that Doxygen makes from the public headers' comments
# (docs/Doxyfile); `make test` checks that it builds without a warning (docs.api_reference).
api-docs: build
	@rm -rf $(BUILD)/docs/api && mkdir -p $(BUILD)/docs/api
	@WEFT_SOURCE_DIR=$(CURDIR) WEFT_GEN_DIR=$(abspath $(BUILD))/generated \
	  WEFT_API_DOCS=$(abspath $(BUILD))/docs/api doxygen docs/Doxyfile
	@echo "API reference: $(BUILD)/docs/api/html/index.html"

clean:
	@rm -rf $(BUILD)
