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
#include <linux/io.h>
#include <linux/irq_work.h>
#include <linux/kallsyms.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <trace/events/printk.h>

#include "mmio_ordering.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define NLINES 64

/* Lines of the first report printed since the test started. */
static struct {
	spinlock_t lock;
	int nreports;
	int nlines;
	char lines[NLINES][256];
} observed = {
	.lock = __SPIN_LOCK_UNLOCKED(observed.lock),
};

static void probe_console(void *ignore, const char *buf, size_t len)
{
	unsigned long flags;

	spin_lock_irqsave(&observed.lock, flags);
	if (strnstr(buf, "BUG: MMIO-ORDERING: ", len)) {
		if (!observed.nreports++)
			observed.nlines = 0;
		else
			goto out;
	} else if (observed.nreports != 1 || !observed.nlines ||
		   observed.nlines >= NLINES ||
		   !strncmp(observed.lines[observed.nlines - 1], "=====", 5)) {
		goto out;
	}
	strscpy(observed.lines[observed.nlines++], buf,
		min(len + 1, sizeof(observed.lines[0])));
out:
	spin_unlock_irqrestore(&observed.lock, flags);
}

static u32 fake_mmio[64] __aligned(8);
#define MMIO(i) ((void __iomem *)&fake_mmio[i])

static DEFINE_SPINLOCK(test_lock);
static DEFINE_SPINLOCK(inner_lock);
static DEFINE_RAW_SPINLOCK(test_raw_lock);

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

/* Print what is pending, then return how many reports were seen. */
static int reports_printed(void)
{
	unsigned long flags;
	int n;

	mmio_ordering_report_flush();
	spin_lock_irqsave(&observed.lock, flags);
	n = observed.nreports;
	spin_unlock_irqrestore(&observed.lock, flags);
	return n;
}

static bool line_contains(const char *needle)
{
	int i;

	for (i = 0; i < observed.nlines; i++) {
		if (strstr(observed.lines[i], needle))
			return true;
	}
	return false;
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
	KUNIT_EXPECT_TRUE(test, line_contains("Fix: call io_to_lock_wb() after"));
}

static void expect_no_report(struct kunit *test, const struct counts *before)
{
	KUNIT_EXPECT_EQ(test, reports_printed(), 0);
	KUNIT_EXPECT_EQ(test, delta(before, MMIO_ORDERING_COUNTER_VIOLATIONS), 0);
}

/* The unlock API as the report names it: inlined unlocks have no frame. */
#define UNLOCK_NAME(variant, inlined) (IS_ENABLED(inlined) ? "spin_unlock" : variant)

/* ===== Must report ===== */

static void test_relaxed_spin_lock(struct kunit *test)
{
	struct counts before;

	snapshot(&before);
	spin_lock(&test_lock);
	__writel(1, MMIO(0));
	spin_unlock(&test_lock);

	expect_report(test, "__writel", UNLOCK_NAME("spin_unlock", CONFIG_INLINE_SPIN_UNLOCK),
		      test_relaxed_spin_lock, test_relaxed_spin_lock, &test_lock);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_VIOLATIONS), 1);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_REPORTS), 1);
	KUNIT_EXPECT_TRUE(test, line_contains("(class 2, relaxed) by task"));
}

static void test_writel_relaxed(struct kunit *test)
{
	spin_lock(&test_lock);
	writel_relaxed(1, MMIO(0));
	spin_unlock(&test_lock);

	expect_report(test, "writel_relaxed",
		      UNLOCK_NAME("spin_unlock", CONFIG_INLINE_SPIN_UNLOCK),
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

	/* Only the first unordered store of a section is reported. */
	expect_report(test, "__writeb", UNLOCK_NAME("spin_unlock", CONFIG_INLINE_SPIN_UNLOCK),
		      test_relaxed_accessor_widths, test_relaxed_accessor_widths,
		      &test_lock);
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_STORES_TRACKED),
			IS_ENABLED(CONFIG_64BIT) ? 5 : 4);
}

static void test_spin_lock_irq(struct kunit *test)
{
	spin_lock_irq(&test_lock);
	__writel(1, MMIO(0));
	spin_unlock_irq(&test_lock);

	expect_report(test, "__writel",
		      UNLOCK_NAME("spin_unlock_irq", CONFIG_INLINE_SPIN_UNLOCK_IRQ),
		      test_spin_lock_irq, test_spin_lock_irq, &test_lock);
}

static void test_spin_lock_irqsave(struct kunit *test)
{
	unsigned long flags;

	spin_lock_irqsave(&test_lock, flags);
	__writel(1, MMIO(0));
	spin_unlock_irqrestore(&test_lock, flags);

	expect_report(test, "__writel",
		      UNLOCK_NAME("spin_unlock_irqrestore", CONFIG_INLINE_SPIN_UNLOCK_IRQRESTORE),
		      test_spin_lock_irqsave, test_spin_lock_irqsave, &test_lock);
}

static void test_spin_lock_bh(struct kunit *test)
{
	spin_lock_bh(&test_lock);
	__writel(1, MMIO(0));
	spin_unlock_bh(&test_lock);

	expect_report(test, "__writel",
		      UNLOCK_NAME("spin_unlock_bh", CONFIG_INLINE_SPIN_UNLOCK_BH),
		      test_spin_lock_bh, test_spin_lock_bh, &test_lock);
}

static void test_spin_lock_nested(struct kunit *test)
{
	spin_lock_nested(&test_lock, SINGLE_DEPTH_NESTING);
	__writel(1, MMIO(0));
	spin_unlock(&test_lock);

	expect_report(test, "__writel", UNLOCK_NAME("spin_unlock", CONFIG_INLINE_SPIN_UNLOCK),
		      test_spin_lock_nested, test_spin_lock_nested, &test_lock);
}

static void test_spin_trylock(struct kunit *test)
{
	KUNIT_ASSERT_TRUE(test, spin_trylock(&test_lock));
	__writel(1, MMIO(0));
	spin_unlock(&test_lock);

	expect_report(test, "__writel", UNLOCK_NAME("spin_unlock", CONFIG_INLINE_SPIN_UNLOCK),
		      test_spin_trylock, test_spin_trylock, &test_lock);
}

static void test_raw_spin_lock(struct kunit *test)
{
	raw_spin_lock(&test_raw_lock);
	__writel(1, MMIO(0));
	raw_spin_unlock(&test_raw_lock);

	expect_report(test, "__writel", UNLOCK_NAME("spin_unlock", CONFIG_INLINE_SPIN_UNLOCK),
		      test_raw_spin_lock, test_raw_spin_lock, &test_raw_lock);
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

	expect_report(test, "__writel", UNLOCK_NAME("spin_unlock", CONFIG_INLINE_SPIN_UNLOCK),
		      store_helper, locked_call_helper, &test_lock);
	/* The store's stack goes on through the caller that holds the lock. */
	KUNIT_EXPECT_TRUE(test, line_contains(" locked_call_helper+"));
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

	expect_report(test, "__writel", UNLOCK_NAME("spin_unlock", CONFIG_INLINE_SPIN_UNLOCK),
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
	expect_report(test, "__writel", UNLOCK_NAME("spin_unlock", CONFIG_INLINE_SPIN_UNLOCK),
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

	expect_report(test, "__writel", UNLOCK_NAME("spin_unlock", CONFIG_INLINE_SPIN_UNLOCK),
		      test_nested_out_of_order, test_nested_out_of_order, &test_lock);
}

static void irq_locked_store(struct irq_work *work)
{
	spin_lock(&inner_lock);
	__writel(1, MMIO(8));
	spin_unlock(&inner_lock);
}

static void test_hardirq_lock(struct kunit *test)
{
	struct irq_work work = IRQ_WORK_INIT_HARD(irq_locked_store);

	irq_work_queue(&work);
	irq_work_sync(&work);

	expect_report(test, "__writel", UNLOCK_NAME("spin_unlock", CONFIG_INLINE_SPIN_UNLOCK),
		      irq_locked_store, irq_locked_store, &inner_lock);
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
	KUNIT_EXPECT_EQ(test, delta(&before, MMIO_ORDERING_COUNTER_DROPPED), 0);
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

static void test_readback(struct kunit *test)
{
	struct counts before;

	snapshot(&before);
	spin_lock(&test_lock);
	__writel(1, MMIO(0));
	(void)readl(MMIO(1));
	spin_unlock(&test_lock);

	expect_no_report(test, &before);
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
	spin_lock(&inner_lock);
	spin_unlock(&inner_lock);
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
	expect_report(test, "__writel", UNLOCK_NAME("spin_unlock", CONFIG_INLINE_SPIN_UNLOCK),
		      test_task_store_irq_lock, test_task_store_irq_lock, &test_lock);
}

/* ===== Strategies ===== */

static void test_auto_barrier_counts(struct kunit *test)
{
	unsigned long flags, b;
	int i;

	local_irq_save(flags);

	/* Unrelated lock: no barrier. */
	b = this_cpu_auto_barriers();
	spin_lock(&test_lock);
	spin_unlock(&test_lock);
	KUNIT_EXPECT_EQ(test, this_cpu_auto_barriers() - b, 0);

	/* One ordered write per section: one barrier per section. */
	b = this_cpu_auto_barriers();
	for (i = 0; i < 10; i++) {
		spin_lock(&test_lock);
		writel(i, MMIO(0));
		spin_unlock(&test_lock);
	}
	KUNIT_EXPECT_EQ(test, this_cpu_auto_barriers() - b, 10);

	/* A burst of relaxed writes and an explicit barrier: none added. */
	b = this_cpu_auto_barriers();
	spin_lock(&test_lock);
	for (i = 0; i < 8; i++)
		__writel(i, MMIO(i));
	io_to_lock_wb();
	spin_unlock(&test_lock);
	KUNIT_EXPECT_EQ(test, this_cpu_auto_barriers() - b, 0);

	/* Ordered write then io_to_lock_wb(): already ordered, none added. */
	b = this_cpu_auto_barriers();
	spin_lock(&test_lock);
	writel(1, MMIO(0));
	io_to_lock_wb();
	spin_unlock(&test_lock);
	KUNIT_EXPECT_EQ(test, this_cpu_auto_barriers() - b, 0);

	/* MMIO outside any lock, then an unrelated unlock: none. */
	b = this_cpu_auto_barriers();
	writel(1, MMIO(0));
	spin_lock(&test_lock);
	spin_unlock(&test_lock);
	KUNIT_EXPECT_EQ(test, this_cpu_auto_barriers() - b, 0);

	/* Nested: the inner unlock orders the write, the outer adds none. */
	b = this_cpu_auto_barriers();
	spin_lock(&test_lock);
	spin_lock(&inner_lock);
	writel(1, MMIO(0));
	spin_unlock(&inner_lock);
	spin_unlock(&test_lock);
	KUNIT_EXPECT_EQ(test, this_cpu_auto_barriers() - b, 1);

	/* Conditional MMIO in 1 of 10 sections: 1 barrier. */
	b = this_cpu_auto_barriers();
	for (i = 0; i < 10; i++) {
		spin_lock(&test_lock);
		if (i == 3) {
			writel(i, MMIO(0));
			memcpy_toio(MMIO(4), fake_mmio, 8);
		}
		spin_unlock(&test_lock);
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
	b = this_cpu_auto_barriers();
	spin_lock(&test_lock);
	iowrite32(1, MMIO(0));
	spin_unlock(&test_lock);
	spin_lock(&test_lock);
	memcpy_toio(MMIO(4), buf, sizeof(buf));
	spin_unlock(&test_lock);
	spin_lock(&test_lock);
	writesl(MMIO(8), buf, ARRAY_SIZE(buf));
	spin_unlock(&test_lock);
	spin_lock(&test_lock);
	memset_io(MMIO(12), 0, 16);
	spin_unlock(&test_lock);
	KUNIT_EXPECT_EQ(test, this_cpu_auto_barriers() - b, 4);
	local_irq_restore(flags);

	expect_no_report(test, &before);
}

static void test_explicit_reports_ordered(struct kunit *test)
{
	unsigned long flags, b;

	KUNIT_ASSERT_EQ(test, mmio_ordering_set_strategy(MMIO_ORDERING_EXPLICIT), 0);

	local_irq_save(flags);
	b = this_cpu_auto_barriers();
	spin_lock(&test_lock);
	writel(1, MMIO(0));
	spin_unlock(&test_lock);
	KUNIT_EXPECT_EQ(test, this_cpu_auto_barriers() - b, 0);
	local_irq_restore(flags);

	expect_report(test, "writel", UNLOCK_NAME("spin_unlock", CONFIG_INLINE_SPIN_UNLOCK),
		      test_explicit_reports_ordered, test_explicit_reports_ordered,
		      &test_lock);
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
	b = this_cpu_auto_barriers();
	spin_lock(&test_lock);
	writel(1, MMIO(0));
	__writel(1, MMIO(1));
	io_to_lock_wb();
	spin_unlock(&test_lock);
	KUNIT_EXPECT_EQ(test, this_cpu_auto_barriers() - b, 0);
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

	expect_report(test, "__writel", UNLOCK_NAME("spin_unlock", CONFIG_INLINE_SPIN_UNLOCK),
		      test_explicit_relaxed_then_ordered, test_explicit_relaxed_then_ordered,
		      &test_lock);
}

static void test_strategy_param(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, mmio_ordering_parse_strategy("auto"), MMIO_ORDERING_AUTO);
	KUNIT_EXPECT_EQ(test, mmio_ordering_parse_strategy("explicit\n"), MMIO_ORDERING_EXPLICIT);
	KUNIT_EXPECT_EQ(test, mmio_ordering_parse_strategy("autox"), -EINVAL);
	KUNIT_EXPECT_EQ(test, mmio_ordering_parse_strategy(""), -EINVAL);
	KUNIT_EXPECT_EQ(test, mmio_ordering_set_strategy(7), -EINVAL);
	KUNIT_EXPECT_EQ(test, mmio_ordering_get_strategy(), MMIO_ORDERING_AUTO);
}

static enum mmio_ordering_strategy saved_strategy;

static int test_init(struct kunit *test)
{
	unsigned long flags;

	saved_strategy = mmio_ordering_get_strategy();
	mmio_ordering_set_strategy(MMIO_ORDERING_AUTO);
	/* Print what earlier tests left, then forget it. */
	mmio_ordering_report_flush();
	mmio_ordering_report_reset();
	spin_lock_irqsave(&observed.lock, flags);
	observed.nreports = 0;
	observed.nlines = 0;
	spin_unlock_irqrestore(&observed.lock, flags);
	return 0;
}

static void test_exit(struct kunit *test)
{
	mmio_ordering_set_strategy(saved_strategy);
}

static int suite_init(struct kunit_suite *suite)
{
	return register_trace_console(probe_console, NULL);
}

static void suite_exit(struct kunit_suite *suite)
{
	unregister_trace_console(probe_console, NULL);
	tracepoint_synchronize_unregister();
}

static struct kunit_case mmio_ordering_test_cases[] = {
	KUNIT_CASE(test_relaxed_spin_lock),
	KUNIT_CASE(test_writel_relaxed),
	KUNIT_CASE(test_relaxed_accessor_widths),
	KUNIT_CASE(test_spin_lock_irq),
	KUNIT_CASE(test_spin_lock_irqsave),
	KUNIT_CASE(test_spin_lock_bh),
	KUNIT_CASE(test_spin_lock_nested),
	KUNIT_CASE(test_spin_trylock),
	KUNIT_CASE(test_raw_spin_lock),
	KUNIT_CASE(test_store_in_helper),
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
