# SPDX-License-Identifier: GPL-2.0
#
# Build and test driver for the MMIO ordering kernel feature.
#
# The feature is an overlay on Debian's linux-source-6.12: new files live in
# this repository at their kernel path, edits to existing files are
# patches/NNNN-*.patch. `make prepare` turns the tarball (or $(KSRC)) into
# build/linux, a git tree tagged "base", with the patches applied and the
# overlay copied in. Kernels are built out of tree (O=build/...) with ccache.
#
# Run `make help` for the targets.

SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c
.DEFAULT_GOAL := help

REPO := $(patsubst %/,%,$(dir $(abspath $(lastword $(MAKEFILE_LIST)))))
T := $(REPO)/tools/mmio_ordering

# Kernel source: the Debian tarball, or a copy of KSRC=/path/to/linux. Each
# source gets its own build directory, so switching never mixes outputs.
KSRC ?=
BUILDDIR ?= $(REPO)/build
ifeq ($(strip $(KSRC)),)
B := $(BUILDDIR)
else
B := $(BUILDDIR)/ksrc-$(notdir $(abspath $(KSRC)))
endif
TREE := $(B)/linux

JOBS ?= $(shell nproc)

# Paths under the repository are hashed relative to it, so that another
# clone (CI) reuses this machine's ccache.
export CCACHE_BASEDIR ?= $(REPO)

# Guest architecture of `make kernel/run/vm`: x86_64, arm64, riscv64 or
# ppc64le.
ARCH ?= x86_64
CROSS_arm64 := aarch64-linux-gnu-
CROSS_riscv := riscv64-linux-gnu-
CROSS_ppc64le := powerpc64le-linux-gnu-
ifeq ($(ARCH),x86_64)
KARCH := x86_64
CROSS :=
IMAGE := arch/x86/boot/bzImage
else ifeq ($(ARCH),arm64)
KARCH := arm64
CROSS := $(CROSS_arm64)
IMAGE := arch/arm64/boot/Image
else ifeq ($(ARCH),riscv64)
KARCH := riscv
CROSS := $(CROSS_riscv)
IMAGE := arch/riscv/boot/Image
else ifeq ($(ARCH),ppc64le)
KARCH := powerpc
CROSS := $(CROSS_ppc64le)
IMAGE := vmlinux
else
$(error ARCH=$(ARCH): expected x86_64, arm64, riscv64 or ppc64le)
endif

# LLVM=1 builds with clang into separate output directories.
LLVM ?=
# $(call kcc,CROSS_COMPILE-prefix): the compiler for the kernel's make;
# $(call kunit_cc,CROSS_COMPILE-prefix) is the same for kunit.py. clang
# takes its target from the kernel's ARCH.
ifeq ($(strip $(LLVM)),)
kcc = CC="ccache $(1)gcc" $(if $(1),CROSS_COMPILE=$(1))
KCC := $(call kcc,)
kunit_cc = --make_options 'CC=ccache $(1)gcc'
SUFFIX :=
else
kcc = LLVM=$(LLVM) CC="ccache clang"
KCC := $(call kcc,)
kunit_cc = --make_options LLVM=$(LLVM) --make_options 'CC=ccache clang'
SUFFIX := -llvm
endif

# Our own command-line variables (M=, SCRIPT=, ...) reach sub-makes through
# MAKEFLAGS; the kernel's make must not see them (M= means something there).
NOMF := env -u MAKEFLAGS -u MFLAGS
KMAKE := $(NOMF) $(MAKE) -C $(TREE) -j$(JOBS) $(call kcc,$(CROSS)) ARCH=$(KARCH)
unexport M SCRIPT ARCH

# Suffix of per-architecture work directories (none for x86_64).
ASUF := $(if $(filter x86_64,$(ARCH)),,-$(ARCH))

# Test kernel: tinyconfig + configs/$(ARCH)-debug.config + the KUnit suite
# (configs/kunit-boot.config) + the real-driver fragment
# configs/$(ARCH)-drivers.config where there is one (x86_64, arm64,
# ppc64le), so that one kernel serves every VM step of the architecture
# (and the out-of-tree modules of `make vm M=...` and `make check-bench`).
KOUT := $(B)/$(ARCH)-debug$(SUFFIX)
KCFG := $(B)/kconfig-$(ARCH)-debug$(SUFFIX)
KFRAGS := $(REPO)/configs/$(ARCH)-debug.config $(REPO)/configs/kunit-boot.config \
	$(wildcard $(REPO)/configs/$(ARCH)-drivers.config)
BZIMAGE := $(KOUT)/$(IMAGE)
GEN_CPIO := $(KOUT)/usr/gen_init_cpio

# The guest's static busybox: the host's (busybox-static) on x86_64, else
# built once from Debian's source package with the cross compiler. It does
# not depend on the kernel, so it lives outside $(B).
ifeq ($(ARCH),x86_64)
BUSYBOX := /bin/busybox
else
BUSYBOX := $(BUILDDIR)/busybox-$(ARCH)/busybox
endif

# QEMU runs: extra kernel command line, extra QEMU arguments, timeout.
KERNEL_ARGS ?=
QEMU_ARGS ?=
VM_TIMEOUT ?= 300
VM = $(T)/vm.sh -A $(ARCH) -k $(BZIMAGE) -g $(GEN_CPIO) -b $(BUSYBOX) \
	-t $(VM_TIMEOUT) -a "$(KERNEL_ARGS)" -q "$(QEMU_ARGS)"

# `make run`: the modules to load (prefixes of modules.order entries) and a
# guest script for the demo, if there is one.
DEMO_MODULES ?= samples/mmio_ordering/
DEMO_SCRIPT ?= $(wildcard $(T)/demo-guest.sh)
RUN_LOG := $(B)/run-$(ARCH)$(SUFFIX).log

# `make vm M=dir [SCRIPT=file]`: M is copied under build/ and built there,
# so the module's own directory stays free of build products.
M ?=
SCRIPT ?=
VM_MOD := $(B)/vm-modules$(ASUF)/$(notdir $(abspath $(M)))
VM_LOG := $(B)/vm-$(ARCH)$(SUFFIX).log

# kunit.py runs in the tree: the suite's .kunitconfig is the config, as
# for `kunit.py run --kunitconfig=kernel/locking/mmio_ordering` by hand.
KUNITCONFIG ?= kernel/locking/mmio_ordering
KUNIT := cd $(TREE) && $(NOMF) ./tools/testing/kunit/kunit.py run \
	--kunitconfig=$(KUNITCONFIG) --jobs=$(JOBS)

# The console log parser: MMIO-ORDERING reports, KTAP results, splats.
MMIOLOG := $(T)/mmiolog.py
# $(call kunit_log,LOG): every test of the KTAP plan ran and passed (or was
# skipped), and nothing but the checker's reports went wrong.
kunit_log = $(MMIOLOG) ktap $(1) && $(MMIOLOG) splats $(1)

# Build products that kbuild leaves in a module directory.
ARTEFACTS := --exclude='*.o' --exclude='*.ko' --exclude='*.mod' \
	--exclude='*.mod.c' --exclude='.*.cmd' --exclude='*.a' \
	--exclude=modules.order --exclude=Module.symvers

# Out-of-tree modules (`make vm M=...`, the benchmark module):
# $(call ext-modules,KERNEL_OUT,DIR,WORK[,MAKE-FLAGS]) copies DIR to WORK
# (build products left alone) and builds its modules there against the
# kernel built in KERNEL_OUT, of ARCH; $(call ext-kos,WORK) lists the .ko
# files built (modules.order lists them as .o files).
ext-modules = mkdir -p $(3) && \
	rsync -rc --delete $(ARTEFACTS) $(abspath $(2))/ $(3)/ && \
	$(KMAKE) $(4) O=$(1) M=$(3) modules
ext-kos = sed 's/\.o$$/.ko/; \|^/|!s|^|$(1)/|' $(1)/modules.order

# Debian 12 packages needed by every target.
DEPS := build-essential bc bison flex libelf-dev libssl-dev perl xz-utils \
	ccache git rsync cpio kmod python3 busybox-static qemu-system-x86 \
	qemu-system-arm qemu-system-misc gcc-aarch64-linux-gnu \
	gcc-riscv64-linux-gnu linux-source-6.12 \
	libc6-dev-arm64-cross libc6-dev-riscv64-cross bzip2 dpkg-dev \
	gcc-powerpc64le-linux-gnu libc6-dev-ppc64el-cross qemu-system-ppc
# make check builds with clang too, and the documentation.
DEPS += clang lld llvm python3-sphinx

.PHONY: help deps prepare busybox kconfig kernel kernel-objs run vm kunit kunit-um kunit-x86_64 \
	kunit-arm64 kunit-riscv64 kunit-vm \
	check size-compare clean

help:
	@echo 'Targets:'
	@echo '  deps          install the Debian packages needed (apt-get)'
	@echo '  prepare       make build/linux: base tree + patches + overlay'
	@echo '  kernel        build the test kernel and the demo module (ARCH=)'
	@echo '  kernel-objs   build only kernel/locking/ of it (a compile test; ARCH=, LLVM=)'
	@echo '  production-objs  the same without the checker, as production builds it (ARCH=)'
	@echo '  run           boot the demo on QEMU edu, check the reports (ARCH=)'
	@echo '  vm M=dir [SCRIPT=file] [QEMU_ARGS=...] [KERNEL_ARGS=...] [ARCH=...]'
	@echo '                build module dir M, boot, load it, run SCRIPT'
	@echo '  drivers       real drivers under QEMU (x86_64: e1000, virtio, nvme, ahci,'
	@echo '                8250; ARCH=arm64: virtio-mmio, pl011, GICv3; ARCH=ppc64le:'
	@echo '                virtio, nvme, e1000 on pseries PCI), reports per driver'
	@echo '                vs tools/mmio_ordering/drivers-expected.txt'
	@echo '  kunit         KUnit with kunit.py: UML and QEMU (kunit-um, kunit-x86_64,'
	@echo '                kunit-arm64, kunit-riscv64)'
	@echo '  kunit-vm      KUnit in the test kernel of ARCH, booted in QEMU'
	@echo '  check         every test step; ends with "check: N passed, M failed"'
	@echo '                (steps: $(CHECK_STEPS))'
	@echo '  size-compare  vmlinux size, base tree vs patched, feature off'
	@echo '  bench         benchmarks: table, build/bench/results.json, chart.svg'
	@echo '  clean         remove build outputs (keeps build/linux)'
	@printf '%s\n' $(HELP_EXTRA)
	@echo 'Variables: ARCH=x86_64|arm64|riscv64|ppc64le (kernel, run, vm)'
	@echo '           KSRC=/path/to/linux'
	@echo '           LLVM=1  JOBS=n  BUILDDIR=dir  FORCE=1'

deps:
	@missing=; \
	for p in $(DEPS); do \
		dpkg-query -W -f='$${db:Status-Status}\n' $$p 2>/dev/null | \
			grep -qx installed || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "deps: installing$$missing"; \
		sudo=; [ "$$(id -u)" -eq 0 ] || sudo=sudo; \
		$$sudo apt-get update -q && \
		$$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
			--no-install-recommends $$missing; \
	fi

prepare: deps
	@$(T)/prepare-tree.sh $(REPO) $(B) $(if $(strip $(KSRC)),$(abspath $(KSRC)))

# The config is made from scratch each time in a side directory (cheap) and
# copied only when it differs: new Kconfig symbols from the overlay are then
# picked up without ever touching an up-to-date build.
kconfig: prepare
	@mkdir -p $(KCFG) $(KOUT)
	@$(KMAKE) -s O=$(KCFG) tinyconfig >/dev/null
	@$(TREE)/scripts/kconfig/merge_config.sh -m -O $(KCFG) $(KCFG)/.config \
		$(KFRAGS) >/dev/null
	@$(KMAKE) -s O=$(KCFG) olddefconfig
	@for f in $(KFRAGS); do $(T)/config-check.sh $$f $(KCFG)/.config || exit 1; done
	@cmp -s $(KCFG)/.config $(KOUT)/.config || cp $(KCFG)/.config $(KOUT)/.config

# A kernel built from the same tree (tree.manifest hashes every file the
# patches and the overlay wrote), fragments and compiler is up to date:
# skipping kbuild's pass over the tree and the config generation saves
# half a minute per VM step, and `make check` has some thirty.
KSTAMP := $(KOUT)/.mmio-ordering-built
kernel: prepare
	@id="$$(cat $(B)/tree.manifest $(KFRAGS) | md5sum | cut -c1-32) $(KARCH)$(SUFFIX)"; \
	if [ -f $(BZIMAGE) ] && [ "$$(cat $(KSTAMP) 2>/dev/null)" = "$$id" ]; then \
		echo "kernel: $(BZIMAGE) is up to date"; \
	else \
		rm -f $(KSTAMP) && \
		$(MAKE) --no-print-directory kconfig && \
		$(KMAKE) O=$(KOUT) $(notdir $(IMAGE)) modules && \
		echo "$$id" > $(KSTAMP); \
	fi

# Only kernel/locking/ of the test kernel: spin_lock(), the core, the
# checker, the KUnit suite, the test module, with every inline hook and
# accessor they use. A compile test for a compiler that `make check` does
# not boot, failing on any warning there.
KOBJS_LOG := $(B)/kernel-objs-$(ARCH)$(SUFFIX).log
kernel-objs: kconfig
	@$(KMAKE) O=$(KOUT) kernel/locking/ 2>&1 | tee $(KOBJS_LOG)
	@! grep -E 'warning:|error:' $(KOBJS_LOG)

# Nothing to do on x86_64 (busybox-static is a dependency).
busybox: deps
ifneq ($(ARCH),x86_64)
	@JOBS=$(JOBS) $(T)/busybox.sh $(CROSS) $(dir $(BUSYBOX))
endif

# modules.order lists the kernel's modules as .o files.
run: kernel busybox
	@kos=$$(for m in $(DEMO_MODULES); do grep "^$$m" $(KOUT)/modules.order; done | \
		sed 's/\.o$$/.ko/; s|^|$(KOUT)/|'); \
	$(VM) -o $(RUN_LOG) -w $(B)/run-vm$(ASUF) $(if $(DEMO_SCRIPT),-s $(DEMO_SCRIPT)) \
		$$kos; vm=$$?; \
	$(T)/check-demo.sh $(RUN_LOG) && [ $$vm -eq 0 ]

vm: kernel busybox
	@kos=; \
	if [ -n "$(M)" ]; then \
		[ -d "$(M)" ] || { echo "vm: no directory $(M)"; exit 1; }; \
		$(call ext-modules,$(KOUT),$(M),$(VM_MOD)) || exit 1; \
		kos=$$($(call ext-kos,$(VM_MOD))); \
	fi; \
	$(VM) -o $(VM_LOG) -w $(B)/vm$(ASUF) $(if $(SCRIPT),-s $(abspath $(SCRIPT))) $$kos

kunit: kunit-um kunit-x86_64 kunit-arm64 kunit-riscv64

# KUnit in the test kernel of ARCH, which has the suite built in: it runs at
# boot with kunit.enable=1, and mmiolog.py checks the KTAP on the console.
# `make check` uses this rather than kunit.py's own kernels, so that one
# kernel per architecture serves every step.
KUNIT_VM_LOG := $(B)/kunit-vm-$(ARCH)$(SUFFIX).log
kunit-vm: KERNEL_ARGS += kunit.enable=1
kunit-vm: VM_TIMEOUT = 900
kunit-vm: kernel busybox
	@echo "kunit-vm: booting $(BZIMAGE)"
	@$(VM) -o $(KUNIT_VM_LOG) -w $(B)/kunit-vm-$(ARCH)$(SUFFIX) >/dev/null; vm=$$?; \
	$(call kunit_log,$(KUNIT_VM_LOG)) && [ $$vm -eq 0 ] || \
		{ echo "kunit-vm: FAIL (console: $(KUNIT_VM_LOG))"; exit 1; }

# UML runs the suite with lockdep too: the checker must not upset it.
# kunit.py enables UML's PCI over virtio (the tests' fake device is then a
# logic_iomem region); without a device ID its driver WARNs at boot.
kunit-um: prepare
	$(KUNIT) --arch=um $(call kunit_cc) --build_dir=$(B)/kunit-um$(SUFFIX) \
		--kconfig_add CONFIG_PROVE_LOCKING=y \
		--kconfig_add CONFIG_UML_PCI_OVER_VIRTIO_DEVICE_ID=1234 \
		--kconfig_add CONFIG_DEBUG_MMIO_ORDERING_RAW=y \
		| tee $(B)/kunit-um$(SUFFIX).log
	@$(call kunit_log,$(B)/kunit-um$(SUFFIX)/test.log)

# QEMU runs: 2 vCPUs, SMP on (x86_64 defaults to SMP=n), so the tests see
# real per-CPU state and real barriers. arm64 and riscv64 are cross-built.
KUNIT_QEMU := --kconfig_add CONFIG_SMP=y --qemu_args='-smp 2' --timeout=1500
# QEMU's virt machine defaults to GICv2, whose IPIs are MMIO stores.
# UML and arm64 also check class-3 stores (their writeX() are built on
# __raw_writeX(), so this also covers a store reported twice).
KUNIT_QEMU_arm64 := --qemu_args='-machine gic-version=3' \
	--kconfig_add CONFIG_DEBUG_MMIO_ORDERING_RAW=y

kunit-x86_64: prepare
	$(KUNIT) --arch=x86_64 $(call kunit_cc) --build_dir=$(B)/kunit-x86_64$(SUFFIX) $(KUNIT_QEMU) \
		| tee $(B)/kunit-x86_64$(SUFFIX).log
	@$(call kunit_log,$(B)/kunit-x86_64$(SUFFIX)/test.log)

kunit-arm64: prepare
	$(KUNIT) --arch=arm64 --cross_compile=$(CROSS_arm64) $(call kunit_cc,$(CROSS_arm64)) \
		--build_dir=$(B)/kunit-arm64$(SUFFIX) $(KUNIT_QEMU) $(KUNIT_QEMU_arm64) \
		| tee $(B)/kunit-arm64$(SUFFIX).log
	@$(call kunit_log,$(B)/kunit-arm64$(SUFFIX)/test.log)

kunit-riscv64: prepare
	$(KUNIT) --arch=riscv --cross_compile=$(CROSS_riscv) $(call kunit_cc,$(CROSS_riscv)) \
		--build_dir=$(B)/kunit-riscv64$(SUFFIX) $(KUNIT_QEMU) \
		| tee $(B)/kunit-riscv64$(SUFFIX).log
	@$(call kunit_log,$(B)/kunit-riscv64$(SUFFIX)/test.log)

# --- check: every test step, counted --------------------------------------
# Add a step by adding a check-<name> target and appending it here.
# One test kernel per architecture (`make kernel`) serves every step of it,
# so that a cold run builds five kernels, UML (kunit.py), x86_64, arm64,
# riscv64 (PREEMPT_RT) and ppc64le, with GCC; check-clang compiles the
# feature with clang.
CHECK_STEPS := check-kunit-um check-kunit-x86_64 check-kunit-arm64 \
	check-kunit-riscv64 check-kunit-ppc64le check-clang check-barriers \
	check-docs check-demo \
	check-vm-example check-bad-input check-locktorture check-bench \
	check-run-arm64 check-run-riscv64 check-run-ppc64le

.PHONY: $(CHECK_STEPS)
check-kunit-um: kunit-um
check-kunit-x86_64: kunit-vm
check-kunit-arm64 check-kunit-riscv64 check-kunit-ppc64le: check-kunit-%:
	@$(MAKE) --no-print-directory kunit-vm ARCH=$*
# clang: kernel/locking/ of the x86_64, arm64 and ppc64le test kernels
# (whole clang kernels take three times as long to build as with GCC).
CHECK_CLANG_ARCHS := x86_64 arm64 ppc64le
check-clang:
	@for a in $(CHECK_CLANG_ARCHS); do \
		echo "check-clang: $$a"; \
		$(MAKE) --no-print-directory -s kernel-objs ARCH=$$a LLVM=1 || exit 1; \
	done

# The documentation: kernel-doc of every file of the feature (and of the
# barriers in asm-generic/io.h) without a warning, every exported function
# documented, and the user guide built by Sphinx (dev-tools only) without a
# warning about it. The guide is the kernel's: it must not name a target of
# this repository (those are in docs/). Relative links of README.md and
# docs/*.md must lead to a file.
DOC_SRCS := include/linux/mmio_ordering.h $(patsubst $(REPO)/%,%,$(wildcard \
	$(REPO)/kernel/locking/mmio_ordering/*.[ch]))
GUIDE := Documentation/dev-tools/mmio-ordering.rst
REPO_TARGETS := check|drivers|kselftest|run|vm|bench|kunit|series|size-compare|kernel-objs|production-objs
check-docs: prepare
	@! grep -nwE 'make ($(REPO_TARGETS))' $(REPO)/$(GUIDE) || \
		{ echo "docs: $(GUIDE) names a target of this repository (docs/harness.md)"; exit 1; }
	@cd $(REPO) && bad=0; for f in README.md docs/*.md; do \
		for l in $$(grep -oE '\]\([^)#]+' $$f | cut -c3-); do \
			case $$l in *://*|mailto:*) continue ;; esac; \
			[ -e "$$(dirname $$f)/$$l" ] || { echo "docs: $$f: no file $$l"; bad=1; }; \
		done; \
	done; [ $$bad -eq 0 ]
	@cd $(TREE) && out=$$(scripts/kernel-doc -none -Wall $(DOC_SRCS) 2>&1; \
		scripts/kernel-doc -none -Wall -function io_to_io_barrier \
			-function memory_to_io_wb -function io_to_memory_rb \
			-function io_to_lock_wb include/asm-generic/io.h 2>&1); \
		[ -z "$$out" ] || { echo "$$out"; exit 1; }
	@$(T)/check-exports.sh $(TREE) $(DOC_SRCS)
	@$(NOMF) $(MAKE) -s -C $(TREE) O=$(B)/docs SPHINXDIRS=dev-tools htmldocs \
		> $(B)/docs.log 2>&1 || { tail -20 $(B)/docs.log; exit 1; }
	@! grep -E 'mmio-ordering|mmio_ordering|asm-generic/io.h' $(B)/docs.log
	@echo "docs: $(B)/docs/Documentation/output/dev-tools/mmio-ordering.html"

# What each barrier compiles to, in the KUnit objects of the test kernels
# (GCC) and of check-clang.
KUNIT_TEST_OBJ = kernel/locking/mmio_ordering/mmio_ordering_test.o
OBJDUMP_x86_64 := objdump
OBJDUMP_arm64 := $(CROSS_arm64)objdump
OBJDUMP_riscv64 := $(CROSS_riscv)objdump
OBJDUMP_ppc64le := $(CROSS_ppc64le)objdump
check-barriers:
	@$(T)/check-barriers.py \
		$(foreach a,x86_64 arm64 riscv64 ppc64le,$(a) $(OBJDUMP_$(a)) $(B)/$(a)-debug/$(KUNIT_TEST_OBJ)) \
		$(foreach a,$(CHECK_CLANG_ARCHS),$(a) $(OBJDUMP_$(a)) \
			$(B)/$(a)-debug-llvm/$(KUNIT_TEST_OBJ))
check-demo: run
check-vm-example:
	@$(MAKE) --no-print-directory vm M=$(T)/example-module \
		SCRIPT=$(T)/example-module/test.sh

# locktorture (torture.ko, locktorture.ko) with the checker and lockdep on:
# the guest checks the runs and the checker's counters, the host that the
# console shows no report and no splat.
LOCKTORTURE_LOG := $(B)/locktorture-x86_64$(SUFFIX).log
check-locktorture: kernel
	@$(VM) -o $(LOCKTORTURE_LOG) -w $(B)/locktorture-vm \
		-s $(T)/locktorture.sh $(KOUT)/kernel/torture.ko \
		$(KOUT)/kernel/locking/locktorture.ko; vm=$$?; \
	$(MMIOLOG) reports --expect 0 $(LOCKTORTURE_LOG) && \
	$(MMIOLOG) splats $(LOCKTORTURE_LOG) && [ $$vm -eq 0 ]

# The demo and the example module on arm64, riscv64 and ppc64le
# (cross-built).
check-run-arm64 check-run-riscv64 check-run-ppc64le: check-run-%:
	@$(MAKE) --no-print-directory run ARCH=$*
	@$(MAKE) --no-print-directory vm ARCH=$* M=$(T)/example-module \
		SCRIPT=$(T)/example-module/test.sh

# The config fragment CI farms merge, as `make defconfig mmio_ordering.config`
# does: the checker must end up enabled.
CHECK_STEPS += check-config-fragment
check-config-fragment: prepare
	@out=$(B)/config-fragment-x86_64; mkdir -p $$out && \
	$(NOMF) $(MAKE) -s -C $(TREE) O=$$out ARCH=x86_64 $(KCC) defconfig mmio_ordering.config \
		>$$out.log 2>&1 || { tail -5 $$out.log; exit 1; }; \
	for c in CONFIG_DEBUG_MMIO_ORDERING=y CONFIG_MMIO_ORDERING=y CONFIG_DEBUG_FS=y; do \
		grep -qx $$c $$out/.config || { echo "config-fragment: $$c missing"; exit 1; }; \
	done; echo "config-fragment: make defconfig mmio_ordering.config enables the checker"

# The feature without the checker, as production kernels have it: x86_64
# tracks nothing then, riscv64 and ppc64le run the barrier inline in the
# lock functions (tools/mmio_ordering/bench/bench.mk: production-objs).
CHECK_STEPS += check-production
check-production:
	@for a in x86_64 riscv64 ppc64le; do \
		echo "check-production: $$a"; \
		$(MAKE) --no-print-directory production-objs ARCH=$$a || exit 1; \
	done

# Boot with bad values for both parameters, then feed bad input to every
# debugfs and sysfs file of the feature. The guest prints KTAP.
check-bad-input:
	@$(MAKE) --no-print-directory vm SCRIPT=$(T)/bad-input.sh \
		KERNEL_ARGS="mmio_ordering.strategy=bogus mmio_ordering.mode=$$(printf '%0300d' 0)"; \
	vm=$$?; $(MMIOLOG) ktap --no-skip $(VM_LOG) && $(MMIOLOG) splats $(VM_LOG) && \
		[ $$vm -eq 0 ]

check:
	@$(MAKE) --no-print-directory prepare || \
		{ echo 'check: prepare failed'; echo 'check: 0 passed, 1 failed'; exit 1; }
	@pass=0; fail=0; failed=; \
	for t in $(CHECK_STEPS); do \
		echo "=== $$t"; start=$$(date +%s); \
		if $(MAKE) --no-print-directory $$t; then \
			pass=$$((pass + 1)); r=ok; \
		else \
			fail=$$((fail + 1)); failed="$$failed $$t"; r=FAILED; \
		fi; \
		echo "=== $$t: $$r ($$(( $$(date +%s) - start ))s)"; \
	done; \
	[ -z "$$failed" ] || echo "check: failed:$$failed"; \
	echo "check: $$pass passed, $$fail failed"; \
	[ $$fail -eq 0 ]

# --- bench: the benchmarks (tools/mmio_ordering/bench/bench.mk) ----------
include $(T)/bench/bench.mk

# --- size-compare: feature compiled out, pristine base vs patched tree ----
SIZE_CONFIG := $(REPO)/configs/size-off.config
size-compare: prepare
	@[ -d $(B)/base-tree ] || git -C $(TREE) worktree add -q --detach $(B)/base-tree base
	@for t in base patched; do \
		if [ $$t = base ]; then src=$(B)/base-tree; else src=$(TREE); fi; \
		out=$(B)/size-$$t$(SUFFIX); mkdir -p $$out; \
		$(NOMF) $(MAKE) -s -C $$src -j$(JOBS) $(KCC) O=$$out ARCH=x86_64 tinyconfig >/dev/null && \
		$$src/scripts/kconfig/merge_config.sh -m -O $$out $$out/.config $(SIZE_CONFIG) >/dev/null && \
		$(NOMF) $(MAKE) -s -C $$src -j$(JOBS) $(KCC) O=$$out ARCH=x86_64 olddefconfig && \
		echo "size-compare: building $$t" && \
		$(NOMF) $(MAKE) -s -C $$src -j$(JOBS) $(KCC) O=$$out ARCH=x86_64 vmlinux || exit 1; \
	done
	@echo "size-compare: x86_64 tinyconfig, MMIO ordering options off"
	@size $(B)/size-base$(SUFFIX)/vmlinux $(B)/size-patched$(SUFFIX)/vmlinux

# Everything under $(B) except the kernel tree and its stamps, and the
# guests' busybox (built once from source).
clean:
	@[ ! -d $(B) ] || find $(B) -mindepth 1 -maxdepth 1 ! -name linux \
		! -name patches.stamp ! -name patches.files ! -name overlay.files \
		! -name tree.manifest ! -name 'busybox-*' \
		! -name 'ksrc-*' -exec rm -rf {} +
	@[ ! -d $(TREE)/.git ] || git -C $(TREE) worktree prune

# --- drivers: real drivers on QEMU's devices, checker on -----------------
# The test kernel of ARCH=x86_64, arm64 or ppc64le (with its
# configs/$(ARCH)-drivers.config fragment), one VM run per entry of
# DRIVERS_RUNS ("name" or "name:kernel,args"; commas become blanks; runs
# of other architectures than x86_64 are named "ARCH-..."), and a table of
# the reports per driver checked against
# tools/mmio_ordering/drivers-expected.txt.
DRV_RUN := $(if $(filter x86_64,$(ARCH)),,$(ARCH)-)
DRIVERS_RUNS ?= $(DRV_RUN)auto $(DRV_RUN)explicit:mmio_ordering.strategy=explicit \
	$(DRV_RUN)arch:mmio_ordering.strategy=explicit,mmio_ordering.mode=arch
DRIVERS_EXPECTED ?= $(T)/drivers-expected.txt

.PHONY: drivers check-drivers check-drivers-arm64 check-drivers-ppc64le

drivers: kernel busybox
	@$(T)/drivers-run.sh -A $(ARCH) -B $(BUSYBOX) -k $(BZIMAGE) -g $(GEN_CPIO) \
		-b $(KOUT) -w $(B)/drivers$(ASUF) -e $(DRIVERS_EXPECTED) \
		-t $(VM_TIMEOUT) $(DRIVERS_RUNS)

# `make check` steps.
CHECK_STEPS += check-drivers check-drivers-arm64 check-drivers-ppc64le
check-drivers-arm64 check-drivers-ppc64le: check-drivers-%:
	@$(MAKE) --no-print-directory drivers ARCH=$*
check-drivers: drivers

# --- kselftest: tools/testing/selftests/mmio_ordering/ in the guest ------
# The x86_64 test kernel builds the test module (CONFIG_TEST_MMIO_ORDERING=m,
# in modules.order). vm.sh puts the selftest and the KTAP helpers at their
# installed kselftest paths and the module where kselftest-guest.sh tells
# the selftest to insmod it from. Passes only if every test of the KTAP
# plan the guest printed ran and passed, none skipped, and the totals agree.
KSELFTEST := tools/testing/selftests
KSELFTEST_MOD := kernel/locking/mmio_ordering/test_mmio_ordering
KSELFTEST_LOG := $(B)/kselftest-$(ARCH)$(SUFFIX).log

HELP_EXTRA += \
	'  kselftest     tools/testing/selftests/mmio_ordering in the x86_64 VM (KTAP)'

.PHONY: kselftest check-kselftest

kselftest: kernel busybox
	@rm -f $(KSELFTEST_LOG)
	@grep -qx '$(KSELFTEST_MOD).o' $(KOUT)/modules.order || \
		{ echo "kselftest: $(KSELFTEST_MOD).o is not in $(KOUT)/modules.order" \
		       "(CONFIG_TEST_MMIO_ORDERING=m is in configs/x86_64-debug.config)"; exit 1; }
	@$(VM) -o $(KSELFTEST_LOG) -w $(B)/kselftest-vm$(ASUF) -s $(T)/kselftest-guest.sh \
		-f $(TREE)/$(KSELFTEST)/mmio_ordering/mmio_ordering.sh:/kselftest/mmio_ordering/mmio_ordering.sh \
		-f $(TREE)/$(KSELFTEST)/kselftest/ktap_helpers.sh:/kselftest/kselftest/ktap_helpers.sh \
		-f $(KOUT)/$(KSELFTEST_MOD).ko:/lib/modules/kselftest/test_mmio_ordering.ko; \
	vm=$$?; \
	$(MMIOLOG) ktap --no-skip $(KSELFTEST_LOG) && $(MMIOLOG) splats $(KSELFTEST_LOG) && \
		[ $$vm -eq 0 ]

# A `make check` step.
CHECK_STEPS += check-kselftest
check-kselftest: kselftest

# --- series: the feature as a git format-patch series --------------------
# tools/mmio_ordering/series.sh, split as tools/mmio_ordering/series/
# series.conf says. It needs the base tree's tag "base", not the patched
# files, so it runs `prepare` only when there is no tree yet.
SERIES := $(T)/series.sh -o $(B)/series -w $(B) -O $(B)/series-build$(SUFFIX) \
	-j $(JOBS) $(REPO) $(TREE)
# scripts/checkpatch.pl runs scripts/spdxcheck.py.
DEPS += python3-ply python3-git
HELP_EXTRA += \
	'  series        the feature as a patch series: build/series/*.patch, cover letter' \
	'  check-series  series, then git am onto base and checkpatch --strict each patch' \
	'  series-check  check-series, building x86_64 after every patch'

.PHONY: series check-series series-check series-base

series-base:
	@git -C $(TREE) rev-parse -q --verify refs/tags/base >/dev/null 2>&1 || \
		$(MAKE) --no-print-directory prepare

series: series-base
	@$(SERIES) generate

# A `make check` step: under a minute, no kernel build.
CHECK_STEPS += check-series
check-series: series-base
	@$(SERIES) check

series-check: series-base
	@$(SERIES) build -- $(KCC)

# --- tools: the host-side tools themselves, no kernel needed --------------
# mmiolog.py against the sample logs of tools/mmio_ordering/testdata/, and
# the shell scripts' command lines (tools/mmio_ordering/lib.sh).
HELP_EXTRA += \
	'  check-tools   unit tests of the log parser and the scripts (seconds)'

.PHONY: check-tools
CHECK_STEPS += check-tools
check-tools:
	@PYTHONDONTWRITEBYTECODE=1 python3 -m unittest discover -s $(T) -p 'test_*.py'
