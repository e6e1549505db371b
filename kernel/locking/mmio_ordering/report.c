// SPDX-License-Identifier: GPL-2.0
/*
 * MMIO ordering reports.
 *
 * A violation is found inside spin_unlock(), in any context, possibly while
 * the lock being released is the console's own. Nothing is printed there.
 * Each distinct (store site, unlock site) pair is recorded once, lock-free,
 * in a table of pairs, and its first violation is copied, stacks included,
 * into a free report buffer. irq_work then schedules the printer, a work
 * item that prints the buffers in task context, one report at a time; a
 * user task that found a violation prints them itself before it returns to
 * user space.
 *
 * Nothing is rate limited or dropped: pacing delays printing, never loses a
 * pair. A new pair that finds every buffer waiting to be printed is still
 * printed, without its stacks. Past PRINT_MAX pairs a boot, new pairs are
 * counted, listed in debugfs, which lists every pair, and the count is said
 * in a line at most every SUMMARY_INTERVAL.
 * The buffers are static; the table of pairs grows, allocated by the
 * printer, never in the unlock path. Only a burst of new pairs faster than
 * the printer, or a full last table, loses one; that is counted and said.
 */

#include <linux/atomic.h>
#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/hash.h>
#include <linux/irq_work.h>
#include <linux/kallsyms.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/panic.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/syscore_ops.h>
#include <linux/task_work.h>
#include <linux/workqueue.h>
#include <kunit/visibility.h>

#include "mmio_ordering.h"

/* Violations with their stacks waiting to be printed, at most. */
#define REPORT_BUFFERS	64

/*
 * Pairs remembered, in tables of doubling size: the first is static, and
 * the printer allocates the next one once the last is half full. A pair is
 * looked for along PAIR_PROBES slots of each table in turn and claimed at
 * the first free one: slots are never freed, so two CPUs recording the same
 * new pair meet at the same slot, and a pair is in a later table only if
 * its slots in the earlier ones were taken.
 */
#define PAIR_BITS	11
#define PAIR_TABLES	6
#define PAIR_PROBES	16
#define PAIR_SLOTS(t)	BIT(PAIR_BITS + (t))

/* Pairs printed in a boot, at most; debugfs lists the others. */
#define PRINT_MAX	1024

/* A free slot, and one whose pair was forgotten (a module went away). */
#define KEY_FREE	0UL
#define KEY_FORGOTTEN	2UL

enum pair_state {
	PAIR_FILLING,		/* claimed, being written */
	PAIR_BUFFERED,		/* its report waits in a buffer */
	PAIR_SHORT,		/* no buffer was free: print without stacks */
	PAIR_PRINTED,
	PAIR_PRINTED_SHORT,
	PAIR_LISTED,		/* past PRINT_MAX: in debugfs only */
};

struct report_pair {
	unsigned long key;	/* odd; KEY_FREE or KEY_FORGOTTEN */
	unsigned long store_site;
	unsigned long release_site;
	const char *accessor;
	const char *unlock_op;
	atomic_t count;		/* violations seen */
	int state;		/* enum pair_state */
};

struct report_buffer {
	struct mmio_ordering_violation v;
	unsigned int store_skip;
	unsigned int release_skip;
	const char *unlock_op;
	struct report_pair *pair;
};

static struct report_pair pairs0[PAIR_SLOTS(0)];
static struct report_pair *pair_tables[PAIR_TABLES] = { pairs0 };
static atomic_t pairs_used[PAIR_TABLES];	/* slots claimed, forgotten ones too */
static atomic_t pairs_new;		/* pairs recorded, for PRINT_MAX */
static atomic_t pairs_short;		/* pairs in state PAIR_SHORT */
static atomic_t table_full;		/* violations of pairs not recorded */
static unsigned int table_full_said;	/* value of table_full last printed */
static int not_printed_said;		/* pairs past PRINT_MAX last said */
static unsigned long summary_said_at;	/* jiffies of either, 0 before */

static struct report_buffer buffers[REPORT_BUFFERS];
static DECLARE_BITMAP(buffer_busy, REPORT_BUFFERS);	/* claimed */
static DECLARE_BITMAP(buffer_ready, REPORT_BUFFERS);	/* filled */

/*
 * Hashes of the raw stacks of violations already seen, and their pairs:
 * a repeat of the same path is recognised without symbol lookups, which
 * keeps a flood of identical violations cheap.
 */
#define RAW_BITS	12
#define RAW_PROBES	16
static unsigned long seen_raw[BIT(RAW_BITS)];
static struct report_pair *seen_raw_pair[BIT(RAW_BITS)];

/* The first lock found released behind a context's back, said once. */
static const void *imbalance_lock;
static unsigned long imbalance_ip;
static bool imbalance_said;

/* The counts past the bounds are said at most once in this many jiffies. */
#define SUMMARY_INTERVAL	(10 * HZ)

static void report_print_fn(struct work_struct *work);
static DECLARE_WORK(print_work, report_print_fn);
/* The printer later: when a summary is due, or a task did not return. */
static DECLARE_DELAYED_WORK(later_work, report_print_fn);
static DEFINE_MUTEX(print_mutex);

static void report_work_fn(struct irq_work *work)
{
	schedule_work(&print_work);
}

static DEFINE_PER_CPU(struct irq_work, report_work) = IRQ_WORK_INIT(report_work_fn);

/* A task that found a report and is not back in user space by then. */
#define RETURN_TIMEOUT	(10 * HZ)

static void report_late_fn(struct irq_work *work)
{
	schedule_delayed_work(&later_work, RETURN_TIMEOUT);
}

static DEFINE_PER_CPU(struct irq_work, report_late) = IRQ_WORK_INIT(report_late_fn);

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
	/* Port I/O. */
	"outb$", "outw$", "outl$", "outb_p$", "outw_p$", "outl_p$",
	"_outb$", "_outw$", "_outl$",
	"outsb$", "outsw$", "outsl$", "outsq$",
	"__outsb$", "__outsw$", "__outsl$", "__outsq$",
};

static const char *const release_skip_prefixes[] = {
	"__mmio_ordering", "mmio_ordering", "report_violation", UNWINDER_PREFIXES,
	"_raw_spin_unlock", "__raw_spin_unlock", "do_raw_spin_unlock",
	"_raw_read_unlock", "__raw_read_unlock", "do_raw_read_unlock",
	"_raw_write_unlock", "__raw_write_unlock", "do_raw_write_unlock",
	"bit_spin_unlock", "__bit_spin_unlock", "__bit_spin_mmio_unlock",
	"mutex_unlock", "__mutex_unlock", "ww_mutex_unlock", "rt_mutex_unlock",
	"__rt_mutex_unlock", "up_write", "__up_write", "downgrade_write", "up$",
	/* PREEMPT_RT's spinlock_t and rwlock_t. */
	"rt_spin_unlock", "rt_read_unlock", "rt_write_unlock",
	/*
	 * guard(spinlock*)/guard(mutex)/scoped_guard() unlock from the lock class's
	 * destructor, which the compiler may keep out of line, one copy per
	 * object file: name the function that used the guard, and do not let
	 * every guard user of a file share one unlock site.
	 */
	"class_raw_spinlock", "class_spinlock", "class_read_lock", "class_write_lock",
	"class_mutex", "class_rwsem_write",
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
	{ "_raw_read_unlock_irqrestore", "read_unlock_irqrestore" },
	{ "_raw_read_unlock_irq", "read_unlock_irq" },
	{ "_raw_read_unlock_bh", "read_unlock_bh" },
	{ "_raw_read_unlock", "read_unlock" },
	{ "_raw_write_unlock_irqrestore", "write_unlock_irqrestore" },
	{ "_raw_write_unlock_irq", "write_unlock_irq" },
	{ "_raw_write_unlock_bh", "write_unlock_bh" },
	{ "_raw_write_unlock", "write_unlock" },
	{ "downgrade_write", "downgrade_write" },
	/* PREEMPT_RT: every variant's unlock is inline around these. */
	{ "rt_spin_unlock", "spin_unlock" },
	{ "rt_read_unlock", "read_unlock" },
	{ "rt_write_unlock", "write_unlock" },
};

/* The unlock of each kind of lock, where no frame names a variant. */
static const char *const kind_unlock_ops[] = {
	[MMIO_ORDERING_SPIN]	= "spin_unlock",
	[MMIO_ORDERING_READ]	= "read_unlock",
	[MMIO_ORDERING_WRITE]	= "write_unlock",
	[MMIO_ORDERING_MUTEX]	= "mutex_unlock",
	[MMIO_ORDERING_RT_MUTEX] = "rt_mutex_unlock",
	[MMIO_ORDERING_RWSEM]	= "up_write",
	[MMIO_ORDERING_RT_SPIN]	= "spin_unlock",
	[MMIO_ORDERING_RT_READ]	= "read_unlock",
	[MMIO_ORDERING_RT_WRITE] = "write_unlock",
	[MMIO_ORDERING_SEMAPHORE] = "up",
	[MMIO_ORDERING_BIT]	= "bit_spin_unlock",
};

static const char *kind_unlock_op(unsigned int kind)
{
	return kind_unlock_ops[min_t(unsigned int, kind, MMIO_ORDERING_BIT)];
}

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

/**
 * mmio_ordering_store_site() - where a store's stack says the store was made
 * @entries: the stack, from the checker's hook
 * @nr: its length
 *
 * Return: the first frame that is neither the checker's nor an accessor's.
 */
unsigned long mmio_ordering_store_site(const unsigned long *entries, unsigned int nr)
{
	return nr ? entries[skip_frames(entries, nr, store_skip_prefixes,
					ARRAY_SIZE(store_skip_prefixes), NULL)] : 0;
}

static unsigned long pair_key(unsigned long store_site, unsigned long release_site)
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

/* Table @t of pairs, or NULL if not (yet) allocated. */
static struct report_pair *pair_table(unsigned int t)
{
	/* Pairs with the release in grow_pairs(): the slots are zeroed. */
	return t < PAIR_TABLES ? smp_load_acquire(&pair_tables[t]) : NULL;
}

/* The slot after @p, in table *@t, or the first one if @p is NULL. */
static struct report_pair *next_pair(struct report_pair *p, unsigned int *t)
{
	if (p && ++p < pair_tables[*t] + PAIR_SLOTS(*t))
		return p;
	*t = p ? *t + 1 : 0;
	return pair_table(*t);
}

/* The pair of a raw stack already seen, or NULL. */
static struct report_pair *raw_lookup(unsigned long key)
{
	unsigned int idx = hash_long(key, RAW_BITS);
	unsigned int n, i;

	for (n = 0; n < RAW_PROBES; n++) {
		i = (idx + n) & (BIT(RAW_BITS) - 1);
		if (READ_ONCE(seen_raw[i]) == key) {
			/* NULL if not yet written: then look the sites up. */
			return READ_ONCE(seen_raw_pair[i]);
		}
		if (!READ_ONCE(seen_raw[i]))
			return NULL;
	}
	return NULL;
}

/* Remember a raw stack; a cache, so failing when crowded is harmless. */
static void raw_insert(unsigned long key, struct report_pair *pair)
{
	unsigned int idx = hash_long(key, RAW_BITS);
	unsigned int n, i;

	for (n = 0; n < RAW_PROBES; n++) {
		i = (idx + n) & (BIT(RAW_BITS) - 1);
		if (!cmpxchg_relaxed(&seen_raw[i], 0, key)) {
			WRITE_ONCE(seen_raw_pair[i], pair);
			return;
		}
	}
}

/*
 * Find the pair of these sites, or claim a slot for it: then *@new is set,
 * and the caller fills the pair in. NULL when every table is full.
 */
static struct report_pair *pair_lookup(unsigned long store_site,
				       unsigned long release_site, bool *new)
{
	unsigned long key = pair_key(store_site, release_site);
	struct report_pair *table;
	unsigned int t, n, idx;

	*new = false;
	for (t = 0; (table = pair_table(t)); t++) {
		idx = hash_long(key, PAIR_BITS + t);
		for (n = 0; n < PAIR_PROBES; n++) {
			struct report_pair *p = &table[(idx + n) & (PAIR_SLOTS(t) - 1)];
			unsigned long old = READ_ONCE(p->key);

			if (old == KEY_FREE) {
				old = cmpxchg(&p->key, KEY_FREE, key);
				if (old == KEY_FREE) {
					atomic_inc(&pairs_used[t]);
					*new = true;
					return p;
				}
				/* Another CPU took this slot meanwhile. */
			}
			if (old != key)
				continue;
			/*
			 * Another pair with the same key; one being filled is
			 * taken as this one. Pairs with the release in
			 * mmio_ordering_report().
			 */
			if (smp_load_acquire(&p->state) != PAIR_FILLING &&
			    (p->store_site != store_site || p->release_site != release_site))
				continue;
			return p;
		}
	}
	return NULL;
}

/* Task context: add a table once the last one is half full. */
static void grow_pairs(void)
{
	struct report_pair *table;
	unsigned int t;

	for (t = 1; t < PAIR_TABLES && pair_tables[t]; t++)
		;
	if (t == PAIR_TABLES || atomic_read(&pairs_used[t - 1]) < PAIR_SLOTS(t - 1) / 2)
		return;
	table = kvcalloc(PAIR_SLOTS(t), sizeof(*table), GFP_KERNEL | __GFP_NOWARN);
	if (!table)
		return;
	/* The zeroed slots before the table: for pair_table(). */
	smp_store_release(&pair_tables[t], table);
}

static int claim_buffer(void)
{
	int i;

	for (i = 0; i < REPORT_BUFFERS; i++) {
		if (!test_and_set_bit(i, buffer_busy))
			return i;
	}
	return -1;
}

static void print_buffer(unsigned int i);

static void print_reports(bool now);

/*
 * A report found in a user task's own context is printed by that task on
 * its way back to user space: the lines reach the console before anything
 * the task writes there next, and name the task, as lockdep's would. Only
 * if it stays in the kernel past RETURN_TIMEOUT does the printer print it.
 * Without a free slot, or in a kernel thread, the printer prints it now.
 */
#define RETURN_SLOTS	16

struct print_on_return {
	struct callback_head work;
	struct task_struct *task;
};

static struct print_on_return return_slots[RETURN_SLOTS];
static DECLARE_BITMAP(return_slot_busy, RETURN_SLOTS);

static void print_on_return_fn(struct callback_head *work)
{
	struct print_on_return *slot = container_of(work, struct print_on_return, work);

	WRITE_ONCE(slot->task, NULL);
	clear_bit_unlock(slot - return_slots, return_slot_busy);
	print_reports(false);
	/* On the console too, before what the task writes there next. */
	pr_flush(1000, true);
}

/*
 * Whether current prints what is waiting when it returns to user space.
 * With preemption disabled, so that nothing else claims a slot for current.
 */
static bool print_on_return(void)
{
	struct task_struct *task = current;
	unsigned int i;

	/* Not pid 1 before it execs init either: it has no user space yet. */
	if (!in_task() || !task->mm || (task->flags & (PF_KTHREAD | PF_USER_WORKER)))
		return false;
	for (i = 0; i < RETURN_SLOTS; i++) {
		if (READ_ONCE(return_slots[i].task) == task)
			return true;
	}
	for (i = 0; i < RETURN_SLOTS; i++) {
		if (test_and_set_bit_lock(i, return_slot_busy))
			continue;
		WRITE_ONCE(return_slots[i].task, task);
		init_task_work(&return_slots[i].work, print_on_return_fn);
		if (!task_work_add(task, &return_slots[i].work, TWA_RESUME))
			return true;
		/* Past exit_task_work(). */
		WRITE_ONCE(return_slots[i].task, NULL);
		clear_bit_unlock(i, return_slot_busy);
		return false;
	}
	return false;
}

/*
 * Once the system goes down (syscore_shutdown() releases its mutex after
 * the shutdown hook printed what came before), the printer may never run
 * again: a task releasing a sleeping lock prints what is waiting itself,
 * unless the printer is busy, which then prints it. Never at a spinlock's
 * release: the console may take that very lock.
 */
static void print_now(unsigned int kind)
{
	unsigned int i;

	if (!mmio_ordering_sleeping_kind(kind) || !in_task() ||
	    !mutex_trylock(&print_mutex))
		return;
	for (i = 0; i < REPORT_BUFFERS; i++) {
		if (test_and_clear_bit(i, buffer_ready))
			print_buffer(i);
	}
	mutex_unlock(&print_mutex);
}

/**
 * mmio_ordering_report() - report a violation, or count why it is not
 * @v: the violation, copied before returning
 *
 * Called with preemption disabled, in any context. Every call ends in
 * exactly one of the counters reports, pairs_not_printed,
 * suppressed_duplicates and pair_table_full.
 */
void mmio_ordering_report(struct mmio_ordering_violation *v)
{
	const char *unlock_op = kind_unlock_op(v->lock_kind);
	unsigned long store_site, release_site, rkey = raw_key(v);
	unsigned int store_skip, release_skip;
	struct report_buffer *buf;
	struct report_pair *pair;
	bool new;
	int i;

	pair = raw_lookup(rkey);
	if (pair) {
		atomic_inc(&pair->count);
		goto suppressed;
	}

	store_skip = skip_frames(v->store_stack, v->store_nr, store_skip_prefixes,
				 ARRAY_SIZE(store_skip_prefixes), NULL);
	release_skip = skip_frames(v->release_stack, v->release_nr, release_skip_prefixes,
				   ARRAY_SIZE(release_skip_prefixes), &unlock_op);
	store_site = v->store_nr ? v->store_stack[store_skip] : 0;
	release_site = v->release_nr ? v->release_stack[release_skip] : 0;
	pair = pair_lookup(store_site, release_site, &new);
	if (!pair) {
		atomic_inc(&table_full);
		mmio_ordering_count(MMIO_ORDERING_COUNTER_TABLE_FULL);
		irq_work_queue(this_cpu_ptr(&report_work));
		return;
	}
	raw_insert(rkey, pair);
	atomic_inc(&pair->count);
	if (!new)
		goto suppressed;

	pair->store_site = store_site;
	pair->release_site = release_site;
	pair->accessor = v->accessor;
	pair->unlock_op = unlock_op;
	if (atomic_inc_return(&pairs_new) > PRINT_MAX) {
		mmio_ordering_count(MMIO_ORDERING_COUNTER_NOT_PRINTED);
		/* The fields above before the state: for debugfs. */
		smp_store_release(&pair->state, PAIR_LISTED);
		irq_work_queue(this_cpu_ptr(&report_work));
		return;
	}
	mmio_ordering_count(MMIO_ORDERING_COUNTER_REPORTS);

	i = claim_buffer();
	if (i < 0) {
		mmio_ordering_count(MMIO_ORDERING_COUNTER_REPORTS_NO_STACKS);
		atomic_inc(&pairs_short);
		/* The fields above before the state: for print_reports(), debugfs. */
		smp_store_release(&pair->state, PAIR_SHORT);
	} else {
		buf = &buffers[i];
		memcpy(&buf->v, v, sizeof(*v));
		buf->store_skip = store_skip;
		buf->release_skip = release_skip;
		buf->unlock_op = unlock_op;
		buf->pair = pair;
		/* The pair's fields before its state: for pair_lookup(), debugfs. */
		smp_store_release(&pair->state, PAIR_BUFFERED);
		/* The buffer before its ready bit: the printer may run elsewhere. */
		smp_mb__before_atomic();
		set_bit(i, buffer_ready);
		if (unlikely(system_state > SYSTEM_RUNNING))
			print_now(v->lock_kind);
	}
	if (print_on_return())
		irq_work_queue(this_cpu_ptr(&report_late));
	else
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
 * (class 3) the family. NULL for the string copies, which have none.
 */
static const char *ordered_name(const char *accessor)
{
	if (strstr(accessor, "writes") || strstr(accessor, "outs") ||
	    strstr(accessor, "_copy") || strstr(accessor, "_rep"))
		return NULL;
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

static void print_title(const struct report_pair *pair)
{
	pr_err("==================================================================\n");
	pr_err("BUG: MMIO-ORDERING: %s() not ordered before %s() in %ps / %ps\n",
	       pair->accessor, pair->unlock_op, (void *)pair->store_site,
	       (void *)pair->release_site);
	pr_err("\n");
}

static void print_report(const struct report_buffer *buf)
{
	const struct mmio_ordering_violation *v = &buf->v;
	const unsigned long *store = v->store_stack + buf->store_skip;
	const unsigned long *release = v->release_stack + buf->release_skip;
	unsigned int store_nr = v->store_nr - buf->store_skip;
	unsigned int release_nr = v->release_nr - buf->release_skip;
	bool guard = release_nr && acquired_by_guard(v);
	const char *how = guard ? "by a guard() in" : "at";
	void *where = guard ? (void *)release[0] : (void *)v->acquire_ip;
	const char *ordered = ordered_name(v->accessor);

	print_title(buf->pair);
	pr_err("%s() to 0x%px (%s%s) by %s %d (%s) on cpu %d, strategy %s:\n",
	       v->accessor, v->addr, class_name(v->class),
	       v->wc ? ", write-combining" : "",
	       v->ctx ? ctx_names[v->ctx] : "task", v->pid, v->comm, v->cpu,
	       mmio_ordering_strategy_name(v->strategy));
	/* Labelled as the kernel's own stack dumps are, for CI log parsers. */
	pr_err("Call Trace:\n");
	print_stack(store, store_nr);
	pr_err("\n");
	if (v->lock_name[0])
		pr_err("%s() of lock %s (0x%px) acquired %s %pS:\n",
		       buf->unlock_op, v->lock_name, v->lock, how, where);
	else if (v->lock_kind >= MMIO_ORDERING_BIT)
		pr_err("%s() of bit %u of 0x%px acquired %s %pS:\n",
		       buf->unlock_op, v->lock_kind - MMIO_ORDERING_BIT, v->lock,
		       how, where);
	else
		pr_err("%s() of lock 0x%px acquired %s %pS:\n",
		       buf->unlock_op, v->lock, how, where);
	print_stack(release, release_nr);
	pr_err("\n");
	if (v->wc)
		pr_err("Fix: call wmb() after %s() and before %s(); io_to_lock_wb() does not order stores to write-combining mappings on x86.\n",
		       v->accessor, buf->unlock_op);
	else if (v->class == MMIO_ORDERING_ORDERED)
		pr_err("Fix: call io_to_lock_wb() after %s() and before %s(); the \"explicit\" strategy requires it after every MMIO store under a lock.\n",
		       v->accessor, buf->unlock_op);
	else if (ordered)
		pr_err("Fix: call io_to_lock_wb() after %s() and before %s(), or use the ordered %.*s().\n",
		       v->accessor, buf->unlock_op, ordered_len(ordered), ordered);
	else
		pr_err("Fix: call io_to_lock_wb() after %s() and before %s().\n",
		       v->accessor, buf->unlock_op);
	pr_err("\n");
	/*
	 * Like KCSAN: the task and the machine, as dump_stack() prints them;
	 * then, as a WARN() ends, the modules and the end marker, so that
	 * CI log parsers take the lines above as this report's call trace.
	 */
	pr_err("Reported by MMIO ordering checker on:\n");
	dump_stack_print_info(KERN_ERR);
	print_modules();
	pr_err("---[ end trace %016llx ]---\n", 0ULL);
	pr_err("==================================================================\n");
}

static void print_short(const struct report_pair *pair)
{
	print_title(pair);
	pr_err("Stacks not kept: %d reports were waiting to be printed. Every pair: /sys/kernel/debug/mmio_ordering/reports\n",
	       REPORT_BUFFERS);
	pr_err("==================================================================\n");
}

/* Like KCSAN and KFENCE: a report is a warning. */
static void reported(void)
{
	add_taint(TAINT_WARN, LOCKDEP_STILL_OK);
	check_panic_on_warn("MMIO-ORDERING");
}

/*
 * The counts of pairs past the bounds: a flood of new pairs would print one
 * line per printer run, so unless @now, at most one per SUMMARY_INTERVAL,
 * the last one always with the final counts.
 */
static void print_summary(bool now)
{
	int listed = max(atomic_read(&pairs_new) - PRINT_MAX, 0);
	unsigned int full = atomic_read(&table_full);
	unsigned long next = summary_said_at + SUMMARY_INTERVAL;

	if (listed == not_printed_said && full == table_full_said)
		return;
	if (!now && summary_said_at && time_before(jiffies, next)) {
		schedule_delayed_work(&later_work, next - jiffies);
		return;
	}
	summary_said_at = jiffies ?: 1;
	mmio_ordering_quiet_begin();
	if (listed != not_printed_said)
		pr_err("mmio_ordering: %d more pairs not printed, past %d: every pair is in /sys/kernel/debug/mmio_ordering/reports\n",
		       listed, PRINT_MAX);
	if (full != table_full_said)
		pr_err("mmio_ordering: %u violations of pairs not recorded: the table of pairs was full\n",
		       full);
	mmio_ordering_quiet_end();
	not_printed_said = listed;
	table_full_said = full;
}

/* Print buffer @i, taken from buffer_ready, under print_mutex. */
static void print_buffer(unsigned int i)
{
	/*
	 * Printing runs the console drivers, whose own unordered stores
	 * under their port lock would report again: not while printing.
	 */
	mmio_ordering_quiet_begin();
	print_report(&buffers[i]);
	WRITE_ONCE(buffers[i].pair->state, PAIR_PRINTED);
	mmio_ordering_quiet_end();
	clear_bit_unlock(i, buffer_busy);
	reported();
}

/* Print what is waiting; the summary of counts now, or when it is due. */
static void print_reports(bool now)
{
	struct report_pair *p;
	unsigned int t, i;

	mutex_lock(&print_mutex);
	grow_pairs();
	for (i = 0; i < REPORT_BUFFERS; i++) {
		if (!test_and_clear_bit(i, buffer_ready))
			continue;
		/*
		 * A burst of reports on a slow console would overrun the log
		 * buffer before the console prints them: let it catch up
		 * first (bounded, and this is a sleepable context).
		 */
		pr_flush(1000, true);
		print_buffer(i);
		cond_resched();
	}

	for (p = next_pair(NULL, &t); p; p = next_pair(p, &t)) {
		if (!atomic_read(&pairs_short))
			break;
		/* Pairs with the release in mmio_ordering_report(). */
		if (smp_load_acquire(&p->state) != PAIR_SHORT ||
		    cmpxchg(&p->state, PAIR_SHORT, PAIR_PRINTED_SHORT) != PAIR_SHORT)
			continue;
		atomic_dec(&pairs_short);
		mmio_ordering_quiet_begin();
		print_short(p);
		mmio_ordering_quiet_end();
		reported();
		cond_resched();
	}

	if (READ_ONCE(imbalance_lock) && !imbalance_said) {
		imbalance_said = true;
		mmio_ordering_quiet_begin();
		pr_warn("mmio_ordering: lock 0x%px taken at %pS was released in another context or on another CPU: forgotten\n",
			READ_ONCE(imbalance_lock), (void *)READ_ONCE(imbalance_ip));
		mmio_ordering_quiet_end();
	}

	print_summary(now);
	mutex_unlock(&print_mutex);
}

static void report_print_fn(struct work_struct *work)
{
	print_reports(false);
}

/**
 * mmio_ordering_report_imbalance() - say that a lock was lost track of
 * @lock: a lock a context held, found unlocked: released behind its back
 * @ip: where it was taken
 *
 * Any context; the first such lock is printed by the report printer.
 */
void mmio_ordering_report_imbalance(const void *lock, unsigned long ip)
{
	if (!cmpxchg(&imbalance_lock, NULL, lock)) {
		WRITE_ONCE(imbalance_ip, ip);
		irq_work_queue(this_cpu_ptr(&report_work));
	}
}

/**
 * mmio_ordering_report_flush() - print the reports found so far
 *
 * Prints, in the caller's context, every report still waiting for the
 * printer, and the counts of pairs not printed or not recorded, so that the
 * log is complete when it returns. Task context only.
 */
void mmio_ordering_report_flush(void)
{
	print_reports(true);
}
EXPORT_SYMBOL_IF_KUNIT(mmio_ordering_report_flush);

/**
 * mmio_ordering_report_wait() - wait for the deferred printer
 *
 * Waits until the report work queued so far on any CPU has run and its
 * print work item has finished, without printing anything itself: for
 * tests of the path that a CI log depends on. Task context only.
 */
void mmio_ordering_report_wait(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		irq_work_sync(per_cpu_ptr(&report_work, cpu));
	flush_work(&print_work);
}
EXPORT_SYMBOL_IF_KUNIT(mmio_ordering_report_wait);

/**
 * mmio_ordering_report_show() - list every pair reported, for debugfs
 * @file: the seq_file
 *
 * One line per (store site, unlock site) pair: the number of violations
 * seen, the accessor and unlock, the two sites, and whether the report was
 * printed with its stacks, or not printed at all (past PRINT_MAX).
 */
void mmio_ordering_report_show(struct seq_file *file)
{
	struct report_pair *p;
	unsigned int t;
	int state;

	for (p = next_pair(NULL, &t); p; p = next_pair(p, &t)) {
		if (!(READ_ONCE(p->key) & 1))
			continue;
		/* Pairs with the release in mmio_ordering_report(). */
		state = smp_load_acquire(&p->state);
		if (state == PAIR_FILLING)
			continue;
		seq_printf(file, "%d %s() %s() %pS %pS%s\n", atomic_read(&p->count),
			   p->accessor, p->unlock_op, (void *)p->store_site,
			   (void *)p->release_site,
			   state == PAIR_BUFFERED ? " (waiting)" :
			   state == PAIR_SHORT ? " (waiting, no stacks)" :
			   state == PAIR_PRINTED_SHORT ? " (no stacks)" :
			   state == PAIR_LISTED ? " (not printed)" : "");
	}
	if (atomic_read(&table_full))
		seq_printf(file, "%d violations of pairs not recorded: table full\n",
			   atomic_read(&table_full));
}
EXPORT_SYMBOL_IF_KUNIT(mmio_ordering_report_show);

static void forget_raw(void)
{
	memset(seen_raw, 0, sizeof(seen_raw));
	memset(seen_raw_pair, 0, sizeof(seen_raw_pair));
}

#ifdef CONFIG_MODULES
/*
 * The pairs are remembered by address: once a module is gone, another one
 * loaded there must not find its reports suppressed. Print what is waiting
 * while the module's symbols and strings are there, then forget its pairs
 * (their slots stay used) and the raw stacks, which may hold its addresses.
 */
static int report_module_notify(struct notifier_block *nb, unsigned long action,
				void *data)
{
	struct module *mod = data;
	struct report_pair *p;
	unsigned int t;

	if (action != MODULE_STATE_GOING)
		return NOTIFY_OK;
	print_reports(false);
	forget_raw();
	mmio_ordering_forget_stacks();
	for (p = next_pair(NULL, &t); p; p = next_pair(p, &t)) {
		if ((READ_ONCE(p->key) & 1) &&
		    (within_module(p->store_site, mod) ||
		     within_module(p->release_site, mod) ||
		     within_module((unsigned long)p->accessor, mod)))
			WRITE_ONCE(p->key, KEY_FORGOTTEN);
	}
	return NOTIFY_OK;
}

static struct notifier_block report_module_nb = {
	.notifier_call = report_module_notify,
};
#endif

/*
 * Devices shut down before a power off or reboot, and the printer of what
 * they stored would be cut short by it: print what is waiting, after the
 * report being printed, and let the consoles catch up.
 */
static void report_shutdown(void *data)
{
	print_reports(true);
	pr_flush(1000, true);
}

static const struct syscore_ops report_syscore_ops = {
	.shutdown = report_shutdown,
};

static struct syscore report_syscore = {
	.ops = &report_syscore_ops,
};

static int __init report_init(void)
{
	register_syscore(&report_syscore);
#ifdef CONFIG_MODULES
	return register_module_notifier(&report_module_nb);
#else
	return 0;
#endif
}
late_initcall(report_init);

#if IS_ENABLED(CONFIG_KUNIT)
/**
 * mmio_ordering_report_reset() - forget every pair
 *
 * So that a test can provoke the same report again. Call it after
 * mmio_ordering_report_flush(), with no violation being reported.
 */
void mmio_ordering_report_reset(void)
{
	struct report_pair *table;
	unsigned int t;

	mutex_lock(&print_mutex);
	forget_raw();
	mmio_ordering_forget_stacks();
	/* The tables stay: they are allocated once a boot. */
	for (t = 0; (table = pair_table(t)); t++) {
		memset(table, 0, PAIR_SLOTS(t) * sizeof(*table));
		atomic_set(&pairs_used[t], 0);
	}
	atomic_set(&pairs_new, 0);
	atomic_set(&pairs_short, 0);
	atomic_set(&table_full, 0);
	table_full_said = 0;
	not_printed_said = 0;
	summary_said_at = 0;
	mutex_unlock(&print_mutex);
}
EXPORT_SYMBOL_IF_KUNIT(mmio_ordering_report_reset);
#endif
