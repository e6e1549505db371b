/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace shim for <linux/mmio_ordering.h>: per-CPU variables become
 * thread-local ones (one thread per CPU). On x86-64 a thread-local variable
 * of the executable is addressed %fs:offset, as the kernel addresses a
 * per-CPU one %gs:offset, so raw_cpu_add() and friends are still single
 * instructions on memory.
 */
#ifndef _BENCH_SHIM_ASM_PERCPU_H
#define _BENCH_SHIM_ASM_PERCPU_H

#define DECLARE_PER_CPU(type, name)	extern __thread type name
#define DEFINE_PER_CPU(type, name)	__thread type name

#define raw_cpu_ptr(ptr)		(ptr)
#define raw_cpu_read(var)		(var)
#define raw_cpu_write(var, val)		((var) = (val))

#if defined(__x86_64__)
/*
 * As arch/x86/include/asm/percpu.h: read-modify-write operations are one
 * instruction on memory, in asm (not volatile, no memory clobber), reads
 * are plain C (the kernel's named address space accesses).
 */
#define __bench_pcpu_op(op, var, val)					\
	asm(op "%z0 %1, %0" : "+m" (var) : "ri" ((__typeof__(var))(val)))
#define raw_cpu_add(var, val)		__bench_pcpu_op("add", var, val)
#define raw_cpu_sub(var, val)		__bench_pcpu_op("sub", var, val)
#else
#define raw_cpu_add(var, val)		((var) += (val))
#define raw_cpu_sub(var, val)		((var) -= (val))
#endif
#define raw_cpu_inc(var)		raw_cpu_add(var, 1)
#define raw_cpu_dec(var)		raw_cpu_sub(var, 1)
#define this_cpu_write(var, val)	raw_cpu_write(var, val)

#endif
