/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The time one kernel function's body takes, measured with an fentry and
 * fexit pair (bpf/calltime.bpf.c) less what the same pair adds around an
 * empty function.
 */
#ifndef __CALLTIME_H
#define __CALLTIME_H

/*
 * The sum over `funcs` of each body's median ns over the calls (any
 * task's) made while `work(arg)` runs, each less the median gap around
 * bpf_fentry_test1(), which only adds one (called by BPF_PROG_TEST_RUN of
 * a tracing program; measured once). 0, or -errno: -ENOENT when a function
 * is not in the kernel's BTF, -ENODATA when the work made fewer than 100
 * calls of one, the loader's error when fentry cannot attach here.
 */
int calltime_bodies_ns(const char *const *funcs, int nfuncs, void (*work)(void *), void *arg,
		       double *ns);

#endif /* __CALLTIME_H */
