// SPDX-License-Identifier: GPL-2.0
/*
 * MMIO ordering benchmark module: times every strategy of
 * mmio_ordering_bench.h on every scenario, in one run, and counts the
 * barriers each one executes.
 *
 * It is not part of the kernel series: it re-implements mainline's
 * asm-generic/mmiowb.h and the other alternatives to compare them. It is
 * built out of tree (see Kbuild) against a kernel with CONFIG_MMIO_ORDERING,
 * CONFIG_MODULES and CONFIG_DEBUG_FS, and uses only what
 * <linux/mmio_ordering.h> and the core export to modules.
 *
 * Interface, in /sys/kernel/debug/mmio_ordering_bench/:
 *   repetitions  timed runs of each (strategy, kind, scenario); default 11
 *   target_us    length of one timed run, in microseconds; default 2000
 *   strategies   bitmask of the strategies to run (bit = enum position)
 *   kinds        bitmask of the barrier kinds: 1 arch, 2 mb
 *   run          write anything: run the benchmark (takes a while)
 *   results      the last run's results, one "key=value" record a line
 *
 * Sleeping locks are timed apart: the kernel's own mutex_trylock() and
 * mutex_unlock() (trylock, so that interrupts can stay off), with no store
 * ("unlocked") or one writel() ("write1"): under "auto", where
 * mutex_unlock() runs the barrier; under "explicit" with io_to_lock_wb()
 * before the unlock; and, as the unsafe floor ("none"), under "explicit"
 * with the store in mmio_unordered().
 *
 * Each timed run has interrupts off. The "device" is ordinary memory, so
 * the figures are the CPU cost of each strategy, not the device's latency.
 * The strategy of the whole kernel is switched to "explicit" while the
 * auto-explicit strategy runs, then restored. In a kernel booted with
 * "explicit" that turned the tracking off, "auto" cannot be selected: the
 * meta line says tracking=0, and "auto" times the patched-out hooks.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/io.h>
#include <linux/irqflags.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>
#include <linux/utsname.h>

#if !IS_ENABLED(CONFIG_MMIO_ORDERING)
#error "the benchmark needs a kernel with CONFIG_MMIO_ORDERING"
#endif
#if !IS_ENABLED(CONFIG_DEBUG_FS)
#error "the benchmark needs a kernel with CONFIG_DEBUG_FS, its interface"
#endif

/*
 * writel() and writel_relaxed() without the tracking hooks: what they
 * compile to with CONFIG_MMIO_ORDERING off.
 */
#ifdef CONFIG_X86
#define bench_plain_writel(v, a)		__arch_writel(v, a)
#define bench_plain_writel_relaxed(v, a)	__raw_writel(v, a)
#else
/* asm-generic/io.h: __io_bw() before the store; __io_aw() is the hook. */
#define bench_plain_writel(v, a)					\
	do {								\
		__io_bw();						\
		__raw_writel((u32 __force)cpu_to_le32(v), a);		\
	} while (0)
#define bench_plain_writel_relaxed(v, a)				\
	__raw_writel((u32 __force)cpu_to_le32(v), a)
#endif

#define BENCH_HAVE_KERNEL_API
#include "mmio_ordering_bench.h"

#define BENCH_MAX_REPS		101
#define BENCH_RESULTS_SIZE	(64 * 1024)

static u32 bench_reps = 11;
static u32 bench_target_us = 2000;
static u32 bench_strategies = (1U << BV_NR) - 1;
static u32 bench_kinds = (1U << BK_NR) - 1;

static DEFINE_MUTEX(bench_mutex);
static char *bench_results;
static size_t bench_results_len;

/* The sleeping-lock scenarios and the kernel strategies they run under. */
enum { BSL_UNLOCKED, BSL_WRITE1, BSL_NR };
static const char *const bench_sleep_names[BSL_NR] = { "unlocked", "write1" };
enum { BSL_AUTO, BSL_EXPLICIT, BSL_NONE, BSL_NR_STRATEGIES };
static const char *const bench_sleep_strategy_names[] = { "auto", "explicit", "none" };

struct bench_data {
	struct bench_ctx ctx;
	struct mutex sleep_mutex;
	unsigned long sleep_ops;
	u64 sleep_ps[BSL_NR_STRATEGIES][BSL_NR][BENCH_MAX_REPS];
	unsigned long sleep_barriers[BSL_NR_STRATEGIES][BSL_NR];
	u64 mmio[BENCH_BURST];
	unsigned long ops[BS_NR];
	/* Picoseconds per operation of each timed run. */
	u64 ps[BV_NR][BK_NR][BS_NR][BENCH_MAX_REPS];
	unsigned long barriers[BV_NR][BK_NR][BS_NR];
};

static bool bench_enabled(int v, int kind)
{
	if (!(bench_strategies & BIT(v)) || !(bench_kinds & BIT(kind)))
		return false;
	/* The kernel's own unlock runs arch_io_to_lock_wb() only. */
	return !(v == BV_KERNEL && kind != BK_ARCH);
}

static void bench_set_strategy(int v)
{
	mmio_ordering_set_strategy(v == BV_AUTO_EXPLICIT ? MMIO_ORDERING_EXPLICIT :
							   MMIO_ORDERING_AUTO);
}

/* Time @n operations, interrupts off; returns nanoseconds. */
static u64 bench_time(struct bench_data *d, int v, int kind, int s,
		      unsigned long n)
{
	unsigned long flags;
	u64 t0, t1;

	local_irq_save(flags);
	t0 = ktime_get_ns();
	bench_runs[v][kind][0](&d->ctx, s, n);
	t1 = ktime_get_ns();
	local_irq_restore(flags);
	return t1 - t0;
}

/* This CPU's auto_barriers counter, where the kernel keeps one. */
static unsigned long bench_core_barriers(void)
{
#ifdef CONFIG_MMIOWB
	return __mmiowb_state()->auto_barriers;
#else
	return 0;
#endif
}

/*
 * Time @n mutex sections of scenario @s, interrupts off; returns
 * nanoseconds and adds the barriers this CPU's auto_barriers counter saw.
 */
static u64 bench_sleep_time(struct bench_data *d, int v, int s, unsigned long n,
			    unsigned long *barriers)
{
	unsigned long flags, b, i;
	u64 t0, t1;

	mmio_ordering_set_strategy(v == BSL_AUTO ? MMIO_ORDERING_AUTO :
						   MMIO_ORDERING_EXPLICIT);
	local_irq_save(flags);
	/*
	 * A writel() of an earlier run, made outside any lock, is still
	 * marked for the next sleeping-lock release: not this run's.
	 */
	io_to_lock_wb();
	b = bench_core_barriers();
	t0 = ktime_get_ns();
	for (i = 0; i < n; i++) {
		if (!mutex_trylock(&d->sleep_mutex))
			break;
		if (s == BSL_WRITE1 && v == BSL_AUTO) {
			writel(i, d->ctx.mmio);
		} else if (s == BSL_WRITE1 && v == BSL_EXPLICIT) {
			writel(i, d->ctx.mmio);
			io_to_lock_wb();
		} else if (s == BSL_WRITE1) {
			mmio_unordered(writel(i, d->ctx.mmio));
		}
		mutex_unlock(&d->sleep_mutex);
	}
	t1 = ktime_get_ns();
	*barriers += bench_core_barriers() - b;
	local_irq_restore(flags);
	return t1 - t0;
}

/*
 * Whether the kernel tracks: it builds the tracking (CONFIG_MMIOWB) and
 * "explicit" at boot did not turn it off, which makes "auto" unavailable.
 */
static bool bench_tracking(void)
{
	return BENCH_CORE_COUNTS &&
	       mmio_ordering_set_strategy(MMIO_ORDERING_AUTO) != -EBUSY;
}

/*
 * Barriers per mutex section the core must run: one after a writel() under
 * "auto", where the kernel tracks; else none.
 */
static unsigned int bench_sleep_expect(bool tracking, int v, int s)
{
	return tracking && s == BSL_WRITE1 && v == BSL_AUTO;
}

/* Operations per timed run: @target_us of the floor, a pattern multiple. */
static unsigned long bench_calibrate(struct bench_data *d, int s)
{
	u64 target = (u64)bench_target_us * NSEC_PER_USEC, t;
	unsigned long n = BENCH_PATTERN_LEN;

	for (;;) {
		t = bench_time(d, BV_NONE, BK_ARCH, s, n);
		if (t >= target / 4 || n > ULONG_MAX / 8)
			break;
		n *= 2;
	}
	n = div64_u64((u64)n * target, max_t(u64, t, 1));
	return max_t(unsigned long, roundup(n, BENCH_PATTERN_LEN), BENCH_PATTERN_LEN);
}

static int bench_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static size_t bench_emit(struct bench_data *d, char *buf, size_t size,
			 unsigned int reps, bool tracking, u64 expect)
{
	enum mmio_ordering_strategy strategy = mmio_ordering_get_strategy();
	size_t len = 0;
	int v, k, s;
	u64 tmp[BENCH_MAX_REPS];

	len += scnprintf(buf + len, size - len,
			 "meta arch=%s checker=%d core_counts=%d tracking=%d default_strategy=%s reps=%u target_us=%u pattern=%d\n",
			 init_utsname()->machine,
			 IS_ENABLED(CONFIG_DEBUG_MMIO_ORDERING), BENCH_CORE_COUNTS, tracking,
			 strategy == MMIO_ORDERING_AUTO ? "auto" : "explicit",
			 reps, bench_target_us, BENCH_PATTERN_LEN);
	for (s = 0; s < BS_NR; s++) {
		for (k = 0; k < BK_NR; k++) {
			for (v = 0; v < BV_NR; v++) {
				if (!bench_enabled(v, k))
					continue;
				memcpy(tmp, d->ps[v][k][s], reps * sizeof(u64));
				sort(tmp, reps, sizeof(u64), bench_cmp_u64, NULL);
				len += scnprintf(buf + len, size - len,
						 "row strategy=%s kind=%s scenario=%s ops=%lu reps=%u min_ps=%llu median_ps=%llu max_ps=%llu barriers=%lu count_ops=%d\n",
						 bench_strategy_names[v], bench_kind_names[k],
						 bench_scenario_names[s], d->ops[s], reps,
						 tmp[0], tmp[reps / 2], tmp[reps - 1],
						 d->barriers[v][k][s], BENCH_PATTERN_LEN);
			}
		}
	}
	for (s = 0; s < BSL_NR; s++) {
		for (v = 0; v < BSL_NR_STRATEGIES; v++) {
			memcpy(tmp, d->sleep_ps[v][s], reps * sizeof(u64));
			sort(tmp, reps, sizeof(u64), bench_cmp_u64, NULL);
			len += scnprintf(buf + len, size - len,
					 "sleep lock=mutex strategy=%s scenario=%s ops=%lu reps=%u min_ps=%llu median_ps=%llu max_ps=%llu barriers=%lu expect_per_op=%u\n",
					 bench_sleep_strategy_names[v], bench_sleep_names[s],
					 d->sleep_ops, reps, tmp[0], tmp[reps / 2],
					 tmp[reps - 1], d->sleep_barriers[v][s],
					 bench_sleep_expect(tracking, v, s));
		}
	}
	len += scnprintf(buf + len, size - len,
			 "expect auto_barriers=%llu\nend\n", expect);
	return len;
}

static int bench_run(void)
{
	enum mmio_ordering_strategy old = mmio_ordering_get_strategy();
	unsigned int reps = clamp_t(u32, bench_reps, 1, BENCH_MAX_REPS);
	bool tracking = bench_tracking();
	struct bench_data *d;
	int v, k, s, r;
	u64 expect = 0;
	char *buf;

	d = kvzalloc(sizeof(*d), GFP_KERNEL);
	buf = kvmalloc(BENCH_RESULTS_SIZE, GFP_KERNEL);
	if (!d || !buf) {
		kvfree(d);
		kvfree(buf);
		return -ENOMEM;
	}
	raw_spin_lock_init(&d->ctx.io_lock);
	raw_spin_lock_init(&d->ctx.other_lock);
	d->ctx.mmio = (void __iomem __force *)d->mmio;
	bench_init_patterns(&d->ctx);

	for (s = 0; s < BS_NR; s++)
		d->ops[s] = bench_calibrate(d, s);
	mutex_init(&d->sleep_mutex);
	d->sleep_ops = d->ops[BS_WRITE1];

	/* Timed runs: every strategy and kind in turn within each repetition. */
	for (r = 0; r < reps; r++) {
		for (s = 0; s < BS_NR; s++) {
			for (k = 0; k < BK_NR; k++) {
				for (v = 0; v < BV_NR; v++) {
					if (!bench_enabled(v, k))
						continue;
					bench_set_strategy(v);
					d->ps[v][k][s][r] =
						div64_ul(bench_time(d, v, k, s, d->ops[s]) * 1000,
							 d->ops[s]);
				}
			}
			cond_resched();
		}
		for (s = 0; s < BSL_NR; s++) {
			for (v = 0; v < BSL_NR_STRATEGIES; v++) {
				d->sleep_ps[v][s][r] =
					div64_ul(bench_sleep_time(d, v, s, d->sleep_ops,
								  &d->sleep_barriers[v][s]) * 1000,
						 d->sleep_ops);
			}
		}
	}

	/*
	 * Counting runs: one pattern's worth of operations each, interrupts
	 * off as when timed. An interrupt handler's unlock between a store
	 * and the count's look at the pending flag would take its barrier.
	 */
	for (s = 0; s < BS_NR; s++) {
		for (k = 0; k < BK_NR; k++) {
			for (v = 0; v < BV_NR; v++) {
				unsigned long flags;

				if (!bench_enabled(v, k))
					continue;
				bench_set_strategy(v);
				d->ctx.barriers = 0;
				local_irq_save(flags);
				bench_runs[v][k][1](&d->ctx, s, BENCH_PATTERN_LEN);
				local_irq_restore(flags);
				d->barriers[v][k][s] = d->ctx.barriers;
			}
		}
	}
	mmio_ordering_set_strategy(old);
	for (s = 0; s < BSL_NR; s++) {
		for (v = 0; v < BSL_NR_STRATEGIES; v++)
			expect += (u64)bench_sleep_expect(tracking, v, s) * d->sleep_ops * reps;
	}

	/*
	 * Barriers the core's out-of-line slow path ran for the "auto" and
	 * "kernel" strategies (kind "arch"), to check against its
	 * auto_barriers counter; the explicit io_to_lock_wb() calls that
	 * bench_io_to_lock_wb() counted do not go through it.
	 */
	for (s = 0; s < BS_NR; s++) {
		for (v = 0; v < BV_NR; v++) {
			unsigned long slow = d->barriers[v][BK_ARCH][s];

			if ((v != BV_AUTO && v != BV_KERNEL) || !bench_enabled(v, BK_ARCH))
				continue;
			if (s == BS_BURST8)
				slow = 0;	/* the explicit io_to_lock_wb() */
			expect += div_u64((u64)slow * (d->ops[s] * reps + BENCH_PATTERN_LEN),
					  BENCH_PATTERN_LEN);
		}
	}

	mutex_lock(&bench_mutex);
	kvfree(bench_results);
	bench_results_len = bench_emit(d, buf, BENCH_RESULTS_SIZE, reps, tracking, expect);
	bench_results = buf;
	mutex_unlock(&bench_mutex);
	kvfree(d);
	return 0;
}

static ssize_t run_write(struct file *file, const char __user *ubuf,
			 size_t count, loff_t *ppos)
{
	/*
	 * Not a mutex: the checker tracks a task's stores made under one,
	 * and "outside" would time a store under a lock.
	 */
	static atomic_t running = ATOMIC_INIT(0);
	int ret;

	if (atomic_cmpxchg(&running, 0, 1))
		return -EBUSY;
	ret = bench_run();
	atomic_set_release(&running, 0);
	return ret ? ret : count;
}

static const struct file_operations run_fops = {
	.owner = THIS_MODULE,
	.write = run_write,
	.llseek = noop_llseek,
};

static ssize_t results_read(struct file *file, char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	ssize_t ret;

	mutex_lock(&bench_mutex);
	ret = simple_read_from_buffer(ubuf, count, ppos, bench_results,
				      bench_results_len);
	mutex_unlock(&bench_mutex);
	return ret;
}

static const struct file_operations results_fops = {
	.owner = THIS_MODULE,
	.read = results_read,
	.llseek = default_llseek,
};

static struct dentry *bench_dir;

static int __init mmio_ordering_bench_init(void)
{
	bench_dir = debugfs_create_dir("mmio_ordering_bench", NULL);
	debugfs_create_u32("repetitions", 0644, bench_dir, &bench_reps);
	debugfs_create_u32("target_us", 0644, bench_dir, &bench_target_us);
	debugfs_create_x32("strategies", 0644, bench_dir, &bench_strategies);
	debugfs_create_x32("kinds", 0644, bench_dir, &bench_kinds);
	debugfs_create_file("run", 0200, bench_dir, NULL, &run_fops);
	debugfs_create_file("results", 0444, bench_dir, NULL, &results_fops);
	return 0;
}

static void __exit mmio_ordering_bench_exit(void)
{
	debugfs_remove_recursive(bench_dir);
	kvfree(bench_results);
}

module_init(mmio_ordering_bench_init);
module_exit(mmio_ordering_bench_exit);
MODULE_DESCRIPTION("Benchmark of the MMIO ordering strategies");
MODULE_LICENSE("GPL");
