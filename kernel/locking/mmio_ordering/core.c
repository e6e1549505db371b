// SPDX-License-Identifier: GPL-2.0
/*
 * MMIO ordering core: the per-CPU state that spin_lock()/spin_unlock() and
 * the MMIO store accessors share, the "auto" barrier, and the strategy.
 */

#define pr_fmt(fmt) "mmio_ordering: " fmt

#include <kunit/visibility.h>
#include <linux/export.h>
#include <linux/init.h>
#include <linux/io.h>
#include <linux/jump_label.h>
#include <linux/kernel.h>
#include <linux/minmax.h>
#include <linux/moduleparam.h>
#include <linux/percpu.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "mmio_ordering.h"

#ifdef MODULE_PARAM_PREFIX
#undef MODULE_PARAM_PREFIX
#endif
#define MODULE_PARAM_PREFIX "mmio_ordering."

DEFINE_PER_CPU(unsigned long, mmio_ordering_counters[MMIO_ORDERING_COUNTER_COUNT]);

const char *const mmio_ordering_counter_names[] = {
	[MMIO_ORDERING_COUNTER_AUTO_BARRIERS]		= "auto_barriers",
	[MMIO_ORDERING_COUNTER_STORES_TRACKED]		= "stores_tracked",
	[MMIO_ORDERING_COUNTER_EXPLICIT_BARRIERS]	= "explicit_barriers",
	[MMIO_ORDERING_COUNTER_VIOLATIONS]		= "violations",
	[MMIO_ORDERING_COUNTER_REPORTS]			= "reports",
	[MMIO_ORDERING_COUNTER_SUPPRESSED]		= "suppressed_duplicates",
	[MMIO_ORDERING_COUNTER_REPORTS_NO_STACKS]	= "reports_without_stacks",
	[MMIO_ORDERING_COUNTER_NOT_PRINTED]		= "pairs_not_printed",
	[MMIO_ORDERING_COUNTER_TABLE_FULL]		= "pair_table_full",
	[MMIO_ORDERING_COUNTER_NESTING_OVERFLOW]	= "nesting_overflow",
	[MMIO_ORDERING_COUNTER_IMBALANCE]		= "lock_imbalance",
	[MMIO_ORDERING_COUNTER_UNORDERED]		= "unordered_stores",
	[MMIO_ORDERING_COUNTER_STORE_STACKS]		= "store_stacks",
};
EXPORT_SYMBOL_GPL(mmio_ordering_counter_names);

static_assert(ARRAY_SIZE(mmio_ordering_counter_names) == MMIO_ORDERING_COUNTER_COUNT);

static unsigned long *counter_ptr(enum mmio_ordering_counter_id id, int cpu)
{
#ifdef CONFIG_MMIOWB
	/* Kept beside the state the unlock tests, as it runs inline there. */
	if (id == MMIO_ORDERING_COUNTER_AUTO_BARRIERS)
		return &__mmiowb_state_cpu(cpu)->auto_barriers;
#endif
	return per_cpu_ptr(&mmio_ordering_counters[id], cpu);
}

int mmio_ordering_strategy __read_mostly =
	IS_ENABLED(CONFIG_MMIO_ORDERING_DEFAULT_EXPLICIT) ? MMIO_ORDERING_EXPLICIT :
							    MMIO_ORDERING_AUTO;
EXPORT_SYMBOL(mmio_ordering_strategy);

static const char *const strategy_names[] = {
	[MMIO_ORDERING_AUTO]		= "auto",
	[MMIO_ORDERING_EXPLICIT]	= "explicit",
};

/**
 * mmio_ordering_counter_read() - a statistics counter, summed over all CPUs
 * @id: the counter
 *
 * Return: the counter's value.
 */
unsigned long mmio_ordering_counter_read(enum mmio_ordering_counter_id id)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(*counter_ptr(id, cpu));
	return sum;
}
EXPORT_SYMBOL_IF_KUNIT(mmio_ordering_counter_read);

/**
 * mmio_ordering_this_cpu_counter() - a statistics counter of this CPU
 * @id: the counter
 *
 * Return: the counter's value on the CPU the caller runs on.
 */
unsigned long mmio_ordering_this_cpu_counter(enum mmio_ordering_counter_id id)
{
	unsigned long v;

	preempt_disable();
	v = READ_ONCE(*counter_ptr(id, smp_processor_id()));
	preempt_enable();
	return v;
}
EXPORT_SYMBOL_GPL(mmio_ordering_this_cpu_counter);

#ifdef CONFIG_MMIOWB
#ifndef __mmiowb_unchecked
/**
 * mmio_ordering_unlock_wb() - the "auto" barrier of spin_unlock()
 *
 * The unlock barrier of asm-generic/mmiowb.h where <asm/mmiowb.h> has none,
 * on the architectures that track only for the checker: reached only when
 * a class-1 store was made under the lock being released and not yet
 * ordered. Runs arch_io_to_lock_wb() and counts it; under "explicit" it does
 * nothing.
 */
noinline void mmio_ordering_unlock_wb(void)
{
	struct mmiowb_state *ms = __mmiowb_state();

	if (READ_ONCE(mmio_ordering_strategy) != MMIO_ORDERING_AUTO)
		return;
	arch_io_to_lock_wb();
	ms->sleeping_pending = 0;
	ms->auto_barriers++;
}
EXPORT_SYMBOL(mmio_ordering_unlock_wb);
#endif

/**
 * mmio_ordering_sleeping_unlock_wb() - the "auto" barrier of a sleeping lock
 *
 * Called by mutex_unlock(), rt_mutex_unlock(), up_write(), downgrade_write()
 * and up() when this CPU made a class-1 store since its last barrier: under
 * "auto", runs arch_io_to_lock_wb() and counts it. A barrier orders only
 * its own CPU's stores: one the task made before it migrated is left to the
 * context switch.
 */
noinline void mmio_ordering_sleeping_unlock_wb(void)
{
	struct mmiowb_state *ms;
	unsigned long flags;

	local_irq_save(flags);
	ms = __mmiowb_state();
	if (ms->sleeping_pending) {
		ms->sleeping_pending = 0;
		if (READ_ONCE(mmio_ordering_strategy) == MMIO_ORDERING_AUTO) {
			arch_io_to_lock_wb();
			/*
			 * Nothing is left for a spin_unlock() either: on
			 * PREEMPT_RT a preempted spinlock_t holder keeps this
			 * CPU's nesting count up, so the store was marked
			 * pending there too.
			 */
			ms->mmiowb_pending = 0;
			ms->auto_barriers++;
		}
	}
	local_irq_restore(flags);
}
EXPORT_SYMBOL(mmio_ordering_sleeping_unlock_wb);

/**
 * __mmio_ordering_clear_pending() - io_to_lock_wb() ran on this CPU
 *
 * The next spin_unlock() or sleeping-lock release has nothing left to
 * order. Out of line because io_to_lock_wb() may run preemptible.
 */
noinline void __mmio_ordering_clear_pending(void)
{
	struct mmiowb_state *ms;
	unsigned long flags;

	local_irq_save(flags);
	ms = __mmiowb_state();
	ms->mmiowb_pending = 0;
	ms->sleeping_pending = 0;
	local_irq_restore(flags);
}
EXPORT_SYMBOL(__mmio_ordering_clear_pending);
#endif

#if defined(CONFIG_MMIOWB) && !defined(CONFIG_DEBUG_MMIO_ORDERING)
/* The tracking, unless "explicit" was chosen at boot. */
DEFINE_STATIC_KEY_TRUE(mmio_ordering_tracking);
EXPORT_SYMBOL(mmio_ordering_tracking);

/*
 * "explicit" chosen at boot: nothing needs the tracking, patch it out. For
 * good, as a lock taken with the hooks off could be released with them on:
 * early, when no other CPU runs, and after the command line.
 */
static int __init mmio_ordering_tracking_init(void)
{
	if (mmio_ordering_get_strategy() == MMIO_ORDERING_EXPLICIT) {
		static_branch_disable(&mmio_ordering_tracking);
		pr_info("strategy \"explicit\" at boot: tracking off\n");
	}
	return 0;
}
early_initcall(mmio_ordering_tracking_init);
#endif

/**
 * mmio_ordering_set_strategy() - select the MMIO ordering strategy
 * @strategy: %MMIO_ORDERING_AUTO or %MMIO_ORDERING_EXPLICIT
 *
 * The unlock reads the strategy when a class-1 store is pending, the
 * checker when the store is made: a critical section that spans the switch
 * may run without the barrier and without a report. Without the checker,
 * "explicit" in force at boot turns the tracking off for good.
 *
 * Return: 0 on success, -EINVAL for an unknown strategy, -EBUSY for "auto"
 * once the tracking is off.
 */
int mmio_ordering_set_strategy(enum mmio_ordering_strategy strategy)
{
	if (strategy != MMIO_ORDERING_AUTO && strategy != MMIO_ORDERING_EXPLICIT)
		return -EINVAL;
#ifdef CONFIG_MMIOWB
	if (strategy == MMIO_ORDERING_AUTO && !mmiowb_tracking())
		return -EBUSY;
#endif
	WRITE_ONCE(mmio_ordering_strategy, strategy);
	return 0;
}
EXPORT_SYMBOL_GPL(mmio_ordering_set_strategy);

/**
 * mmio_ordering_user_strategy() - may a user select this strategy now
 * @strategy: the strategy asked for
 * @checker: whether CONFIG_DEBUG_MMIO_ORDERING is enabled
 * @booting: whether the kernel command line is being parsed
 *
 * "explicit" takes away the barrier that spin_unlock() adds after writel()
 * in every driver that does not call io_to_lock_wb() itself, most of them,
 * and without the checker nothing says which: then it is a boot-time
 * choice only, made with a warning.
 *
 * Return: 0 if allowed, -EPERM with one log line if not.
 */
VISIBLE_IF_KUNIT int mmio_ordering_user_strategy(int strategy, bool checker, bool booting)
{
	if (strategy != MMIO_ORDERING_EXPLICIT || checker)
		return 0;
	if (!booting) {
		pr_err("strategy: \"explicit\" is chosen at boot only, without CONFIG_DEBUG_MMIO_ORDERING\n");
		return -EPERM;
	}
	pr_warn("strategy \"explicit\": spin_unlock() orders no writel(); drivers must call io_to_lock_wb()\n");
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(mmio_ordering_user_strategy);

/**
 * mmio_ordering_set_user_strategy() - select a strategy asked for by a user
 * @strategy: %MMIO_ORDERING_AUTO or %MMIO_ORDERING_EXPLICIT
 *
 * For the boot parameter and debugfs; see mmio_ordering_user_strategy().
 *
 * Return: 0 on success, -EINVAL, -EPERM or -EBUSY.
 */
int mmio_ordering_set_user_strategy(int strategy)
{
	int ret = 0;

	if (strategy != mmio_ordering_get_strategy())
		ret = mmio_ordering_user_strategy(strategy,
						  IS_ENABLED(CONFIG_DEBUG_MMIO_ORDERING),
						  system_state < SYSTEM_RUNNING);
	ret = ret ?: mmio_ordering_set_strategy(strategy);
	if (ret == -EBUSY)
		pr_err("strategy: \"auto\" needs a reboot: \"explicit\" at boot turned the tracking off\n");
	return ret;
}

/**
 * mmio_ordering_get_strategy() - the MMIO ordering strategy in force
 *
 * Return: %MMIO_ORDERING_AUTO or %MMIO_ORDERING_EXPLICIT.
 */
enum mmio_ordering_strategy mmio_ordering_get_strategy(void)
{
	return READ_ONCE(mmio_ordering_strategy);
}
EXPORT_SYMBOL_GPL(mmio_ordering_get_strategy);

/**
 * mmio_ordering_parse_strategy() - parse a strategy name
 * @buf: "auto" or "explicit", optionally followed by a newline
 *
 * Return: the strategy, or -EINVAL.
 */
int mmio_ordering_parse_strategy(const char *buf)
{
	int i = sysfs_match_string(strategy_names, buf);

	return i < 0 ? -EINVAL : i;
}
EXPORT_SYMBOL_IF_KUNIT(mmio_ordering_parse_strategy);

/**
 * mmio_ordering_strategy_name() - name of a strategy
 * @strategy: the strategy
 *
 * Return: "auto" or "explicit".
 */
const char *mmio_ordering_strategy_name(enum mmio_ordering_strategy strategy)
{
	return strategy_names[strategy];
}

/**
 * mmio_ordering_bad_value() - log a rejected parameter or debugfs value
 * @what: the parameter or file
 * @val: the value, not necessarily terminated
 * @len: its length
 * @expected: what would have been accepted
 *
 * One line, whatever the input: at most %MMIO_ORDERING_VALUE_MAX
 * characters of it are quoted, with non-printable ones escaped.
 */
void mmio_ordering_bad_value(const char *what, const char *val, size_t len,
			     const char *expected)
{
	pr_err("%s: invalid value '%*pE'%s, expected %s\n", what,
	       (int)min_t(size_t, len, MMIO_ORDERING_VALUE_MAX), val,
	       len > MMIO_ORDERING_VALUE_MAX ? "..." : "", expected);
}

/**
 * mmio_ordering_param_set_strategy() - set the strategy parameter
 * @val: "auto" or "explicit"
 * @kp: the parameter
 *
 * Return: 0, or -EINVAL with one log line for anything else.
 */
VISIBLE_IF_KUNIT int mmio_ordering_param_set_strategy(const char *val,
						      const struct kernel_param *kp)
{
	int s = mmio_ordering_parse_strategy(val);

	if (s < 0) {
		mmio_ordering_bad_value("strategy", val, strlen(val), "auto or explicit");
		return s;
	}
	return mmio_ordering_set_user_strategy(s);
}
EXPORT_SYMBOL_IF_KUNIT(mmio_ordering_param_set_strategy);

static int param_get_strategy(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n", mmio_ordering_strategy_name(mmio_ordering_get_strategy()));
}

static const struct kernel_param_ops strategy_ops = {
	.set = mmio_ordering_param_set_strategy,
	.get = param_get_strategy,
};
module_param_cb(strategy, &strategy_ops, NULL, 0644);
MODULE_PARM_DESC(strategy, "MMIO ordering strategy: auto or explicit");
