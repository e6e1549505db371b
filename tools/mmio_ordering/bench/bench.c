// SPDX-License-Identifier: GPL-2.0
/*
 * Userspace build of the MMIO ordering benchmark (the perf bench and
 * tools/lib/lockdep precedent): the strategies and scenarios of the
 * benchmark module, module/mmio_ordering_bench.h, and the real fast paths
 * of asm-generic/mmiowb.h and include/linux/mmio_ordering.h, compiled with
 * the shims of this directory, timed natively on real SMP with one thread
 * per CPU.
 *
 * Usage: mmio-ordering-bench [-t threads] [-r reps] [-u target_us]
 *                            [-c ops]
 *   -c ops  callgrind mode: run every (strategy, kind, scenario) once for
 *           ops operations and dump callgrind statistics after each, for
 *           instruction counts (run under valgrind --tool=callgrind
 *           --collect-atstart=no).
 *
 * Output: the module's format, one "key=value" record a line.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <valgrind/callgrind.h>

#include "shim.h"

/* The slow paths of kernel/locking/mmio_ordering/core.c. */
int mmio_ordering_strategy = MMIO_ORDERING_AUTO;

DEFINE_PER_CPU(struct mmiowb_state, __mmiowb_state);
DEFINE_PER_CPU(unsigned long, mmio_ordering_auto_barriers);

noinline void mmio_ordering_unlock_wb(void)
{
	if (READ_ONCE(mmio_ordering_strategy) != MMIO_ORDERING_AUTO)
		return;
	arch_io_to_lock_wb();
	raw_cpu_inc(mmio_ordering_auto_barriers);
}

noinline void __mmio_ordering_clear_pending(void)
{
	__mmiowb_state()->mmiowb_pending = 0;
}

int mmio_ordering_set_strategy(enum mmio_ordering_strategy strategy)
{
	__atomic_store_n(&mmio_ordering_strategy, strategy, __ATOMIC_RELAXED);
	return 0;
}

enum mmio_ordering_strategy mmio_ordering_get_strategy(void)
{
	return __atomic_load_n(&mmio_ordering_strategy, __ATOMIC_RELAXED);
}

#include "mmio_ordering_bench.h"

#define MAX_REPS	101
#define MAX_THREADS	64

static int nthreads = 1, reps = 11, target_us = 2000;
static unsigned long ops[BS_NR];
static pthread_barrier_t sync_all;

struct thread {
	pthread_t tid;
	int cpu;
	struct bench_ctx *ctx;
	u32 *mmio;
	u64 ps[BV_NR][BK_NR][BS_NR][MAX_REPS];
	unsigned long barriers[BV_NR][BK_NR][BS_NR];
	unsigned long auto_barriers, expect;
};

static struct thread threads[MAX_THREADS];

/*
 * The thread's CPU time: the build machine is shared, and time spent
 * descheduled is not the strategy's cost. Calibration uses the same clock.
 */
static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (u64)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Only one thread may switch the (global) strategy: they run in lockstep. */
static void set_strategy(int v)
{
	mmio_ordering_set_strategy(v == BV_AUTO_EXPLICIT ? MMIO_ORDERING_EXPLICIT :
							   MMIO_ORDERING_AUTO);
}

/* All threads done with the last run, then switch, then all go. */
static void sync_strategy(struct thread *t, int v)
{
	pthread_barrier_wait(&sync_all);
	if (t == &threads[0])
		set_strategy(v);
	pthread_barrier_wait(&sync_all);
}

static u64 time_run(struct bench_ctx *c, int v, int k, int s, unsigned long n)
{
	u64 t0 = now_ns();

	bench_runs[v][k][0](c, s, n);
	return now_ns() - t0;
}

static void calibrate(struct bench_ctx *c)
{
	u64 target = (u64)target_us * 1000, t;
	unsigned long n;
	int s;

	for (s = 0; s < BS_NR; s++) {
		for (n = BENCH_PATTERN_LEN;; n *= 2) {
			t = time_run(c, BV_NONE, BK_ARCH, s, n);
			if (t >= target / 4)
				break;
		}
		n = (unsigned long)((double)n * target / (t ? t : 1));
		n = (n + BENCH_PATTERN_LEN - 1) / BENCH_PATTERN_LEN * BENCH_PATTERN_LEN;
		ops[s] = n ? n : BENCH_PATTERN_LEN;
	}
}

static struct bench_ctx *new_ctx(u32 **mmio)
{
	struct bench_ctx *c;

	/* Separate cache lines for each thread's locks and "device". */
	if (posix_memalign((void **)&c, 128, sizeof(*c)) ||
	    posix_memalign((void **)mmio, 128, 128)) {
		perror("posix_memalign");
		exit(1);
	}
	memset(c, 0, sizeof(*c));
	memset(*mmio, 0, 128);
	c->mmio = *mmio;
	bench_init_patterns(c);
	return c;
}

static void *thread_main(void *arg)
{
	struct thread *t = arg;
	struct bench_ctx *c = t->ctx;
	cpu_set_t set;
	int r, s, k, v;

	CPU_ZERO(&set);
	CPU_SET(t->cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		fprintf(stderr, "warning: cannot pin a thread to CPU %d\n", t->cpu);

	if (t == &threads[0])
		calibrate(c);
	pthread_barrier_wait(&sync_all);

	for (r = 0; r < reps; r++)
		for (s = 0; s < BS_NR; s++)
			for (k = 0; k < BK_NR; k++)
				for (v = 0; v < BENCH_NR_STRATEGIES; v++) {
					sync_strategy(t, v);
					t->ps[v][k][s][r] = time_run(c, v, k, s, ops[s]) * 1000 / ops[s];
				}

	pthread_barrier_wait(&sync_all);
	for (s = 0; s < BS_NR; s++)
		for (k = 0; k < BK_NR; k++)
			for (v = 0; v < BENCH_NR_STRATEGIES; v++) {
				sync_strategy(t, v);
				c->barriers = 0;
				bench_runs[v][k][1](c, s, BENCH_PATTERN_LEN);
				t->barriers[v][k][s] = c->barriers;
			}
	t->auto_barriers = mmio_ordering_auto_barriers;
	return NULL;
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static void report(void)
{
	static u64 all[MAX_THREADS * MAX_REPS];
	unsigned long long expect = 0, seen = 0;
	int s, k, v, i, n;

	printf("meta arch=%s checker=0 core_counts=%d default_strategy=auto reps=%d target_us=%d pattern=%d threads=%d\n",
#if defined(__x86_64__)
	       "x86_64",
#elif defined(__aarch64__)
	       "aarch64",
#elif defined(__riscv)
	       "riscv64",
#else
	       "unknown",
#endif
	       BENCH_CORE_COUNTS, reps, target_us, BENCH_PATTERN_LEN, nthreads);
	for (s = 0; s < BS_NR; s++)
		for (k = 0; k < BK_NR; k++)
			for (v = 0; v < BENCH_NR_STRATEGIES; v++) {
				for (i = 0, n = 0; i < nthreads; i++) {
					memcpy(all + n, threads[i].ps[v][k][s], reps * sizeof(u64));
					n += reps;
					if (threads[i].barriers[v][k][s] != threads[0].barriers[v][k][s]) {
						fprintf(stderr, "threads disagree on barriers\n");
						exit(1);
					}
				}
				qsort(all, n, sizeof(u64), cmp_u64);
				printf("row strategy=%s kind=%s scenario=%s ops=%lu reps=%d min_ps=%llu median_ps=%llu max_ps=%llu barriers=%lu count_ops=%d\n",
				       bench_strategy_names[v], bench_kind_names[k],
				       bench_scenario_names[s], ops[s], n,
				       (unsigned long long)all[0],
				       (unsigned long long)all[n / 2],
				       (unsigned long long)all[n - 1],
				       threads[0].barriers[v][k][s], BENCH_PATTERN_LEN);
				/* The slow path's own count (kind arch), see the module. */
				if (v == BV_AUTO && k == BK_ARCH && s != BS_BURST8)
					expect += (unsigned long long)threads[0].barriers[v][k][s] *
						  (ops[s] * reps + BENCH_PATTERN_LEN) /
						  BENCH_PATTERN_LEN;
			}
	for (i = 0; i < nthreads; i++)
		seen += threads[i].auto_barriers;
	printf("expect auto_barriers=%llu\n", expect * nthreads);
	printf("stats auto_barriers=%llu\n", seen);
	printf("end\n");
}

/* Callgrind mode: instructions of each (strategy, kind, scenario). */
static void callgrind(unsigned long n)
{
	struct bench_ctx *c;
	char name[96];
	u32 *mmio;
	int s, k, v;

	c = new_ctx(&mmio);
	for (s = 0; s < BS_NR; s++)
		for (k = 0; k < BK_NR; k++)
			for (v = 0; v < BENCH_NR_STRATEGIES; v++) {
				set_strategy(v);
				snprintf(name, sizeof(name), "instr strategy=%s kind=%s scenario=%s ops=%lu",
					 bench_strategy_names[v], bench_kind_names[k],
					 bench_scenario_names[s], n);
				CALLGRIND_ZERO_STATS;
				CALLGRIND_TOGGLE_COLLECT;
				bench_runs[v][k][0](c, s, n);
				CALLGRIND_TOGGLE_COLLECT;
				CALLGRIND_DUMP_STATS_AT(name);
			}
	if (!RUNNING_ON_VALGRIND)
		fprintf(stderr, "callgrind mode outside valgrind: nothing measured\n");
}

int main(int argc, char **argv)
{
	unsigned long cg_ops = 0;
	int opt, i, ncpu;

	while ((opt = getopt(argc, argv, "t:r:u:c:")) != -1) {
		switch (opt) {
		case 't':
			nthreads = atoi(optarg);
			break;
		case 'r':
			reps = atoi(optarg);
			break;
		case 'u':
			target_us = atoi(optarg);
			break;
		case 'c':
			cg_ops = strtoul(optarg, NULL, 0);
			break;
		default:
			fprintf(stderr, "usage: %s [-t threads] [-r reps] [-u target_us] [-c ops]\n",
				argv[0]);
			return 2;
		}
	}
	if (cg_ops) {
		callgrind(cg_ops);
		return 0;
	}
	ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	if (nthreads < 1 || nthreads > MAX_THREADS || reps < 1 || reps > MAX_REPS ||
	    target_us < 1) {
		fprintf(stderr, "bad arguments\n");
		return 2;
	}
	pthread_barrier_init(&sync_all, NULL, nthreads);
	for (i = 0; i < nthreads; i++) {
		threads[i].cpu = i % ncpu;
		threads[i].ctx = new_ctx(&threads[i].mmio);
		errno = pthread_create(&threads[i].tid, NULL, thread_main, &threads[i]);
		if (errno) {
			perror("pthread_create");
			return 1;
		}
	}
	for (i = 0; i < nthreads; i++)
		pthread_join(threads[i].tid, NULL);
	report();
	return 0;
}
