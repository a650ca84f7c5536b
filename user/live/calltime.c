// SPDX-License-Identifier: GPL-2.0
/*
 * A kernel function's body time (calltime.h). The gap from fentry's last
 * clock read to fexit's first holds the body and the trampoline's way out
 * of one program and into the other; the second part is measured on
 * bpf_fentry_test1(), whose body is one addition, and taken off. Medians,
 * so that an interrupt inside a few calls does not move the result.
 */
#include <errno.h>
#include <stdlib.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "auditskip.h"
#include "live/calltime.h"
#include "calltime.skel.h"
#include "live/getpid_timing.h"

#define REFERENCE_FUNC "bpf_fentry_test1"
#define MIN_CALLS 100

/* Whether the kernel's BTF has every function of `funcs` and the reference. */
static bool all_in_btf(const char *const *funcs, int nfuncs)
{
	struct btf *btf = btf__load_vmlinux_btf();
	bool found;

	if (!btf)
		return false;
	found = btf__find_by_name_kind(btf, REFERENCE_FUNC, BTF_KIND_FUNC) >= 0;
	for (int i = 0; found && i < nfuncs; i++)
		found = btf__find_by_name_kind(btf, funcs[i], BTF_KIND_FUNC) >= 0;
	btf__free(btf);
	return found;
}

/* BPF_PROG_TEST_RUN of a tracing program calls bpf_fentry_test1() once a run. */
static void call_reference(void *prog_fd)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);

	for (int i = 0; i < 2 * CALLTIME_SAMPLES; i++)
		if (bpf_prog_test_run_opts(*(int *)prog_fd, &opts))
			return;
}

static int median_gap(const char *func, void (*work)(void *), void *arg, double *ns)
{
	struct calltime_bpf *skel = calltime_bpf__open();
	double *v = NULL;
	__u32 n;
	int err, fd;

	if (!skel)
		return -errno;
	err = bpf_program__set_attach_target(skel->progs.call_enter, 0, func);
	if (!err)
		err = bpf_program__set_attach_target(skel->progs.call_exit, 0, func);
	if (!err)
		err = calltime_bpf__load(skel);
	if (!err)
		err = calltime_bpf__attach(skel);
	if (err)
		goto out;
	fd = bpf_program__fd(skel->progs.call_enter);
	if (work)
		work(arg);
	else
		call_reference(&fd);
	calltime_bpf__detach(skel);
	n = skel->bss->samples_taken;
	if (n > CALLTIME_SAMPLES)
		n = CALLTIME_SAMPLES;
	err = -ENODATA;
	if (n < MIN_CALLS)
		goto out;
	v = calloc(n, sizeof(*v));
	err = -ENOMEM;
	if (!v)
		goto out;
	for (__u32 i = 0; i < n; i++) {
		__u64 gap = 0;

		if (bpf_map__lookup_elem(skel->maps.gaps, &i, sizeof(i), &gap, sizeof(gap), 0)) {
			err = -errno;
			goto out;
		}
		v[i] = (double)gap;
	}
	sort_values(v, n);
	*ns = percentile(v, n, 50);
	err = 0;
out:
	free(v);
	calltime_bpf__destroy(skel);
	return err;
}

int calltime_bodies_ns(const char *const *funcs, int nfuncs, void (*work)(void *), void *arg,
		       double *ns)
{
	double gap, reference, sum = 0;
	int err;

	if (!all_in_btf(funcs, nfuncs))
		return -ENOENT;
	err = median_gap(REFERENCE_FUNC, NULL, NULL, &reference);
	for (int i = 0; !err && i < nfuncs; i++) {
		err = median_gap(funcs[i], work, arg, &gap);
		if (!err)
			sum += gap > reference ? gap - reference : 0;
	}
	if (err)
		return err;
	*ns = sum;
	return 0;
}
