/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MMIO ordering internals, shared by core, checker, report and debugfs.
 */

#ifndef _KERNEL_MMIO_ORDERING_H
#define _KERNEL_MMIO_ORDERING_H

#include <linux/mmio_ordering.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/sched.h>

struct seq_file;

/* Locks a task may sleep holding: the checker keeps them per task. */
static __always_inline bool mmio_ordering_sleeping_kind(unsigned int kind)
{
	return kind >= MMIO_ORDERING_MUTEX && kind <= MMIO_ORDERING_SEMAPHORE;
}

int mmio_ordering_parse_strategy(const char *buf);
int mmio_ordering_set_user_strategy(int strategy);
const char *mmio_ordering_strategy_name(enum mmio_ordering_strategy strategy);

/* What the checker reports. */
enum mmio_ordering_mode {
	/* What would break on any architecture, wherever the kernel runs. */
	MMIO_ORDERING_MODE_PORTABLE,
	/* Only what breaks on this architecture. */
	MMIO_ORDERING_MODE_ARCH,
};

/* The checker's mode, an enum mmio_ordering_mode. */
extern int mmio_ordering_mode;

int mmio_ordering_parse_mode(const char *buf);
const char *mmio_ordering_mode_name(enum mmio_ordering_mode mode);
int mmio_ordering_set_mode(enum mmio_ordering_mode mode);

/* Longest value a parameter or debugfs file takes, newline included. */
#define MMIO_ORDERING_VALUE_MAX	16

void mmio_ordering_bad_value(const char *what, const char *val, size_t len,
			     const char *expected);

/*
 * Statistics counters, per CPU; only modified in slow paths.
 */
enum mmio_ordering_counter_id {
	/*
	 * Barriers the "auto" strategy ran at spin_unlock(); where
	 * io_to_lock_wb() is a compiler barrier, only with the checker.
	 */
	MMIO_ORDERING_COUNTER_AUTO_BARRIERS,
	/* Stores the checker saw issued under a spinlock. */
	MMIO_ORDERING_COUNTER_STORES_TRACKED,
	/* io_to_lock_wb() calls seen by the checker. */
	MMIO_ORDERING_COUNTER_EXPLICIT_BARRIERS,
	/* Violations found: every unordered store reaching an unlock. */
	MMIO_ORDERING_COUNTER_VIOLATIONS,
	/* Violations of a new (store site, unlock site) pair: each printed. */
	MMIO_ORDERING_COUNTER_REPORTS,
	/* Violations not printed: (store site, unlock site) already reported. */
	MMIO_ORDERING_COUNTER_SUPPRESSED,
	/* Of those, printed without stacks: every report buffer was waiting. */
	MMIO_ORDERING_COUNTER_REPORTS_NO_STACKS,
	/* Violations of a new pair past the pairs printed a boot: listed only. */
	MMIO_ORDERING_COUNTER_NOT_PRINTED,
	/* Violations not printed: a new pair, and the table of pairs is full. */
	MMIO_ORDERING_COUNTER_TABLE_FULL,
	/* Locks nested deeper than the checker tracks. */
	MMIO_ORDERING_COUNTER_NESTING_OVERFLOW,
	/* Locks held here but released in another context or on another CPU. */
	MMIO_ORDERING_COUNTER_IMBALANCE,
	/* Stores under a lock inside mmio_unordered(): not tracked. */
	MMIO_ORDERING_COUNTER_UNORDERED,
	/* Store stacks unwound; the others came from the stack cache. */
	MMIO_ORDERING_COUNTER_STORE_STACKS,
	MMIO_ORDERING_COUNTER_COUNT,
};

extern const char *const mmio_ordering_counter_names[];

DECLARE_PER_CPU(unsigned long, mmio_ordering_counters[MMIO_ORDERING_COUNTER_COUNT]);

static inline void mmio_ordering_count(enum mmio_ordering_counter_id id)
{
	this_cpu_inc(mmio_ordering_counters[id]);
}

unsigned long mmio_ordering_counter_read(enum mmio_ordering_counter_id id);
unsigned long mmio_ordering_this_cpu_counter(enum mmio_ordering_counter_id id);

#ifdef CONFIG_DEBUG_MMIO_ORDERING
/* Execution contexts with their own lock nesting, see interrupt_context_level(). */
#define MMIO_ORDERING_NR_CTX	4

/* A store that reached an unlock unordered, as captured for the report. */
struct mmio_ordering_violation {
	/* The store. */
	const char *accessor;
	const volatile void __iomem *addr;
	enum mmio_ordering_class class;
	bool wc;
	unsigned int store_nr;
	unsigned long store_stack[MMIO_ORDERING_STACK_DEPTH];
	/* The lock and its release. */
	const void *lock;
	unsigned int lock_kind;		/* enum mmio_ordering_lock, + bit */
	char lock_name[32];
	unsigned long acquire_ip;
	unsigned int release_nr;
	unsigned long release_stack[MMIO_ORDERING_STACK_DEPTH];
	/* Where it happened. */
	int ctx;
	int cpu;
	pid_t pid;
	char comm[TASK_COMM_LEN];
	enum mmio_ordering_strategy strategy;
};

unsigned int mmio_ordering_held_here(void);
void mmio_ordering_report(struct mmio_ordering_violation *v);
void mmio_ordering_report_imbalance(const void *lock, unsigned long ip);
void mmio_ordering_quiet_begin(void);
void mmio_ordering_quiet_end(void);
void mmio_ordering_report_flush(void);
void mmio_ordering_report_wait(void);
void mmio_ordering_report_show(struct seq_file *file);
unsigned long mmio_ordering_store_site(const unsigned long *entries, unsigned int nr);
void mmio_ordering_forget_stacks(void);
#endif

#if IS_ENABLED(CONFIG_KUNIT)
void mmio_ordering_report_reset(void);
int mmio_ordering_param_set_strategy(const char *val, const struct kernel_param *kp);
int mmio_ordering_user_strategy(int strategy, bool checker, bool booting);
int mmio_ordering_param_set_mode(const char *val, const struct kernel_param *kp);
#endif

#endif /* _KERNEL_MMIO_ORDERING_H */
