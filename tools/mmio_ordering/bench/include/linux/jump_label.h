/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim: a static key that stays on, compiled as a kernel compiles
 * an enabled static_branch_likely() on x86-64, a 5-byte NOP before the
 * likely code (a plain "true" elsewhere).
 */
#ifndef _BENCH_LINUX_JUMP_LABEL_H
#define _BENCH_LINUX_JUMP_LABEL_H

#include <linux/compiler.h>

struct static_key_true { int unused; };

#define DECLARE_STATIC_KEY_TRUE(name)	extern struct static_key_true name

static __always_inline bool bench_static_branch_on(void)
{
#if defined(__x86_64__)
	asm goto(".byte 0x0f, 0x1f, 0x44, 0x00, 0x00" : : : : off);
	return true;
off:
	return false;
#else
	return true;
#endif
}

#define static_branch_likely(key)	bench_static_branch_on()

#endif /* _BENCH_LINUX_JUMP_LABEL_H */
