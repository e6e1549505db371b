/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: the kernel tree's asm-generic/mmiowb.h itself, over the
 * per-CPU shim of asm/percpu.h (the build adds the tree's include/ last).
 */
#include <asm-generic/mmiowb.h>
