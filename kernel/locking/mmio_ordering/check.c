// SPDX-License-Identifier: GPL-2.0
/*
 * MMIO ordering checker: finds MMIO stores that reach the release of a
 * spinlock held when they were issued, with no io_to_lock_wb() between.
 *
 * Each CPU keeps one state per execution context (task, softirq, hardirq,
 * NMI), because an interrupt's locks and stores are unrelated to those of
 * the code it interrupted. A state is a stack of the spinlocks held, and
 * for each nesting level the first store that needs a barrier and was
 * issued while that level was the innermost lock. Releasing a lock at
 * level i with such a store pending at any level >= i is a violation: the
 * store was issued while the lock was held. Stores at levels below i were
 * issued before the lock was taken and stay pending for the outer locks.
 */

#include <linux/io.h>
#include <linux/irqflags.h>
#include <linux/minmax.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/pid.h>
#include <linux/sizes.h>
#include <linux/spinlock.h>
#include <linux/stacktrace.h>
#include <linux/string.h>

#include "mmio_ordering.h"

/* Nesting levels tracked per context; deeper locks are counted only. */
#define MMIO_ORDERING_MAX_HELD	8

/*
 * A class-1 read this close to a pending store is taken to be a read-back
 * from the same device mapping, which completes the posted store.
 */
#define MMIO_ORDERING_READBACK_WINDOW	SZ_1M

struct held_lock_state {
	const struct raw_spinlock *lock;
	unsigned long acquire_ip;
	bool pending;
};

struct pending_store {
	const char *accessor;
	const volatile void __iomem *addr;
	enum mmio_ordering_class class;
	unsigned int nr_entries;
	unsigned long entries[MMIO_ORDERING_STACK_DEPTH];
};

struct check_ctx {
	unsigned int depth;		/* spinlocks held, tracked or not */
	unsigned int nr_pending;	/* levels with a pending store */
	struct held_lock_state held[MMIO_ORDERING_MAX_HELD];
	struct pending_store store[MMIO_ORDERING_MAX_HELD];
	struct mmio_ordering_violation violation;
};

static DEFINE_PER_CPU(struct check_ctx, check_ctx[MMIO_ORDERING_NR_CTX]);

/* Callers run with preemption disabled. */
static __always_inline struct check_ctx *get_ctx(void)
{
	return raw_cpu_ptr(&check_ctx[interrupt_context_level()]);
}

static inline unsigned int tracked_depth(const struct check_ctx *ctx)
{
	return min(ctx->depth, MMIO_ORDERING_MAX_HELD);
}

/* Forget the pending stores of levels @from and deeper. */
static void clear_pending(struct check_ctx *ctx, unsigned int from)
{
	unsigned int i, top = tracked_depth(ctx);

	for (i = from; i < top && ctx->nr_pending; i++) {
		if (ctx->held[i].pending) {
			ctx->held[i].pending = false;
			ctx->nr_pending--;
		}
	}
}

void __mmio_ordering_acquire(const struct raw_spinlock *lock, unsigned long ip)
{
	struct check_ctx *ctx = get_ctx();
	unsigned int d = ctx->depth++;

	if (unlikely(d >= MMIO_ORDERING_MAX_HELD)) {
		mmio_ordering_count(MMIO_ORDERING_COUNTER_NESTING_OVERFLOW);
		return;
	}
	ctx->held[d].lock = lock;
	ctx->held[d].acquire_ip = ip;
	ctx->held[d].pending = false;
}
EXPORT_SYMBOL(__mmio_ordering_acquire);

static noinline void report_violation(struct check_ctx *ctx, unsigned int lock_level,
				      unsigned int store_level)
{
	const struct raw_spinlock *lock = ctx->held[lock_level].lock;
	struct pending_store *st = &ctx->store[store_level];
	struct mmio_ordering_violation *v = &ctx->violation;

	mmio_ordering_count(MMIO_ORDERING_COUNTER_VIOLATIONS);

	v->accessor = st->accessor;
	v->addr = st->addr;
	v->class = st->class;
	v->store_nr = st->nr_entries;
	memcpy(v->store_stack, st->entries, st->nr_entries * sizeof(st->entries[0]));
	v->lock = lock;
#ifdef CONFIG_DEBUG_LOCK_ALLOC
	strscpy(v->lock_name, lock->dep_map.name ?: "", sizeof(v->lock_name));
#else
	v->lock_name[0] = '\0';
#endif
	v->acquire_ip = ctx->held[lock_level].acquire_ip;
	v->release_nr = stack_trace_save(v->release_stack, ARRAY_SIZE(v->release_stack), 0);
	v->ctx = interrupt_context_level();
	v->cpu = raw_smp_processor_id();
	v->pid = task_pid_nr(current);
	strscpy(v->comm, current->comm, sizeof(v->comm));
	v->strategy = READ_ONCE(mmio_ordering_strategy);

	mmio_ordering_report(v);
}

void __mmio_ordering_release(const struct raw_spinlock *lock)
{
	struct check_ctx *ctx = get_ctx();
	unsigned int top = tracked_depth(ctx);
	unsigned int i, j;

	for (i = top; i-- > 0;) {
		if (ctx->held[i].lock == lock)
			goto found;
	}
	/* Untracked: nested too deep, or taken in another context. */
	if (ctx->depth > MMIO_ORDERING_MAX_HELD)
		ctx->depth--;
	return;

found:
	if (unlikely(ctx->nr_pending)) {
		for (j = i; j < top; j++) {
			if (ctx->held[j].pending) {
				report_violation(ctx, i, j);
				/* The barrier the code lacks, so the kernel stays correct. */
				arch_io_to_lock_wb();
				clear_pending(ctx, i);
				break;
			}
		}
	}
	/* Levels above i have nothing pending now: only the locks move down. */
	memmove(&ctx->held[i], &ctx->held[i + 1], (top - i - 1) * sizeof(ctx->held[0]));
	ctx->depth--;
}
EXPORT_SYMBOL(__mmio_ordering_release);

void __mmio_ordering_store(const volatile void __iomem *addr,
			   enum mmio_ordering_class class, const char *accessor)
{
	struct check_ctx *ctx;
	struct pending_store *st;
	unsigned int top;

	/* The store itself may run preemptible, outside any lock. */
	preempt_disable_notrace();
	ctx = get_ctx();
	if (!ctx->depth)
		goto out;

	mmio_ordering_count(MMIO_ORDERING_COUNTER_STORES_TRACKED);

	if (class == MMIO_ORDERING_ORDERED &&
	    READ_ONCE(mmio_ordering_strategy) == MMIO_ORDERING_AUTO) {
		/* Ordered after the earlier stores, and the unlock orders it. */
		clear_pending(ctx, 0);
		goto out;
	}

	top = tracked_depth(ctx) - 1;
	if (ctx->held[top].pending)
		goto out;

	st = &ctx->store[top];
	st->accessor = accessor;
	st->addr = addr;
	st->class = class;
	st->nr_entries = stack_trace_save(st->entries, ARRAY_SIZE(st->entries), 0);
	ctx->held[top].pending = true;
	ctx->nr_pending++;
out:
	preempt_enable_notrace();
}
EXPORT_SYMBOL(__mmio_ordering_store);

void __mmio_ordering_read(const volatile void __iomem *addr)
{
	struct check_ctx *ctx;
	unsigned int i, top;

	preempt_disable_notrace();
	ctx = get_ctx();
	top = tracked_depth(ctx);
	for (i = 0; i < top && ctx->nr_pending; i++) {
		unsigned long a = (unsigned long)addr;
		unsigned long s = (unsigned long)ctx->store[i].addr;

		if (ctx->held[i].pending &&
		    max(a, s) - min(a, s) < MMIO_ORDERING_READBACK_WINDOW) {
			ctx->held[i].pending = false;
			ctx->nr_pending--;
		}
	}
	preempt_enable_notrace();
}
EXPORT_SYMBOL(__mmio_ordering_read);

void __mmio_ordering_barrier(void)
{
	struct check_ctx *ctx;

	preempt_disable_notrace();
	ctx = get_ctx();
	mmio_ordering_count(MMIO_ORDERING_COUNTER_EXPLICIT_BARRIERS);
	clear_pending(ctx, 0);
	preempt_enable_notrace();
}
EXPORT_SYMBOL(__mmio_ordering_barrier);
