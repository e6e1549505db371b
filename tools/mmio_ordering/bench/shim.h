/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace build of the MMIO ordering benchmark: the kernel pieces that
 * module/mmio_ordering_bench.h and <linux/mmio_ordering.h> need, done as
 * the kernel does them on x86-64 (generic C elsewhere).
 */
#ifndef _BENCH_SHIM_H
#define _BENCH_SHIM_H

#include <linux/compiler.h>
#include <linux/types.h>

#define CONFIG_MMIO_ORDERING 1
/*
 * The tracking of asm-generic/mmiowb.h, as a weakly ordered architecture
 * builds it (x86 kernels build it only with the checker); the "arch" kind
 * of barrier is still the host's.
 */
#define CONFIG_MMIOWB 1
#if defined(__x86_64__)
#define CONFIG_ARCH_MMIO_ORDERED_UNLOCK 1
#endif
#include <linux/mmio_ordering.h>

/* Spinlocks: the qspinlock uncontended fast path (cmpxchg, store-release). */
typedef struct {
	union {
		u32 val;
		u8 locked;
	};
} arch_spinlock_t;

typedef struct raw_spinlock {
	arch_spinlock_t raw_lock;
} raw_spinlock_t;

static __always_inline void arch_spin_lock(arch_spinlock_t *lock)
{
	u32 val = 0;

	while (!__atomic_compare_exchange_n(&lock->val, &val, 1, false,
					    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		val = 0;
}

static __always_inline void arch_spin_unlock(arch_spinlock_t *lock)
{
	__atomic_store_n(&lock->locked, 0, __ATOMIC_RELEASE);
}

/* MMIO stores and barriers, as arch/x86/include/asm/io.h builds them. */
#if defined(__x86_64__)
static __always_inline void __arch_writel(u32 val, volatile void *addr)
{
	asm volatile("movl %0,%1" : : "r" (val), "m" (*(volatile u32 *)addr) : "memory");
}

static __always_inline void __raw_writel(u32 val, volatile void *addr)
{
	asm volatile("movl %0,%1" : : "r" (val), "m" (*(volatile u32 *)addr));
}

#define arch_io_to_lock_wb()	barrier()
#define mb()			asm volatile("mfence" : : : "memory")
#else
static __always_inline void __arch_writel(u32 val, volatile void *addr)
{
	__atomic_thread_fence(__ATOMIC_RELEASE);
	*(volatile u32 *)addr = val;
}

static __always_inline void __raw_writel(u32 val, volatile void *addr)
{
	*(volatile u32 *)addr = val;
}

#define arch_io_to_lock_wb()	__atomic_thread_fence(__ATOMIC_RELEASE)
#define mb()			__atomic_thread_fence(__ATOMIC_SEQ_CST)
#endif

static __always_inline void writel(u32 val, volatile void *addr)
{
	__arch_writel(val, addr);
	mmio_ordering_write(addr, MMIO_ORDERING_ORDERED, __func__);
}

static __always_inline void writel_relaxed(u32 val, volatile void *addr)
{
	__raw_writel(val, addr);
	mmio_ordering_write(addr, MMIO_ORDERING_RELAXED, __func__);
}

static __always_inline void io_to_lock_wb(void)
{
	arch_io_to_lock_wb();
	mmio_ordering_flushed();
}

#define bench_plain_writel(v, a)		__arch_writel(v, a)
#define bench_plain_writel_relaxed(v, a)	__raw_writel(v, a)

#endif
