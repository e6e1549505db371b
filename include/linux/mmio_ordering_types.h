/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MMIO ordering: the types <linux/sched.h> and <asm-generic/mmiowb.h> need,
 * kept apart from <linux/mmio_ordering.h>, which includes the I/O and
 * per-CPU headers.
 */

#ifndef _LINUX_MMIO_ORDERING_TYPES_H
#define _LINUX_MMIO_ORDERING_TYPES_H

#include <linux/types.h>

enum mmio_ordering_class {
	MMIO_ORDERING_ORDERED = 1,
	MMIO_ORDERING_RELAXED = 2,
	MMIO_ORDERING_RAW = 3,
};

enum mmio_ordering_strategy {
	/* Unlock runs io_to_lock_wb() after class-1 stores (the default). */
	MMIO_ORDERING_AUTO,
	/* Unlock never adds a barrier; every MMIO store needs io_to_lock_wb(). */
	MMIO_ORDERING_EXPLICIT,
};

#ifdef CONFIG_DEBUG_MMIO_ORDERING

#define MMIO_ORDERING_STACK_DEPTH	24

/* A lock the checker tracks as held. */
struct mmio_ordering_held {
	const void *lock;
	unsigned int kind;		/* enum mmio_ordering_lock, + bit */
	unsigned long acquire_ip;
	union {
		unsigned int nr_stores;	/* a CPU level's pending stores kept */
		unsigned int ups;	/* a task's semaphore: up()s seen */
	};
	bool softirq;			/* a task's lock, taken by a softirq */
};

/* An MMIO store that needs a barrier before the lock's release. */
struct mmio_ordering_store {
	const char *accessor;
	const volatile void __iomem *addr;
	enum mmio_ordering_class class;
	bool wc;			/* to a write-combining mapping (x86) */
	unsigned int nr_entries;
	unsigned int level;		/* of a task's store: its lock's */
	unsigned long entries[MMIO_ORDERING_STACK_DEPTH];
};

/* Sleeping locks tracked per task; deeper ones are counted only. */
#define MMIO_ORDERING_TASK_HELD		8
/* Pending stores kept per task, for all its levels. */
#define MMIO_ORDERING_TASK_STORES	8

/*
 * The sleeping locks a task holds, and the first store to each page made
 * while each was the innermost: per task, as the task may sleep and migrate
 * before the release.
 */
struct mmio_ordering_task {
	unsigned int depth;
	unsigned int nr_pending;	/* stores kept */
	struct mmio_ordering_held held[MMIO_ORDERING_TASK_HELD];
	struct mmio_ordering_store store[MMIO_ORDERING_TASK_STORES];
};

/* A new task holds no lock: fork copies the parent's state. */
#define mmio_ordering_init_task(p) \
	((p)->mmio_ordering = (struct mmio_ordering_task){ })
#else
#define mmio_ordering_init_task(p)	((void)(p))
#endif

#endif /* _LINUX_MMIO_ORDERING_TYPES_H */
