// SPDX-License-Identifier: GPL-2.0
/*
 * MMIO ordering reports.
 *
 * A violation is found inside spin_unlock(), in any context, possibly while
 * the lock being released is the console's own. Nothing is printed there:
 * the violation is copied into a free report buffer and printed from
 * irq_work, which runs in hard interrupt context once interrupts are
 * enabled, i.e. never inside an irq-safe lock on this CPU, and never needs
 * a lock that code with interrupts enabled might hold. Each (store site,
 * unlock site) pair is printed once. A violation that finds every buffer
 * waiting to be printed is dropped, one beyond the rate limit is not
 * printed either; both are counted, and neither is remembered as
 * reported, so the pair is reported when it happens again later. Storage
 * is static: a flood costs counters, never memory.
 */

#include <linux/bitops.h>
#include <linux/hash.h>
#include <linux/irq_work.h>
#include <linux/jiffies.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/panic.h>
#include <linux/printk.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/utsname.h>
#include <kunit/visibility.h>

#include "mmio_ordering.h"

#define REPORT_SLOTS	8
#define SEEN_BITS	12
#define SEEN_PROBES	16

/* At most RATELIMIT_BURST new reports per RATELIMIT_INTERVAL. */
#define RATELIMIT_INTERVAL	(5 * HZ)
#define RATELIMIT_BURST		10

struct report_slot {
	struct mmio_ordering_violation v;
	unsigned int store_skip;
	unsigned int release_skip;
	const char *unlock_op;
};

static struct report_slot slots[REPORT_SLOTS];
static unsigned long slot_busy;		/* claimed by a reporter or printer */
static unsigned long slot_ready;	/* filled, waiting to be printed */

/* Hashes of (store site, unlock site) pairs already reported; 0 is free. */
static unsigned long seen[1 << SEEN_BITS];

/*
 * Hashes of the raw stacks of violations found to be duplicates: a repeat
 * of the same path is suppressed without symbol lookups, which is what
 * keeps a flood of identical violations cheap.
 */
static unsigned long seen_raw[1 << SEEN_BITS];

static void report_work_fn(struct irq_work *work);
static DEFINE_PER_CPU(struct irq_work, report_work) = IRQ_WORK_INIT(report_work_fn);
static DEFINE_RAW_SPINLOCK(report_lock);

/* Symbol name buffers, one per context so that reporters cannot collide. */
static DEFINE_PER_CPU(char, sym_buf[MMIO_ORDERING_NR_CTX][KSYM_NAME_LEN]);

/* The unwinder's own frames, where an architecture reports them. */
#define UNWINDER_PREFIXES \
	"stack_trace_save", "arch_stack_walk", "save_stack_trace", \
	"__save_stack_trace", "dump_trace"

static const char *const store_skip_prefixes[] = {
	"__mmio_ordering", "mmio_ordering", UNWINDER_PREFIXES,
	/* Out-of-line accessors: name their caller, the driver. */
	"iowrite", "__iowrite", "memcpy_toio", "__memcpy_toio", "memset_io",
	/* Inline ones a compiler kept out of line (-Os). */
	"writeb_relaxed", "writew_relaxed", "writel_relaxed", "writeq_relaxed",
	"__writeb", "__writew", "__writel", "__writeq", "__raw_write",
	/* Whole names ("$"): writel_foo() is not an accessor. */
	"writeb$", "writew$", "writel$", "writeq$",
	"writesb$", "writesw$", "writesl$", "writesq$", "mmio_outs",
	"__writesb$", "__writesw$", "__writesl$", "__writesq$",
};

static const char *const release_skip_prefixes[] = {
	"__mmio_ordering", "mmio_ordering", "report_violation", UNWINDER_PREFIXES,
	"_raw_spin_unlock", "__raw_spin_unlock", "do_raw_spin_unlock",
	"__do_raw_spin_unlock",
	/*
	 * guard(spinlock*)/scoped_guard() unlock from the lock class's
	 * destructor, which the compiler may keep out of line, one copy per
	 * object file: name the function that used the guard, and do not let
	 * every guard user of a file share one unlock site.
	 */
	"class_raw_spinlock", "class_spinlock",
	/* The serial core's port lock wrappers, out of line at -Os. */
	"uart_port_unlock",
};

/* Longest first: the first prefix that matches names the unlock. */
static const struct {
	const char *func;
	const char *op;
} unlock_ops[] = {
	{ "_raw_spin_unlock_irqrestore", "spin_unlock_irqrestore" },
	{ "_raw_spin_unlock_irq", "spin_unlock_irq" },
	{ "_raw_spin_unlock_bh", "spin_unlock_bh" },
	{ "_raw_spin_unlock", "spin_unlock" },
};

static const char *const ctx_names[MMIO_ORDERING_NR_CTX] = {
	"task", "softirq", "hardirq", "NMI",
};

/*
 * A prefix ending in "$" must match the whole name, or the name up to a
 * compiler clone suffix (".constprop.0").
 */
static bool has_prefix(const char *name, const char *const *prefixes, size_t n)
{
	size_t i, len;

	for (i = 0; i < n; i++) {
		len = strlen(prefixes[i]);
		if (len && prefixes[i][len - 1] == '$') {
			if (!strncmp(name, prefixes[i], len - 1) &&
			    (name[len - 1] == '\0' || name[len - 1] == '.'))
				return true;
		} else if (str_has_prefix(name, prefixes[i])) {
			return true;
		}
	}
	return false;
}

/*
 * Number of leading frames of @entries that belong to the checker, the lock
 * implementation or an out-of-line accessor. When @unlock_op is given, it
 * is set to the name of the unlock API seen among them.
 */
static unsigned int skip_frames(const unsigned long *entries, unsigned int nr,
				const char *const *prefixes, size_t nr_prefixes,
				const char **unlock_op)
{
	char *buf = this_cpu_ptr(sym_buf[interrupt_context_level()]);
	unsigned int skip;
	size_t i;

	for (skip = 0; skip < nr; skip++) {
		if (!kallsyms_lookup(entries[skip], NULL, NULL, NULL, buf))
			break;
		if (!has_prefix(buf, prefixes, nr_prefixes))
			break;
		for (i = 0; unlock_op && i < ARRAY_SIZE(unlock_ops); i++) {
			if (str_has_prefix(buf, unlock_ops[i].func)) {
				*unlock_op = unlock_ops[i].op;
				break;
			}
		}
	}
	/* Never skip everything: a stack of only checker frames is still a stack. */
	return skip < nr ? skip : 0;
}

static unsigned long seen_key(unsigned long store_site, unsigned long release_site)
{
	return (store_site ^ hash_long(release_site, BITS_PER_LONG)) | 1;
}

static unsigned long raw_key(const struct mmio_ordering_violation *v)
{
	unsigned long h = hash_long(v->store_nr ^ (v->release_nr << 8), BITS_PER_LONG);
	unsigned int i;

	for (i = 0; i < v->store_nr; i++)
		h = hash_long(h ^ v->store_stack[i], BITS_PER_LONG);
	for (i = 0; i < v->release_nr; i++)
		h = hash_long(h ^ v->release_stack[i], BITS_PER_LONG);
	return h | 1;
}

/*
 * Look @key up in @table; with @insert, also record it. Return true if it
 * was there before. When the table is full around its hash the key is not
 * recorded: it is reported again, bounded by the rate limit.
 */
static bool lookup(unsigned long *table, unsigned long key, bool insert)
{
	unsigned int idx = hash_long(key, SEEN_BITS);
	unsigned int n;

	for (n = 0; n < SEEN_PROBES; n++) {
		unsigned long *p = &table[(idx + n) & ((1 << SEEN_BITS) - 1)];
		unsigned long old = READ_ONCE(*p);

		if (!old && insert)
			old = cmpxchg_relaxed(p, 0, key);
		if (!old)
			return false;
		if (old == key)
			return true;
	}
	return false;
}

static unsigned long ratelimit_start;
static atomic_t ratelimit_count;

/* Lock-free, usable in any context: true if this report must not be printed. */
static bool ratelimited(void)
{
	unsigned long start = READ_ONCE(ratelimit_start);

	if (time_after(jiffies, start + RATELIMIT_INTERVAL) &&
	    cmpxchg(&ratelimit_start, start, jiffies) == start)
		atomic_set(&ratelimit_count, 0);
	return atomic_inc_return(&ratelimit_count) > RATELIMIT_BURST;
}

/* Give back the token of a report that was not printed after all. */
static void ratelimit_refund(void)
{
	/*
	 * Not below zero: the window may have been reset meanwhile, and then
	 * the new one gets this token, at most one more report.
	 */
	atomic_add_unless(&ratelimit_count, -1, 0);
}

static int claim_slot(void)
{
	int i;

	for (i = 0; i < REPORT_SLOTS; i++) {
		if (!test_and_set_bit(i, &slot_busy))
			return i;
	}
	return -1;
}

/**
 * mmio_ordering_report() - report a violation, or count why it is not
 * @v: the violation, copied before returning
 *
 * Called with preemption disabled, in any context. Every call ends in
 * exactly one of the counters reports, suppressed, dropped, ratelimited.
 */
void mmio_ordering_report(struct mmio_ordering_violation *v)
{
	const char *unlock_op = "spin_unlock";
	unsigned int store_skip, release_skip;
	struct report_slot *slot;
	unsigned long key, rkey = raw_key(v);
	int i;

	if (lookup(seen_raw, rkey, false))
		goto suppressed;

	store_skip = skip_frames(v->store_stack, v->store_nr, store_skip_prefixes,
				 ARRAY_SIZE(store_skip_prefixes), NULL);
	release_skip = skip_frames(v->release_stack, v->release_nr, release_skip_prefixes,
				   ARRAY_SIZE(release_skip_prefixes), &unlock_op);
	key = seen_key(v->store_nr ? v->store_stack[store_skip] : 0,
		       v->release_nr ? v->release_stack[release_skip] : 0);

	if (lookup(seen, key, false)) {
		lookup(seen_raw, rkey, true);
		goto suppressed;
	}
	if (ratelimited()) {
		mmio_ordering_count(MMIO_ORDERING_COUNTER_RATELIMITED);
		return;
	}
	i = claim_slot();
	if (i < 0) {
		ratelimit_refund();
		mmio_ordering_count(MMIO_ORDERING_COUNTER_DROPPED);
		return;
	}
	/* Another CPU may have reported the same pair meanwhile. */
	if (lookup(seen, key, true)) {
		clear_bit_unlock(i, &slot_busy);
		ratelimit_refund();
		goto suppressed;
	}
	lookup(seen_raw, rkey, true);
	slot = &slots[i];
	memcpy(&slot->v, v, sizeof(*v));
	slot->store_skip = store_skip;
	slot->release_skip = release_skip;
	slot->unlock_op = unlock_op;
	mmio_ordering_count(MMIO_ORDERING_COUNTER_REPORTS);

	set_bit(i, &slot_ready);
	irq_work_queue(this_cpu_ptr(&report_work));
	return;

suppressed:
	mmio_ordering_count(MMIO_ORDERING_COUNTER_SUPPRESSED);
}
EXPORT_SYMBOL_IF_KUNIT(mmio_ordering_report);

static void print_stack(const unsigned long *entries, unsigned int nr)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		pr_err(" %pS\n", (void *)entries[i]);
}

static const char *class_name(enum mmio_ordering_class class)
{
	switch (class) {
	case MMIO_ORDERING_ORDERED:
		return "class 1, ordered";
	case MMIO_ORDERING_RELAXED:
		return "class 2, relaxed";
	default:
		return "class 3, raw";
	}
}

/*
 * guard() and scoped_guard() take the lock in the lock class's constructor,
 * which the compiler may keep out of line: then name the guard's user, the
 * function that released it.
 */
static bool acquired_by_guard(const struct mmio_ordering_violation *v)
{
	char *buf = this_cpu_ptr(sym_buf[interrupt_context_level()]);

	return kallsyms_lookup(v->acquire_ip, NULL, NULL, NULL, buf) &&
	       str_has_prefix(buf, "class_") && strstr(buf, "_constructor");
}

/*
 * The class-1 accessor to suggest for a class-2 one: writel_relaxed() and
 * __writel() give writel(), __iowrite32() gives iowrite32(). For others
 * (class 3) the family.
 */
static const char *ordered_name(const char *accessor)
{
	if (str_has_prefix(accessor, "__raw_"))
		return "write*";
	if (str_has_prefix(accessor, "__"))
		return accessor + 2;
	return accessor;
}

static int ordered_len(const char *name)
{
	const char *r = strstr(name, "_relaxed");

	return r ? r - name : strlen(name);
}

static void print_report(const struct report_slot *slot)
{
	const struct mmio_ordering_violation *v = &slot->v;
	const unsigned long *store = v->store_stack + slot->store_skip;
	const unsigned long *release = v->release_stack + slot->release_skip;
	unsigned int store_nr = v->store_nr - slot->store_skip;
	unsigned int release_nr = v->release_nr - slot->release_skip;
	bool guard = release_nr && acquired_by_guard(v);
	const char *how = guard ? "by a guard() in" : "at";
	void *where = guard ? (void *)release[0] : (void *)v->acquire_ip;
	const char *ordered = ordered_name(v->accessor);

	pr_err("==================================================================\n");
	pr_err("BUG: MMIO-ORDERING: %s() not ordered before %s() in %ps / %ps\n",
	       v->accessor, slot->unlock_op,
	       store_nr ? (void *)store[0] : NULL,
	       release_nr ? (void *)release[0] : NULL);
	pr_err("\n");
	pr_err("%s() to 0x%px (%s) by %s %d (%s) on cpu %d, strategy %s:\n",
	       v->accessor, v->addr, class_name(v->class),
	       v->ctx ? ctx_names[v->ctx] : "task", v->pid, v->comm, v->cpu,
	       mmio_ordering_strategy_name(v->strategy));
	print_stack(store, store_nr);
	pr_err("\n");
	if (v->lock_name[0])
		pr_err("%s() of lock %s (0x%px) acquired %s %pS:\n",
		       slot->unlock_op, v->lock_name, v->lock, how, where);
	else
		pr_err("%s() of lock 0x%px acquired %s %pS:\n",
		       slot->unlock_op, v->lock, how, where);
	print_stack(release, release_nr);
	pr_err("\n");
	if (v->class == MMIO_ORDERING_ORDERED)
		pr_err("Fix: call io_to_lock_wb() after %s() and before %s(); the \"explicit\" strategy requires it after every MMIO store under a lock.\n",
		       v->accessor, slot->unlock_op);
	else
		pr_err("Fix: call io_to_lock_wb() after %s() and before %s(), or use the ordered %.*s().\n",
		       v->accessor, slot->unlock_op, ordered_len(ordered), ordered);
	pr_err("\n");
	pr_err("CPU: %d PID: %d Comm: %s %s %s\n", v->cpu, v->pid, v->comm,
	       print_tainted(), init_utsname()->release);
	pr_err("==================================================================\n");
}

static void report_work_fn(struct irq_work *work)
{
	unsigned long flags;
	int i;

	/*
	 * Printing runs the console drivers, whose own unordered stores under
	 * their port lock would report again, and again: not while printing.
	 */
	mmio_ordering_quiet_begin();
	for (i = 0; i < REPORT_SLOTS; i++) {
		if (!test_and_clear_bit(i, &slot_ready))
			continue;
		raw_spin_lock_irqsave(&report_lock, flags);
		print_report(&slots[i]);
		raw_spin_unlock_irqrestore(&report_lock, flags);
		clear_bit_unlock(i, &slot_busy);

		/* Like KCSAN and KFENCE: a report is a warning. */
		add_taint(TAINT_WARN, LOCKDEP_STILL_OK);
		check_panic_on_warn("MMIO-ORDERING");
	}
	mmio_ordering_quiet_end();
}

/**
 * mmio_ordering_report_flush() - print the reports waiting in the buffers
 *
 * For callers in task context that want the reports on the console now,
 * rather than from the next irq_work on this CPU.
 */
void mmio_ordering_report_flush(void)
{
	report_work_fn(NULL);
}
EXPORT_SYMBOL_IF_KUNIT(mmio_ordering_report_flush);

static void forget_reported(void)
{
	memset(seen, 0, sizeof(seen));
	memset(seen_raw, 0, sizeof(seen_raw));
}

#ifdef CONFIG_MODULES
/*
 * The pairs are remembered by address: once a module is gone, another one
 * loaded there must not find its reports suppressed. Unloads are rare;
 * forget every pair (a racing insertion may be lost: reported twice).
 */
static int report_module_notify(struct notifier_block *nb, unsigned long action,
				void *data)
{
	if (action == MODULE_STATE_GOING)
		forget_reported();
	return NOTIFY_OK;
}

static struct notifier_block report_module_nb = {
	.notifier_call = report_module_notify,
};

static int __init report_init(void)
{
	return register_module_notifier(&report_module_nb);
}
late_initcall(report_init);
#endif

#if IS_ENABLED(CONFIG_KUNIT)
/**
 * mmio_ordering_report_reset() - forget the reported pairs
 *
 * So that a test can provoke the same report again.
 */
void mmio_ordering_report_reset(void)
{
	forget_reported();
	WRITE_ONCE(ratelimit_start, jiffies);
	atomic_set(&ratelimit_count, 0);
}
EXPORT_SYMBOL_IF_KUNIT(mmio_ordering_report_reset);
#endif
