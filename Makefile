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

# LLVM=1 builds with clang into separate output directories.
LLVM ?=
ifeq ($(strip $(LLVM)),)
KCC := CC="ccache gcc"
KUNIT_CC := --make_options 'CC=ccache gcc'
SUFFIX :=
else
KCC := LLVM=$(LLVM) CC="ccache clang"
KUNIT_CC := --make_options LLVM=$(LLVM) --make_options 'CC=ccache clang'
SUFFIX := -llvm
endif

# Our own command-line variables (M=, SCRIPT=, ...) reach sub-makes through
# MAKEFLAGS; the kernel's make must not see them (M= means something there).
NOMF := env -u MAKEFLAGS -u MFLAGS
KMAKE := $(NOMF) $(MAKE) -C $(TREE) -j$(JOBS) $(KCC)
unexport M SCRIPT

# x86_64 test kernel: tinyconfig + configs/x86_64-debug.config.
KOUT := $(B)/x86_64-debug$(SUFFIX)
KCFG := $(B)/kconfig-x86_64-debug$(SUFFIX)
BZIMAGE := $(KOUT)/arch/x86/boot/bzImage
GEN_CPIO := $(KOUT)/usr/gen_init_cpio

# QEMU runs: extra kernel command line, extra QEMU arguments, timeout.
KERNEL_ARGS ?=
QEMU_ARGS ?=
VM_TIMEOUT ?= 300
VM = $(T)/vm.sh -k $(BZIMAGE) -g $(GEN_CPIO) -t $(VM_TIMEOUT) \
	-a "$(KERNEL_ARGS)" -q "$(QEMU_ARGS)"

# `make run`: the modules to load (prefixes of modules.order entries) and a
# guest script for the demo, if there is one.
DEMO_MODULES ?= samples/mmio_ordering/
DEMO_SCRIPT ?= $(wildcard $(T)/demo-guest.sh)
RUN_LOG := $(B)/run-x86_64$(SUFFIX).log

# `make vm M=dir [SCRIPT=file]`: M is copied under build/ and built there,
# so the module's own directory stays free of build products.
M ?=
SCRIPT ?=
VM_MOD := $(B)/vm-modules/$(notdir $(abspath $(M)))
VM_LOG := $(B)/vm-x86_64$(SUFFIX).log

KUNITCONFIG ?= $(REPO)/configs/kunit.config
KUNIT := cd $(TREE) && $(NOMF) ./tools/testing/kunit/kunit.py run \
	--kunitconfig=$(abspath $(KUNITCONFIG)) --jobs=$(JOBS) $(KUNIT_CC)

# Build products that kbuild leaves in a module directory.
ARTEFACTS := --exclude='*.o' --exclude='*.ko' --exclude='*.mod' \
	--exclude='*.mod.c' --exclude='.*.cmd' --exclude='*.a' \
	--exclude=modules.order --exclude=Module.symvers

# Debian 12 packages needed by every target.
DEPS := build-essential bc bison flex libelf-dev libssl-dev perl xz-utils \
	ccache git rsync cpio kmod python3 busybox-static qemu-system-x86 \
	linux-source-6.12
ifneq ($(strip $(LLVM)),)
DEPS += clang lld llvm
endif

.PHONY: help deps prepare kernel run vm kunit kunit-um kunit-x86_64 \
	check size-compare clean

help:
	@echo 'Targets:'
	@echo '  deps          install the Debian packages needed (apt-get)'
	@echo '  prepare       make build/linux: base tree + patches + overlay'
	@echo '  kernel        build the x86_64 test kernel and the demo module'
	@echo '  run           boot the demo on QEMU edu, check the reports'
	@echo '  vm M=dir [SCRIPT=file] [QEMU_ARGS=...] [KERNEL_ARGS=...]'
	@echo '                build module dir M, boot, load it, run SCRIPT'
	@echo '  kunit         KUnit on UML and on x86_64 QEMU (kunit-um, kunit-x86_64)'
	@echo '  check         every test step; ends with "check: N passed, M failed"'
	@echo '                (steps: $(CHECK_STEPS))'
	@echo '  size-compare  vmlinux size, base tree vs patched, feature off'
	@echo '  clean         remove build outputs (keeps build/linux)'
	@echo 'Variables: KSRC=/path/to/linux  LLVM=1  JOBS=n  BUILDDIR=dir  FORCE=1'

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
kernel: prepare
	@mkdir -p $(KCFG) $(KOUT)
	@$(KMAKE) -s O=$(KCFG) ARCH=x86_64 tinyconfig >/dev/null
	@$(TREE)/scripts/kconfig/merge_config.sh -m -O $(KCFG) $(KCFG)/.config \
		$(REPO)/configs/x86_64-debug.config >/dev/null
	@$(KMAKE) -s O=$(KCFG) ARCH=x86_64 olddefconfig
	@$(T)/config-check.sh $(REPO)/configs/x86_64-debug.config $(KCFG)/.config
	@cmp -s $(KCFG)/.config $(KOUT)/.config || cp $(KCFG)/.config $(KOUT)/.config
	$(KMAKE) O=$(KOUT) ARCH=x86_64 bzImage modules

# modules.order lists the kernel's modules as .o files.
run: kernel
	@kos=$$(for m in $(DEMO_MODULES); do grep "^$$m" $(KOUT)/modules.order; done | \
		sed 's/\.o$$/.ko/; s|^|$(KOUT)/|'); \
	$(VM) -o $(RUN_LOG) -w $(B)/run-vm $(if $(DEMO_SCRIPT),-s $(DEMO_SCRIPT)) \
		$$kos; vm=$$?; \
	$(T)/check-demo.sh $(RUN_LOG) && [ $$vm -eq 0 ]

vm: kernel
	@kos=; \
	if [ -n "$(M)" ]; then \
		[ -d "$(M)" ] || { echo "vm: no directory $(M)"; exit 1; }; \
		mkdir -p $(VM_MOD); \
		rsync -rc --delete $(ARTEFACTS) $(abspath $(M))/ $(VM_MOD)/ && \
		$(KMAKE) O=$(KOUT) ARCH=x86_64 M=$(VM_MOD) modules || exit 1; \
		kos=$$(sed 's/\.o$$/.ko/; \|^/|!s|^|$(VM_MOD)/|' $(VM_MOD)/modules.order); \
	fi; \
	$(VM) -o $(VM_LOG) -w $(B)/vm $(if $(SCRIPT),-s $(abspath $(SCRIPT))) $$kos

kunit: kunit-um kunit-x86_64

kunit-um: prepare
	$(KUNIT) --arch=um --build_dir=$(B)/kunit-um$(SUFFIX) \
		| tee $(B)/kunit-um$(SUFFIX).log

# x86_64 defaults to SMP=n; the tests want real per-CPU state on 2 CPUs.
kunit-x86_64: prepare
	$(KUNIT) --arch=x86_64 --build_dir=$(B)/kunit-x86_64$(SUFFIX) \
		--kconfig_add CONFIG_SMP=y --qemu_args='-smp 2' \
		| tee $(B)/kunit-x86_64$(SUFFIX).log

# --- check: every test step, counted --------------------------------------
# Add a step by adding a check-<name> target and appending it here.
CHECK_STEPS := check-kunit-um check-kunit-x86_64 check-demo check-vm-example

.PHONY: $(CHECK_STEPS)
check-kunit-um: kunit-um
check-kunit-x86_64: kunit-x86_64
check-demo: run
check-vm-example:
	@$(MAKE) --no-print-directory vm M=$(T)/example-module \
		SCRIPT=$(T)/example-module/test.sh

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

# Everything under $(B) except the kernel tree and its stamps.
clean:
	@[ ! -d $(B) ] || find $(B) -mindepth 1 -maxdepth 1 ! -name linux \
		! -name patches.stamp ! -name patches.files ! -name overlay.files \
		! -name tree.manifest \
		! -name 'ksrc-*' -exec rm -rf {} +
	@[ ! -d $(TREE)/.git ] || git -C $(TREE) worktree prune
