/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim for <linux/mmio_ordering.h>: what it takes from compiler.h. */
#ifndef _BENCH_SHIM_LINUX_COMPILER_H
#define _BENCH_SHIM_LINUX_COMPILER_H

#undef __always_inline
#define __always_inline	inline __attribute__((__always_inline__))
#define noinline	__attribute__((__noinline__))
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define barrier()	__asm__ __volatile__("" : : : "memory")
#define __iomem
#define __force

#endif
