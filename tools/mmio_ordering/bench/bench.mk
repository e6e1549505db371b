# SPDX-License-Identifier: GPL-2.0
#
# `make bench`: the MMIO ordering benchmarks (included by the top Makefile,
# which provides REPO, T, B, TREE, KMAKE, KCC, NOMF, SUFFIX, JOBS, VM...).
#
#   bench        everything: the kernel module in QEMU (x86_64: production-like
#                kernel, then the checker kernel; arm64, riscv64 and
#                ppc64le: production-like kernels), the userspace build
#                natively with 1 and 2 threads (and callgrind), the size
#                comparison; table on stdout, build/bench/results.json,
#                build/bench/chart.svg, and build/bench/results.md, the
#                result tables of docs/benchmarks.md
#   check-bench  smoke run: short iterations, every timing and barrier figure
#                must be present; it runs the module in the test kernels of
#                `make kernel` (checker on) that `make check` has built
#                anyway, and builds no kernel of its own, so it measures no
#                sizes
#
# The module (module/) is not part of the kernel series: it is built out of
# tree, as `make vm M=...` builds a module, against each kernel it runs in,
# in a copy of its own under $(BOUT). The userspace build (bench.c) shares
# its strategies and scenarios, module/mmio_ordering_bench.h.
#
# BENCH_REPS, BENCH_TARGET_US (time per measurement) and
# BENCH_USER_TARGET_US tune the full run.

BT := $(T)/bench
BOUT := $(B)/bench$(SUFFIX)
BMOD_SRC := $(BT)/module
BMOD := mmio_ordering_bench.ko
BENCH_REPS ?= 11
BENCH_TARGET_US ?= 2000
BENCH_USER_TARGET_US ?= 2000
BENCH_CALLGRIND_OPS ?= 20000

# The production-like kernel (feature in, no checker) that runs the module.
BKOUT := $(B)/x86_64-bench$(SUFFIX)
BFRAG := $(REPO)/configs/x86_64-bench.config
# Same config with the feature compiled out, and with the checker on.
BSIZE_OFF := $(B)/bench-size-off$(SUFFIX)
BSIZE_CHK := $(B)/bench-size-checker$(SUFFIX)

# $(call bench-config,OUTDIR,FRAGMENTS): config made in a side directory,
# copied only when it changed (as `make kernel` does). The last fragment
# overrides the others; only it is checked.
define bench-config
	@mkdir -p $(1).cfg $(1)
	@$(KMAKE) -s O=$(1).cfg tinyconfig >/dev/null
	@$(TREE)/scripts/kconfig/merge_config.sh -m -O $(1).cfg $(1).cfg/.config \
		$(2) >/dev/null
	@$(KMAKE) -s O=$(1).cfg olddefconfig
	@$(T)/config-check.sh $(lastword $(2)) $(1).cfg/.config
	@cmp -s $(1).cfg/.config $(1)/.config || cp $(1).cfg/.config $(1)/.config
endef

.PHONY: bench check-bench bench-kernel bench-sizes bench-user bench-vm-run \
	bench-vm-checker

bench-kernel: prepare
	$(call bench-config,$(BKOUT),$(BFRAG))
	$(KMAKE) -s O=$(BKOUT) ARCH=x86_64 bzImage modules

# The checker size build needs nothing more; the userspace build needs
# valgrind (callgrind and its client-request header).
DEPS += valgrind

bench-sizes: bench-kernel
	$(call bench-config,$(BSIZE_OFF),$(BFRAG) $(REPO)/configs/bench-off.config)
	$(call bench-config,$(BSIZE_CHK),$(BFRAG) $(REPO)/configs/bench-checker.config)
	@echo "bench: building vmlinux with the feature off and with the checker"
	$(KMAKE) -s O=$(BSIZE_OFF) ARCH=x86_64 vmlinux
	$(KMAKE) -s O=$(BSIZE_CHK) ARCH=x86_64 vmlinux
# (spinlock.o, where the _raw_spin_*() functions live, is part of vmlinux)

# --- the module in QEMU: production-like kernel, then the checker kernel ---
BENCH_VM_ARGS = mmio_bench.repetitions=$(BENCH_REPS) mmio_bench.target_us=$(BENCH_TARGET_US)

# The smoke run (BENCH_SMOKE=1) uses the test kernel of `make kernel`.
BENCH_SMOKE ?=
BRUN := $(if $(BENCH_SMOKE),$(KOUT),$(BKOUT))
bench-vm-run: $(if $(BENCH_SMOKE),kernel,bench-kernel)
	@mkdir -p $(BOUT)
	$(call ext-modules,$(BRUN),$(BMOD_SRC),$(BOUT)/module-run,-s)
	$(T)/vm.sh -k $(BRUN)/arch/x86/boot/bzImage -g $(BRUN)/usr/gen_init_cpio \
		-t $(VM_TIMEOUT) -a "$(BENCH_VM_ARGS)" -w $(BOUT)/vm-run \
		-o $(BOUT)/kernel-x86_64.log -s $(BT)/guest.sh $(BOUT)/module-run/$(BMOD) \
		>/dev/null || { tail -20 $(BOUT)/kernel-x86_64.log; exit 1; }

# The checker kernel is the test kernel of `make kernel`; only none, auto
# and kernel (bits 0, 2, 8) with the arch barrier: the checker makes every
# tracked section much slower.
bench-vm-checker: kernel
	@mkdir -p $(BOUT)
	$(call ext-modules,$(KOUT),$(BMOD_SRC),$(BOUT)/module-checker,-s)
	$(T)/vm.sh -k $(BZIMAGE) -g $(GEN_CPIO) -t $(VM_TIMEOUT) \
		-a "$(BENCH_VM_ARGS) mmio_bench.strategies=0x105 mmio_bench.kinds=1" \
		-w $(BOUT)/vm-checker -o $(BOUT)/kernel-x86_64-checker.log \
		-s $(BT)/guest.sh $(BOUT)/module-checker/$(BMOD) >/dev/null || \
		{ tail -20 $(BOUT)/kernel-x86_64-checker.log; exit 1; }

# --- the module in QEMU on arm64, riscv64 and ppc64le ---------------------
# The architecture's test kernel (configs/$(ARCH)-debug.config) without the
# checker (configs/bench-arch.config), cross-built; the module runs as on
# x86_64. Under TCG only the ratios and the barrier counts mean something.
# The smoke run uses the test kernel itself, built as `make check` builds it.
BENCH_ARCHS ?= arm64 riscv64 ppc64le
BAOUT = $(if $(BENCH_SMOKE),$(KOUT),$(B)/$(ARCH)-bench$(SUFFIX))
.PHONY: bench-vm-arch bench-arch-kernel $(addprefix bench-vm-,$(BENCH_ARCHS))
bench-arch-kernel: prepare
	$(call bench-config,$(BAOUT),$(REPO)/configs/$(ARCH)-debug.config \
		$(REPO)/configs/bench-arch.config)
	$(KMAKE) -s O=$(BAOUT) $(notdir $(IMAGE)) modules
# The feature as production kernels build it, without the checker: only
# kernel/locking/ (the lock functions with their inline barrier, the core)
# of the bench kernel's configuration, a compile test for `make check`,
# which builds no bench kernel. Fails on any warning, and where the boot
# switch exists (BENCH_OFF_ARCHS) if spinlock.o has no static branch on
# its key.
PROD_OUT = $(if $(filter x86_64,$(ARCH)),$(BKOUT),$(B)/$(ARCH)-bench$(SUFFIX))
PROD_FRAGS = $(if $(filter x86_64,$(ARCH)),$(BFRAG),$(REPO)/configs/$(ARCH)-debug.config \
	$(REPO)/configs/bench-arch.config)
PROD_LOG = $(B)/production-objs-$(ARCH)$(SUFFIX).log
.PHONY: production-objs
production-objs: prepare
	$(call bench-config,$(PROD_OUT),$(PROD_FRAGS))
	@$(KMAKE) -s O=$(PROD_OUT) kernel/locking/ > $(PROD_LOG) 2>&1 || \
		{ tail -20 $(PROD_LOG); exit 1; }
	@! grep -E 'warning:|error:' $(PROD_LOG)
	@$(if $(filter $(ARCH),$(BENCH_OFF_ARCHS)),readelf -rW $(PROD_OUT)/kernel/locking/spinlock.o | \
		awk '/^Relocation section/ { j = ($$3 ~ /jump_table/) } \
		j && /mmio_ordering_tracking/ { n++ } END { exit !n }' || \
		{ echo "production-objs: the lock functions' tracking is not behind its static key"; \
		exit 1; })

# BENCH_OFF=1: the same kernel booted with mmio_ordering.strategy=explicit,
# which turns the tracking off (static keys) where it runs without the
# checker; "auto" and "auto-explicit" then time the patched-out hooks
# (none, explicit, auto, auto-explicit, mainline; the arch barrier).
BOFF = $(if $(BENCH_OFF),-off)
BOFF_ARGS = $(if $(BENCH_OFF),mmio_ordering.strategy=explicit mmio_bench.strategies=0x1f \
	mmio_bench.kinds=1)
bench-vm-arch: $(if $(BENCH_SMOKE),kernel,bench-arch-kernel) busybox
	@mkdir -p $(BOUT)
	$(call ext-modules,$(BAOUT),$(BMOD_SRC),$(BOUT)/module-run-$(ARCH),-s)
	$(T)/vm.sh -A $(ARCH) -b $(BUSYBOX) -k $(BAOUT)/$(IMAGE) -g $(BAOUT)/usr/gen_init_cpio \
		-t $(VM_TIMEOUT) -a "$(BENCH_VM_ARGS) $(BOFF_ARGS)" -w $(BOUT)/vm-run-$(ARCH)$(BOFF) \
		-o $(BOUT)/kernel-$(ARCH)$(BOFF).log -s $(BT)/guest.sh $(BOUT)/module-run-$(ARCH)/$(BMOD) \
		>/dev/null || { tail -20 $(BOUT)/kernel-$(ARCH)$(BOFF).log; exit 1; }
$(addprefix bench-vm-,$(BENCH_ARCHS)): bench-vm-%:
	@$(MAKE) --no-print-directory bench-vm-arch ARCH=$* BOUT=$(BOUT) \
		BENCH_REPS=$(BENCH_REPS) BENCH_TARGET_US=$(BENCH_TARGET_US)
# The boot switch, where the tracking runs without the checker (after the
# same kernel's run with the tracking on, which builds it).
BENCH_OFF_ARCHS ?= riscv64 ppc64le
.PHONY: $(addprefix bench-vm-off-,$(BENCH_OFF_ARCHS))
$(addprefix bench-vm-off-,$(BENCH_OFF_ARCHS)): bench-vm-off-%: bench-vm-%
	@$(MAKE) --no-print-directory bench-vm-arch ARCH=$* BOUT=$(BOUT) BENCH_OFF=1 \
		BENCH_REPS=$(BENCH_REPS) BENCH_TARGET_US=$(BENCH_TARGET_US)

# --- userspace build, native ----------------------------------------------
BENCH_USER := $(BOUT)/mmio-ordering-bench
BENCH_USER_SRC := $(BT)/bench.c $(BT)/shim.h $(wildcard $(BT)/include/*/*.h) \
	$(REPO)/include/linux/mmio_ordering.h $(REPO)/include/linux/mmio_ordering_types.h \
	$(BMOD_SRC)/mmio_ordering_bench.h \
	$(TREE)/include/asm-generic/mmiowb.h

$(BENCH_USER): $(BENCH_USER_SRC)
	@mkdir -p $(dir $@)
	gcc -O2 -Wall -Wextra -Wno-unused-parameter -fno-strict-aliasing -pthread \
		-I$(BT)/include -I$(REPO)/include -I$(BMOD_SRC) -I$(BT) \
		-idirafter $(TREE)/include -o $@ $(BT)/bench.c

# The tree's asm-generic/mmiowb.h is part of the build.
$(TREE)/include/asm-generic/mmiowb.h: prepare

bench-user: deps $(BENCH_USER)
	$(BENCH_USER) -t 1 -r $(BENCH_REPS) -u $(BENCH_USER_TARGET_US) > $(BOUT)/user-1.txt
	$(BENCH_USER) -t 2 -r $(BENCH_REPS) -u $(BENCH_USER_TARGET_US) > $(BOUT)/user-2.txt
	@rm -rf $(BOUT)/callgrind && mkdir -p $(BOUT)/callgrind
	valgrind --tool=callgrind --collect-atstart=no \
		--callgrind-out-file=$(BOUT)/callgrind/cg.out \
		$(BENCH_USER) -c $(BENCH_CALLGRIND_OPS) 2> $(BOUT)/callgrind.log

# --- everything, then the report ------------------------------------------
BENCH_SIZES := --vmlinux off=$(BSIZE_OFF)/vmlinux --vmlinux on=$(BKOUT)/vmlinux \
	--vmlinux checker=$(BSIZE_CHK)/vmlinux \
	$(foreach s,off:$(BSIZE_OFF) on:$(BKOUT) checker:$(BSIZE_CHK),--lockobj \
		$(subst :,=,$(s))/kernel/locking/spinlock.o)
bench: bench-user bench-vm-run bench-vm-checker $(if $(BENCH_SMOKE),,bench-sizes) \
		$(addprefix bench-vm-,$(BENCH_ARCHS)) \
		$(if $(BENCH_SMOKE),,$(addprefix bench-vm-off-,$(BENCH_OFF_ARCHS)))
	python3 $(BT)/report.py $(if $(BENCH_SMOKE),--smoke,$(BENCH_SIZES)) \
		--kernel-log $(BOUT)/kernel-x86_64.log \
		--checker-log $(BOUT)/kernel-x86_64-checker.log \
		$(foreach a,$(BENCH_ARCHS),--arch-log $(a)=$(BOUT)/kernel-$(a).log) \
		$(if $(BENCH_SMOKE),,$(foreach a,$(BENCH_OFF_ARCHS),--off-log $(a)=$(BOUT)/kernel-$(a)-off.log)) \
		--user 1=$(BOUT)/user-1.txt --user 2=$(BOUT)/user-2.txt \
		--callgrind '$(BOUT)/callgrind/cg.out.*' \
		--json $(BOUT)/results.json --svg $(BOUT)/chart.svg \
		--md $(BOUT)/results.md

# Smoke run: a few short repetitions into build/bench-smoke/; report.py
# fails when a figure is missing or a barrier count disagrees with the
# core's own counter.
check-bench:
	@$(MAKE) --no-print-directory bench BOUT=$(B)/bench-smoke$(SUFFIX) BENCH_SMOKE=1 \
		BENCH_REPS=3 BENCH_TARGET_US=200 BENCH_USER_TARGET_US=200 \
		BENCH_CALLGRIND_OPS=2000 > $(B)/bench-smoke$(SUFFIX).log 2>&1 || \
		{ tail -40 $(B)/bench-smoke$(SUFFIX).log; exit 1; }
	@grep -E '^(bench|Targets|  auto)' $(B)/bench-smoke$(SUFFIX).log
