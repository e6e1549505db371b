/* SPDX-License-Identifier: GPL-2.0 */
/* Userspace shim for <linux/mmio_ordering.h>: what it takes from compiler.h. */
#ifndef _BENCH_SHIM_LINUX_COMPILER_H
#define _BENCH_SHIM_LINUX_COMPILER_H

#undef __always_inline
#define __always_inline	inline __attribute__((__always_inline__))
#define noinline	__attribute__((__noinline__))
#define __flatten	__attribute__((flatten))
#define __maybe_unused	__attribute__((__unused__))
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define barrier()	__asm__ __volatile__("" : : : "memory")
#define __iomem
#define __force
#define READ_ONCE(x)	(*(const volatile __typeof__(x) *)&(x))

/* IS_ENABLED() of <linux/kconfig.h>, for the options the shim defines. */
#define __ARG_PLACEHOLDER_1 0,
#define __take_second_arg(__ignored, val, ...) val
#define ____is_defined(arg1_or_junk)	__take_second_arg(arg1_or_junk 1, 0)
#define ___is_defined(val)		____is_defined(__ARG_PLACEHOLDER_##val)
#define IS_ENABLED(option)		___is_defined(option)

#endif
