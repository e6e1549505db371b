/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MMIO ordering: accessor classes, the MMIO-to-unlock barrier, per-CPU
 * tracking of MMIO stores issued under spinlocks, and the hooks that feed
 * CONFIG_DEBUG_MMIO_ORDERING. For more info please see
 * Documentation/dev-tools/mmio-ordering.rst.
 *
 * Accessor classes:
 *  1. ordered: writeX(), iowriteN(), memcpy_toio(), memset_io(), outX().
 *     Under the "auto" strategy the spin_unlock() that follows them in the
 *     same critical section orders them before the unlock (rule #4).
 *  2. relaxed: __writeX(), writeX_relaxed(), __iowriteN(), __iowriteNbe(),
 *     __memcpy_toio(), __iowrite{32,64}_copy(), and writesX(), outsX() (as
 *     memory-barriers.txt has them; riscv's writesX() are class 1). Ordered
 *     against each other only; io_to_lock_wb() is needed before
 *     spin_unlock().
 *  3. raw: __raw_writeX(). No ordering at all; tracked only with
 *     CONFIG_DEBUG_MMIO_ORDERING_RAW.
 *
 * Loads are not tracked. A read-back (readl() after the store) makes the
 * device see the store, but orders neither before the unlock's store on
 * riscv, whose readl() ends in "fence i,ir": it is no substitute for
 * io_to_lock_wb().
 */

#ifndef _LINUX_MMIO_ORDERING_H
#define _LINUX_MMIO_ORDERING_H

#include <linux/compiler.h>
#include <linux/instruction_pointer.h>
#include <linux/mmio_ordering_types.h>
#include <linux/types.h>

/*
 * The locks whose release orders MMIO stores: the checker's hooks say
 * which, and the reports name its unlock. A bit lock is the bit's word
 * with MMIO_ORDERING_BIT plus the bit number.
 */
enum mmio_ordering_lock {
	MMIO_ORDERING_SPIN,	/* raw_spinlock_t, spinlock_t */
	MMIO_ORDERING_READ,	/* rwlock_t, read side */
	MMIO_ORDERING_WRITE,	/* rwlock_t, write side */
	/* Locks a task may sleep holding, tracked per task. */
	MMIO_ORDERING_MUTEX,	/* struct mutex */
	MMIO_ORDERING_RT_MUTEX,	/* struct rt_mutex */
	MMIO_ORDERING_RWSEM,	/* struct rw_semaphore, write side */
	MMIO_ORDERING_RT_SPIN,	/* spinlock_t on PREEMPT_RT */
	MMIO_ORDERING_RT_READ,	/* rwlock_t on PREEMPT_RT, read side */
	MMIO_ORDERING_RT_WRITE,	/* rwlock_t on PREEMPT_RT, write side */
	MMIO_ORDERING_SEMAPHORE, /* struct semaphore */
	MMIO_ORDERING_BIT,	/* bit_spin_lock(): last */
};

/*
 * Boot code (decompressors, purgatory, EFI stubs) includes the I/O headers
 * but has no spinlocks and no per-CPU data: it gets the stubs.
 */
#if defined(CONFIG_MMIO_ORDERING) && !defined(__DISABLE_EXPORTS)

#include <asm/mmiowb.h>
#include <asm/percpu.h>

/*
 * The tracking is asm-generic/mmiowb.h's: MMIO stores made under spinlocks
 * mark a store pending with mmiowb_set_pending() and the next spin_unlock()
 * orders them, under the "auto" strategy only (__mmiowb_unlock_wb()).
 * CONFIG_MMIOWB is set where an unlock needs the barrier, and everywhere
 * with the checker, which needs the state. Without the checker, "explicit"
 * chosen at boot patches every tracking hook out (mmiowb_tracking()).
 */

/* The strategy in force, an enum mmio_ordering_strategy. */
extern int mmio_ordering_strategy;

void __mmio_ordering_clear_pending(void);
void mmio_ordering_sleeping_unlock_wb(void);

#ifdef CONFIG_DEBUG_MMIO_ORDERING
void __mmio_ordering_acquire(const void *lock, unsigned int kind, unsigned long ip);
void __mmio_ordering_release(const void *lock, unsigned int kind);
void __mmio_ordering_store(const volatile void __iomem *addr,
			   enum mmio_ordering_class class, const char *accessor);
void __mmio_ordering_barrier(void);
void __mmio_ordering_arch_sync(void);
void mmio_ordering_unordered_begin(void);
void mmio_ordering_unordered_end(void);
#else
static inline void __mmio_ordering_acquire(const void *lock, unsigned int kind,
					   unsigned long ip) { }
static inline void __mmio_ordering_release(const void *lock, unsigned int kind) { }
static inline void __mmio_ordering_store(const volatile void __iomem *addr,
					 enum mmio_ordering_class class,
					 const char *accessor) { }
static inline void __mmio_ordering_barrier(void) { }
static inline void __mmio_ordering_arch_sync(void) { }
static inline void mmio_ordering_unordered_begin(void) { }
static inline void mmio_ordering_unordered_end(void) { }
#endif

/*
 * Checker hooks, called by the lock functions (where lockdep's are) once
 * the lock is held, and by the unlock functions before the release; @kind
 * is an enum mmio_ordering_lock, @ip the caller of the lock API function.
 */
static __always_inline void mmio_ordering_lock(const void *lock, unsigned int kind,
					       unsigned long ip)
{
	__mmio_ordering_acquire(lock, kind, ip);
}

static __always_inline void mmio_ordering_unlock(const void *lock, unsigned int kind)
{
	__mmio_ordering_release(lock, kind);
}

/*
 * Called by the release of a sleeping lock (mutex, rt_mutex, rw_semaphore
 * write side, semaphore) before the release. Such a lock is held across
 * sleeps, so the spin_unlock() tracking does not see it: the "auto"
 * barrier runs when this CPU made a class-1 store since its last barrier.
 */
static __always_inline void mmio_ordering_sleeping_unlock(const void *lock, unsigned int kind)
{
	__mmio_ordering_release(lock, kind);
#ifdef CONFIG_MMIOWB
	/* Preemptible: a racy test, the slow path tests again. */
	if (mmiowb_tracking() &&
	    unlikely(READ_ONCE(__mmiowb_state()->sleeping_pending)))
		mmio_ordering_sleeping_unlock_wb();
#endif
}

/*
 * asm-generic/mmiowb.h's lock hooks, for the locks whose lock operations
 * mainline does not give them (rwlock_t, bit_spin_lock()).
 */
#define mmio_ordering_track_lock()	mmiowb_spin_lock()
#define mmio_ordering_track_unlock()	mmiowb_spin_unlock()

/*
 * Called by every tracked MMIO store accessor after the store. Only class-1
 * stores made under a lock leave work for the unlock.
 */
static __always_inline void mmio_ordering_write(const volatile void __iomem *addr,
						enum mmio_ordering_class class,
						const char *accessor)
{
	if (class == MMIO_ORDERING_RAW &&
	    !IS_ENABLED(CONFIG_DEBUG_MMIO_ORDERING_RAW))
		return;
#ifdef CONFIG_MMIOWB
	if (class == MMIO_ORDERING_ORDERED && mmiowb_tracking()) {
		struct mmiowb_state *ms = __mmiowb_state();

		__mmiowb_set_pending(ms);
		ms->sleeping_pending = 1;	/* for sleeping locks */
	}
#endif
	__mmio_ordering_store(addr, class, accessor);
}

/*
 * Called by io_to_lock_wb() (asm-generic/io.h) after the barrier instruction.
 * Under "auto" the next unlock has nothing left to order. Under "explicit"
 * the flags stay set: the unlock, which clears them, adds no barrier then.
 */
static __always_inline void mmio_ordering_flushed(void)
{
#ifdef CONFIG_MMIOWB
	struct mmiowb_state *ms = __mmiowb_state();

	/* io_to_lock_wb() may run preemptible: clear out of line. */
	if (mmiowb_tracking() && (ms->mmiowb_pending || ms->sleeping_pending) &&
	    READ_ONCE(mmio_ordering_strategy) == MMIO_ORDERING_AUTO)
		__mmio_ordering_clear_pending();
#endif
	__mmio_ordering_barrier();
}

int mmio_ordering_set_strategy(enum mmio_ordering_strategy strategy);
enum mmio_ordering_strategy mmio_ordering_get_strategy(void);

#else /* CONFIG_MMIO_ORDERING */

static __always_inline void mmio_ordering_lock(const void *lock, unsigned int kind,
					       unsigned long ip) { }
static __always_inline void mmio_ordering_unlock(const void *lock, unsigned int kind) { }
static __always_inline void mmio_ordering_write(const volatile void __iomem *addr,
						enum mmio_ordering_class class,
						const char *accessor) { }
static __always_inline void mmio_ordering_flushed(void) { }
static __always_inline void mmio_ordering_sleeping_unlock(const void *lock,
							  unsigned int kind) { }
#define mmio_ordering_track_lock()	do { } while (0)
#define mmio_ordering_track_unlock()	do { } while (0)
static inline void __mmio_ordering_arch_sync(void) { }
static inline void mmio_ordering_unordered_begin(void) { }
static inline void mmio_ordering_unordered_end(void) { }

#endif /* CONFIG_MMIO_ORDERING */

/**
 * mmio_unordered() - MMIO stores that are meant to reach the device unordered
 * @stmt: statement issuing the MMIO stores, e.g. a writel_relaxed() call
 *
 * Tells CONFIG_DEBUG_MMIO_ORDERING that the stores made by @stmt need no
 * ordering against the spin_unlock() that follows, like data_race() tells
 * KCSAN about an intended race: for instance stores to a write-combining
 * buffer whose completion a later doorbell write orders, or to a register
 * the device only samples. The stores are not tracked; code generation is
 * unchanged when the checker is off. For longer sections use
 * mmio_ordering_unordered_begin() and mmio_ordering_unordered_end(); such a
 * section must not sleep.
 */
#define mmio_unordered(stmt)						\
	do {								\
		mmio_ordering_unordered_begin();			\
		stmt;							\
		mmio_ordering_unordered_end();				\
	} while (0)

#endif /* _LINUX_MMIO_ORDERING_H */
