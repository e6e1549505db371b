// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for MMIO ordering tracking and its checker.
 *
 * The "device" is ordinary memory: every accessor under test is a plain
 * store on it, but goes through the same hooks as on a real mapping. Reports
 * are matched as printed, through the console tracepoint, like the KCSAN
 * and KFENCE tests do.
 */

#include <kunit/test.h>
#include <linux/bit_spinlock.h>
#include <linux/console.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/interrupt.h>
#include <linux/io.h>
#include <linux/irq_work.h>
#include <linux/kallsyms.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/logic_iomem.h>
#include <linux/mutex.h>
#include <linux/rtmutex.h>
#include <linux/rwsem.h>
#include <linux/semaphore.h>
#include <linux/serial_core.h>
#include <linux/slab.h>
#include <linux/seq_file.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <linux/workqueue.h>
#include <trace/events/printk.h>
#ifdef CONFIG_X86
#include <asm/memtype.h>
#include <asm/set_memory.h>
#endif

#include "mmio_ordering.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define NLINES 64
#define NTITLES 8
/* Distinct buggy functions of the burst tests. */
#define NBURST 100

static DEFINE_SPINLOCK(test_lock);
static DEFINE_SPINLOCK(inner_lock);
/* Taken in hard interrupt context only. */
static DEFINE_RAW_SPINLOCK(irq_lock);
/*
 * Also the locks of the tests that count this CPU's barriers with
 * interrupts off: spinlock_t may sleep there on PREEMPT_RT.
 */
static DEFINE_RAW_SPINLOCK(test_raw_lock);
static DEFINE_RAW_SPINLOCK(inner_raw_lock);
static DEFINE_RWLOCK(test_rwlock);
/* Bit 3 of its second word: the report names the word and the bit. */
static unsigned long test_bit_lock[2];
#define TEST_BIT_LOCK	(BITS_PER_LONG + 3)
static DEFINE_MUTEX(test_mutex);
static DEFINE_MUTEX(inner_mutex);
static DECLARE_RWSEM(test_rwsem);
static DEFINE_SEMAPHORE(test_sem, 1);
static struct semaphore test_pool, test_event;
#ifdef CONFIG_RT_MUTEXES
static DEFINE_RT_MUTEX(test_rt_mutex);
#endif
static DEFINE_SPINLOCK(ctx_task_lock);
static DEFINE_SPINLOCK(ctx_softirq_lock);
static DEFINE_RAW_SPINLOCK(ctx_hardirq_lock);
/* Taken with interrupts off only. */
static DEFINE_RAW_SPINLOCK(burst_lock);
static struct uart_port fake_port;

/*
 * Reports about the tests' own locks, as printed: the lines of the first
 * one since the test started and the titles of the first NTITLES. Reports
 * about other locks (drivers running meanwhile) are ignored. Also the last
 * line logging a rejected parameter value.
 */
static struct {
	raw_spinlock_t lock;	/* protects the rest; taken by the console probe */
	int nreports;
	int nlines;
	char lines[NLINES][256];
	char titles[NTITLES][256];
	int nrejected;
	char rejected[256];
	/* The last lines saying pairs were not printed, or not recorded. */
	int nnot_printed;
	char not_printed[256];
	char not_recorded[256];
	/* Every report title, and how often each burst_store_N was named. */
	int ntitles_all;
	u8 burst[NBURST];
	/* The report being printed. */
	int ncur;
	char cur[NLINES][256];
} observed = {
	.lock = __RAW_SPIN_LOCK_UNLOCKED(observed.lock),
};

static bool about_test_lock(char (*lines)[256], int n)
{
	const void *const locks[] = {
		&test_lock, &inner_lock, &irq_lock, &test_raw_lock, &inner_raw_lock,
		&ctx_task_lock, &ctx_softirq_lock, &ctx_hardirq_lock, &fake_port.lock,
		&burst_lock,
		&test_rwlock, &test_bit_lock[1], &test_mutex, &inner_mutex,
		&test_rwsem, &test_sem, &test_pool, &test_event,
#ifdef CONFIG_RT_MUTEXES
		&test_rt_mutex,
#endif
	};
	static const char *const unlocks[] = {
		"spin_unlock", "read_unlock", "write_unlock", "bit_spin_unlock",
		"mutex_unlock", "rt_mutex_unlock", "up_write", "downgrade_write",
		"up()",
	};
	char addr[24];
	int i, j, k;

	for (i = 0; i < ARRAY_SIZE(locks); i++) {
		scnprintf(addr, sizeof(addr), "0x%px", locks[i]);
		for (j = 0; j < n; j++) {
			if (!strstr(lines[j], addr))
				continue;
			for (k = 0; k < ARRAY_SIZE(unlocks); k++) {
				if (str_has_prefix(lines[j], unlocks[k]))
					return true;
			}
		}
	}
	return false;
}

static void probe_console(void *ignore, const char *buf, size_t len)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&observed.lock, flags);
	if (strnstr(buf, "mmio_ordering: ", len) && strnstr(buf, "invalid value", len)) {
		observed.nrejected++;
		strscpy(observed.rejected, buf, min(len + 1, sizeof(observed.rejected)));
		goto out;
	}
	if (strnstr(buf, "mmio_ordering: ", len) && strnstr(buf, " pairs not printed,", len)) {
		observed.nnot_printed++;
		strscpy(observed.not_printed, buf, min(len + 1, sizeof(observed.not_printed)));
		goto out;
	}
	if (strnstr(buf, "mmio_ordering: ", len) && strnstr(buf, " pairs not recorded:", len)) {
		strscpy(observed.not_recorded, buf, min(len + 1, sizeof(observed.not_recorded)));
		goto out;
	}
	if (strnstr(buf, "BUG: MMIO-ORDERING: ", len)) {
		const char *b = strnstr(buf, " in burst_store_", len);
		unsigned int n;

		observed.ntitles_all++;
		if (b && sscanf(b, " in burst_store_%u", &n) == 1 && n < NBURST &&
		    observed.burst[n] < U8_MAX)
			observed.burst[n]++;
		observed.ncur = 0;
	} else if (!observed.ncur || observed.ncur >= NLINES) {
		goto out;
	}
	strscpy(observed.cur[observed.ncur++], buf, min(len + 1, sizeof(observed.cur[0])));
	if (strncmp(buf, "=====", 5))
		goto out;

	/* The closing rule: keep the report if it is about a test lock. */
	if (about_test_lock(observed.cur, observed.ncur)) {
		if (observed.nreports < NTITLES)
			strscpy(observed.titles[observed.nreports], observed.cur[0],
				sizeof(observed.titles[0]));
		if (!observed.nreports++) {
			memcpy(observed.lines, observed.cur, sizeof(observed.lines));
			observed.nlines = observed.ncur;
		}
	}
	observed.ncur = 0;
out:
	raw_spin_unlock_irqrestore(&observed.lock, flags);
}

/*
 * Two fake devices, a page each: the checker keeps one pending store per
 * page. Device A's registers are MMIO(0) on, device B's MMIO(DEV_B) on.
 */
static u32 fake_mmio[2 * PAGE_SIZE / sizeof(u32)] __aligned(PAGE_SIZE);
#define DEV_B	(PAGE_SIZE / sizeof(u32))

#if defined(CONFIG_INDIRECT_IOMEM) && !defined(MODULE)
/*
 * Emulated I/O memory (UML with PCI over virtio): every accessor goes
 * through lib/logic_iomem.c, which takes only registered regions. Register
 * fake_mmio as one, for good: logic_iomem cannot remove a region.
 */
static unsigned long fake_iomem_read(void *priv, unsigned int offset, int size)
{
	unsigned long val = 0;

	memcpy(&val, (u8 *)fake_mmio + offset, size);
	return val;
}

static void fake_iomem_write(void *priv, unsigned int offset, int size,
			     unsigned long val)
{
	memcpy((u8 *)fake_mmio + offset, &val, size);
}

static const struct logic_iomem_ops fake_iomem_ops = {
	.read	= fake_iomem_read,
	.write	= fake_iomem_write,
};

static long fake_iomem_map(unsigned long offset, size_t size,
			   const struct logic_iomem_ops **ops, void **priv)
{
	*ops = &fake_iomem_ops;
	return offset;
}

static const struct logic_iomem_region_ops fake_region_ops = {
	.map	= fake_iomem_map,
};

/* Below virt-pci's config space and I/O memory windows. */
static struct resource fake_resource =
	DEFINE_RES_MEM_NAMED(0xe0000000, sizeof(fake_mmio), "mmio_ordering_test");
static void __iomem *fake_base;

static int map_fake_mmio(void)
{
	int ret;

	if (fake_base)
		return 0;
	ret = logic_iomem_add_region(&fake_resource, &fake_region_ops);
	if (ret)
		return ret;
	fake_base = ioremap(fake_resource.start, sizeof(fake_mmio));
	return fake_base ? 0 : -ENOMEM;
}

#define MMIO(i) (fake_base + (i) * sizeof(u32))
#else
static int map_fake_mmio(void)
{
	return 0;
}

#define MMIO(i) ((void __iomem *)&fake_mmio[i])
#endif

struct counts {
	unsigned long c[MMIO_ORDERING_COUNTER_COUNT];
};

static void snapshot(struct counts *s)
{
	int i;

	for (i = 0; i < MMIO_ORDERING_COUNTER_COUNT; i++)
		s->c[i] = mmio_ordering_counter_read(i);
}

static unsigned long delta(const struct counts *s, enum mmio_ordering_counter_id id)
{
	return mmio_ordering_counter_read(id) - s->c[id];
}

/*
 * Auto barriers counted on this CPU only, with interrupts off, so that other
 * CPUs' and interrupts' locked writel()s do not count.
 */
static unsigned long this_cpu_auto_barriers(void)
{
	return mmio_ordering_this_cpu_counter(MMIO_ORDERING_COUNTER_AUTO_BARRIERS);
}

/*
 * With interrupts off, before counting this CPU's barriers. On PREEMPT_RT a
 * task preempted on this CPU may hold a spinlock_t, counted in the CPU's
 * nesting count, and have left a store pending: order it now, as its
 * unlock would, so that the barriers counted from here are the test's.
 * Returns 1 if such a lock is held: a store made outside any lock is then
 * marked pending too, and the next unlock orders it.
 */
static unsigned int rt_locks_here(void)
{
	struct mmiowb_state *ms = __mmiowb_state();

	if (!IS_ENABLED(CONFIG_PREEMPT_RT) || !ms->nesting_count)
		return 0;
	if (ms->mmiowb_pending) {
		/* That task's MMIO stores, before its unlock. */
		mb();
		ms->mmiowb_pending = 0;
	}
	return 1;
}

/* Print what is pending, then return how many reports were seen. */
static int reports_printed(void)
{
	unsigned long flags;
	int n;

	mmio_ordering_report_flush();
	raw_spin_lock_irqsave(&observed.lock, flags);
	n = observed.nreports;
	raw_spin_unlock_irqrestore(&observed.lock, flags);
	return n;
}

/* The first line of the first report that contains @needle, or -1. */
static int line_index(const char *needle)
{
	int i;

	for (i = 0; i < observed.nlines; i++) {
		if (strstr(observed.lines[i], needle))
			return i;
	}
	return -1;
}

static bool line_contains(const char *needle)
{
	return line_index(needle) >= 0;
}

/* Expect exactly one report, with this title; return its lock line number. */
static void expect_report(struct kunit *test, const char *accessor, const char *unlock,
			  void *store_fn, void *release_fn, const void *lock)
{
	char title[256];
	char lockstr[32];

	KUNIT_ASSERT_EQ(test, reports_printed(), 1);
	scnprintf(title, sizeof(title),
		  "BUG: MMIO-ORDERING: %s() not ordered before %s() in %ps / %ps",
		  accessor, unlock, store_fn, release_fn);
	KUNIT_EXPECT_STREQ(test, observed.lines[0], title);

	/* The store's stack starts at the function that made the store. */
	scnprintf(title, sizeof(title), " %ps+", store_fn);
	KUNIT_EXPECT_TRUE(test, line_contains(title));
	/* The lock is named by address (and by lockdep name when available). */
	scnprintf(lockstr, sizeof(lockstr), "0x%px", lock);
	KUNIT_EXPECT_TRUE(test, line_contains(lockstr));
	KUNIT_EXPECT_TRUE(test, line_contains("Fix: call "));
}

/*
 * Every violation ends in exactly one of reports, pairs_not_printed,
 * suppressed and pair_table_full, and every report is printed. Over a long
 * test other code may add violations of its own (a console driver
 * printing, on arm64); this holds for them too.
 */
static void expect_accounted(struct kunit *test, const struct counts *before,
			     unsigned long injected)
{
	reports_printed();
	KUNIT_EXPECT_EQ(test, delta(before, MMIO_ORDERING_COUNTER_VIOLATIONS) + injected,
			delta(before, MMIO_ORDERING_COUNTER_REPORTS) +
			delta(before, MMIO_ORDERING_COUNTER_NOT_PRINTED) +
			delta(before, MMIO_ORDERING_COUNTER_SUPPRESSED) +
			delta(before, MMIO_ORDERING_COUNTER_TABLE_FULL));
	KUNIT_EXPECT_EQ(test, delta(before, MMIO_ORDERING_COUNTER_REPORTS),
			(unsigned long)READ_ONCE(observed.ntitles_all));
}

static void expect_no_report(struct kunit *test, const struct counts *before)
{
	KUNIT_EXPECT_EQ(test, reports_printed(), 0);
	KUNIT_EXPECT_EQ(test, delta(before, MMIO_ORDERING_COUNTER_VIOLATIONS), 0);
}

/* The unlock API as the report names it: inlined unlocks have no frame. */
#define UNLOCK_NAME(variant, inlined) (IS_ENABLED(inlined) ? "spin_unlock" : variant)
#define UNLOCK	UNLOCK_NAME("spin_unlock", CONFIG_INLINE_SPIN_UNLOCK)
/* PREEMPT_RT's spinlock_t and rwlock_t unlock inline around one function. */
#define SPIN_UNLOCK(variant, inlined)					\
	(IS_ENABLED(CONFIG_PREEMPT_RT) ? "spin_unlock" : UNLOCK_NAME(variant, inlined))
#define READ_UNLOCK(variant, inlined)					\
	(IS_ENABLED(CONFIG_PREEMPT_RT) || IS_ENABLED(inlined) ? "read_unlock" : variant)
#define WRITE_UNLOCK(variant, inlined)					\
	(IS_ENABLED(CONFIG_PREEMPT_RT) || IS_ENABLED(inlined) ? "write_unlock" : variant)

/* ===== Must report ===== */

static void test_relaxed_spin_lock(struct kunit *test)
{
	struct counts before;

	snapshot(&before);
	spin_lock(&test_lock);
	__writel(1, MMIO(0));
	spin_unlock(&test_lock);

	expect_report(test, "__writel", UNLOCK,
		      test_relaxed_spin_lock, test_relaxed_spin_lock, &test_lock);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_VIOLATIONS), 1);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_REPORTS), 1);
	KUNIT_EXPECT_TRUE(test, line_contains("(class 2, relaxed) by task"));
	/* What CI log parsers look for: a labelled trace, the task line. */
	KUNIT_EXPECT_TRUE(test, line_contains("Call Trace:"));
	KUNIT_EXPECT_TRUE(test, line_contains("Reported by MMIO ordering checker on:"));
	KUNIT_EXPECT_TRUE(test, line_contains(" UID: "));
	/* Then, as a WARN() ends: the trace lies before the modules. */
	KUNIT_EXPECT_GT(test, line_index("---[ end trace "), line_index(" UID: "));
	if (IS_ENABLED(CONFIG_MODULES)) {
		KUNIT_EXPECT_GT(test, line_index("Modules linked in:"), line_index(" UID: "));
		KUNIT_EXPECT_GT(test, line_index("---[ end trace "),
				line_index("Modules linked in:"));
	}
}

/*
 * What a CI log relies on: nobody reads debugfs or flushes, and the report
 * work queued at the unlock prints the whole report by itself.
 */
static void test_deferred_print(struct kunit *test)
{
	unsigned long flags;
	int n;

	spin_lock(&test_lock);
	writel_relaxed(1, MMIO(0));
	spin_unlock(&test_lock);

	mmio_ordering_report_wait();
	raw_spin_lock_irqsave(&observed.lock, flags);
	n = observed.nreports;
	raw_spin_unlock_irqrestore(&observed.lock, flags);
	KUNIT_EXPECT_EQ(test, n, 1);
	expect_report(test, "writel_relaxed", UNLOCK, test_deferred_print,
		      test_deferred_print, &test_lock);
}

static void test_writel_relaxed(struct kunit *test)
{
	spin_lock(&test_lock);
	writel_relaxed(1, MMIO(0));
	spin_unlock(&test_lock);

	expect_report(test, "writel_relaxed",
		      UNLOCK,
		      test_writel_relaxed, test_writel_relaxed, &test_lock);
}

static void test_relaxed_accessor_widths(struct kunit *test)
{
	struct counts before;

	snapshot(&before);
	spin_lock(&test_lock);
	__writeb(1, MMIO(0));
	__writew(1, MMIO(1));
	__writel(1, MMIO(2));
#ifdef CONFIG_64BIT
	__writeq(1, MMIO(4));
#endif
	__iowrite32(1, MMIO(6));
	spin_unlock(&test_lock);

	/* Only the first unordered store to a device (a page) is reported. */
	expect_report(test, "__writeb", UNLOCK,
		      test_relaxed_accessor_widths, test_relaxed_accessor_widths,
		      &test_lock);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_STORES_TRACKED),
			IS_ENABLED(CONFIG_64BIT) ? 5 : 4);
}

/*
 * Two devices in one section: each device's store is reported, and a
 * read-back of one orders neither. A second store to device A is the same
 * device: no third report.
 */
static void test_two_devices(struct kunit *test)
{
	struct counts before;

	snapshot(&before);
	spin_lock(&test_lock);
	writel_relaxed(1, MMIO(0));
	writel_relaxed(2, MMIO(DEV_B));
	writel_relaxed(3, MMIO(1));
	(void)readl(MMIO(0));
	spin_unlock(&test_lock);

	KUNIT_EXPECT_EQ(test, reports_printed(), 2);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_VIOLATIONS), 2);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_REPORTS), 2);
	KUNIT_EXPECT_EQ(test, fake_mmio[DEV_B], 2);

	/* Ordered: one barrier covers both devices. */
	spin_lock(&test_lock);
	writel_relaxed(1, MMIO(0));
	writel_relaxed(2, MMIO(DEV_B));
	io_to_lock_wb();
	spin_unlock(&test_lock);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_VIOLATIONS), 2);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_EXPLICIT_BARRIERS), 1);
}

/*
 * Every lock variant: a section with one class-2 store under the lock,
 * in a function of its own so that each variant is a distinct pair.
 */
struct lock_variant {
	const char *name;
	bool (*section)(void);
	const char *unlock;
	const void *lock;
};

static noinline bool section_spin_lock(void)
{
	spin_lock(&test_lock);
	__writel(1, MMIO(0));
	spin_unlock(&test_lock);
	return true;
}

static noinline bool section_spin_lock_irq(void)
{
	spin_lock_irq(&test_lock);
	__writel(1, MMIO(0));
	spin_unlock_irq(&test_lock);
	return true;
}

static noinline bool section_spin_lock_irqsave(void)
{
	unsigned long flags;

	spin_lock_irqsave(&test_lock, flags);
	__writel(1, MMIO(0));
	spin_unlock_irqrestore(&test_lock, flags);
	return true;
}

static noinline bool section_spin_lock_bh(void)
{
	spin_lock_bh(&test_lock);
	__writel(1, MMIO(0));
	spin_unlock_bh(&test_lock);
	return true;
}

static noinline bool section_spin_lock_nested(void)
{
	spin_lock_nested(&test_lock, SINGLE_DEPTH_NESTING);
	__writel(1, MMIO(0));
	spin_unlock(&test_lock);
	return true;
}

static noinline bool section_spin_trylock(void)
{
	if (!spin_trylock(&test_lock))
		return false;
	__writel(1, MMIO(0));
	spin_unlock(&test_lock);
	return true;
}

static noinline bool section_raw_spin_lock(void)
{
	raw_spin_lock(&test_raw_lock);
	__writel(1, MMIO(0));
	raw_spin_unlock(&test_raw_lock);
	return true;
}

static noinline bool section_raw_spin_lock_irqsave(void)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&test_raw_lock, flags);
	__writel(1, MMIO(0));
	raw_spin_unlock_irqrestore(&test_raw_lock, flags);
	return true;
}

static noinline bool section_raw_spin_trylock(void)
{
	if (!raw_spin_trylock(&test_raw_lock))
		return false;
	__writel(1, MMIO(0));
	raw_spin_unlock(&test_raw_lock);
	return true;
}

static noinline bool section_write_lock(void)
{
	write_lock(&test_rwlock);
	__writel(1, MMIO(0));
	write_unlock(&test_rwlock);
	return true;
}

static noinline bool section_write_lock_irq(void)
{
	write_lock_irq(&test_rwlock);
	__writel(1, MMIO(0));
	write_unlock_irq(&test_rwlock);
	return true;
}

static noinline bool section_write_lock_irqsave(void)
{
	unsigned long flags;

	write_lock_irqsave(&test_rwlock, flags);
	__writel(1, MMIO(0));
	write_unlock_irqrestore(&test_rwlock, flags);
	return true;
}

static noinline bool section_write_lock_bh(void)
{
	write_lock_bh(&test_rwlock);
	__writel(1, MMIO(0));
	write_unlock_bh(&test_rwlock);
	return true;
}

static noinline bool section_write_trylock(void)
{
	if (!write_trylock(&test_rwlock))
		return false;
	__writel(1, MMIO(0));
	write_unlock(&test_rwlock);
	return true;
}

static noinline bool section_read_lock(void)
{
	read_lock(&test_rwlock);
	__writel(1, MMIO(0));
	read_unlock(&test_rwlock);
	return true;
}

static noinline bool section_read_lock_irqsave(void)
{
	unsigned long flags;

	read_lock_irqsave(&test_rwlock, flags);
	__writel(1, MMIO(0));
	read_unlock_irqrestore(&test_rwlock, flags);
	return true;
}

static noinline bool section_read_lock_bh(void)
{
	read_lock_bh(&test_rwlock);
	__writel(1, MMIO(0));
	read_unlock_bh(&test_rwlock);
	return true;
}

static noinline bool section_read_trylock(void)
{
	if (!read_trylock(&test_rwlock))
		return false;
	__writel(1, MMIO(0));
	read_unlock(&test_rwlock);
	return true;
}

static noinline bool section_bit_spin_lock(void)
{
	bit_spin_lock(TEST_BIT_LOCK, test_bit_lock);
	__writel(1, MMIO(0));
	bit_spin_unlock(TEST_BIT_LOCK, test_bit_lock);
	return true;
}

static noinline bool section_bit_spin_trylock(void)
{
	if (!bit_spin_trylock(TEST_BIT_LOCK, test_bit_lock))
		return false;
	__writel(1, MMIO(0));
	__bit_spin_unlock(TEST_BIT_LOCK, test_bit_lock);
	return true;
}

static noinline bool section_mutex_lock(void)
{
	mutex_lock(&test_mutex);
	__writel(1, MMIO(0));
	mutex_unlock(&test_mutex);
	return true;
}

static noinline bool section_mutex_lock_interruptible(void)
{
	if (mutex_lock_interruptible(&test_mutex))
		return false;
	__writel(1, MMIO(0));
	mutex_unlock(&test_mutex);
	return true;
}

static noinline bool section_mutex_lock_killable(void)
{
	if (mutex_lock_killable(&test_mutex))
		return false;
	__writel(1, MMIO(0));
	mutex_unlock(&test_mutex);
	return true;
}

static noinline bool section_mutex_trylock(void)
{
	if (!mutex_trylock(&test_mutex))
		return false;
	__writel(1, MMIO(0));
	mutex_unlock(&test_mutex);
	return true;
}

static noinline bool section_down_write(void)
{
	down_write(&test_rwsem);
	__writel(1, MMIO(0));
	up_write(&test_rwsem);
	return true;
}

static noinline bool section_down_write_killable(void)
{
	if (down_write_killable(&test_rwsem))
		return false;
	__writel(1, MMIO(0));
	up_write(&test_rwsem);
	return true;
}

static noinline bool section_down_write_trylock(void)
{
	if (!down_write_trylock(&test_rwsem))
		return false;
	__writel(1, MMIO(0));
	up_write(&test_rwsem);
	return true;
}

static noinline bool section_downgrade_write(void)
{
	down_write(&test_rwsem);
	__writel(1, MMIO(0));
	downgrade_write(&test_rwsem);
	up_read(&test_rwsem);
	return true;
}

#ifdef CONFIG_RT_MUTEXES
static noinline bool section_rt_mutex_lock(void)
{
	rt_mutex_lock(&test_rt_mutex);
	__writel(1, MMIO(0));
	rt_mutex_unlock(&test_rt_mutex);
	return true;
}

static noinline bool section_rt_mutex_trylock(void)
{
	if (!rt_mutex_trylock(&test_rt_mutex))
		return false;
	__writel(1, MMIO(0));
	rt_mutex_unlock(&test_rt_mutex);
	return true;
}
#endif

static noinline bool section_down(void)
{
	down(&test_sem);
	__writel(1, MMIO(0));
	up(&test_sem);
	return true;
}

static noinline bool section_down_interruptible(void)
{
	if (down_interruptible(&test_sem))
		return false;
	__writel(1, MMIO(0));
	up(&test_sem);
	return true;
}

static noinline bool section_down_killable(void)
{
	if (down_killable(&test_sem))
		return false;
	__writel(1, MMIO(0));
	up(&test_sem);
	return true;
}

static noinline bool section_down_timeout(void)
{
	if (down_timeout(&test_sem, HZ))
		return false;
	__writel(1, MMIO(0));
	up(&test_sem);
	return true;
}

static noinline bool section_down_trylock(void)
{
	if (down_trylock(&test_sem))
		return false;
	__writel(1, MMIO(0));
	up(&test_sem);
	return true;
}

static const struct lock_variant lock_variants[] = {
	{ "spin_lock", section_spin_lock, UNLOCK, &test_lock },
	{ "spin_lock_irq", section_spin_lock_irq,
	  SPIN_UNLOCK("spin_unlock_irq", CONFIG_INLINE_SPIN_UNLOCK_IRQ), &test_lock },
	{ "spin_lock_irqsave", section_spin_lock_irqsave,
	  SPIN_UNLOCK("spin_unlock_irqrestore", CONFIG_INLINE_SPIN_UNLOCK_IRQRESTORE),
	  &test_lock },
	{ "spin_lock_bh", section_spin_lock_bh,
	  SPIN_UNLOCK("spin_unlock_bh", CONFIG_INLINE_SPIN_UNLOCK_BH), &test_lock },
	{ "spin_lock_nested", section_spin_lock_nested, UNLOCK, &test_lock },
	{ "spin_trylock", section_spin_trylock, UNLOCK, &test_lock },
	{ "raw_spin_lock", section_raw_spin_lock, UNLOCK, &test_raw_lock },
	{ "raw_spin_lock_irqsave", section_raw_spin_lock_irqsave,
	  UNLOCK_NAME("spin_unlock_irqrestore", CONFIG_INLINE_SPIN_UNLOCK_IRQRESTORE),
	  &test_raw_lock },
	{ "raw_spin_trylock", section_raw_spin_trylock, UNLOCK, &test_raw_lock },
	{ "write_lock", section_write_lock,
	  WRITE_UNLOCK("write_unlock", CONFIG_INLINE_WRITE_UNLOCK), &test_rwlock },
	{ "write_lock_irq", section_write_lock_irq,
	  WRITE_UNLOCK("write_unlock_irq", CONFIG_INLINE_WRITE_UNLOCK_IRQ), &test_rwlock },
	{ "write_lock_irqsave", section_write_lock_irqsave,
	  WRITE_UNLOCK("write_unlock_irqrestore", CONFIG_INLINE_WRITE_UNLOCK_IRQRESTORE),
	  &test_rwlock },
	{ "write_lock_bh", section_write_lock_bh,
	  WRITE_UNLOCK("write_unlock_bh", CONFIG_INLINE_WRITE_UNLOCK_BH), &test_rwlock },
	{ "write_trylock", section_write_trylock,
	  WRITE_UNLOCK("write_unlock", CONFIG_INLINE_WRITE_UNLOCK), &test_rwlock },
	{ "read_lock", section_read_lock,
	  READ_UNLOCK("read_unlock", CONFIG_INLINE_READ_UNLOCK), &test_rwlock },
	{ "read_lock_irqsave", section_read_lock_irqsave,
	  READ_UNLOCK("read_unlock_irqrestore", CONFIG_INLINE_READ_UNLOCK_IRQRESTORE),
	  &test_rwlock },
	{ "read_lock_bh", section_read_lock_bh,
	  READ_UNLOCK("read_unlock_bh", CONFIG_INLINE_READ_UNLOCK_BH), &test_rwlock },
	{ "read_trylock", section_read_trylock,
	  READ_UNLOCK("read_unlock", CONFIG_INLINE_READ_UNLOCK), &test_rwlock },
	{ "bit_spin_lock", section_bit_spin_lock, "bit_spin_unlock",
	  &test_bit_lock[1] },
	{ "bit_spin_trylock", section_bit_spin_trylock, "bit_spin_unlock",
	  &test_bit_lock[1] },
	{ "mutex_lock", section_mutex_lock, "mutex_unlock", &test_mutex },
	{ "mutex_lock_interruptible", section_mutex_lock_interruptible, "mutex_unlock",
	  &test_mutex },
	{ "mutex_lock_killable", section_mutex_lock_killable, "mutex_unlock", &test_mutex },
	{ "mutex_trylock", section_mutex_trylock, "mutex_unlock", &test_mutex },
	{ "down_write", section_down_write, "up_write", &test_rwsem },
	{ "down_write_killable", section_down_write_killable, "up_write", &test_rwsem },
	{ "down_write_trylock", section_down_write_trylock, "up_write", &test_rwsem },
	{ "downgrade_write", section_downgrade_write, "downgrade_write", &test_rwsem },
#ifdef CONFIG_RT_MUTEXES
	{ "rt_mutex_lock", section_rt_mutex_lock, "rt_mutex_unlock", &test_rt_mutex },
	{ "rt_mutex_trylock", section_rt_mutex_trylock, "rt_mutex_unlock", &test_rt_mutex },
#endif
	{ "down", section_down, "up", &test_sem },
	{ "down_interruptible", section_down_interruptible, "up", &test_sem },
	{ "down_killable", section_down_killable, "up", &test_sem },
	{ "down_timeout", section_down_timeout, "up", &test_sem },
	{ "down_trylock", section_down_trylock, "up", &test_sem },
};

static void lock_variant_desc(const struct lock_variant *v, char *desc)
{
	strscpy(desc, v->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(lock_variant, lock_variants, lock_variant_desc);

/*
 * Reported under both strategies, and in "arch" mode where the unlock does
 * not order MMIO; the same pair again is counted but not printed again.
 */
static void test_lock_variant(struct kunit *test)
{
	const struct lock_variant *v = test->param_value;
	unsigned long ordered = IS_ENABLED(CONFIG_ARCH_MMIO_ORDERED_UNLOCK);
	struct counts before;
	char acquired[128], caller[128];

	snapshot(&before);
	KUNIT_ASSERT_TRUE(test, v->section());

	expect_report(test, "__writel", v->unlock, v->section, v->section, v->lock);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_VIOLATIONS), 1);
	/*
	 * The lock was taken in the section, not in an out-of-line copy of a
	 * lock function. Where the architecture inlines the lock function
	 * (CONFIG_INLINE_*), _RET_IP_ is the section's caller, as lockdep's is.
	 */
	scnprintf(acquired, sizeof(acquired), " acquired at %ps+", v->section);
	scnprintf(caller, sizeof(caller), " acquired at %ps+", test_lock_variant);
	KUNIT_EXPECT_TRUE(test, line_contains(acquired) || line_contains(caller));

	KUNIT_ASSERT_EQ(test, mmio_ordering_set_strategy(MMIO_ORDERING_EXPLICIT), 0);
	KUNIT_ASSERT_TRUE(test, v->section());
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_VIOLATIONS), 2);

	KUNIT_ASSERT_EQ(test, mmio_ordering_set_mode(MMIO_ORDERING_MODE_ARCH), 0);
	KUNIT_ASSERT_TRUE(test, v->section());
	KUNIT_ASSERT_EQ(test, mmio_ordering_set_strategy(MMIO_ORDERING_AUTO), 0);
	KUNIT_ASSERT_TRUE(test, v->section());
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_VIOLATIONS),
			ordered ? 2 : 4);
	KUNIT_EXPECT_EQ(test, reports_printed(), 1);
}

static noinline void store_helper(void __iomem *addr)
{
	__writel(1, addr);
}

static noinline void locked_call_helper(void)
{
	spin_lock(&test_lock);
	store_helper(MMIO(3));
	spin_unlock(&test_lock);
}

static void test_store_in_helper(struct kunit *test)
{
	locked_call_helper();

	expect_report(test, "__writel", UNLOCK,
		      store_helper, locked_call_helper, &test_lock);
	/* The store's stack goes on through the caller that holds the lock. */
	KUNIT_EXPECT_TRUE(test, line_contains(" locked_call_helper+"));
}

/*
 * The hook an inline accessor calls after its store. asm-generic's and
 * UML's accessors may be out of line, and their stacks are not cached.
 */
static noinline void cached_store(void)
{
	__mmio_ordering_store(MMIO(0), MMIO_ORDERING_RELAXED, "__writel");
}

static noinline void cached_store_ordered(void)
{
	raw_spin_lock(&test_raw_lock);
	cached_store();
	io_to_lock_wb();
	raw_spin_unlock(&test_raw_lock);
}

static noinline void cached_store_unordered(void)
{
	raw_spin_lock(&test_raw_lock);
	cached_store();
	raw_spin_unlock(&test_raw_lock);
}

static unsigned long stacks_here(void)
{
	return mmio_ordering_this_cpu_counter(MMIO_ORDERING_COUNTER_STORE_STACKS);
}

/*
 * A store's stack is unwound once per path: the same store site reached
 * under a lock taken elsewhere is another path, with its own stack. With
 * interrupts off and counted on this CPU, so that nothing else counts.
 */
static void test_store_stack_cache(struct kunit *test)
{
	unsigned long flags, first, second;
	struct counts before;
	int i;

	snapshot(&before);
	local_irq_save(flags);
	first = stacks_here();
	for (i = 0; i < 10; i++)
		cached_store_ordered();
	first = stacks_here() - first;
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ(test, first, 1);
	expect_no_report(test, &before);

	local_irq_save(flags);
	second = stacks_here();
	cached_store_unordered();
	second = stacks_here() - second;
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ(test, second, 1);
	expect_report(test, "__writel", UNLOCK, cached_store, cached_store_unordered,
		      &test_raw_lock);
	KUNIT_EXPECT_TRUE(test, line_contains(" cached_store_unordered+"));
	KUNIT_EXPECT_FALSE(test, line_contains(" cached_store_ordered+"));
}

/* The store was made under the outer lock: reported at its release only. */
static void test_nested_outer(struct kunit *test)
{
	struct counts before;

	snapshot(&before);
	spin_lock(&test_lock);
	__writel(1, MMIO(0));
	spin_lock(&inner_lock);
	spin_unlock(&inner_lock);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_VIOLATIONS), 0);
	spin_unlock(&test_lock);

	expect_report(test, "__writel", UNLOCK,
		      test_nested_outer, test_nested_outer, &test_lock);
}

/* The store was made under both locks: the inner release reports it. */
static void test_nested_inner(struct kunit *test)
{
	struct counts before;

	snapshot(&before);
	spin_lock(&test_lock);
	spin_lock(&inner_lock);
	__writel(1, MMIO(0));
	spin_unlock(&inner_lock);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_VIOLATIONS), 1);
	spin_unlock(&test_lock);

	/* The checker ran the barrier: the outer release has nothing left. */
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_VIOLATIONS), 1);
	expect_report(test, "__writel", UNLOCK,
		      test_nested_inner, test_nested_inner, &inner_lock);
}

/* Out-of-order release of an outer lock with a store under both. */
static void test_nested_out_of_order(struct kunit *test)
{
	spin_lock(&test_lock);
	spin_lock(&inner_lock);
	__writel(1, MMIO(0));
	spin_unlock(&test_lock);
	spin_unlock(&inner_lock);

	expect_report(test, "__writel", UNLOCK,
		      test_nested_out_of_order, test_nested_out_of_order, &test_lock);
}

static void irq_locked_store(struct irq_work *work)
{
	raw_spin_lock(&irq_lock);
	__writel(1, MMIO(8));
	raw_spin_unlock(&irq_lock);
}

static void test_hardirq_lock(struct kunit *test)
{
	struct irq_work work = IRQ_WORK_INIT_HARD(irq_locked_store);

	irq_work_queue(&work);
	irq_work_sync(&work);

	expect_report(test, "__writel", UNLOCK,
		      irq_locked_store, irq_locked_store, &irq_lock);
	KUNIT_EXPECT_TRUE(test, line_contains("(class 2, relaxed) by hardirq"));
}

static void test_dedup(struct kunit *test)
{
	struct counts before;
	int i;

	snapshot(&before);
	for (i = 0; i < 3; i++)
		locked_call_helper();

	KUNIT_EXPECT_EQ(test, reports_printed(), 1);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_VIOLATIONS), 3);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_REPORTS), 1);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_SUPPRESSED), 2);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_REPORTS_NO_STACKS), 0);
	expect_accounted(test, &before, 0);
}

/* ===== Must not report ===== */

static void test_store_outside_lock(struct kunit *test)
{
	struct counts before;

	snapshot(&before);
	__writel(1, MMIO(0));
	writel(1, MMIO(0));
	spin_lock(&test_lock);
	spin_unlock(&test_lock);

	expect_no_report(test, &before);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_STORES_TRACKED), 0);
}

static void test_io_to_lock_wb(struct kunit *test)
{
	struct counts before;

	snapshot(&before);
	spin_lock(&test_lock);
	__writel(1, MMIO(0));
	__writel(2, MMIO(1));
	io_to_lock_wb();
	spin_unlock(&test_lock);

	expect_no_report(test, &before);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_STORES_TRACKED), 2);
	KUNIT_EXPECT_GE(test, delta(&before, MMIO_ORDERING_COUNTER_EXPLICIT_BARRIERS), 1);
}

static void test_ordered_store_after_relaxed(struct kunit *test)
{
	struct counts before;

	snapshot(&before);
	spin_lock(&test_lock);
	__writel(1, MMIO(0));
	writel(2, MMIO(1));
	spin_unlock(&test_lock);

	expect_no_report(test, &before);
}

/*
 * A read-back is no io_to_lock_wb(): on riscv neither the store nor the
 * load is ordered before the unlock's store. Nor does a read-back of one
 * device hide a store to another.
 */
static void test_readback(struct kunit *test)
{
	struct counts before;

	snapshot(&before);
	spin_lock(&test_lock);
	__writel(1, MMIO(0));
	(void)readl(MMIO(0));
	spin_unlock(&test_lock);
	expect_report(test, "__writel", UNLOCK, test_readback, test_readback, &test_lock);

	spin_lock(&inner_lock);
	__writel(1, MMIO(0));
	(void)readl(MMIO(40));
	spin_unlock(&inner_lock);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_VIOLATIONS), 2);
	KUNIT_EXPECT_EQ(test, reports_printed(), 2);
}

static void test_inner_unrelated_lock(struct kunit *test)
{
	struct counts before;

	snapshot(&before);
	spin_lock(&test_lock);
	__writel(1, MMIO(0));
	spin_lock(&inner_lock);
	spin_unlock(&inner_lock);
	io_to_lock_wb();
	spin_unlock(&test_lock);

	expect_no_report(test, &before);
}

static void test_conditional_mmio(struct kunit *test)
{
	struct counts before;
	int i;

	snapshot(&before);
	for (i = 0; i < 100; i++) {
		spin_lock(&test_lock);
		if (i % 10 == 0) {
			__writel(i, MMIO(0));
			io_to_lock_wb();
		}
		spin_unlock(&test_lock);
	}

	expect_no_report(test, &before);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_STORES_TRACKED), 10);
}

static void irq_unlocked_store(struct irq_work *work)
{
	__writel(1, MMIO(9));
}

static void irq_unrelated_lock(struct irq_work *work)
{
	raw_spin_lock(&irq_lock);
	raw_spin_unlock(&irq_lock);
}

/* Run @work in hard interrupt context on this CPU while the caller waits. */
static void run_irq_work_now(struct irq_work *work)
{
	irq_work_queue(work);
	while (irq_work_is_busy(work))
		cpu_relax();
}

/* An interrupt's own stores, with no lock of its own, under a task's lock. */
static void test_irq_store_task_lock(struct kunit *test)
{
	struct irq_work work = IRQ_WORK_INIT_HARD(irq_unlocked_store);
	struct counts before;

	snapshot(&before);
	spin_lock(&test_lock);
	run_irq_work_now(&work);
	spin_unlock(&test_lock);

	expect_no_report(test, &before);
}

/* A task's pending store is neither reported nor flushed by an interrupt's unlock. */
static void test_task_store_irq_lock(struct kunit *test)
{
	struct irq_work work = IRQ_WORK_INIT_HARD(irq_unrelated_lock);
	struct counts before;

	snapshot(&before);
	spin_lock(&test_lock);
	__writel(1, MMIO(0));
	run_irq_work_now(&work);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_VIOLATIONS), 0);
	io_to_lock_wb();
	spin_unlock(&test_lock);
	expect_no_report(test, &before);

	/* Without the barrier, the task's own unlock reports it. */
	spin_lock(&test_lock);
	__writel(1, MMIO(0));
	run_irq_work_now(&work);
	spin_unlock(&test_lock);
	expect_report(test, "__writel", UNLOCK,
		      test_task_store_irq_lock, test_task_store_irq_lock, &test_lock);
}

/* ===== Strategies ===== */

static void test_auto_barrier_counts(struct kunit *test)
{
	unsigned long flags, b;
	unsigned int rt;
	int i;

	local_irq_save(flags);
	rt = rt_locks_here();

	/* Unrelated lock: no barrier. */
	b = this_cpu_auto_barriers();
	raw_spin_lock(&test_raw_lock);
	raw_spin_unlock(&test_raw_lock);
	KUNIT_EXPECT_EQ(test, this_cpu_auto_barriers() - b, 0);

	/* One ordered write per section: one barrier per section. */
	b = this_cpu_auto_barriers();
	for (i = 0; i < 10; i++) {
		raw_spin_lock(&test_raw_lock);
		writel(i, MMIO(0));
		raw_spin_unlock(&test_raw_lock);
	}
	KUNIT_EXPECT_EQ(test, this_cpu_auto_barriers() - b, 10);

	/* A burst of relaxed writes and an explicit barrier: none added. */
	b = this_cpu_auto_barriers();
	raw_spin_lock(&test_raw_lock);
	for (i = 0; i < 8; i++)
		__writel(i, MMIO(i));
	io_to_lock_wb();
	raw_spin_unlock(&test_raw_lock);
	KUNIT_EXPECT_EQ(test, this_cpu_auto_barriers() - b, 0);

	/* Ordered write then io_to_lock_wb(): already ordered, none added. */
	b = this_cpu_auto_barriers();
	raw_spin_lock(&test_raw_lock);
	writel(1, MMIO(0));
	io_to_lock_wb();
	raw_spin_unlock(&test_raw_lock);
	KUNIT_EXPECT_EQ(test, this_cpu_auto_barriers() - b, 0);

	/* MMIO outside any lock, then an unrelated unlock: none (but on RT). */
	b = this_cpu_auto_barriers();
	writel(1, MMIO(0));
	raw_spin_lock(&test_raw_lock);
	raw_spin_unlock(&test_raw_lock);
	KUNIT_EXPECT_EQ(test, this_cpu_auto_barriers() - b, rt);

	/* Nested: the inner unlock orders the write, the outer adds none. */
	b = this_cpu_auto_barriers();
	raw_spin_lock(&test_raw_lock);
	raw_spin_lock(&inner_raw_lock);
	writel(1, MMIO(0));
	raw_spin_unlock(&inner_raw_lock);
	raw_spin_unlock(&test_raw_lock);
	KUNIT_EXPECT_EQ(test, this_cpu_auto_barriers() - b, 1);

	/* Conditional MMIO in 1 of 10 sections: 1 barrier. */
	b = this_cpu_auto_barriers();
	for (i = 0; i < 10; i++) {
		raw_spin_lock(&test_raw_lock);
		if (i == 3) {
			writel(i, MMIO(0));
			memcpy_toio(MMIO(4), fake_mmio, 8);
		}
		raw_spin_unlock(&test_raw_lock);
	}
	KUNIT_EXPECT_EQ(test, this_cpu_auto_barriers() - b, 1);

	local_irq_restore(flags);
}

static void test_auto_class1_accessors(struct kunit *test)
{
	u32 buf[4] = { };
	struct counts before;
	unsigned long flags, b;

	snapshot(&before);
	local_irq_save(flags);
	rt_locks_here();
	b = this_cpu_auto_barriers();
	raw_spin_lock(&test_raw_lock);
	iowrite32(1, MMIO(0));
	raw_spin_unlock(&test_raw_lock);
	raw_spin_lock(&test_raw_lock);
	memcpy_toio(MMIO(4), buf, sizeof(buf));
	raw_spin_unlock(&test_raw_lock);
	raw_spin_lock(&test_raw_lock);
	memset_io(MMIO(12), 0, 16);
	raw_spin_unlock(&test_raw_lock);
	KUNIT_EXPECT_EQ(test, this_cpu_auto_barriers() - b, 3);
	local_irq_restore(flags);

	expect_no_report(test, &before);
}

static void test_explicit_reports_ordered(struct kunit *test)
{
	unsigned long flags, b;

	KUNIT_ASSERT_EQ(test, mmio_ordering_set_strategy(MMIO_ORDERING_EXPLICIT), 0);

	local_irq_save(flags);
	rt_locks_here();
	b = this_cpu_auto_barriers();
	raw_spin_lock(&test_raw_lock);
	writel(1, MMIO(0));
	raw_spin_unlock(&test_raw_lock);
	KUNIT_EXPECT_EQ(test, this_cpu_auto_barriers() - b, 0);
	local_irq_restore(flags);

	expect_report(test, "writel", UNLOCK,
		      test_explicit_reports_ordered, test_explicit_reports_ordered,
		      &test_raw_lock);
	KUNIT_EXPECT_TRUE(test, line_contains("(class 1, ordered) by task"));
	KUNIT_EXPECT_TRUE(test, line_contains("strategy explicit"));
}

static void test_explicit_with_barrier(struct kunit *test)
{
	struct counts before;
	unsigned long flags, b;

	KUNIT_ASSERT_EQ(test, mmio_ordering_set_strategy(MMIO_ORDERING_EXPLICIT), 0);

	snapshot(&before);
	local_irq_save(flags);
	rt_locks_here();
	b = this_cpu_auto_barriers();
	raw_spin_lock(&test_raw_lock);
	writel(1, MMIO(0));
	__writel(1, MMIO(1));
	io_to_lock_wb();
	raw_spin_unlock(&test_raw_lock);
	KUNIT_EXPECT_EQ(test, this_cpu_auto_barriers() - b, 0);
	/* io_to_lock_wb() left the pending count to the unlock. */
	KUNIT_EXPECT_EQ(test, __mmiowb_state()->mmiowb_pending, 0);
	local_irq_restore(flags);

	expect_no_report(test, &before);
}

/* Under "explicit" a later writel() does not order an earlier __writel(). */
static void test_explicit_relaxed_then_ordered(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, mmio_ordering_set_strategy(MMIO_ORDERING_EXPLICIT), 0);

	spin_lock(&test_lock);
	__writel(1, MMIO(0));
	writel(2, MMIO(1));
	spin_unlock(&test_lock);

	expect_report(test, "__writel", UNLOCK,
		      test_explicit_relaxed_then_ordered, test_explicit_relaxed_then_ordered,
		      &test_lock);
}

static void test_strategy_param(struct kunit *test)
{
	struct counts before;

	KUNIT_EXPECT_EQ(test, mmio_ordering_parse_strategy("auto"), MMIO_ORDERING_AUTO);
	KUNIT_EXPECT_EQ(test, mmio_ordering_parse_strategy("explicit\n"), MMIO_ORDERING_EXPLICIT);
	KUNIT_EXPECT_EQ(test, mmio_ordering_parse_strategy("autox"), -EINVAL);
	KUNIT_EXPECT_EQ(test, mmio_ordering_parse_strategy(""), -EINVAL);

	/* The parameter takes effect: under "explicit" a writel() is reported. */
	snapshot(&before);
	KUNIT_ASSERT_EQ(test, mmio_ordering_param_set_strategy("explicit", NULL), 0);
	KUNIT_EXPECT_EQ(test, mmio_ordering_set_strategy(7), -EINVAL);
	KUNIT_EXPECT_EQ(test, mmio_ordering_get_strategy(), MMIO_ORDERING_EXPLICIT);
	spin_lock(&test_lock);
	writel(1, MMIO(0));
	spin_unlock(&test_lock);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_VIOLATIONS), 1);
	KUNIT_ASSERT_EQ(test, mmio_ordering_param_set_strategy("auto", NULL), 0);
	spin_lock(&test_lock);
	writel(1, MMIO(0));
	spin_unlock(&test_lock);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_VIOLATIONS), 1);

	/* Without the checker, "explicit" is a boot-time choice only. */
	KUNIT_EXPECT_EQ(test, mmio_ordering_user_strategy(MMIO_ORDERING_EXPLICIT, false, false),
			-EPERM);
	KUNIT_EXPECT_EQ(test, mmio_ordering_user_strategy(MMIO_ORDERING_EXPLICIT, false, true), 0);
	KUNIT_EXPECT_EQ(test, mmio_ordering_user_strategy(MMIO_ORDERING_EXPLICIT, true, false), 0);
	KUNIT_EXPECT_EQ(test, mmio_ordering_user_strategy(MMIO_ORDERING_AUTO, false, false), 0);
}

/* ===== Modes and annotations ===== */

static void test_mode_arch(struct kunit *test)
{
	struct counts before;

	KUNIT_ASSERT_EQ(test, mmio_ordering_set_mode(MMIO_ORDERING_MODE_ARCH), 0);
	snapshot(&before);
	spin_lock(&test_lock);
	__writel(1, MMIO(0));
	spin_unlock(&test_lock);

	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_STORES_TRACKED), 1);
	if (IS_ENABLED(CONFIG_ARCH_MMIO_ORDERED_UNLOCK)) {
		/* This architecture's unlock orders the store: nothing to report. */
		expect_no_report(test, &before);
	} else {
		expect_report(test, "__writel",
			      UNLOCK,
			      test_mode_arch, test_mode_arch, &test_lock);
	}
}

/* The same code in portable mode is reported on every architecture. */
static void test_mode_portable(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, mmio_ordering_set_mode(MMIO_ORDERING_MODE_ARCH), 0);
	KUNIT_ASSERT_EQ(test, mmio_ordering_set_mode(MMIO_ORDERING_MODE_PORTABLE), 0);
	spin_lock(&test_lock);
	__writel(1, MMIO(0));
	spin_unlock(&test_lock);

	expect_report(test, "__writel", UNLOCK,
		      test_mode_portable, test_mode_portable, &test_lock);
}

/*
 * powerpc's readX() and writeX() begin with a sync, and memcpy_toio() ends
 * with one: it orders the MMIO stores before it before the unlock too.
 * "arch" mode does not report those there; a store after the last sync
 * stays unordered. "portable" mode reports them: riscv's accessors order
 * nothing before the unlock.
 */
static void test_mode_arch_sync_accessors(struct kunit *test)
{
	u32 buf[2] = { 4, 5 };
	struct counts before;

	if (!IS_ENABLED(CONFIG_PPC))
		kunit_skip(test, "only powerpc's accessors begin with a full barrier");
	KUNIT_ASSERT_EQ(test, mmio_ordering_set_strategy(MMIO_ORDERING_EXPLICIT), 0);
	KUNIT_ASSERT_EQ(test, mmio_ordering_set_mode(MMIO_ORDERING_MODE_ARCH), 0);
	snapshot(&before);
	spin_lock(&test_lock);
	__writel(1, MMIO(0));
	KUNIT_EXPECT_EQ(test, readl(MMIO(0)), 1);
	__writel(2, MMIO(1));
	memcpy_toio(MMIO(DEV_B), buf, sizeof(buf));
	spin_unlock(&test_lock);
	expect_no_report(test, &before);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_STORES_TRACKED), 3);

	/* writel() orders the store before it, not itself. */
	spin_lock(&test_lock);
	__writel(3, MMIO(0));
	writel(4, MMIO(DEV_B));
	spin_unlock(&test_lock);
	expect_report(test, "writel", UNLOCK, test_mode_arch_sync_accessors,
		      test_mode_arch_sync_accessors, &test_lock);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_VIOLATIONS), 1);

	KUNIT_ASSERT_EQ(test, mmio_ordering_set_mode(MMIO_ORDERING_MODE_PORTABLE), 0);
	spin_lock(&test_lock);
	__writel(5, MMIO(0));
	writel(6, MMIO(DEV_B));
	KUNIT_EXPECT_EQ(test, readl(MMIO(DEV_B)), 6);
	spin_unlock(&test_lock);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_VIOLATIONS), 3);
}

static void test_unordered(struct kunit *test)
{
	struct counts before;

	snapshot(&before);
	spin_lock(&test_lock);
	mmio_unordered(__writel(1, MMIO(0)));
	spin_unlock(&test_lock);

	spin_lock(&test_lock);
	mmio_ordering_unordered_begin();
	__writel(1, MMIO(0));
	writel_relaxed(2, MMIO(1));
	mmio_unordered(__writeb(3, MMIO(2)));	/* sections nest */
	__writew(4, MMIO(3));
	mmio_ordering_unordered_end();
	spin_unlock(&test_lock);

	expect_no_report(test, &before);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_UNORDERED), 5);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_STORES_TRACKED), 0);
}

/* Only the stores inside the section are exempt. */
static void test_unordered_then_relaxed(struct kunit *test)
{
	spin_lock(&test_lock);
	mmio_unordered(__writel(1, MMIO(0)));
	__writel(2, MMIO(1));
	spin_unlock(&test_lock);

	expect_report(test, "__writel", UNLOCK,
		      test_unordered_then_relaxed, test_unordered_then_relaxed, &test_lock);
}

/* ===== Bad input ===== */

static void test_mode_parse(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, mmio_ordering_parse_mode("portable"), MMIO_ORDERING_MODE_PORTABLE);
	KUNIT_EXPECT_EQ(test, mmio_ordering_parse_mode("arch\n"), MMIO_ORDERING_MODE_ARCH);
	KUNIT_EXPECT_EQ(test, mmio_ordering_parse_mode("ARCH"), -EINVAL);
	KUNIT_EXPECT_EQ(test, mmio_ordering_parse_mode("arch\n\n"), -EINVAL);
	KUNIT_EXPECT_EQ(test, mmio_ordering_parse_mode(""), -EINVAL);
	KUNIT_EXPECT_EQ(test, mmio_ordering_set_mode(2), -EINVAL);
	KUNIT_EXPECT_EQ(test, mmio_ordering_set_mode(-1), -EINVAL);
	KUNIT_EXPECT_EQ(test, READ_ONCE(mmio_ordering_mode), MMIO_ORDERING_MODE_PORTABLE);
}

/* Last rejected-value log line, once printed; its length, or -1. */
static int rejected_line(char *buf, size_t size)
{
	unsigned long flags;
	int n;

	raw_spin_lock_irqsave(&observed.lock, flags);
	n = observed.nrejected;
	strscpy(buf, observed.rejected, size);
	raw_spin_unlock_irqrestore(&observed.lock, flags);
	return n;
}

typedef int (*param_set_fn)(const char *val, const struct kernel_param *kp);

/* Feed @set bad values: each fails, logs one short line, changes nothing. */
static void check_bad_values(struct kunit *test, param_set_fn set, const char *what,
			     int (*get)(void), int want)
{
	static const char *const bad[] = {
		"", "bogus", "auto explicit", "auto\nexplicit", "portable\n\n",
		" auto", "explicitx", "arch\tportable", "\x01\x02\xff",
	};
	char *huge, line[256], prefix[48];
	int i, before = rejected_line(line, sizeof(line));

	scnprintf(prefix, sizeof(prefix), "mmio_ordering: %s: invalid value '", what);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		KUNIT_EXPECT_EQ_MSG(test, set(bad[i], NULL), -EINVAL, "value #%d", i);
		KUNIT_EXPECT_EQ(test, get(), want);
		KUNIT_EXPECT_EQ(test, rejected_line(line, sizeof(line)), before + i + 1);
		KUNIT_EXPECT_TRUE(test, str_has_prefix(line, prefix));
		/* One line: control characters are escaped. */
		KUNIT_EXPECT_PTR_EQ(test, strpbrk(line, "\t\r\x01"), NULL);
		KUNIT_EXPECT_TRUE(test, !strchr(line, '\n') || !strchr(line, '\n')[1]);
	}

	/* Oversized: the log line quotes a bounded prefix of it. */
	huge = kunit_kmalloc(test, PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, huge);
	memset(huge, 'a', PAGE_SIZE - 1);
	huge[PAGE_SIZE - 1] = '\0';
	KUNIT_EXPECT_EQ(test, set(huge, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, get(), want);
	rejected_line(line, sizeof(line));
	KUNIT_EXPECT_LT(test, strlen(line), 128);
	KUNIT_EXPECT_NOT_NULL(test, strstr(line, "'aaaaaaaaaaaaaaaa'..."));
}

static int get_strategy(void)
{
	return mmio_ordering_get_strategy();
}

static int get_mode(void)
{
	return READ_ONCE(mmio_ordering_mode);
}

static void test_param_bad_input(struct kunit *test)
{
	/* Start from the non-default value: a failed set must not reset it. */
	KUNIT_ASSERT_EQ(test, mmio_ordering_param_set_strategy("explicit\n", NULL), 0);
	check_bad_values(test, mmio_ordering_param_set_strategy, "strategy",
			 get_strategy, MMIO_ORDERING_EXPLICIT);
	KUNIT_EXPECT_EQ(test, mmio_ordering_param_set_strategy("auto", NULL), 0);
	KUNIT_EXPECT_EQ(test, mmio_ordering_get_strategy(), MMIO_ORDERING_AUTO);

	KUNIT_ASSERT_EQ(test, mmio_ordering_param_set_mode("arch", NULL), 0);
	check_bad_values(test, mmio_ordering_param_set_mode, "mode",
			 get_mode, MMIO_ORDERING_MODE_ARCH);
	KUNIT_EXPECT_EQ(test, mmio_ordering_param_set_mode("portable\n", NULL), 0);
	KUNIT_EXPECT_EQ(test, get_mode(), MMIO_ORDERING_MODE_PORTABLE);
}

/* ===== The report path never hangs ===== */

/*
 * A console whose write() makes a relaxed store under its UART port lock,
 * like pl011: printing the report runs it again with that lock.
 */
static atomic_t fake_console_writes;

static noinline void fake_console_write(struct console *con, const char *s, unsigned int n)
{
	unsigned long flags;

	uart_port_lock_irqsave(&fake_port, &flags);
	__writel(n, MMIO(12));
	uart_port_unlock_irqrestore(&fake_port, flags);
	atomic_inc(&fake_console_writes);
}

static struct console fake_console = {
	.name	= "mmiotest",
	.write	= fake_console_write,
	.flags	= CON_ENABLED,
	.index	= -1,
};

static void test_console_port_lock(struct kunit *test)
{
	struct counts before;
	const char *title;
	int i, writes;

	spin_lock_init(&fake_port.lock);
	atomic_set(&fake_console_writes, 0);
	/* Registering prints a line, through the new console too. */
	snapshot(&before);
	register_console(&fake_console);
	KUNIT_ASSERT_TRUE(test, console_is_registered(&fake_console));

	for (i = 0; i < 10; i++)
		pr_info("mmio_ordering_test: console line %d\n", i);
	/*
	 * Wait for the consoles to print everything (whoever holds the
	 * console, or a thread on PREEMPT_RT). The report is printed through
	 * the same console, under the same lock.
	 */
	pr_flush(1000, true);
	i = reports_printed();
	pr_flush(1000, true);
	writes = atomic_read(&fake_console_writes);
	unregister_console(&fake_console);

	KUNIT_EXPECT_EQ(test, i, 1);
	KUNIT_EXPECT_GE(test, writes, 10 + 10);
	title = observed.lines[0];
	KUNIT_EXPECT_TRUE(test, str_has_prefix(title, "BUG: MMIO-ORDERING: __writel() not"));
	KUNIT_EXPECT_NOT_NULL(test, strstr(title, " in fake_console_write / fake_console_write"));
	/* Every write outside the report's own printing was a violation. */
	KUNIT_EXPECT_GE(test, delta(&before, MMIO_ORDERING_COUNTER_VIOLATIONS), 10);
	expect_accounted(test, &before, 0);
	/*
	 * Printed by the report's irq_work, the lines are not tracked; printed
	 * by whoever holds the console meanwhile (another CPU), they are, and
	 * are duplicates: either way no report feeds another.
	 */
	KUNIT_EXPECT_GE(test, delta(&before, MMIO_ORDERING_COUNTER_REPORTS), 1);
}

/* Violations from task, softirq and hardirq context on every CPU at once. */
#define CTX_ROUNDS	500

struct ctx_worker {
	struct irq_work irq;
	struct tasklet_struct tasklet;
	struct completion softirq_done;
	struct completion done;
	int cpu;
};

static noinline void ctx_hardirq_store(struct irq_work *work)
{
	struct ctx_worker *w = container_of(work, struct ctx_worker, irq);

	raw_spin_lock(&ctx_hardirq_lock);
	__writel(1, MMIO(24 + w->cpu % 8));
	raw_spin_unlock(&ctx_hardirq_lock);
	/* A correct section: a pending flag that the unlock clears. */
	raw_spin_lock(&ctx_hardirq_lock);
	writel(1, MMIO(48 + w->cpu % 8));
	raw_spin_unlock(&ctx_hardirq_lock);
}

static noinline void ctx_softirq_store(struct tasklet_struct *t)
{
	struct ctx_worker *w = from_tasklet(w, t, tasklet);

	spin_lock(&ctx_softirq_lock);
	__writel(1, MMIO(32 + w->cpu % 8));
	spin_unlock(&ctx_softirq_lock);
	complete(&w->softirq_done);
}

static noinline void ctx_task_store(struct ctx_worker *w)
{
	spin_lock(&ctx_task_lock);
	__writel(1, MMIO(40 + w->cpu % 8));
	spin_unlock(&ctx_task_lock);
	spin_lock(&ctx_task_lock);
	writel(1, MMIO(56 + w->cpu % 8));
	spin_unlock(&ctx_task_lock);
}

static int ctx_thread(void *arg)
{
	struct ctx_worker *w = arg;
	int i;

	for (i = 0; i < CTX_ROUNDS; i++) {
		reinit_completion(&w->softirq_done);
		tasklet_schedule(&w->tasklet);
		irq_work_queue(&w->irq);
		ctx_task_store(w);
		irq_work_sync(&w->irq);
		wait_for_completion(&w->softirq_done);
	}
	complete(&w->done);
	return 0;
}

static bool title_seen(const char *needle)
{
	int i;

	for (i = 0; i < min(observed.nreports, NTITLES); i++) {
		if (strstr(observed.titles[i], needle))
			return true;
	}
	return false;
}

/*
 * In a task holding no lock, with interrupts off, this CPU's state is
 * clean: returns the nesting count left over, plus 1000 if a store is still
 * pending. Run on each CPU.
 */
static int state_on_cpu(void *unused)
{
	struct mmiowb_state ms;
	unsigned long flags;
	unsigned int held;

	local_irq_save(flags);
	ms = *__mmiowb_state();
	held = mmio_ordering_held_here();
	local_irq_restore(flags);
	/* On PREEMPT_RT a preempted task may hold a spinlock_t counted here. */
	if (IS_ENABLED(CONFIG_PREEMPT_RT))
		return held * 10000;
	return ms.nesting_count + (ms.mmiowb_pending ? 1000 : 0) + held * 10000;
}

static void test_contexts_all_cpus(struct kunit *test)
{
	struct ctx_worker *w;
	struct task_struct **t;
	struct counts before;
	int cpu, n = 0, ncpus = num_online_cpus();

	w = kunit_kcalloc(test, nr_cpu_ids, sizeof(*w), GFP_KERNEL);
	t = kunit_kcalloc(test, nr_cpu_ids, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, w);
	KUNIT_ASSERT_NOT_NULL(test, t);

	snapshot(&before);
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		w[cpu].cpu = cpu;
		w[cpu].irq = IRQ_WORK_INIT_HARD(ctx_hardirq_store);
		tasklet_setup(&w[cpu].tasklet, ctx_softirq_store);
		init_completion(&w[cpu].softirq_done);
		init_completion(&w[cpu].done);
		t[cpu] = kthread_create_on_cpu(ctx_thread, &w[cpu], cpu, "mmio_ord_ctx/%u");
		if (IS_ERR(t[cpu])) {
			t[cpu] = NULL;
			continue;
		}
		get_task_struct(t[cpu]);
		wake_up_process(t[cpu]);
		n++;
	}
	for_each_online_cpu(cpu) {
		if (!t[cpu])
			continue;
		/* A thread stopped before it ran would never run at all. */
		wait_for_completion(&w[cpu].done);
		kthread_stop(t[cpu]);
		put_task_struct(t[cpu]);
		tasklet_kill(&w[cpu].tasklet);
	}
	cpus_read_unlock();
	KUNIT_ASSERT_EQ(test, n, ncpus);

	/* Every violation counted, one report per (store site, unlock site). */
	KUNIT_EXPECT_EQ(test, reports_printed(), 3);
	KUNIT_EXPECT_GE(test, delta(&before, MMIO_ORDERING_COUNTER_VIOLATIONS),
			3UL * CTX_ROUNDS * ncpus);
	KUNIT_EXPECT_GE(test, delta(&before, MMIO_ORDERING_COUNTER_SUPPRESSED),
			3UL * CTX_ROUNDS * ncpus - 3);
	expect_accounted(test, &before, 0);
	KUNIT_EXPECT_TRUE(test, title_seen(" in ctx_task_store / ctx_task_store"));
	KUNIT_EXPECT_TRUE(test, title_seen(" in ctx_softirq_store / ctx_softirq_store"));
	KUNIT_EXPECT_TRUE(test, title_seen(" in ctx_hardirq_store / ctx_hardirq_store"));
	kunit_info(test, "%lu violations from 3 contexts on %d CPUs\n",
		   delta(&before, MMIO_ORDERING_COUNTER_VIOLATIONS), ncpus);

	/* Locks taken in interrupts on top of others left every CPU clean. */
	cpus_read_lock();
	for_each_online_cpu(cpu)
		KUNIT_EXPECT_EQ_MSG(test, smp_call_on_cpu(cpu, state_on_cpu, NULL, false),
				    0, "CPU %d", cpu);
	cpus_read_unlock();
}

#define FLOOD		1000000
/* Twice the pairs the checker can remember. */
#define FLOOD_DISTINCT	(256 * 1024)

static noinline void flood_store(void)
{
	spin_lock(&test_lock);
	__writel(1, MMIO(20));
	spin_unlock(&test_lock);
}

/* Throughput, for the log: never asserted, machines are noisy. */
static void flood_info(struct kunit *test, int n, const char *what, ktime_t start)
{
	s64 us = max_t(s64, ktime_us_delta(ktime_get(), start), 1);

	kunit_info(test, "%d violations at %s sites in %lld ms: %lld per second\n",
		   n, what, us / 1000, div64_s64((s64)n * USEC_PER_SEC, us));
}

static void test_flood_identical(struct kunit *test)
{
	struct counts before;
	ktime_t start;
	int i;

	snapshot(&before);
	start = ktime_get();
	for (i = 0; i < FLOOD; i++) {
		flood_store();
		if (!(i % 1024))
			cond_resched();
	}
	flood_info(test, FLOOD, "identical", start);

	KUNIT_EXPECT_EQ(test, reports_printed(), 1);
	KUNIT_EXPECT_GE(test, delta(&before, MMIO_ORDERING_COUNTER_VIOLATIONS), FLOOD);
	KUNIT_EXPECT_GE(test, delta(&before, MMIO_ORDERING_COUNTER_SUPPRESSED), FLOOD - 1);
	expect_accounted(test, &before, 0);
	KUNIT_EXPECT_TRUE(test, title_seen(" in flood_store / flood_store"));
}

/* The pairs debugfs lists, and of those, the ones of @accessor. */
static void count_listed(struct kunit *test, const char *accessor,
			 unsigned long *pairs, unsigned long *of_accessor)
{
	struct seq_file file = { .size = SZ_16M };
	char *line, *next;

	file.buf = kvmalloc(file.size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, file.buf);
	mmio_ordering_report_show(&file);
	KUNIT_EXPECT_FALSE(test, seq_has_overflowed(&file));
	file.buf[min(file.count, file.size - 1)] = '\0';
	*pairs = 0;
	*of_accessor = 0;
	for (line = file.buf; *line; line = next) {
		next = strchrnul(line, '\n');
		if (*next)
			*next++ = '\0';
		if (strstr(line, "not recorded"))
			continue;
		(*pairs)++;
		*of_accessor += !!strstr(line, accessor);
	}
	kvfree(file.buf);
}

/*
 * FLOOD_DISTINCT distinct (store site, unlock site) pairs, more than the
 * checker remembers: fed straight to the report path with made-up sites,
 * the printer running between batches of 16384, as it would between a
 * driver's calls. The first 1024 pairs are printed, most without stacks.
 * The table grows, and debugfs lists every pair it took; the rest are
 * counted. One line says each count.
 */
static void test_flood_distinct(struct kunit *test)
{
	struct mmio_ordering_violation *v;
	/* Kernel text, whether the tests are built in or a module. */
	unsigned long base = (unsigned long)schedule;
	unsigned long printed, listed, full, pairs, flood_pairs;
	unsigned int said;
	struct counts before;
	ktime_t start;
	s64 secs;
	int i, n;

	v = kunit_kzalloc(test, sizeof(*v), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, v);
	v->accessor = "flood_writel";
	v->class = MMIO_ORDERING_RELAXED;
	v->store_nr = 1;
	v->release_nr = 1;
	v->lock = &test_lock;
	strscpy(v->comm, current->comm, sizeof(v->comm));

	snapshot(&before);
	start = ktime_get();
	for (i = 0; i < FLOOD_DISTINCT; i++) {
		v->store_stack[0] = base + (i % 1024) * 4;
		v->release_stack[0] = base + SZ_64K + (i / 1024) * 4;
		preempt_disable();
		mmio_ordering_report(v);
		preempt_enable();
		if (!(i % 1024))
			cond_resched();
		if (!(i % SZ_16K))
			mmio_ordering_report_wait();
	}
	flood_info(test, FLOOD_DISTINCT, "distinct", start);
	mmio_ordering_report_flush();
	secs = ktime_ms_delta(ktime_get(), start) / MSEC_PER_SEC;

	/* Each one counted exactly once, and every printed pair printed. */
	expect_accounted(test, &before, FLOOD_DISTINCT);
	printed = delta(&before, MMIO_ORDERING_COUNTER_REPORTS);
	listed = delta(&before, MMIO_ORDERING_COUNTER_NOT_PRINTED);
	full = delta(&before, MMIO_ORDERING_COUNTER_TABLE_FULL);
	KUNIT_EXPECT_EQ(test, printed, 1024);
	KUNIT_EXPECT_GT(test, delta(&before, MMIO_ORDERING_COUNTER_REPORTS_NO_STACKS), 0);
	KUNIT_EXPECT_GT(test, full, 0);

	/* debugfs lists every pair recorded, far more than the first table. */
	count_listed(test, "flood_writel()", &pairs, &flood_pairs);
	KUNIT_EXPECT_EQ(test, pairs, printed + listed);
	KUNIT_EXPECT_GT(test, flood_pairs, 32 * 1024);

	/*
	 * The last lines said the final counts; the count of pairs not printed
	 * changed at every batch, but was said at most every ten seconds.
	 */
	KUNIT_EXPECT_LE(test, observed.nnot_printed, 2 + secs / 10);
	n = sscanf(observed.not_printed, "mmio_ordering: %u more pairs not printed", &said);
	KUNIT_EXPECT_EQ(test, n, 1);
	KUNIT_EXPECT_EQ(test, said, listed);
	n = sscanf(observed.not_recorded, "mmio_ordering: %u violations of pairs not recorded",
		   &said);
	KUNIT_EXPECT_EQ(test, n, 1);
	KUNIT_EXPECT_EQ(test, said, full);
	kunit_info(test, "distinct flood: %lu printed (%lu without stacks), %lu listed only, %lu suppressed, %lu not recorded\n",
		   printed, delta(&before, MMIO_ORDERING_COUNTER_REPORTS_NO_STACKS), listed,
		   delta(&before, MMIO_ORDERING_COUNTER_SUPPRESSED), full);
}

/*
 * NBURST buggy functions, each its own (store site, unlock site) pair, as a
 * driver with many register helpers would have.
 */
#define BURST_FN(n)							\
static noinline void burst_store_##n(void)				\
{									\
	raw_spin_lock(&burst_lock);						\
	__writel(n, MMIO(30));						\
	raw_spin_unlock(&burst_lock);					\
}

#define BURST_FN10(d)							\
	BURST_FN(d##0) BURST_FN(d##1) BURST_FN(d##2) BURST_FN(d##3)	\
	BURST_FN(d##4) BURST_FN(d##5) BURST_FN(d##6) BURST_FN(d##7)	\
	BURST_FN(d##8) BURST_FN(d##9)
BURST_FN10() BURST_FN10(1) BURST_FN10(2) BURST_FN10(3) BURST_FN10(4)
BURST_FN10(5) BURST_FN10(6) BURST_FN10(7) BURST_FN10(8) BURST_FN10(9)

#define BURST_PTR10(d)							\
	burst_store_##d##0, burst_store_##d##1, burst_store_##d##2,	\
	burst_store_##d##3, burst_store_##d##4, burst_store_##d##5,	\
	burst_store_##d##6, burst_store_##d##7, burst_store_##d##8,	\
	burst_store_##d##9
static void (*const burst_fns[NBURST])(void) = {
	BURST_PTR10(), BURST_PTR10(1), BURST_PTR10(2), BURST_PTR10(3),
	BURST_PTR10(4), BURST_PTR10(5), BURST_PTR10(6), BURST_PTR10(7),
	BURST_PTR10(8), BURST_PTR10(9),
};

static void burst_all(void *unused)
{
	int i;

	for (i = 0; i < NBURST; i++)
		burst_fns[i]();
}

/* Each of the NBURST distinct bugs printed exactly once. */
static void expect_burst_printed(struct kunit *test, const struct counts *before,
				 unsigned long runs)
{
	int i, missing = 0, twice = 0;

	expect_accounted(test, before, 0);
	for (i = 0; i < NBURST; i++) {
		missing += !observed.burst[i];
		twice += observed.burst[i] > 1;
	}
	KUNIT_EXPECT_EQ(test, missing, 0);
	KUNIT_EXPECT_EQ(test, twice, 0);
	KUNIT_EXPECT_GE(test, delta(before, MMIO_ORDERING_COUNTER_VIOLATIONS), runs * NBURST);
	KUNIT_EXPECT_GE(test, delta(before, MMIO_ORDERING_COUNTER_REPORTS), NBURST);
}

/*
 * A burst with interrupts off: nothing can be printed until it ends, so
 * more reports wait than there are buffers. Every one is printed.
 */
static void test_burst_distinct(struct kunit *test)
{
	struct counts before;
	unsigned long flags;

	snapshot(&before);
	local_irq_save(flags);
	burst_all(NULL);
	local_irq_restore(flags);

	expect_burst_printed(test, &before, 1);
	KUNIT_EXPECT_GT(test, delta(&before, MMIO_ORDERING_COUNTER_REPORTS_NO_STACKS), 0);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_TABLE_FULL), 0);
	/* A report printed with its stacks names its store and its lock. */
	KUNIT_EXPECT_TRUE(test, line_contains(" burst_store_"));
}

/*
 * The same burst on every CPU at once, from interrupts: concurrent
 * reporters of the same pairs, and printers reading buffers that other CPUs
 * filled. Each pair printed once, none lost.
 */
static void test_burst_all_cpus(struct kunit *test)
{
	struct counts before;

	snapshot(&before);
	cpus_read_lock();
	on_each_cpu(burst_all, NULL, 1);
	expect_burst_printed(test, &before, num_online_cpus());
	cpus_read_unlock();
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_TABLE_FULL), 0);
}

/* ===== The rest of the accessor classes, and the barriers ===== */

static void test_class2_iowrite_be(struct kunit *test)
{
	struct counts before;

	snapshot(&before);
	spin_lock(&test_lock);
	__iowrite16be(1, MMIO(0));
	__iowrite32be(1, MMIO(1));
	spin_unlock(&test_lock);

	/* They are built on __writew()/__writel(), which name the store. */
	expect_report(test, "__writew", UNLOCK, test_class2_iowrite_be,
		      test_class2_iowrite_be, &test_lock);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_STORES_TRACKED), 2);
	KUNIT_EXPECT_EQ(test, be32_to_cpu((__force __be32)fake_mmio[1]), 1);
}

static void test_class2_memcpy_toio(struct kunit *test)
{
	u32 buf[4] = { 1, 2, 3, 4 };
	u32 out[4] = { };

	spin_lock(&test_lock);
	__memcpy_toio(MMIO(4), buf, sizeof(buf));
	spin_unlock(&test_lock);

	expect_report(test, "__memcpy_toio", UNLOCK, test_class2_memcpy_toio,
		      test_class2_memcpy_toio, &test_lock);
	__memcpy_fromio(out, MMIO(4), sizeof(out));
	KUNIT_EXPECT_EQ(test, memcmp(buf, out, sizeof(buf)), 0);
}

/* memcpy_toio() may be built on __memcpy_toio(): the report names the former. */
static void test_explicit_memcpy_toio(struct kunit *test)
{
	u32 buf[4] = { };

	KUNIT_ASSERT_EQ(test, mmio_ordering_set_strategy(MMIO_ORDERING_EXPLICIT), 0);
	spin_lock(&test_lock);
	memcpy_toio(MMIO(4), buf, sizeof(buf));
	spin_unlock(&test_lock);

	expect_report(test, "memcpy_toio", UNLOCK, test_explicit_memcpy_toio,
		      test_explicit_memcpy_toio, &test_lock);
	KUNIT_EXPECT_TRUE(test, line_contains("(class 1, ordered) by task"));
}

/*
 * writesX() order like the relaxed accessors (memory-barriers.txt), except
 * where the architecture adds barriers around them (riscv, powerpc): class
 * 2, or 1.
 */
#define WRITES_ORDERED	(IS_ENABLED(CONFIG_RISCV) || IS_ENABLED(CONFIG_PPC))

/*
 * iowrite32_rep(): asm-generic builds it on writesl(), lib/iomap.c on its
 * own loop of ordered stores (x86), which names itself, or on the
 * architecture's writesl() (powerpc).
 */
#if defined(CONFIG_GENERIC_IOMAP) && !defined(mmio_outsl)
#define IOWRITE32_REP	"iowrite32_rep"
#else
#define IOWRITE32_REP	"writesl"
#endif
static void test_explicit_iowrite_rep(struct kunit *test)
{
	const char *name = IOWRITE32_REP;
	bool ordered = IS_ENABLED(CONFIG_GENERIC_IOMAP) || WRITES_ORDERED;
	u32 buf[2] = { 5, 6 };

	KUNIT_ASSERT_EQ(test, mmio_ordering_set_strategy(MMIO_ORDERING_EXPLICIT), 0);
	spin_lock(&test_lock);
	iowrite32_rep(MMIO(2), buf, ARRAY_SIZE(buf));
	spin_unlock(&test_lock);

	expect_report(test, name, UNLOCK, test_explicit_iowrite_rep,
		      test_explicit_iowrite_rep, &test_lock);
	KUNIT_EXPECT_TRUE(test, line_contains(ordered ? "(class 1, ordered) by task" :
							"(class 2, relaxed) by task"));
	KUNIT_EXPECT_EQ(test, fake_mmio[2], 6);
}

/*
 * iowrite32be() is class 1: arm64 builds it itself, powerpc on writel_be(),
 * the others on writel().
 */
static void test_explicit_iowrite_be(struct kunit *test)
{
	const char *name = IS_ENABLED(CONFIG_ARM64) ? "iowrite32be" :
			   IS_ENABLED(CONFIG_PPC) ? "writel_be" : "writel";
	struct counts before;

	snapshot(&before);
	spin_lock(&test_lock);
	iowrite32be(1, MMIO(1));
	spin_unlock(&test_lock);
	expect_no_report(test, &before);

	KUNIT_ASSERT_EQ(test, mmio_ordering_set_strategy(MMIO_ORDERING_EXPLICIT), 0);
	spin_lock(&test_lock);
	iowrite32be(1, MMIO(1));
	spin_unlock(&test_lock);
	expect_report(test, name, UNLOCK, test_explicit_iowrite_be,
		      test_explicit_iowrite_be, &test_lock);
	KUNIT_EXPECT_TRUE(test, line_contains("(class 1, ordered) by task"));
	KUNIT_EXPECT_EQ(test, be32_to_cpu((__force __be32)fake_mmio[1]), 1);
}

#ifdef CONFIG_64BIT
/* writeq() is class 1 and named so, on powerpc too. */
static void test_explicit_writeq(struct kunit *test)
{
	struct counts before;

	snapshot(&before);
	spin_lock(&test_lock);
	writeq(1, MMIO(2));
	spin_unlock(&test_lock);
	expect_no_report(test, &before);

	KUNIT_ASSERT_EQ(test, mmio_ordering_set_strategy(MMIO_ORDERING_EXPLICIT), 0);
	spin_lock(&test_lock);
	writeq(2, MMIO(2));
	spin_unlock(&test_lock);
	expect_report(test, "writeq", UNLOCK, test_explicit_writeq,
		      test_explicit_writeq, &test_lock);
	KUNIT_EXPECT_TRUE(test, line_contains("(class 1, ordered) by task"));
	KUNIT_EXPECT_EQ(test, le64_to_cpu(*(__le64 *)&fake_mmio[2]), 2);
}
#endif

/* Under "auto", writesl() is reported where it is relaxed; no count, no store. */
static void test_writes_class(struct kunit *test)
{
	u32 buf[2] = { 7, 8 };
	struct counts before;
	unsigned long flags, b;

	snapshot(&before);
	raw_spin_lock(&test_raw_lock);
	writesl(MMIO(2), buf, 0);
	iowrite32_rep(MMIO(2), buf, 0);
	raw_spin_unlock(&test_raw_lock);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_STORES_TRACKED), 0);

	local_irq_save(flags);
	rt_locks_here();
	b = this_cpu_auto_barriers();
	raw_spin_lock(&test_raw_lock);
	writesl(MMIO(2), buf, ARRAY_SIZE(buf));
	raw_spin_unlock(&test_raw_lock);
	KUNIT_EXPECT_EQ(test, this_cpu_auto_barriers() - b, WRITES_ORDERED ? 1 : 0);
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_STORES_TRACKED), 1);
	if (WRITES_ORDERED)
		expect_no_report(test, &before);
	else
		expect_report(test, "writesl", UNLOCK, test_writes_class,
			      test_writes_class, &test_raw_lock);
	KUNIT_EXPECT_EQ(test, fake_mmio[2], 8);
}

/*
 * __iowrite32_copy() and __iowrite64_copy(), the write-combining doorbell
 * copies, are ordered against nothing: class 2. The doorbell idiom orders
 * them with wmb().
 */
static void test_iowrite_copy(struct kunit *test)
{
#ifdef CONFIG_HAS_IOMEM
	u32 buf[4] = { 1, 2, 3, 4 };
	struct counts before;

	snapshot(&before);
	spin_lock(&test_lock);
	__iowrite32_copy(MMIO(8), buf, 0);
	spin_unlock(&test_lock);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_STORES_TRACKED), 0);

	spin_lock(&test_lock);
	__iowrite64_copy(MMIO(8), buf, 2);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_STORES_TRACKED), 1);
	/* Orders the tracked MMIO stores above before the unlock. */
	wmb();
	spin_unlock(&test_lock);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_VIOLATIONS), 0);

	spin_lock(&test_lock);
	__iowrite32_copy(MMIO(8), buf, ARRAY_SIZE(buf));
	spin_unlock(&test_lock);
	expect_report(test, "__iowrite32_copy", UNLOCK, test_iowrite_copy,
		      test_iowrite_copy, &test_lock);
	KUNIT_EXPECT_TRUE(test, line_contains("(class 2, relaxed) by task"));
	KUNIT_EXPECT_EQ(test, fake_mmio[11], 4);
#else
	kunit_skip(test, "no __iowrite32_copy() without HAS_IOMEM");
#endif
}

/*
 * x86 does not order stores to write-combining mappings before the unlock,
 * and io_to_lock_wb() is a compiler barrier there: only wmb(), mb() or an
 * uncached store flushes them. Reported in "arch" mode too.
 */
static void test_write_combining(struct kunit *test)
{
#ifdef CONFIG_X86
	struct counts before;
	struct page *page;
	void __iomem *wc;
	unsigned long va;

	if (!pat_enabled())
		kunit_skip(test, "PAT is off: no write-combining mappings");
	page = alloc_page(GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, page);
	va = (unsigned long)page_address(page);
	KUNIT_ASSERT_EQ(test, set_memory_wc(va, 1), 0);
	wc = (void __iomem *)va;

	snapshot(&before);
	spin_lock(&test_lock);
	__writel(1, wc);
	/* Orders the MMIO stores above before the unlock. */
	wmb();
	spin_unlock(&test_lock);
	spin_lock(&test_lock);
	__writel(1, wc);
	writel(2, MMIO(0));
	spin_unlock(&test_lock);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_VIOLATIONS), 0);

	KUNIT_ASSERT_EQ(test, mmio_ordering_set_mode(MMIO_ORDERING_MODE_ARCH), 0);
	spin_lock(&test_lock);
	writel(1, wc);
	io_to_lock_wb();
	spin_unlock(&test_lock);
	expect_report(test, "writel", UNLOCK, test_write_combining, test_write_combining,
		      &test_lock);
	KUNIT_EXPECT_TRUE(test, line_contains("(class 1, ordered, write-combining)"));
	KUNIT_EXPECT_TRUE(test, line_contains("Fix: call wmb() after writel()"));

	/* A later store to the page in the section is write-combining too. */
	snapshot(&before);
	spin_lock(&test_lock);
	writel(1, wc);
	/* Orders the first store: only the second is left. */
	wmb();
	writel(2, wc + 4);
	io_to_lock_wb();
	spin_unlock(&test_lock);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_VIOLATIONS), 1);
	KUNIT_EXPECT_EQ(test, reports_printed(), 2);

	/* What was found for the page is not kept past its section. */
	set_memory_wb(va, 1);
	snapshot(&before);
	spin_lock(&test_lock);
	writel(1, wc);
	io_to_lock_wb();
	spin_unlock(&test_lock);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_VIOLATIONS), 0);

	__free_page(page);
#else
	kunit_skip(test, "write-combining mappings are told apart on x86 only");
#endif
}

/*
 * Port I/O: outX() are ordered like writeX() (memory-barriers.txt), class
 * 1, and the unlock orders them under "auto"; outsX() like writesX(),
 * class 2. Port 0x80, the POST code port, is the one io_delay writes;
 * only bytes, as 0x81 on is the DMA page registers.
 */
#define TEST_PORT	0x80

static void test_port_io(struct kunit *test)
{
#ifdef CONFIG_X86
	u8 buf[2] = { 0, 0 };
	struct counts before;
	unsigned long flags, b;
	char fix[128];

	snapshot(&before);
	local_irq_save(flags);
	rt_locks_here();
	b = this_cpu_auto_barriers();
	raw_spin_lock(&test_raw_lock);
	outb(0, TEST_PORT);
	raw_spin_unlock(&test_raw_lock);
	KUNIT_EXPECT_EQ(test, this_cpu_auto_barriers() - b, 1);
	raw_spin_lock(&test_raw_lock);
	outsb(TEST_PORT, buf, 0);
	raw_spin_unlock(&test_raw_lock);
	local_irq_restore(flags);
	expect_no_report(test, &before);

	raw_spin_lock(&test_raw_lock);
	outsb(TEST_PORT, buf, ARRAY_SIZE(buf));
	raw_spin_unlock(&test_raw_lock);
	expect_report(test, "outsb", UNLOCK, test_port_io, test_port_io, &test_raw_lock);
	KUNIT_EXPECT_TRUE(test, line_contains("outsb() to 0x0000000000000080 (class 2, relaxed)"));
	/* No ordered outsb() to suggest. */
	scnprintf(fix, sizeof(fix), "Fix: call io_to_lock_wb() after outsb() and before %s().",
		  UNLOCK);
	KUNIT_EXPECT_TRUE(test, line_contains(fix));
	KUNIT_EXPECT_FALSE(test, line_contains("use the ordered"));
#else
	kunit_skip(test, "port I/O is tested on x86 only");
#endif
}

/* Under "explicit", outX() need io_to_lock_wb() too, like writeX(). */
static void test_explicit_port_io(struct kunit *test)
{
#ifdef CONFIG_X86
	struct counts before;

	KUNIT_ASSERT_EQ(test, mmio_ordering_set_strategy(MMIO_ORDERING_EXPLICIT), 0);
	snapshot(&before);
	spin_lock(&test_lock);
	outb(0, TEST_PORT);
	io_to_lock_wb();
	spin_unlock(&test_lock);
	expect_no_report(test, &before);

	spin_lock(&test_lock);
	outb_p(0, TEST_PORT);
	spin_unlock(&test_lock);
	expect_report(test, "outb", UNLOCK, test_explicit_port_io, test_explicit_port_io,
		      &test_lock);
	KUNIT_EXPECT_TRUE(test, line_contains("outb() to 0x0000000000000080 (class 1, ordered)"));
#else
	kunit_skip(test, "port I/O is tested on x86 only");
#endif
}

/* A class-2 load is no read-back: nothing orders it before the unlock. */
static void test_class2_read_no_readback(struct kunit *test)
{
	struct counts before;

	snapshot(&before);
	spin_lock(&test_lock);
	__writel(1, MMIO(0));
	KUNIT_EXPECT_EQ(test, __readl(MMIO(0)), 1);
	KUNIT_EXPECT_EQ(test, __ioread32(MMIO(0)), 1);
	KUNIT_EXPECT_EQ(test, __ioread32be(MMIO(0)), 0x01000000);
	KUNIT_EXPECT_EQ(test, __ioread8(MMIO(0)), 1);
	KUNIT_EXPECT_EQ(test, __ioread16(MMIO(0)), 1);
	KUNIT_EXPECT_EQ(test, __ioread16be(MMIO(0)), 0x0100);
	KUNIT_EXPECT_EQ(test, __readb(MMIO(0)), 1);
	KUNIT_EXPECT_EQ(test, __readw(MMIO(0)), 1);
#ifdef __readq
	KUNIT_EXPECT_EQ(test, __readq(MMIO(0)), le64_to_cpu(*(__le64 *)fake_mmio));
#endif
	spin_unlock(&test_lock);

	expect_report(test, "__writel", UNLOCK, test_class2_read_no_readback,
		      test_class2_read_no_readback, &test_lock);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_VIOLATIONS), 1);
}

/* Rules #1 to #3 are not rule #4: only io_to_lock_wb() orders the unlock. */
static void test_other_barriers_not_rule4(struct kunit *test)
{
	struct counts before;
	u32 v;

	snapshot(&before);
	spin_lock(&test_lock);
	memory_to_io_wb();
	__writel(1, MMIO(0));
	io_to_io_barrier();
	v = __readl(MMIO(1));
	io_to_memory_rb(v);
	spin_unlock(&test_lock);

	expect_report(test, "__writel", UNLOCK, test_other_barriers_not_rule4,
		      test_other_barriers_not_rule4, &test_lock);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_EXPLICIT_BARRIERS), 0);
}

/* mb() and wmb() order MMIO stores before the unlock on every architecture. */
static void test_wmb_mb(struct kunit *test)
{
	struct counts before;

	snapshot(&before);
	spin_lock(&test_lock);
	__writel(1, MMIO(0));
	/* Orders the MMIO stores above before the unlock. */
	wmb();
	spin_unlock(&test_lock);
	spin_lock(&test_lock);
	writel_relaxed(1, MMIO(1));
	/* Orders the MMIO stores above before the unlock. */
	mb();
	spin_unlock(&test_lock);

	expect_no_report(test, &before);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_STORES_TRACKED), 2);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_EXPLICIT_BARRIERS), 0);
}

/* mmiowb(), where the architecture has one, orders MMIO before the unlock. */
static void test_mmiowb(struct kunit *test)
{
#ifdef mmiowb
	struct counts before;

	snapshot(&before);
	spin_lock(&test_lock);
	__writel(1, MMIO(0));
	mmiowb();
	spin_unlock(&test_lock);

	expect_no_report(test, &before);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_STORES_TRACKED), 1);
	/* It is not io_to_lock_wb(), which counts itself. */
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_EXPLICIT_BARRIERS), 0);
#else
	kunit_skip(test, "no mmiowb() on this architecture");
#endif
}

/*
 * mmiowb_set_pending() keeps its meaning for callers other than the
 * accessors: the next unlock runs the barrier, as it does after writel(),
 * and only under "auto". It tells the checker of no store.
 */
static void test_mmiowb_set_pending(struct kunit *test)
{
	struct counts before;
	unsigned long flags, b;
	unsigned int rt;

	snapshot(&before);
	local_irq_save(flags);
	rt = rt_locks_here();
	b = this_cpu_auto_barriers();
	raw_spin_lock(&test_raw_lock);
	mmiowb_set_pending();
	raw_spin_unlock(&test_raw_lock);
	KUNIT_EXPECT_EQ(test, this_cpu_auto_barriers() - b, 1);

	/* Outside a lock there is nothing to order (but on RT). */
	mmiowb_set_pending();
	raw_spin_lock(&test_raw_lock);
	raw_spin_unlock(&test_raw_lock);
	KUNIT_EXPECT_EQ(test, this_cpu_auto_barriers() - b, 1 + rt);
	local_irq_restore(flags);

	KUNIT_ASSERT_EQ(test, mmio_ordering_set_strategy(MMIO_ORDERING_EXPLICIT), 0);
	local_irq_save(flags);
	rt_locks_here();
	b = this_cpu_auto_barriers();
	raw_spin_lock(&test_raw_lock);
	mmiowb_set_pending();
	raw_spin_unlock(&test_raw_lock);
	KUNIT_EXPECT_EQ(test, this_cpu_auto_barriers() - b, 0);
	local_irq_restore(flags);

	expect_no_report(test, &before);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_STORES_TRACKED), 0);
}

/* dma_wmb() and smp_wmb() order memory for devices and CPUs, not MMIO. */
static void test_dma_wmb_not_rule4(struct kunit *test)
{
	spin_lock(&test_lock);
	__writel(1, MMIO(0));
	/* None of these orders MMIO: the store stays pending. */
	dma_wmb();
	/* Orders memory for other CPUs only. */
	smp_wmb();
	dma_mb();
	spin_unlock(&test_lock);

	expect_report(test, "__writel", UNLOCK, test_dma_wmb_not_rule4,
		      test_dma_wmb_not_rule4, &test_lock);
}

/* A wmb() before the store orders nothing after it. */
static void test_wmb_before_store(struct kunit *test)
{
	spin_lock(&test_lock);
	/* Orders the MMIO stores above before the unlock. */
	wmb();
	__writel(1, MMIO(0));
	spin_unlock(&test_lock);

	expect_report(test, "__writel", UNLOCK, test_wmb_before_store,
		      test_wmb_before_store, &test_lock);
}

/* More locks than the checker tracks: each its own lockdep class. */
static DEFINE_SPINLOCK(deep0);
static DEFINE_SPINLOCK(deep1);
static DEFINE_SPINLOCK(deep2);
static DEFINE_SPINLOCK(deep3);
static DEFINE_SPINLOCK(deep4);
static DEFINE_SPINLOCK(deep5);
static DEFINE_SPINLOCK(deep6);
static DEFINE_SPINLOCK(deep7);
static DEFINE_SPINLOCK(deep8);
static DEFINE_SPINLOCK(deep9);
static spinlock_t *const deep_locks[] = {
	&deep0, &deep1, &deep2, &deep3, &deep4, &deep5, &deep6, &deep7, &deep8, &deep9,
};

/* The checker is clean: no level left behind, and it still reports. */
static void expect_clean_checker(struct kunit *test)
{
	struct counts before;

	snapshot(&before);
	/* A store under no lock is not tracked: no level is left held. */
	__writel(1, MMIO(0));
	spin_lock(&test_lock);
	spin_unlock(&test_lock);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_STORES_TRACKED), 0);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_VIOLATIONS), 0);

	spin_lock(&test_lock);
	__writel(1, MMIO(0));
	spin_unlock(&test_lock);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_VIOLATIONS), 1);
	KUNIT_EXPECT_EQ(test, reports_printed(), 1);
}

/*
 * Ten locks, two more than tracked, released out of order, twice: the
 * untracked ones come into view as tracked ones go, and every level is
 * accounted for. The store made under the eighth and later locks is
 * reported at one of their releases.
 */
static void test_deep_out_of_order(struct kunit *test)
{
	static const int order[] = { 3, 0, 9, 5, 8, 1, 7, 2, 6, 4 };
	struct counts before;
	int round, i;

	snapshot(&before);
	for (round = 0; round < 2; round++) {
		for (i = 0; i < ARRAY_SIZE(deep_locks); i++)
			spin_lock(deep_locks[i]);
		__writel(1, MMIO(2));
		for (i = 0; i < ARRAY_SIZE(order); i++)
			spin_unlock(deep_locks[order[i]]);
	}
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_NESTING_OVERFLOW), 4);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_VIOLATIONS), 2);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_IMBALANCE), 0);
	/* Reports about the deep locks are not counted by reports_printed(). */
	expect_clean_checker(test);
}

/*
 * A lock whose release this context never sees (released in another
 * context or on another CPU, which lockdep and spinlock debugging would
 * flag first): the hooks are called directly. The next lock taken in this
 * context finds it unlocked and forgets it.
 */
static void test_released_elsewhere(struct kunit *test)
{
	static DEFINE_RAW_SPINLOCK(never_locked);
	struct counts before;

	snapshot(&before);
	preempt_disable();
	__mmio_ordering_acquire(&never_locked, MMIO_ORDERING_SPIN, _THIS_IP_);
	__writel(1, MMIO(0));
	raw_spin_lock(&test_raw_lock);
	raw_spin_unlock(&test_raw_lock);
	preempt_enable();
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_IMBALANCE), 1);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_VIOLATIONS), 0);
	expect_clean_checker(test);
}

static void test_raw_store(struct kunit *test)
{
	struct counts before;

	snapshot(&before);
	spin_lock(&test_lock);
	__raw_writel(1, MMIO(0));
	spin_unlock(&test_lock);

	if (!IS_ENABLED(CONFIG_DEBUG_MMIO_ORDERING_RAW)) {
		/* Class 3 is not tracked without its option. */
		expect_no_report(test, &before);
		return;
	}
	expect_report(test, "__raw_writel", UNLOCK, test_raw_store, test_raw_store,
		      &test_lock);
	KUNIT_EXPECT_TRUE(test, line_contains("(class 3, raw) by task"));
	/* Class-3 stores are not counted: most are inside other accessors. */
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_STORES_TRACKED), 0);
}

static void test_raw_store_with_barrier(struct kunit *test)
{
	struct counts before;

	snapshot(&before);
	spin_lock(&test_lock);
	__raw_writel(1, MMIO(0));
	__raw_writel(2, MMIO(1));
	io_to_lock_wb();
	spin_unlock(&test_lock);

	expect_no_report(test, &before);
}

/*
 * What each barrier compiles to is checked on the disassembly of these
 * functions by tools/mmio_ordering/check-barriers.py; here they only run.
 * They are called through pointers so that the compiler keeps them whole.
 */
static noinline u32 mmio_ordering_codegen_io_to_memory_rb(const void __iomem *io,
							  const u32 *mem)
{
	u32 v = __readl(io);

	io_to_memory_rb(v);
	return READ_ONCE(*mem) + v;
}

static noinline void mmio_ordering_codegen_memory_to_io_wb(void __iomem *io, u32 *mem)
{
	WRITE_ONCE(*mem, 1);
	memory_to_io_wb();
	__writel(2, io);
}

static noinline void mmio_ordering_codegen_io_to_io_barrier(void __iomem *io, u32 *mem)
{
	__raw_writel(1, io);
	io_to_io_barrier();
	__raw_writel(2, io + 4);
}

static noinline void mmio_ordering_codegen_io_to_lock_wb(void __iomem *io, u32 *mem)
{
	__writel(1, io);
	io_to_lock_wb();
	WRITE_ONCE(*mem, 2);
}

static DEFINE_RAW_SPINLOCK(codegen_lock);

/*
 * The "auto" barrier: asm-generic/mmiowb.h's hooks around a class-1 store,
 * as do_raw_spin_lock() and do_raw_spin_unlock() run them (out of line in
 * spinlock_debug.c with CONFIG_DEBUG_SPINLOCK), with the checker's.
 */
static noinline void mmio_ordering_codegen_auto_unlock(void __iomem *io, u32 *mem)
{
	preempt_disable();
	mmiowb_spin_lock();
	mmio_ordering_lock(&codegen_lock, MMIO_ORDERING_SPIN, _THIS_IP_);
	writel(3, io + 8);
	mmio_ordering_unlock(&codegen_lock, MMIO_ORDERING_SPIN);
	mmiowb_spin_unlock();
	preempt_enable();
}

static void test_barrier_codegen(struct kunit *test)
{
	void (*const stores[])(void __iomem *io, u32 *m) = {
		mmio_ordering_codegen_memory_to_io_wb,
		mmio_ordering_codegen_io_to_io_barrier,
		mmio_ordering_codegen_io_to_lock_wb,
		mmio_ordering_codegen_auto_unlock,
	};
	u32 (*load)(const void __iomem *io, const u32 *m) =
		mmio_ordering_codegen_io_to_memory_rb;
	void (*store)(void __iomem *io, u32 *m);
	struct counts before;
	u32 mem = 0;
	int i;

	snapshot(&before);
	for (i = 0; i < ARRAY_SIZE(stores); i++) {
		store = stores[i];
		OPTIMIZER_HIDE_VAR(store);
		store(MMIO(0), &mem);
	}
	OPTIMIZER_HIDE_VAR(load);
	KUNIT_EXPECT_EQ(test, readl(MMIO(0)), 1);
	KUNIT_EXPECT_EQ(test, readl(MMIO(1)), 2);
	KUNIT_EXPECT_EQ(test, mem, 2);
	KUNIT_EXPECT_EQ(test, load(MMIO(0), &mem), 3);
	KUNIT_EXPECT_EQ(test, readl(MMIO(2)), 3);
	/* Only the auto_unlock section's store is under a lock, and ordered. */
	expect_no_report(test, &before);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_STORES_TRACKED), 1);
	/* Only io_to_lock_wb() tells the checker; check-barriers.py reads the code. */
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_EXPLICIT_BARRIERS), 1);
}

/* A report title names @unlock, in @fn. */
static bool unlock_seen(const char *unlock, const char *fn)
{
	char needle[128];

	scnprintf(needle, sizeof(needle), " %s() in %s ", unlock, fn);
	return title_seen(needle);
}

/*
 * spinlock_t, rwlocks and bit spinlocks order writel() as raw spinlocks
 * do, under "auto" only; on PREEMPT_RT too, where the first two are
 * rt_mutex based. Trylocks, which do not sleep there: with interrupts off,
 * this CPU's count is the test's.
 */
static void test_auto_other_locks(struct kunit *test)
{
	enum mmio_ordering_strategy strategy = MMIO_ORDERING_AUTO;
	unsigned long flags, b;
	struct counts before;

again:
	KUNIT_ASSERT_EQ(test, mmio_ordering_set_strategy(strategy), 0);
	snapshot(&before);
	local_irq_save(flags);
	rt_locks_here();
	b = this_cpu_auto_barriers();
	KUNIT_EXPECT_TRUE(test, spin_trylock(&test_lock));
	writel(1, MMIO(0));
	spin_unlock(&test_lock);
	KUNIT_EXPECT_TRUE(test, write_trylock(&test_rwlock));
	writel(2, MMIO(0));
	write_unlock(&test_rwlock);
	KUNIT_EXPECT_TRUE(test, read_trylock(&test_rwlock));
	writel(3, MMIO(0));
	read_unlock(&test_rwlock);
	bit_spin_lock(TEST_BIT_LOCK, test_bit_lock);
	writel(4, MMIO(0));
	bit_spin_unlock(TEST_BIT_LOCK, test_bit_lock);
	b = this_cpu_auto_barriers() - b;
	local_irq_restore(flags);

	if (strategy == MMIO_ORDERING_AUTO) {
		KUNIT_EXPECT_EQ(test, b, 4);
		expect_no_report(test, &before);
		strategy = MMIO_ORDERING_EXPLICIT;
		goto again;
	}
	KUNIT_EXPECT_EQ(test, b, 0);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_VIOLATIONS), 4);
	KUNIT_EXPECT_EQ(test, reports_printed(), 4);
	KUNIT_EXPECT_TRUE(test, unlock_seen("spin_unlock", __func__));
	KUNIT_EXPECT_TRUE(test, unlock_seen("write_unlock", __func__));
	KUNIT_EXPECT_TRUE(test, unlock_seen("read_unlock", __func__));
	KUNIT_EXPECT_TRUE(test, unlock_seen("bit_spin_unlock", __func__));
}

/* Sleeping locks: writel() under them is ordered by "auto" only. */
static void test_auto_sleeping_locks(struct kunit *test)
{
	enum mmio_ordering_strategy strategy = MMIO_ORDERING_AUTO;
	unsigned long flags, b, n = 3;
	struct counts before;

again:
	KUNIT_ASSERT_EQ(test, mmio_ordering_set_strategy(strategy), 0);
	snapshot(&before);
	/* Trylocks, which do not sleep: this CPU's count is the test's. */
	local_irq_save(flags);
	rt_locks_here();
	b = this_cpu_auto_barriers();
	KUNIT_EXPECT_TRUE(test, mutex_trylock(&test_mutex));
	writel(1, MMIO(0));
	mutex_unlock(&test_mutex);
	KUNIT_EXPECT_TRUE(test, down_write_trylock(&test_rwsem));
	writel(2, MMIO(0));
	up_write(&test_rwsem);
	KUNIT_EXPECT_FALSE(test, down_trylock(&test_sem));
	writel(3, MMIO(0));
	up(&test_sem);
#ifdef CONFIG_RT_MUTEXES
	KUNIT_EXPECT_TRUE(test, rt_mutex_trylock(&test_rt_mutex));
	writel(4, MMIO(0));
	rt_mutex_unlock(&test_rt_mutex);
	n = 4;
#endif
	b = this_cpu_auto_barriers() - b;
	local_irq_restore(flags);

	if (strategy == MMIO_ORDERING_AUTO) {
		KUNIT_EXPECT_EQ(test, b, n);
		expect_no_report(test, &before);
		strategy = MMIO_ORDERING_EXPLICIT;
		goto again;
	}
	KUNIT_EXPECT_EQ(test, b, 0);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_VIOLATIONS), n);
	KUNIT_EXPECT_EQ(test, reports_printed(), n);
	KUNIT_EXPECT_TRUE(test, unlock_seen("mutex_unlock", __func__));
	KUNIT_EXPECT_TRUE(test, unlock_seen("up_write", __func__));
	KUNIT_EXPECT_TRUE(test, unlock_seen("up", __func__));
	if (IS_ENABLED(CONFIG_RT_MUTEXES))
		KUNIT_EXPECT_TRUE(test, unlock_seen("rt_mutex_unlock", __func__));
}

/*
 * The task keeps a sleeping lock's stores across a sleep. A store made
 * before the lock was taken, one ordered by io_to_lock_wb(), and one
 * under an inner spinlock (reported at its spin_unlock()) are not the
 * mutex's to report.
 */
static void test_sleeping_lock_state(struct kunit *test)
{
	struct counts before;

	snapshot(&before);
	__writel(1, MMIO(0));
	mutex_lock(&test_mutex);
	mutex_unlock(&test_mutex);

	mutex_lock(&test_mutex);
	__writel(2, MMIO(0));
	io_to_lock_wb();
	mutex_unlock(&test_mutex);
	expect_no_report(test, &before);

	mutex_lock(&test_mutex);
	spin_lock(&test_lock);
	__writel(3, MMIO(0));
	spin_unlock(&test_lock);
	mutex_unlock(&test_mutex);
	expect_report(test, "__writel", UNLOCK, test_sleeping_lock_state,
		      test_sleeping_lock_state, &test_lock);

	mutex_lock(&test_mutex);
	mutex_lock(&inner_mutex);
	__writel(4, MMIO(0));
	schedule_timeout_uninterruptible(1);
	mutex_unlock(&inner_mutex);
	mutex_unlock(&test_mutex);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_VIOLATIONS), 2);
	KUNIT_EXPECT_EQ(test, reports_printed(), 2);
	KUNIT_EXPECT_TRUE(test, unlock_seen("mutex_unlock", __func__));
}

static struct semaphore *up_target;

static void up_work_fn(struct work_struct *work)
{
	up(up_target);
}

static DECLARE_WORK(up_work, up_work_fn);

/* Another task's up() of @sem, done or, @wait, waited for by down(). */
static void up_elsewhere(struct semaphore *sem, bool wait)
{
	up_target = sem;
	schedule_work(&up_work);
	if (wait)
		down(sem);
	flush_work(&up_work);
}

/*
 * A task holds a semaphore from the down() that took its last unit to
 * its own up(): not while units are left, not once another task's up()
 * freed it, and an event another task signals is no lock held for good.
 */
static void test_semaphore_holder(struct kunit *test)
{
	struct counts before;
	unsigned long flags;
	unsigned int held, i;

	snapshot(&before);
	sema_init(&test_pool, 2);
	down(&test_pool);
	__writel(1, MMIO(0));
	up(&test_pool);

	down(&test_sem);
	__writel(2, MMIO(0));
	up_elsewhere(&test_sem, false);
	/* Not held any more, even before this task takes another lock. */
	local_irq_save(flags);
	held = mmio_ordering_held_here();
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ(test, held, 0);
	down(&test_sem);
	up(&test_sem);

	sema_init(&test_event, 0);
	for (i = 0; i < 2; i++) {
		up_elsewhere(&test_event, true);
		__writel(3, MMIO(0));
		mutex_lock(&test_mutex);
		mutex_unlock(&test_mutex);
	}
	up_elsewhere(&test_event, false);
	mutex_lock(&test_mutex);
	mutex_unlock(&test_mutex);

	expect_no_report(test, &before);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_IMBALANCE), 0);
	local_irq_save(flags);
	held = mmio_ordering_held_here();
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ(test, held, 0);

	/* The holder's own up() is still checked. */
	down(&test_sem);
	__writel(4, MMIO(0));
	up(&test_sem);
	expect_report(test, "__writel", "up", test_semaphore_holder,
		      test_semaphore_holder, &test_sem);
}

static enum mmio_ordering_strategy saved_strategy;
static enum mmio_ordering_mode saved_mode;

static int test_init(struct kunit *test)
{
	unsigned long flags;

	saved_strategy = mmio_ordering_get_strategy();
	saved_mode = READ_ONCE(mmio_ordering_mode);
	mmio_ordering_set_strategy(MMIO_ORDERING_AUTO);
	mmio_ordering_set_mode(MMIO_ORDERING_MODE_PORTABLE);
	/* Print what earlier tests left, then forget it. */
	mmio_ordering_report_flush();
	mmio_ordering_report_reset();
	raw_spin_lock_irqsave(&observed.lock, flags);
	observed.nreports = 0;
	observed.nlines = 0;
	observed.ncur = 0;
	observed.nrejected = 0;
	observed.rejected[0] = '\0';
	observed.nnot_printed = 0;
	observed.not_printed[0] = '\0';
	observed.not_recorded[0] = '\0';
	observed.ntitles_all = 0;
	memset(observed.burst, 0, sizeof(observed.burst));
	raw_spin_unlock_irqrestore(&observed.lock, flags);
	return 0;
}

static void test_exit(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, state_on_cpu(NULL), 0);
	mmio_ordering_set_strategy(saved_strategy);
	mmio_ordering_set_mode(saved_mode);
}

static int suite_init(struct kunit_suite *suite)
{
	int ret = map_fake_mmio();

	return ret ? ret : register_trace_console(probe_console, NULL);
}

static void suite_exit(struct kunit_suite *suite)
{
	unregister_trace_console(probe_console, NULL);
	tracepoint_synchronize_unregister();
}

static struct kunit_case mmio_ordering_test_cases[] = {
	KUNIT_CASE(test_relaxed_spin_lock),
	KUNIT_CASE(test_deferred_print),
	KUNIT_CASE(test_writel_relaxed),
	KUNIT_CASE(test_relaxed_accessor_widths),
	KUNIT_CASE(test_two_devices),
	KUNIT_CASE_PARAM(test_lock_variant, lock_variant_gen_params),
	KUNIT_CASE(test_store_in_helper),
	KUNIT_CASE(test_store_stack_cache),
	KUNIT_CASE(test_nested_outer),
	KUNIT_CASE(test_nested_inner),
	KUNIT_CASE(test_nested_out_of_order),
	KUNIT_CASE(test_hardirq_lock),
	KUNIT_CASE(test_dedup),
	KUNIT_CASE(test_store_outside_lock),
	KUNIT_CASE(test_io_to_lock_wb),
	KUNIT_CASE(test_ordered_store_after_relaxed),
	KUNIT_CASE(test_readback),
	KUNIT_CASE(test_inner_unrelated_lock),
	KUNIT_CASE(test_conditional_mmio),
	KUNIT_CASE(test_irq_store_task_lock),
	KUNIT_CASE(test_task_store_irq_lock),
	KUNIT_CASE(test_auto_barrier_counts),
	KUNIT_CASE(test_auto_class1_accessors),
	KUNIT_CASE(test_explicit_reports_ordered),
	KUNIT_CASE(test_explicit_with_barrier),
	KUNIT_CASE(test_explicit_relaxed_then_ordered),
	KUNIT_CASE(test_strategy_param),
	KUNIT_CASE(test_mode_arch),
	KUNIT_CASE(test_mode_portable),
	KUNIT_CASE(test_mode_arch_sync_accessors),
	KUNIT_CASE(test_unordered),
	KUNIT_CASE(test_unordered_then_relaxed),
	KUNIT_CASE(test_mode_parse),
	KUNIT_CASE(test_param_bad_input),
	KUNIT_CASE(test_console_port_lock),
	KUNIT_CASE(test_contexts_all_cpus),
	KUNIT_CASE(test_class2_iowrite_be),
	KUNIT_CASE(test_class2_memcpy_toio),
	KUNIT_CASE(test_explicit_memcpy_toio),
	KUNIT_CASE(test_explicit_iowrite_rep),
	KUNIT_CASE(test_writes_class),
	KUNIT_CASE(test_explicit_iowrite_be),
#ifdef CONFIG_64BIT
	KUNIT_CASE(test_explicit_writeq),
#endif
	KUNIT_CASE(test_iowrite_copy),
	KUNIT_CASE(test_write_combining),
	KUNIT_CASE(test_port_io),
	KUNIT_CASE(test_explicit_port_io),
	KUNIT_CASE(test_class2_read_no_readback),
	KUNIT_CASE(test_other_barriers_not_rule4),
	KUNIT_CASE(test_wmb_mb),
	KUNIT_CASE(test_mmiowb),
	KUNIT_CASE(test_mmiowb_set_pending),
	KUNIT_CASE(test_auto_sleeping_locks),
	KUNIT_CASE(test_sleeping_lock_state),
	KUNIT_CASE(test_semaphore_holder),
	KUNIT_CASE(test_auto_other_locks),
	KUNIT_CASE(test_deep_out_of_order),
	KUNIT_CASE(test_released_elsewhere),
	KUNIT_CASE(test_dma_wmb_not_rule4),
	KUNIT_CASE(test_wmb_before_store),
	KUNIT_CASE(test_raw_store),
	KUNIT_CASE(test_raw_store_with_barrier),
	KUNIT_CASE(test_barrier_codegen),
	KUNIT_CASE_SLOW(test_flood_identical),
	KUNIT_CASE_SLOW(test_flood_distinct),
	KUNIT_CASE(test_burst_distinct),
	KUNIT_CASE(test_burst_all_cpus),
	{},
};

static struct kunit_suite mmio_ordering_test_suite = {
	.name = "mmio_ordering",
	.test_cases = mmio_ordering_test_cases,
	.init = test_init,
	.exit = test_exit,
	.suite_init = suite_init,
	.suite_exit = suite_exit,
};

kunit_test_suites(&mmio_ordering_test_suite);

MODULE_DESCRIPTION("MMIO ordering KUnit test suite");
MODULE_LICENSE("GPL");
