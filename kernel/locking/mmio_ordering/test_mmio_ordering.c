// SPDX-License-Identifier: GPL-2.0
/*
 * Test module for the MMIO ordering selftests
 * (tools/testing/selftests/mmio_ordering/).
 *
 * Writing a scenario name to /sys/kernel/debug/test_mmio_ordering/run runs
 * that locked register sequence once; reading the file lists the names.
 * Some sequences are correct and must not be reported by
 * CONFIG_DEBUG_MMIO_ORDERING, the others lack io_to_lock_wb() and must be.
 * The selftest checks the checker's counters and its reports, which name
 * the functions below: each scenario is its own noinline function.
 * Reading /sys/kernel/debug/test_mmio_ordering/last gives the last
 * scenario run and how far it moved each counter. It runs with interrupts
 * off and counts on its CPU alone, so that the counters tell what the
 * scenario did and nothing else: a console on port I/O or an MMIO UART
 * stores under its port lock whenever anything prints.
 *
 * The "device" is ordinary memory: every accessor is a plain store on it,
 * but goes through the same hooks as on a real mapping.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/io.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "mmio_ordering.h"

/* Registers of the fake device, one per scenario. */
enum {
	REG_WRITEL_LOCKED,
	REG_RELAXED_WB,
	REG_RELAXED_READBACK,
	REG_RELAXED_UNLOCKED,
	REG_UNORDERED,
	REG_NESTED_INNER,
	REG_RELAXED_SPIN_LOCK,
	REG_RELAXED_IRQSAVE,
	REG_HELPER,
	REG_WRITEL_EXPLICIT,
	REG_STATUS,
	NR_REGS,
};

#define REG(r)	(tmo_regs + (r) * sizeof(u32))

static void __iomem *tmo_regs;
static DEFINE_SPINLOCK(tmo_lock);
/* Taken inside tmo_lock only, like a statistics lock. */
static DEFINE_SPINLOCK(tmo_inner_lock);
/*
 * Protects the last scenario's name and counts. Not held while a scenario
 * runs: its stores would be under the mutex, and the checker tracks them.
 */
static DEFINE_MUTEX(tmo_last_mutex);
static struct dentry *tmo_dir;
/* The last scenario run, and how far it moved each counter. */
static const char *tmo_last = "none";
static unsigned long tmo_delta[MMIO_ORDERING_COUNTER_COUNT];

/*
 * The scenarios. noinline and __noclone keep each function, and its name,
 * in the reports; each stores to its own register, so that identical-code
 * folding cannot merge two of them either.
 */

/* Correct: class 1 under the "auto" strategy, ordered by the unlock. */
static noinline __noclone void tmo_writel_locked(void)
{
	spin_lock(&tmo_lock);
	writel(1, REG(REG_WRITEL_LOCKED));
	spin_unlock(&tmo_lock);
}

/* Correct: class 2 followed by the barrier. */
static noinline __noclone void tmo_relaxed_wb(void)
{
	spin_lock(&tmo_lock);
	writel_relaxed(2, REG(REG_RELAXED_WB));
	io_to_lock_wb();
	spin_unlock(&tmo_lock);
}

/*
 * Buggy: a read-back makes the device see the store, but on riscv nothing
 * orders it before the unlock.
 */
static noinline __noclone void tmo_relaxed_readback(void)
{
	spin_lock(&tmo_lock);
	writel_relaxed(3, REG(REG_RELAXED_READBACK));
	(void)readl(REG(REG_STATUS));
	spin_unlock(&tmo_lock);
}

/* Correct: relaxed stores outside any lock, then an unrelated section. */
static noinline __noclone void tmo_relaxed_unlocked(void)
{
	writel_relaxed(4, REG(REG_RELAXED_UNLOCKED));
	__writel(5, REG(REG_RELAXED_UNLOCKED));
	spin_lock(&tmo_lock);
	spin_unlock(&tmo_lock);
}

/* Correct: a store marked as needing no ordering. */
static noinline __noclone void tmo_unordered(void)
{
	spin_lock(&tmo_lock);
	mmio_unordered(writel_relaxed(6, REG(REG_UNORDERED)));
	spin_unlock(&tmo_lock);
}

/*
 * Correct: the inner lock was taken after the store, so its release does
 * not need the store ordered; the barrier comes before the outer release.
 */
static noinline __noclone void tmo_nested_inner(void)
{
	spin_lock(&tmo_lock);
	writel_relaxed(7, REG(REG_NESTED_INNER));
	spin_lock(&tmo_inner_lock);
	spin_unlock(&tmo_inner_lock);
	io_to_lock_wb();
	spin_unlock(&tmo_lock);
}

/* Buggy: class 2 under spin_lock(), no barrier. */
static noinline __noclone void tmo_relaxed_spin_lock(void)
{
	spin_lock(&tmo_lock);
	writel_relaxed(8, REG(REG_RELAXED_SPIN_LOCK));
	spin_unlock(&tmo_lock);
}

/* Buggy: class 2 under spin_lock_irqsave(), no barrier. */
static noinline __noclone void tmo_relaxed_irqsave(void)
{
	unsigned long flags;

	spin_lock_irqsave(&tmo_lock, flags);
	__writel(9, REG(REG_RELAXED_IRQSAVE));
	spin_unlock_irqrestore(&tmo_lock, flags);
}

static noinline __noclone void tmo_store_helper(u32 val)
{
	writel_relaxed(val, REG(REG_HELPER));
}

/* Buggy: the store is made in a helper called under the lock. */
static noinline __noclone void tmo_helper(void)
{
	spin_lock(&tmo_lock);
	tmo_store_helper(10);
	spin_unlock(&tmo_lock);
}

/*
 * Buggy under the "explicit" strategy, where class 1 needs io_to_lock_wb()
 * too; correct under "auto". The selftest selects the strategy.
 */
static noinline __noclone void tmo_writel_explicit(void)
{
	spin_lock(&tmo_lock);
	writel(11, REG(REG_WRITEL_EXPLICIT));
	spin_unlock(&tmo_lock);
}

static const struct {
	const char *name;
	void (*run)(void);
} scenarios[] = {
	{ "writel_locked",	tmo_writel_locked },
	{ "relaxed_wb",		tmo_relaxed_wb },
	{ "relaxed_readback",	tmo_relaxed_readback },
	{ "relaxed_unlocked",	tmo_relaxed_unlocked },
	{ "unordered",		tmo_unordered },
	{ "nested_inner",	tmo_nested_inner },
	{ "relaxed_spin_lock",	tmo_relaxed_spin_lock },
	{ "relaxed_irqsave",	tmo_relaxed_irqsave },
	{ "helper",		tmo_helper },
	{ "writel_explicit",	tmo_writel_explicit },
};

/* Longest name accepted, newline included. */
#define NAME_MAX_LEN	32

static int run_show(struct seq_file *m, void *v)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(scenarios); i++)
		seq_printf(m, "%s\n", scenarios[i].name);
	return 0;
}

static int run_open(struct inode *inode, struct file *file)
{
	return single_open(file, run_show, NULL);
}

/* Run scenario @i with this CPU's counters to itself. */
static void run_counted(int i)
{
	unsigned long before[MMIO_ORDERING_COUNTER_COUNT], flags;
	unsigned long delta[MMIO_ORDERING_COUNTER_COUNT];
	int c;

	/* spinlock_t may sleep on PREEMPT_RT: there, stay on this CPU only. */
	if (IS_ENABLED(CONFIG_PREEMPT_RT))
		migrate_disable();
	else
		local_irq_save(flags);
	for (c = 0; c < MMIO_ORDERING_COUNTER_COUNT; c++)
		before[c] = mmio_ordering_this_cpu_counter(c);
	scenarios[i].run();
	for (c = 0; c < MMIO_ORDERING_COUNTER_COUNT; c++)
		delta[c] = mmio_ordering_this_cpu_counter(c) - before[c];
	if (IS_ENABLED(CONFIG_PREEMPT_RT))
		migrate_enable();
	else
		local_irq_restore(flags);

	mutex_lock(&tmo_last_mutex);
	memcpy(tmo_delta, delta, sizeof(delta));
	tmo_last = scenarios[i].name;
	mutex_unlock(&tmo_last_mutex);
}

static int last_show(struct seq_file *m, void *v)
{
	int c;

	mutex_lock(&tmo_last_mutex);
	seq_printf(m, "scenario: %s\n", tmo_last);
	for (c = 0; c < MMIO_ORDERING_COUNTER_COUNT; c++)
		seq_printf(m, "%s: %lu\n", mmio_ordering_counter_names[c],
			   tmo_delta[c]);
	mutex_unlock(&tmo_last_mutex);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(last);

/* Run the scenario named by the write, optionally followed by a newline. */
static ssize_t run_write(struct file *file, const char __user *ubuf,
			 size_t count, loff_t *ppos)
{
	char buf[NAME_MAX_LEN + 1];
	int i;

	if (!count || count > NAME_MAX_LEN)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	/* An embedded NUL would let sysfs_streq() accept a longer write. */
	if (strlen(buf) != count)
		return -EINVAL;

	for (i = 0; i < ARRAY_SIZE(scenarios); i++) {
		if (sysfs_streq(buf, scenarios[i].name))
			break;
	}
	if (i == ARRAY_SIZE(scenarios))
		return -EINVAL;

	run_counted(i);
	return count;
}

static const struct file_operations run_fops = {
	.owner		= THIS_MODULE,
	.open		= run_open,
	.read		= seq_read,
	.write		= run_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

static int __init test_mmio_ordering_init(void)
{
	/* Ordinary memory standing in for a register window. */
	void *regs = kzalloc(NR_REGS * sizeof(u32), GFP_KERNEL);

	if (!regs)
		return -ENOMEM;
	tmo_regs = (void __force __iomem *)regs;

	tmo_dir = debugfs_create_dir(KBUILD_MODNAME, NULL);
	debugfs_create_file("run", 0600, tmo_dir, NULL, &run_fops);
	debugfs_create_file("last", 0400, tmo_dir, NULL, &last_fops);
	return 0;
}

static void __exit test_mmio_ordering_exit(void)
{
	debugfs_remove_recursive(tmo_dir);
	kfree((void __force *)tmo_regs);
}

module_init(test_mmio_ordering_init);
module_exit(test_mmio_ordering_exit);

MODULE_DESCRIPTION("Correct and buggy locked MMIO sequences for the MMIO ordering selftests");
MODULE_LICENSE("GPL");
