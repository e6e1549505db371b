// SPDX-License-Identifier: GPL-2.0
/*
 * MMIO ordering checker: finds MMIO stores that reach the release of a
 * lock held when they were issued, with no io_to_lock_wb() between.
 *
 * Each CPU keeps one state per execution context (task, softirq, hardirq,
 * NMI), because an interrupt's locks and stores are unrelated to those of
 * the code it interrupted. A state is a stack of the spinlocks held, and
 * for each nesting level the first store to each page (so to each device
 * mapping) that needs a barrier and was issued while that level was the
 * innermost lock. Releasing a lock at level i with such stores pending at
 * any level >= i is a violation per store: each was issued while the lock
 * was held. Stores at levels below i were issued before the lock was taken
 * and stay pending for the outer locks.
 *
 * Sleeping locks (mutex, rt_mutex, rw_semaphore, semaphore, and
 * PREEMPT_RT's spinlock_t and rwlock_t) are held across sleeps and
 * migrations: each task keeps their levels, and its pending stores in a
 * pool shared by the levels, in the same way. Stores reach them only when
 * no raw spinlock is held, as a raw spinlock's release orders or reports
 * the stores made under it.
 * Any task may up() a semaphore, and printk hands the console's over
 * without up(): a task holds one from a down() that took its last unit
 * until its own up(), and silently no longer once any up() freed it.
 *
 * In "portable" mode (the default) the checker reports what would break on
 * any architecture; in "arch" mode only what breaks on the running one, so
 * nothing where spin_unlock() already orders MMIO (x86, arm64).
 */

#define pr_fmt(fmt) "mmio_ordering: " fmt

#include <linux/hash.h>
#include <linux/io.h>
#include <linux/irqflags.h>
#include <linux/kconfig.h>
#include <linux/minmax.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/pid.h>
#include <linux/rtmutex.h>
#include <linux/rwsem.h>
#include <linux/semaphore.h>
#include <linux/spinlock.h>
#include <linux/stacktrace.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <kunit/visibility.h>
#ifdef CONFIG_X86
#include <linux/pgtable.h>
#include <asm/memtype.h>
#endif

#include "mmio_ordering.h"

#ifdef MODULE_PARAM_PREFIX
#undef MODULE_PARAM_PREFIX
#endif
#define MODULE_PARAM_PREFIX "mmio_ordering."

/* Nesting levels tracked per context; deeper locks are counted only. */
#define MMIO_ORDERING_MAX_HELD	8
/*
 * Pending stores kept per level, one per page stored to: so at least one
 * per device mapping, each reported on its own (a section that stores to
 * more pages than this is still reported, for the first ones).
 */
#define MMIO_ORDERING_STORES_PER_LEVEL	4

struct check_ctx {
	unsigned int depth;		/* spinlocks held, tracked or not */
	unsigned int nr_pending;	/* levels with pending stores */
	unsigned int unordered;		/* mmio_unordered() nesting */
	unsigned int quiet;		/* the checker's own printing */
	unsigned long wc_page;		/* x86: last page store_is_wc() walked */
	bool wc_page_wc;		/* and what it found, this section */
	struct mmio_ordering_held held[MMIO_ORDERING_MAX_HELD];
	struct mmio_ordering_store store[MMIO_ORDERING_MAX_HELD][MMIO_ORDERING_STORES_PER_LEVEL];
	struct mmio_ordering_violation violation;
};

static DEFINE_PER_CPU(struct check_ctx, check_ctx[MMIO_ORDERING_NR_CTX]);

int mmio_ordering_mode __read_mostly = MMIO_ORDERING_MODE_PORTABLE;
EXPORT_SYMBOL_IF_KUNIT(mmio_ordering_mode);

static const char *const mode_names[] = {
	[MMIO_ORDERING_MODE_PORTABLE]	= "portable",
	[MMIO_ORDERING_MODE_ARCH]	= "arch",
};

/* True when this architecture's unlock needs no barrier and the mode says so. */
static __always_inline bool arch_mode_ordered(void)
{
	return IS_ENABLED(CONFIG_ARCH_MMIO_ORDERED_UNLOCK) &&
	       READ_ONCE(mmio_ordering_mode) == MMIO_ORDERING_MODE_ARCH;
}

/* Callers run with preemption disabled. */
static __always_inline struct check_ctx *get_ctx(void)
{
	return raw_cpu_ptr(&check_ctx[interrupt_context_level()]);
}

static inline unsigned int tracked_depth(const struct check_ctx *ctx)
{
	return min(ctx->depth, MMIO_ORDERING_MAX_HELD);
}

/*
 * Forget the pending stores of levels @from and deeper; with !@wc, not those
 * to write-combining mappings.
 */
static void clear_pending(struct check_ctx *ctx, unsigned int from, bool wc)
{
	unsigned int i, k, n, top = tracked_depth(ctx);

	for (i = from; i < top && ctx->nr_pending; i++) {
		if (!ctx->held[i].nr_stores)
			continue;
		for (k = n = 0; k < ctx->held[i].nr_stores; k++) {
			if (!wc && ctx->store[i][k].wc) {
				if (n != k)
					ctx->store[i][n] = ctx->store[i][k];
				n++;
			}
		}
		ctx->held[i].nr_stores = n;
		if (!n)
			ctx->nr_pending--;
	}
}

/* Stores to one page are to one device mapping. */
#define same_page(a, b)	\
	(((unsigned long)(a) >> PAGE_SHIFT) == ((unsigned long)(b) >> PAGE_SHIFT))

/*
 * x86 orders uncached MMIO stores before a later unlock, but not stores to
 * write-combining or write-through mappings (ioremap_wc(), ioremap_wt()):
 * io_to_lock_wb() is a compiler barrier there, and only a fence (wmb(),
 * mb()) or an uncached access flushes them.
 *
 * The page table walk costs more than the rest of the hook: under a
 * spinlock its result is kept for the page until the outermost lock is
 * taken again, as a mapping being stored to cannot change meanwhile.
 */
static bool store_is_wc(struct check_ctx *ctx, const volatile void __iomem *addr)
{
#ifdef CONFIG_X86
	unsigned long page = (unsigned long)addr >> PAGE_SHIFT;
	enum page_cache_mode pcm;
	unsigned int level;
	pgprot_t prot;
	pte_t *pte;

	/* Port I/O passes the port number: uncached. */
	if ((unsigned long)addr <= IO_SPACE_LIMIT)
		return false;
	if (ctx->depth && ctx->wc_page == page)
		return ctx->wc_page_wc;
	pte = lookup_address((unsigned long)addr, &level);
	if (!pte || !pte_present(*pte)) {
		pcm = _PAGE_CACHE_MODE_UC;
	} else {
		prot = pte_pgprot(*pte);
		if (level != PG_LEVEL_4K)
			prot = pgprot_large_2_4k(prot);
		pcm = pgprot2cachemode(prot);
	}
	ctx->wc_page = page;
	ctx->wc_page_wc = pcm == _PAGE_CACHE_MODE_WC || pcm == _PAGE_CACHE_MODE_WT;
	return ctx->wc_page_wc;
#else
	return false;
#endif
}

/*
 * Remove level @i: the levels above it move down, and where more locks are
 * held than tracked, the first untracked one comes into view, unknown
 * (NULL) until it is released.
 */
static void remove_level(struct check_ctx *ctx, unsigned int i)
{
	unsigned int j, top = tracked_depth(ctx);

	if (ctx->held[i].nr_stores)
		ctx->nr_pending--;
	for (j = i; j + 1 < top; j++) {
		ctx->held[j] = ctx->held[j + 1];
		memcpy(ctx->store[j], ctx->store[j + 1],
		       ctx->held[j].nr_stores * sizeof(ctx->store[j][0]));
	}
	if (ctx->depth > MMIO_ORDERING_MAX_HELD)
		ctx->held[top - 1] = (struct mmio_ordering_held){ };
	ctx->depth--;
}

/* Whether @lock is still locked; a rwlock cannot tell, and is assumed so. */
static bool is_locked(const void *lock, unsigned int kind)
{
	switch (kind) {
	case MMIO_ORDERING_SPIN:
		return raw_spin_is_locked((raw_spinlock_t *)lock);
	case MMIO_ORDERING_READ:
	case MMIO_ORDERING_WRITE:
	case MMIO_ORDERING_RT_READ:
	case MMIO_ORDERING_RT_WRITE:
		return true;
#ifdef CONFIG_PREEMPT_RT
	case MMIO_ORDERING_RT_SPIN:
		return rt_mutex_base_is_locked(&((spinlock_t *)lock)->lock);
#endif
	case MMIO_ORDERING_MUTEX:
		return mutex_is_locked((struct mutex *)lock);
	case MMIO_ORDERING_RT_MUTEX:
		return rt_mutex_base_is_locked(&((struct rt_mutex *)lock)->rtmutex);
	case MMIO_ORDERING_RWSEM:
		return rwsem_is_locked((struct rw_semaphore *)lock);
	default:
		return test_bit(kind - MMIO_ORDERING_BIT, lock);
	}
}

/* The lockdep name of the lock, "" without one. */
static void lock_name(const struct mmio_ordering_held *held, char *buf, size_t size)
{
	const char *name = NULL;

#ifdef CONFIG_DEBUG_LOCK_ALLOC
	switch (held->kind) {
	case MMIO_ORDERING_SPIN:
		name = ((const raw_spinlock_t *)held->lock)->dep_map.name;
		break;
	case MMIO_ORDERING_RT_SPIN:
		name = ((const spinlock_t *)held->lock)->dep_map.name;
		break;
	case MMIO_ORDERING_READ:
	case MMIO_ORDERING_WRITE:
	case MMIO_ORDERING_RT_READ:
	case MMIO_ORDERING_RT_WRITE:
		name = ((const rwlock_t *)held->lock)->dep_map.name;
		break;
	case MMIO_ORDERING_MUTEX:
		name = ((const struct mutex *)held->lock)->dep_map.name;
		break;
	case MMIO_ORDERING_RT_MUTEX:
		name = ((const struct rt_mutex *)held->lock)->dep_map.name;
		break;
	case MMIO_ORDERING_RWSEM:
		name = ((const struct rw_semaphore *)held->lock)->dep_map.name;
		break;
	}
#endif
	strscpy(buf, name ?: "", size);
}

/*
 * A lock this context holds is locked. One that is not was released in
 * another context or on another CPU, which no hook of this context saw:
 * forget it, or this context would stay one level deep for good.
 */
static void heal_levels(struct check_ctx *ctx)
{
	const void *lock, *stale = NULL;
	unsigned long ip = 0;
	unsigned int i;

	if (!IS_ENABLED(CONFIG_SMP) && !IS_ENABLED(CONFIG_DEBUG_SPINLOCK))
		return;
	for (i = tracked_depth(ctx); i-- > 0;) {
		lock = ctx->held[i].lock;
		if (!lock || is_locked(lock, ctx->held[i].kind))
			continue;
		mmio_ordering_count(MMIO_ORDERING_COUNTER_IMBALANCE);
		stale = lock;
		ip = ctx->held[i].acquire_ip;
		remove_level(ctx, i);
	}
	if (stale)
		mmio_ordering_report_imbalance(stale, ip);
}

/*
 * The sleeping locks of the current task. Only the task changes them, so
 * preemption may stay enabled; interrupts keep out. PREEMPT_RT runs
 * softirqs in task context, where they take spinlock_t, a sleeping lock
 * there: they share the state of the task they run in.
 */
static __always_inline struct mmio_ordering_task *task_state(void)
{
	if (IS_ENABLED(CONFIG_PREEMPT_RT))
		return in_hardirq() || in_nmi() ? NULL : &current->mmio_ordering;
	return in_task() ? &current->mmio_ordering : NULL;
}

static inline unsigned int task_depth(const struct mmio_ordering_task *t)
{
	return min(t->depth, MMIO_ORDERING_TASK_HELD);
}

/*
 * Drop the task's pending stores of level @from and above that match
 * @match (-1: all of them) and, unless @wc, are not write-combining;
 * renumber the levels above @match when it is a level going away.
 */
static void task_drop_stores(struct mmio_ordering_task *t, unsigned int from,
			     int match, bool wc)
{
	struct mmio_ordering_store *st;
	unsigned int k, n = 0;

	for (k = 0; k < t->nr_pending; k++) {
		st = &t->store[k];
		if (st->level >= from && (match < 0 || st->level == match) &&
		    (wc || !st->wc))
			continue;
		if (match >= 0 && st->level > match)
			st->level--;
		if (n != k)
			t->store[n] = *st;
		n++;
	}
	t->nr_pending = n;
}

/* As clear_pending(), for the task's levels. */
static void task_clear_pending(struct mmio_ordering_task *t, unsigned int from, bool wc)
{
	if (t->nr_pending)
		task_drop_stores(t, from, -1, wc);
}

/* As remove_level(), for the task's levels. */
static void task_remove_level(struct mmio_ordering_task *t, unsigned int i)
{
	unsigned int j, top = task_depth(t);

	if (t->nr_pending)
		task_drop_stores(t, i, i, true);
	for (j = i; j + 1 < top; j++)
		t->held[j] = t->held[j + 1];
	if (t->depth > MMIO_ORDERING_TASK_HELD)
		t->held[top - 1] = (struct mmio_ordering_held){ };
	t->depth--;
}

/*
 * Any task may up() a semaphore, and the semaphore may be gone by the time
 * its holder looks (an event on the stack of a task that returned). So
 * each up() counts in a bucket of its semaphore, and a task's semaphore
 * level keeps the bucket's count at its down(): once the count moved, the
 * semaphore was released. Another semaphore's up() in the
 * same bucket makes the task forget one it holds, no more.
 */
#define SEM_UP_BITS	10
static atomic_t sem_ups[1 << SEM_UP_BITS];

static atomic_t *sem_ups_of(const void *sem)
{
	return &sem_ups[hash_ptr((void *)sem, SEM_UP_BITS)];
}

/* As heal_levels(); a semaphore's release by another task is no imbalance. */
static void task_heal_levels(struct mmio_ordering_task *t)
{
	const struct mmio_ordering_held *held;
	const void *stale = NULL;
	unsigned long ip = 0;
	unsigned int i;

	for (i = task_depth(t); i-- > 0;) {
		held = &t->held[i];
		if (!held->lock)
			continue;
		if (held->kind == MMIO_ORDERING_SEMAPHORE) {
			if (atomic_read(sem_ups_of(held->lock)) != held->ups)
				task_remove_level(t, i);
			continue;
		}
		if (is_locked(held->lock, held->kind))
			continue;
		mmio_ordering_count(MMIO_ORDERING_COUNTER_IMBALANCE);
		stale = held->lock;
		ip = held->acquire_ip;
		task_remove_level(t, i);
	}
	if (stale)
		mmio_ordering_report_imbalance(stale, ip);
}

static void task_acquire(const void *lock, unsigned int kind, unsigned long ip)
{
	struct mmio_ordering_task *t = task_state();
	unsigned int d;

	if (!t)
		return;
	/* With units left, other tasks get in without this task's up(). */
	if (kind == MMIO_ORDERING_SEMAPHORE &&
	    READ_ONCE(((const struct semaphore *)lock)->count))
		return;
	if (t->depth)
		task_heal_levels(t);
	d = t->depth++;
	if (unlikely(d >= MMIO_ORDERING_TASK_HELD)) {
		mmio_ordering_count(MMIO_ORDERING_COUNTER_NESTING_OVERFLOW);
		return;
	}
	t->held[d] = (struct mmio_ordering_held){
		.lock = lock, .kind = kind, .acquire_ip = ip,
		.softirq = in_serving_softirq(),
	};
	if (kind == MMIO_ORDERING_SEMAPHORE)
		t->held[d].ups = atomic_read(sem_ups_of(lock));
}

/**
 * __mmio_ordering_acquire() - checker hook: a lock was taken
 * @lock: the lock, now held (a bit lock's word)
 * @kind: an enum mmio_ordering_lock; a bit lock's also has the bit added
 * @ip: the caller of the lock API function
 */
void __mmio_ordering_acquire(const void *lock, unsigned int kind, unsigned long ip)
{
	struct check_ctx *ctx;
	unsigned int d;

	if (mmio_ordering_sleeping_kind(kind)) {
		task_acquire(lock, kind, ip);
		return;
	}
	ctx = get_ctx();
	if (ctx->depth)
		heal_levels(ctx);
	d = ctx->depth++;
	/* A new section: mappings may have changed since the last one. */
	if (!d)
		ctx->wc_page = 0;

	if (unlikely(d >= MMIO_ORDERING_MAX_HELD)) {
		mmio_ordering_count(MMIO_ORDERING_COUNTER_NESTING_OVERFLOW);
		return;
	}
	ctx->held[d].lock = lock;
	ctx->held[d].kind = kind;
	ctx->held[d].acquire_ip = ip;
	ctx->held[d].nr_stores = 0;
}
EXPORT_SYMBOL(__mmio_ordering_acquire);

static noinline void report_violation(struct check_ctx *ctx,
				      const struct mmio_ordering_held *held,
				      const struct mmio_ordering_store *st)
{
	struct mmio_ordering_violation *v = &ctx->violation;

	mmio_ordering_count(MMIO_ORDERING_COUNTER_VIOLATIONS);

	v->accessor = st->accessor;
	v->addr = st->addr;
	v->class = st->class;
	v->wc = st->wc;
	v->store_nr = st->nr_entries;
	memcpy(v->store_stack, st->entries, st->nr_entries * sizeof(st->entries[0]));
	v->lock = held->lock;
	v->lock_kind = held->kind;
	lock_name(held, v->lock_name, sizeof(v->lock_name));
	v->acquire_ip = held->acquire_ip;
	v->release_nr = stack_trace_save(v->release_stack, ARRAY_SIZE(v->release_stack), 0);
	v->ctx = interrupt_context_level();
	v->cpu = raw_smp_processor_id();
	v->pid = task_pid_nr(current);
	strscpy(v->comm, current->comm, sizeof(v->comm));
	v->strategy = READ_ONCE(mmio_ordering_strategy);

	mmio_ordering_report(v);
}

/*
 * The level of @lock among those held (@depth of them, @max tracked), or -1
 * when it is not tracked: nested too deep (then @depth drops) or taken
 * elsewhere. An untracked lock that came into view is the first released.
 */
static int find_level(struct mmio_ordering_held *held, unsigned int *depth,
		      unsigned int max, const void *lock, unsigned int kind)
{
	unsigned int i, top = min(*depth, max);

	for (i = top; i-- > 0;) {
		if (held[i].lock == lock && held[i].kind == kind)
			return i;
	}
	if (*depth > max) {
		(*depth)--;
		return -1;
	}
	for (i = top; i-- > 0;) {
		if (!held[i].lock) {
			held[i].lock = lock;
			held[i].kind = kind;
			return i;
		}
	}
	return -1;
}

/* The release of a sleeping lock; inline, so that reports skip no frame of it. */
static __always_inline void task_release(const void *lock, unsigned int kind)
{
	struct mmio_ordering_task *t = task_state();
	struct check_ctx *ctx;
	bool violated = false;
	unsigned int k;
	int i;

	if (!t)
		return;
	/* Not found: too deep, or taken by another task. */
	i = find_level(t->held, &t->depth, MMIO_ORDERING_TASK_HELD, lock, kind);
	if (i < 0)
		return;
	if (unlikely(t->nr_pending)) {
		preempt_disable_notrace();
		ctx = get_ctx();
		for (k = 0; k < t->nr_pending; k++) {
			if (t->store[k].level >= i) {
				report_violation(ctx, &t->held[i], &t->store[k]);
				violated = true;
			}
		}
		if (violated) {
			arch_io_to_lock_wb();
			task_clear_pending(t, i, true);
		}
		preempt_enable_notrace();
	}
	task_remove_level(t, i);
}

/**
 * __mmio_ordering_release() - checker hook: a lock is being released
 * @lock: the lock, still held
 * @kind: as for __mmio_ordering_acquire()
 *
 * Reports a store made under @lock that needs a barrier and has none, then
 * runs the barrier.
 */
void __mmio_ordering_release(const void *lock, unsigned int kind)
{
	struct check_ctx *ctx;
	unsigned int top, j, k;
	int i;

	if (mmio_ordering_sleeping_kind(kind)) {
		task_release(lock, kind);
		if (kind == MMIO_ORDERING_SEMAPHORE)
			atomic_inc(sem_ups_of(lock));
		return;
	}
	ctx = get_ctx();
	top = tracked_depth(ctx);
	/* Not found: too deep, or taken in another context or on another CPU. */
	i = find_level(ctx->held, &ctx->depth, MMIO_ORDERING_MAX_HELD, lock, kind);
	if (i < 0)
		return;
	if (unlikely(ctx->nr_pending)) {
		bool violated = false;

		for (j = i; j < top; j++) {
			for (k = 0; k < ctx->held[j].nr_stores; k++) {
				report_violation(ctx, &ctx->held[i], &ctx->store[j][k]);
				violated = true;
			}
		}
		if (violated) {
			/* The barrier the code lacks, so the kernel stays correct. */
			arch_io_to_lock_wb();
			clear_pending(ctx, i, true);
		}
	}
	remove_level(ctx, i);
}
EXPORT_SYMBOL(__mmio_ordering_release);

/*
 * A store's stack, unwound once per path rather than at the first store of
 * every section, where it would cost more than all the rest of the checker:
 * the store site, the stack's depth there and the innermost lock's acquire
 * site tell paths apart. Two callers of the lock's taker that reach it at
 * the same depth share one stack, which differs only above the taker.
 * Only where the accessor is inline, so that the store site, and so every
 * pair reported, stays exact. Per CPU and context: no lock is needed.
 * The "mmio_ordering" prefix keeps its frame out of reports.
 */
#define STACK_CACHE_BITS	4

struct stack_cache_entry {
	unsigned long ip;		/* _RET_IP_ of the hook */
	unsigned long depth;		/* the hook's frame, in its stack */
	unsigned long acquire_ip;
	unsigned int gen;		/* of stack_cache_gen, 0: empty */
	unsigned int nr_entries;	/* 0: an out-of-line accessor's */
	unsigned long entries[MMIO_ORDERING_STACK_DEPTH];
};

static DEFINE_PER_CPU(struct stack_cache_entry,
		      stack_cache[MMIO_ORDERING_NR_CTX][1 << STACK_CACHE_BITS]);
static atomic_t stack_cache_gen = ATOMIC_INIT(1);

/*
 * Forget every stack saved: for the tests, and when a module goes, as
 * another may come at its addresses.
 */
void mmio_ordering_forget_stacks(void)
{
	atomic_inc(&stack_cache_gen);
}

/* Out of line: the hook's fast path keeps its frame small. */
static noinline void mmio_ordering_save_stack(struct mmio_ordering_store *st,
					      unsigned long ip, unsigned long acquire_ip)
{
	unsigned long depth = (unsigned long)__builtin_frame_address(0) & (THREAD_SIZE - 1);
	unsigned int gen = atomic_read(&stack_cache_gen);
	struct stack_cache_entry *e;
	bool seen;

	e = raw_cpu_ptr(&stack_cache[interrupt_context_level()]
			[hash_long(ip ^ depth ^ acquire_ip, STACK_CACHE_BITS)]);
	seen = e->gen == gen && e->ip == ip && e->depth == depth &&
	       e->acquire_ip == acquire_ip;
	if (seen && e->nr_entries) {
		st->nr_entries = e->nr_entries;
		memcpy(st->entries, e->entries, e->nr_entries * sizeof(e->entries[0]));
		return;
	}
	mmio_ordering_count(MMIO_ORDERING_COUNTER_STORE_STACKS);
	st->nr_entries = stack_trace_save(st->entries, ARRAY_SIZE(st->entries), 0);
	/* Seen with an out-of-line accessor: nothing to keep. */
	if (seen)
		return;
	e->ip = ip;
	e->depth = depth;
	e->acquire_ip = acquire_ip;
	e->gen = gen;
	e->nr_entries = 0;
	if (mmio_ordering_store_site(st->entries, st->nr_entries) != ip)
		return;
	e->nr_entries = st->nr_entries;
	memcpy(e->entries, st->entries, st->nr_entries * sizeof(st->entries[0]));
}

/**
 * __mmio_ordering_store() - checker hook: an MMIO store was made
 * @addr: where
 * @class: its accessor class
 * @accessor: the accessor's name, for the report
 */
void __mmio_ordering_store(const volatile void __iomem *addr,
			   enum mmio_ordering_class class, const char *accessor)
{
	struct mmio_ordering_task *task;
	struct mmio_ordering_held *held;
	struct mmio_ordering_store *st;
	unsigned long acquire_ip;
	struct check_ctx *ctx;
	unsigned int i, k, top;
	bool wc;

	/* The store itself may run preemptible, outside any lock. */
	preempt_disable_notrace();
	ctx = get_ctx();
	task = task_state();
	/* A softirq's stores are made under its own locks, not the task's. */
	if (task && (!task->depth ||
		     (in_serving_softirq() && !task->held[task_depth(task) - 1].softirq)))
		task = NULL;
	if (!ctx->depth && !task)
		goto out;

	if (ctx->quiet)
		goto out;

	/*
	 * Class-3 stores are not counted: with CONFIG_DEBUG_MMIO_ORDERING_RAW
	 * most of them are the inside of another accessor, counted itself.
	 */
	if (ctx->unordered) {
		if (class != MMIO_ORDERING_RAW)
			mmio_ordering_count(MMIO_ORDERING_COUNTER_UNORDERED);
		goto out;
	}

	if (class != MMIO_ORDERING_RAW)
		mmio_ordering_count(MMIO_ORDERING_COUNTER_STORES_TRACKED);

	wc = store_is_wc(ctx, addr);
	top = tracked_depth(ctx);
	/* An uncached store flushes the write-combining ones before it. */
	for (i = 0; !wc && i < top && ctx->nr_pending; i++) {
		for (k = 0; k < ctx->held[i].nr_stores; k++)
			ctx->store[i][k].wc = false;
	}
	for (i = 0; !wc && task && i < task->nr_pending; i++)
		task->store[i].wc = false;

	if (!wc && class == MMIO_ORDERING_ORDERED &&
	    READ_ONCE(mmio_ordering_strategy) == MMIO_ORDERING_AUTO) {
		/* Ordered after the earlier stores, and the unlock orders it. */
		clear_pending(ctx, 0, true);
		if (task)
			task_clear_pending(task, 0, true);
		goto out;
	}

	if (!wc && arch_mode_ordered())
		goto out;

	/*
	 * The store kept for this page at the innermost level, if any: one
	 * per device mapping. Under sleeping locks only, from the task's pool.
	 */
	if (!ctx->depth) {
		top = task_depth(task);
		acquire_ip = task->held[top - 1].acquire_ip;
		for (k = 0; k < task->nr_pending; k++) {
			st = &task->store[k];
			if (st->level == top - 1 && same_page(st->addr, addr))
				goto found;
		}
		if (k == MMIO_ORDERING_TASK_STORES)
			goto out;
		st = &task->store[task->nr_pending++];
		st->level = top - 1;
		goto save;
	}
	held = &ctx->held[top - 1];
	acquire_ip = held->acquire_ip;
	for (k = 0; k < held->nr_stores; k++) {
		st = &ctx->store[top - 1][k];
		if (same_page(st->addr, addr))
			goto found;
	}
	if (k == MMIO_ORDERING_STORES_PER_LEVEL)
		goto out;
	if (!held->nr_stores)
		ctx->nr_pending++;
	held->nr_stores++;
	st = &ctx->store[top - 1][k];
	goto save;
found:
	/*
	 * An accessor built on a weaker one (writel() on __raw_writel(),
	 * memcpy_toio() on __memcpy_toio()) reports the same store again:
	 * name it after the accessor the driver called. A write-combining
	 * store needs more than the one recorded: it takes its place.
	 */
	if (st->addr == addr && class < st->class) {
		st->accessor = accessor;
		st->class = class;
	}
	if (!wc || st->wc)
		goto out;
save:
	st->accessor = accessor;
	st->addr = addr;
	st->class = class;
	st->wc = wc;
	mmio_ordering_save_stack(st, _RET_IP_, acquire_ip);
out:
	preempt_enable_notrace();
}
EXPORT_SYMBOL(__mmio_ordering_store);

/**
 * __mmio_ordering_barrier() - checker hook: io_to_lock_wb() ran
 */
void __mmio_ordering_barrier(void)
{
	struct mmio_ordering_task *task;
	struct check_ctx *ctx;

	preempt_disable_notrace();
	ctx = get_ctx();
	mmio_ordering_count(MMIO_ORDERING_COUNTER_EXPLICIT_BARRIERS);
	/* A compiler barrier on x86: no fence for write-combining stores. */
	clear_pending(ctx, 0, false);
	task = task_state();
	if (task)
		task_clear_pending(task, 0, false);
	preempt_enable_notrace();
}
EXPORT_SYMBOL(__mmio_ordering_barrier);

/**
 * __mmio_ordering_mb() - checker hook: mb() or wmb() is about to run
 *
 * Both order earlier MMIO stores before later stores on every architecture
 * ("fence ow,ow" or stronger on riscv, "dsb st" on arm64, "sfence" on x86),
 * a spin_unlock() included. dma_wmb() and smp_wmb() do not, and do not
 * call this.
 */
void __mmio_ordering_mb(void)
{
	struct mmio_ordering_task *task;
	struct check_ctx *ctx;

	preempt_disable_notrace();
	ctx = get_ctx();
	if (ctx->nr_pending)
		clear_pending(ctx, 0, true);
	task = task_state();
	if (task && task->nr_pending)
		task_clear_pending(task, 0, true);
	/* A barrier is never a preemption point. */
	preempt_enable_no_resched_notrace();
}
EXPORT_SYMBOL(__mmio_ordering_mb);

/**
 * __mmio_ordering_arch_sync() - checker hook: an accessor's own sync ran
 *
 * powerpc's in_*() and out_*() begin with a sync, which orders the MMIO
 * stores before it before a lock's release too. In "arch" mode the stores
 * pending are then ordered, as after mb(); "portable" mode does not count
 * it, as riscv's readX() and writeX() order nothing before the unlock.
 */
void __mmio_ordering_arch_sync(void)
{
	if (READ_ONCE(mmio_ordering_mode) == MMIO_ORDERING_MODE_ARCH)
		__mmio_ordering_mb();
}
EXPORT_SYMBOL(__mmio_ordering_arch_sync);

/**
 * mmio_ordering_unordered_begin() - start a section of unordered MMIO stores
 *
 * MMIO stores made by this context until the matching
 * mmio_ordering_unordered_end() are not tracked by the checker: they are
 * meant to need no ordering before the next spin_unlock(). Sections nest.
 * Preemption is disabled until the end of the section, which must not
 * sleep. See also mmio_unordered().
 */
void mmio_ordering_unordered_begin(void)
{
	preempt_disable_notrace();
	get_ctx()->unordered++;
}
EXPORT_SYMBOL(mmio_ordering_unordered_begin);

/**
 * mmio_ordering_unordered_end() - end a section started by mmio_ordering_unordered_begin()
 */
void mmio_ordering_unordered_end(void)
{
	struct check_ctx *ctx = get_ctx();

	if (!WARN_ON_ONCE(!ctx->unordered))
		ctx->unordered--;
	preempt_enable_notrace();
}
EXPORT_SYMBOL(mmio_ordering_unordered_end);

/**
 * mmio_ordering_held_here() - what the checker holds for this CPU's contexts
 *
 * For tests, from a task that holds no lock, with interrupts disabled: then
 * no context of this CPU is inside a locked or unordered section, and the
 * task holds no sleeping lock.
 *
 * Return: the locks, pending levels and open sections recorded, 0 if clean;
 * not the task's locks released behind its back, which it forgets here.
 */
unsigned int mmio_ordering_held_here(void)
{
	struct mmio_ordering_task *task;
	unsigned int i, n = 0;

	for (i = 0; i < MMIO_ORDERING_NR_CTX; i++) {
		const struct check_ctx *ctx = raw_cpu_ptr(&check_ctx[i]);

		n += ctx->depth + ctx->nr_pending + ctx->unordered + ctx->quiet;
	}
	task = task_state();
	if (task) {
		/*
		 * As the task's next lock would: forget a semaphore released
		 * by another task, such as console_sem that printk handed
		 * over to a waiter, which then called up().
		 */
		task_heal_levels(task);
		n += task->depth + task->nr_pending;
	}
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(mmio_ordering_held_here);

/*
 * The report printer's own section: like an unordered one, but its stores
 * (an MMIO console's) are not counted as the drivers' unordered_stores.
 */
void mmio_ordering_quiet_begin(void)
{
	preempt_disable_notrace();
	get_ctx()->quiet++;
}

void mmio_ordering_quiet_end(void)
{
	get_ctx()->quiet--;
	preempt_enable_notrace();
}

/**
 * mmio_ordering_parse_mode() - parse a checker mode name
 * @buf: "portable" or "arch", optionally followed by a newline
 *
 * Return: the mode, or -EINVAL.
 */
int mmio_ordering_parse_mode(const char *buf)
{
	int i = sysfs_match_string(mode_names, buf);

	return i < 0 ? -EINVAL : i;
}
EXPORT_SYMBOL_IF_KUNIT(mmio_ordering_parse_mode);

/**
 * mmio_ordering_mode_name() - name of a checker mode
 * @mode: the mode
 *
 * Return: "portable" or "arch".
 */
const char *mmio_ordering_mode_name(enum mmio_ordering_mode mode)
{
	return mode_names[mode];
}

/**
 * mmio_ordering_set_mode() - select what the checker reports
 * @mode: %MMIO_ORDERING_MODE_PORTABLE or %MMIO_ORDERING_MODE_ARCH
 *
 * Return: 0 on success, -EINVAL for an unknown mode.
 */
int mmio_ordering_set_mode(enum mmio_ordering_mode mode)
{
	if (mode != MMIO_ORDERING_MODE_PORTABLE && mode != MMIO_ORDERING_MODE_ARCH)
		return -EINVAL;
	WRITE_ONCE(mmio_ordering_mode, mode);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(mmio_ordering_set_mode);

/**
 * mmio_ordering_param_set_mode() - set the mode parameter
 * @val: "portable" or "arch"
 * @kp: the parameter
 *
 * Return: 0, or -EINVAL with one log line for anything else.
 */
VISIBLE_IF_KUNIT int mmio_ordering_param_set_mode(const char *val,
						  const struct kernel_param *kp)
{
	int m = mmio_ordering_parse_mode(val);

	if (m < 0) {
		mmio_ordering_bad_value("mode", val, strlen(val), "portable or arch");
		return m;
	}
	return mmio_ordering_set_mode(m);
}
EXPORT_SYMBOL_IF_KUNIT(mmio_ordering_param_set_mode);

static int param_get_mode(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n", mmio_ordering_mode_name(READ_ONCE(mmio_ordering_mode)));
}

static const struct kernel_param_ops mode_ops = {
	.set = mmio_ordering_param_set_mode,
	.get = param_get_mode,
};
module_param_cb(mode, &mode_ops, NULL, 0644);
MODULE_PARM_DESC(mode, "MMIO ordering checker mode: portable or arch");
