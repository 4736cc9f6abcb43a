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

# Benchmarks print figures and write $(BUILD)/bench/*.json, then bench/report.py turns
# them into $(BUILD)/bench/report.md and PNG plots; they assert nothing (docs/benchmarks.md).
BENCH = $(BUILD)/bench
bench: build
	@$(BENCH)/weft-bench-os-overhead --out $(BENCH)/os_overhead.json
	@$(BENCH)/weft-bench-communication --out $(BENCH)/communication.json
	@$(BENCH)/weft-bench-sim-speed --out $(BENCH)/sim_speed.json
	@$(BUILD)/apps/weft-sort --json $(BENCH)/sort_study.json --trace $(BENCH)/sort_trace
	@$(BUILD)/apps/weft-image --config all --w 3,5 --block 4,8,20,40,80 --frames 12 \
	    --json $(BENCH)/image_study.json
	@$(BUILD)/apps/weft-image --config sw-sw-sw --frames 4 --trace $(BENCH)/image_trace_a.json
	@$(BUILD)/apps/weft-image --config sw-hw-hw-db --frames 4 --trace $(BENCH)/image_trace_d.json
	@for c in a d; do /usr/bin/python3 tools/trace_plot.py $(BENCH)/image_trace_$$c.json \
	    $(BENCH)/image_timeline_$$c.png --title "image pipeline, configuration $$c"; done
	@cmake --build $(BUILD) --target weft-bench-area
	@/usr/bin/python3 bench/report.py $(BENCH)

clean:
	@rm -rf $(BUILD)
