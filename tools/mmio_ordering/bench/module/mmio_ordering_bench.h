/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MMIO ordering benchmark: the strategies and the scenarios, shared by the
 * out-of-tree kernel module (mmio_ordering_bench.c) and the userspace
 * build (../bench.c), so that both time the same code.
 *
 * Every strategy runs on the same lock code, arch_spin_lock() and
 * arch_spin_unlock() on the raw_lock of a raw_spinlock_t, plus its own
 * inline hooks:
 *
 *  none          no tracking and no barrier at all: the (unsafe) floor.
 *  explicit      no tracking; the code calls the barrier before every unlock
 *                that follows MMIO stores (seeds 002 and 006).
 *  auto          this project's "auto" strategy: the real inline fast paths
 *                of asm-generic/mmiowb.h (mmiowb_spin_lock(),
 *                mmiowb_spin_unlock()) and <linux/mmio_ordering.h>
 *                (writel(), writel_relaxed(), io_to_lock_wb(), the
 *                checker's lock hooks), with the real out-of-line slow path
 *                mmio_ordering_unlock_wb(). A kernel builds the tracking
 *                where unlock needs a barrier (CONFIG_MMIOWB), and on x86
 *                and arm64 only with the checker: elsewhere "auto" is
 *                "none".
 *  auto-explicit this project's "explicit" strategy: the same hooks, code
 *                as for "explicit"; the unlock never adds a barrier.
 *  mainline      asm-generic/mmiowb.h as in Linux 6.12 (nesting count plus
 *                pending count per CPU, mmiowb() inline), reimplemented
 *                here with its own per-CPU state, since x86 does not build
 *                it.
 *  flag          the first proposal: writel() sets a per-CPU flag, every
 *                unlock tests it and runs the barrier (no nesting count).
 *  ordered       a barrier after every writel() (fully ordered accessors,
 *                seed 004).
 *  unlock-io     a barrier at every unlock of a lock that protects MMIO,
 *                whether or not MMIO happened (spin_unlock_io(), seed 005).
 *  kernel        (module only) the kernel's own raw_spin_lock() and
 *                raw_spin_unlock() with writel(): the full lock API as this
 *                kernel is configured (the checker, in a checker kernel).
 *
 * The barrier is the architecture's arch_io_to_lock_wb() ("arch" kind), or
 * mb() ("mb" kind): on x86 the former is a compiler barrier, the latter an
 * MFENCE, a stand-in for the fence weakly ordered machines pay.
 *
 * Every loop exists twice: timed, with nothing but the strategy's code, and
 * counting, where each barrier also increments bench_ctx.barriers.
 *
 * The includer provides, kernel-style: raw_spinlock_t, arch_spin_lock(),
 * arch_spin_unlock(), DEFINE_PER_CPU(), raw_cpu_ptr(), raw_cpu_read(),
 * raw_cpu_write(), writel(), writel_relaxed(), io_to_lock_wb(),
 * arch_io_to_lock_wb(), mb(), and bench_plain_writel() and
 * bench_plain_writel_relaxed(): the untracked stores, i.e. what writel()
 * and writel_relaxed() compile to with CONFIG_MMIO_ORDERING off. With
 * BENCH_HAVE_KERNEL_API it also provides raw_spin_lock() and
 * raw_spin_unlock() for the "kernel" strategy.
 */

#ifndef _MMIO_ORDERING_BENCH_H
#define _MMIO_ORDERING_BENCH_H

enum bench_strategy {
	BV_NONE,
	BV_EXPLICIT,
	BV_AUTO,
	BV_AUTO_EXPLICIT,
	BV_MAINLINE,
	BV_FLAG,
	BV_ORDERED,
	BV_UNLOCK_IO,
	BV_KERNEL,	/* the module only */
	BV_NR
};

/* The strategies this build runs. */
#ifdef BENCH_HAVE_KERNEL_API
#define BENCH_NR_STRATEGIES	BV_NR
#else
#define BENCH_NR_STRATEGIES	BV_KERNEL
#endif

static const char *const bench_strategy_names[BV_NR] = {
	"none", "explicit", "auto", "auto-explicit", "mainline", "flag",
	"ordered", "unlock-io", "kernel",
};

/* One operation is one outer critical section (see bench_op()). */
enum bench_scenario {
	BS_UNRELATED,
	BS_WRITE1,
	BS_BURST8,
	BS_COND1,
	BS_COND10,
	BS_COND100,
	BS_OUTSIDE,
	BS_NESTED,
	BS_NR
};

static const char *const bench_scenario_names[BS_NR] = {
	"unrelated", "write1", "burst8", "cond1", "cond10", "cond100",
	"outside", "nested",
};

enum bench_kind { BK_ARCH, BK_MB, BK_NR };

static const char *const bench_kind_names[] = { "arch", "mb" };

/*
 * The conditional scenarios index a pattern of BENCH_PATTERN_LEN sections,
 * of which exactly 1%, 10% or 100% store: fixed, spread by a fixed-seed
 * generator so that the branch predictor cannot learn it.
 */
#define BENCH_PATTERN_LEN	1000
#define BENCH_BURST		8

struct bench_ctx {
	raw_spinlock_t io_lock;		/* protects the "device" */
	raw_spinlock_t other_lock;	/* unrelated to MMIO */
	void __iomem *mmio;		/* ordinary memory: CPU cost only */
	unsigned long barriers;		/* counting loops only */
	unsigned char pattern[3][BENCH_PATTERN_LEN];	/* cond1/10/100 */
};

/* Fill the patterns deterministically (a fixed-seed LCG shuffle). */
static inline void bench_init_patterns(struct bench_ctx *c)
{
	static const unsigned int percent[3] = { 1, 10, 100 };
	unsigned int seed = 20061117, p, i, j;
	unsigned char t;

	for (p = 0; p < 3; p++) {
		for (i = 0; i < BENCH_PATTERN_LEN; i++)
			c->pattern[p][i] = i < BENCH_PATTERN_LEN / 100 * percent[p];
		for (i = BENCH_PATTERN_LEN - 1; i > 0; i--) {
			seed = seed * 1103515245 + 12345;
			j = (seed >> 8) % (i + 1);
			t = c->pattern[p][i];
			c->pattern[p][i] = c->pattern[p][j];
			c->pattern[p][j] = t;
		}
	}
}

/*
 * Whether the kernel tracks stores and counts the barriers of the "auto"
 * unlock in its auto_barriers statistic.
 */
#define BENCH_CORE_COUNTS	IS_ENABLED(CONFIG_MMIOWB)

/* A class-1 store is pending on this CPU: the "auto" unlock runs the barrier. */
static __always_inline bool bench_pending(void)
{
#ifdef CONFIG_MMIOWB
	return __mmiowb_state()->mmiowb_pending;
#else
	return false;
#endif
}

/* asm-generic/mmiowb_types.h and asm-generic/mmiowb.h, Linux 6.12. */
struct bench_mmiowb_state {
	u16 nesting_count;
	u16 mmiowb_pending;
};

static DEFINE_PER_CPU(struct bench_mmiowb_state, bench_mmiowb_state);
static DEFINE_PER_CPU(u8, bench_flag);

/* The barrier of the strategies implemented here. */
static __always_inline void bench_wb(struct bench_ctx *c, const int kind,
				     const bool count)
{
	if (kind == BK_ARCH)
		arch_io_to_lock_wb();
	else
		mb();	/* stands for a weakly ordered CPU's io_to_lock_wb() */
	if (count)
		c->barriers++;
}

/* The project's io_to_lock_wb(), or its "mb" version. */
static __always_inline void bench_io_to_lock_wb(struct bench_ctx *c,
						const int kind, const bool count)
{
	if (kind == BK_ARCH) {
		io_to_lock_wb();
	} else {
		mb();	/* stands for a weakly ordered CPU's io_to_lock_wb() */
		mmio_ordering_flushed();
	}
	if (count)
		c->barriers++;
}

static __always_inline bool bench_real_hooks(const int v)
{
	return v == BV_AUTO || v == BV_AUTO_EXPLICIT || v == BV_KERNEL;
}

static __always_inline void bench_lock(raw_spinlock_t *l, const int v)
{
#ifdef BENCH_HAVE_KERNEL_API
	if (v == BV_KERNEL) {
		raw_spin_lock(l);
		return;
	}
#endif
	arch_spin_lock(&l->raw_lock);
	if (v == BV_AUTO || v == BV_AUTO_EXPLICIT) {
		mmiowb_spin_lock();
		mmio_ordering_lock(l, MMIO_ORDERING_SPIN, _THIS_IP_);
	} else if (v == BV_MAINLINE) {
		raw_cpu_ptr(&bench_mmiowb_state)->nesting_count++;
	}
}

/*
 * @io: the lock protects MMIO (matters to "unlock-io" only, which would use
 * spin_unlock_io() for such locks and spin_unlock() for the others).
 */
static __always_inline void bench_unlock(struct bench_ctx *c, raw_spinlock_t *l,
					 const int v, const int kind,
					 const bool io, const bool count)
{
	struct bench_mmiowb_state *ms;
	struct mmiowb_state *state __maybe_unused;

	/*
	 * The real "auto" unlock runs the barrier in the core: count it by
	 * looking at the state it tests (the module checks the total against
	 * the core's own auto_barriers counter, where it keeps one).
	 */
	if (count && bench_real_hooks(v) && v != BV_AUTO_EXPLICIT &&
	    bench_pending())
		c->barriers++;

	switch (v) {
#ifdef BENCH_HAVE_KERNEL_API
	case BV_KERNEL:
		raw_spin_unlock(l);
		return;
#endif
	case BV_AUTO:
		mmio_ordering_unlock(l, MMIO_ORDERING_SPIN);
		if (kind == BK_ARCH) {
			mmiowb_spin_unlock();
			break;
		}
		/*
		 * mmiowb_spin_unlock() with mb() inline in its slow path, as
		 * if io_to_lock_wb() were mb() (no strategy test or count:
		 * the strategy is "auto" here).
		 */
#ifdef CONFIG_MMIOWB
		state = __mmiowb_state();
		if (mmiowb_tracking()) {
			if (unlikely(state->mmiowb_pending)) {
				state->mmiowb_pending = 0;
				mb();	/* as above */
			}
			state->nesting_count--;
		}
#endif
		break;
	case BV_AUTO_EXPLICIT:
		mmio_ordering_unlock(l, MMIO_ORDERING_SPIN);
		mmiowb_spin_unlock();
		break;
	case BV_MAINLINE:
		ms = raw_cpu_ptr(&bench_mmiowb_state);
		if (unlikely(ms->mmiowb_pending)) {
			ms->mmiowb_pending = 0;
			bench_wb(c, kind, count);
		}
		ms->nesting_count--;
		break;
	case BV_FLAG:
		if (unlikely(raw_cpu_read(bench_flag))) {
			raw_cpu_write(bench_flag, 0);
			bench_wb(c, kind, count);
		}
		break;
	case BV_UNLOCK_IO:
		if (io)
			bench_wb(c, kind, count);
		break;
	}
	arch_spin_unlock(&l->raw_lock);
}

/* A class-1 store: writel(). */
static __always_inline void bench_writel(struct bench_ctx *c, u32 val,
					 void __iomem *addr, const int v,
					 const int kind, const bool count)
{
	struct bench_mmiowb_state *ms;

	if (bench_real_hooks(v)) {
		writel(val, addr);
		return;
	}
	bench_plain_writel(val, addr);
	switch (v) {
	case BV_MAINLINE:
		/* mmiowb_set_pending(), called by __io_aw() */
		ms = raw_cpu_ptr(&bench_mmiowb_state);
		if (likely(ms->nesting_count))
			ms->mmiowb_pending = ms->nesting_count;
		break;
	case BV_FLAG:
		raw_cpu_write(bench_flag, 1);
		break;
	case BV_ORDERED:
		bench_wb(c, kind, count);
		break;
	}
}

/* A class-2 store: writel_relaxed(). */
static __always_inline void bench_writel_relaxed(u32 val, void __iomem *addr,
						 const int v)
{
	if (bench_real_hooks(v))
		writel_relaxed(val, addr);
	else
		bench_plain_writel_relaxed(val, addr);
}

/* The barrier correct code puts after class-1 stores, before the unlock. */
static __always_inline void bench_wb_after_ordered(struct bench_ctx *c, const int v,
						   const int kind, const bool count)
{
	if (v == BV_EXPLICIT)
		bench_wb(c, kind, count);
	else if (v == BV_AUTO_EXPLICIT)
		bench_io_to_lock_wb(c, kind, count);
}

/* The barrier correct code puts after class-2 stores, before the unlock. */
static __always_inline void bench_wb_after_relaxed(struct bench_ctx *c, const int v,
						   const int kind, const bool count)
{
	if (v == BV_NONE || v == BV_UNLOCK_IO)
		return;
	if (bench_real_hooks(v))
		bench_io_to_lock_wb(c, kind, count);
	else
		bench_wb(c, kind, count);
}

/* A critical section that may store, if @store, once. */
static __always_inline void bench_section(struct bench_ctx *c, bool store,
					  const int v, const int kind,
					  const bool count)
{
	bench_lock(&c->io_lock, v);
	if (store) {
		bench_writel(c, 1, c->mmio, v, kind, count);
		bench_wb_after_ordered(c, v, kind, count);
	}
	bench_unlock(c, &c->io_lock, v, kind, true, count);
}

/* One operation of scenario @s; @i indexes the conditional patterns. */
static __always_inline void bench_op(struct bench_ctx *c, unsigned int i,
				     const int s, const int v, const int kind,
				     const bool count)
{
	int j;

	switch (s) {
	case BS_UNRELATED:
		bench_lock(&c->other_lock, v);
		bench_unlock(c, &c->other_lock, v, kind, false, count);
		break;
	case BS_WRITE1:
		bench_section(c, true, v, kind, count);
		break;
	case BS_BURST8:
		bench_lock(&c->io_lock, v);
		for (j = 0; j < BENCH_BURST; j++)
			bench_writel_relaxed(j, c->mmio + 4 * j, v);
		bench_wb_after_relaxed(c, v, kind, count);
		bench_unlock(c, &c->io_lock, v, kind, true, count);
		break;
	case BS_COND1:
	case BS_COND10:
	case BS_COND100:
		bench_section(c, c->pattern[s - BS_COND1][i], v, kind, count);
		break;
	case BS_OUTSIDE:
		bench_writel(c, 1, c->mmio, v, kind, count);
		bench_lock(&c->other_lock, v);
		bench_unlock(c, &c->other_lock, v, kind, false, count);
		break;
	case BS_NESTED:
		/* A store, then an unrelated (stats) lock inside the section. */
		bench_lock(&c->io_lock, v);
		bench_writel(c, 1, c->mmio, v, kind, count);
		bench_lock(&c->other_lock, v);
		bench_unlock(c, &c->other_lock, v, kind, false, count);
		bench_wb_after_ordered(c, v, kind, count);
		bench_unlock(c, &c->io_lock, v, kind, true, count);
		break;
	}
}

/* @n operations of scenario @s. */
static __always_inline void bench_loop(struct bench_ctx *c, unsigned long n,
				       const int s, const int v, const int kind,
				       const bool count)
{
	unsigned int i = 0;

	while (n--) {
		bench_op(c, i, s, v, kind, count);
		if (++i == BENCH_PATTERN_LEN)
			i = 0;
	}
}

static __always_inline void bench_dispatch(struct bench_ctx *c, int s,
					   unsigned long n, const int v,
					   const int kind, const bool count)
{
	switch (s) {
	case BS_UNRELATED:
		bench_loop(c, n, BS_UNRELATED, v, kind, count);
		break;
	case BS_WRITE1:
		bench_loop(c, n, BS_WRITE1, v, kind, count);
		break;
	case BS_BURST8:
		bench_loop(c, n, BS_BURST8, v, kind, count);
		break;
	case BS_COND1:
		bench_loop(c, n, BS_COND1, v, kind, count);
		break;
	case BS_COND10:
		bench_loop(c, n, BS_COND10, v, kind, count);
		break;
	case BS_COND100:
		bench_loop(c, n, BS_COND100, v, kind, count);
		break;
	case BS_OUTSIDE:
		bench_loop(c, n, BS_OUTSIDE, v, kind, count);
		break;
	case BS_NESTED:
		bench_loop(c, n, BS_NESTED, v, kind, count);
		break;
	}
}

/*
 * bench_run_<strategy>_<kind>_<count>(ctx, scenario, n): each strategy,
 * kind and mode (timed: 0, counting: 1) is its own function, so that the
 * timed loops hold only that strategy's code. Flattened: in functions this
 * large GCC would otherwise call out-of-line copies of writel() or of
 * arm64's __kern_my_cpu_offset() for some strategies and not for others,
 * where a driver's small function inlines them.
 */
#define BENCH_DEFINE_RUNS(v)						\
static noinline __flatten void						\
bench_run_##v##_ARCH_0(struct bench_ctx *c, int s, unsigned long n)	\
{									\
	bench_dispatch(c, s, n, BV_##v, BK_ARCH, false);		\
}									\
static noinline __flatten void						\
bench_run_##v##_ARCH_1(struct bench_ctx *c, int s, unsigned long n)	\
{									\
	bench_dispatch(c, s, n, BV_##v, BK_ARCH, true);			\
}									\
static noinline __flatten void						\
bench_run_##v##_MB_0(struct bench_ctx *c, int s, unsigned long n)	\
{									\
	bench_dispatch(c, s, n, BV_##v, BK_MB, false);			\
}									\
static noinline __flatten void						\
bench_run_##v##_MB_1(struct bench_ctx *c, int s, unsigned long n)	\
{									\
	bench_dispatch(c, s, n, BV_##v, BK_MB, true);			\
}

BENCH_DEFINE_RUNS(NONE)
BENCH_DEFINE_RUNS(EXPLICIT)
BENCH_DEFINE_RUNS(AUTO)
BENCH_DEFINE_RUNS(AUTO_EXPLICIT)
BENCH_DEFINE_RUNS(MAINLINE)
BENCH_DEFINE_RUNS(FLAG)
BENCH_DEFINE_RUNS(ORDERED)
BENCH_DEFINE_RUNS(UNLOCK_IO)
#ifdef BENCH_HAVE_KERNEL_API
BENCH_DEFINE_RUNS(KERNEL)
#endif

typedef void (*bench_run_fn)(struct bench_ctx *c, int s, unsigned long n);

/* bench_runs[strategy][kind][count] */
#define BENCH_RUN_ROW(v)						\
	[BV_##v] = {							\
		{ bench_run_##v##_ARCH_0, bench_run_##v##_ARCH_1 },	\
		{ bench_run_##v##_MB_0, bench_run_##v##_MB_1 },		\
	}

static const bench_run_fn bench_runs[BV_NR][BK_NR][2] = {
	BENCH_RUN_ROW(NONE),
	BENCH_RUN_ROW(EXPLICIT),
	BENCH_RUN_ROW(AUTO),
	BENCH_RUN_ROW(AUTO_EXPLICIT),
	BENCH_RUN_ROW(MAINLINE),
	BENCH_RUN_ROW(FLAG),
	BENCH_RUN_ROW(ORDERED),
	BENCH_RUN_ROW(UNLOCK_IO),
#ifdef BENCH_HAVE_KERNEL_API
	BENCH_RUN_ROW(KERNEL),
#endif
};

#endif /* _MMIO_ORDERING_BENCH_H */
